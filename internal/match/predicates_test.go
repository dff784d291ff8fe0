package match

import (
	"slices"
	"strings"
	"testing"
)

// Each rule of the pair decision is a predicate of two listings' profiles;
// these tables give each a pair it holds for and a pair it does not.

// pairProfiles reads two listings as the pair decision does.
func pairProfiles(a, b Item) (*profile, *profile) {
	opt := Options{descriptions: true}
	p, q := profileOf(a, opt), profileOf(b, opt)
	return &p, &q
}

type predicateCase struct {
	name string
	a, b Item
	want bool
}

// runPredicate checks pred on every case, both ways round.
func runPredicate(t *testing.T, tests []predicateCase, pred func(p, q *profile) bool) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, q := pairProfiles(tt.a, tt.b)
			if got := pred(p, q); got != tt.want {
				t.Errorf("(%q, %q) = %v, want %v", tt.a.Title, tt.b.Title, got, tt.want)
			}
			if got := pred(q, p); got != tt.want {
				t.Errorf("(%q, %q) = %v, want %v (not symmetric)", tt.b.Title, tt.a.Title, got, tt.want)
			}
		})
	}
}

func TestSharedLink(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"one link", Item{Link: "p1", Title: "a"}, Item{Link: "p1", Title: "b"}, true},
		{"two links", Item{Link: "p1", Title: "a"}, Item{Link: "p2", Title: "a"}, false},
		{"no links", Item{Title: "a"}, Item{Title: "a"}, false},
	}, sharedLink)
}

func TestBrandsDiffer(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"two makers", Item{Brand: "Sony", Title: "Sony WH-1000XM5 Headphones"}, Item{Brand: "Bose", Title: "Bose QuietComfort Headphones"}, true},
		{"one maker", Item{Brand: "Sony", Title: "Sony WH-1000XM5"}, Item{Brand: "SONY", Title: "WH-1000XM5 Headphones"}, false},
		{"a brand and its longer name", Item{Brand: "Tripp", Title: "Tripp U442-DOCK1"}, Item{Brand: "Tripp Lite", Title: "Tripp Lite U442-DOCK1"}, false},
		{"an alias", Item{Brand: "HP", Title: "HP 305XL Ink"}, Item{Brand: "Hewlett Packard", Title: "305XL Ink Cartridge"}, false},
		{"a distributor with the maker's long code", Item{Brand: "Ingram", Title: "Logitech 910-005284 MX Master"}, Item{Brand: "Logitech", Title: "Logitech MX Master 910-005284"}, false},
		{"a misspelt maker with a shared code", Item{Brand: "Logitch", Title: "Logitch G305 Mouse"}, Item{Brand: "Logitech", Title: "Logitech G305 Lightspeed Mouse"}, false},
		{"no brand", Item{Title: "WH-1000XM5"}, Item{Brand: "Sony", Title: "Sony WH-1000XM5"}, false},
	}, func(p, q *profile) bool { return brandsDiffer(p, q, codeEvidence(p, q)) })
}

func TestSpecsConflict(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"different storage", Item{Title: "a", Specs: map[string]float64{"storage_gb": 128}}, Item{Title: "b", Specs: map[string]float64{"storage_gb": 256}}, true},
		{"the same storage", Item{Title: "a", Specs: map[string]float64{"storage_gb": 128}}, Item{Title: "b", Specs: map[string]float64{"storage_gb": 128, "memory_gb": 8}}, false},
		{"different specs stated", Item{Title: "a", Specs: map[string]float64{"storage_gb": 128}}, Item{Title: "b", Specs: map[string]float64{"memory_gb": 8}}, false},
	}, func(p, q *profile) bool { return specsConflict(p.specs, q.specs) })
}

func TestStatedColoursDiffer(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"black and white", Item{Colour: "Black", Title: "a"}, Item{Colour: "White", Title: "b"}, true},
		{"black twice", Item{Colour: "Black", Title: "a"}, Item{Colour: "black", Title: "b"}, false},
		{"one colour stated", Item{Colour: "Black", Title: "a"}, Item{Title: "b"}, false},
	}, statedColoursDiffer)
}

func TestEditionsDiffer(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"a bundle against the product", Item{Brand: "Logitech", Title: "Logitech Signature M650 Wireless Mouse Bundle"}, Item{Brand: "Logitech", Title: "Logitech Signature M650 Wireless Mouse"}, true},
		{"two bundles", Item{Brand: "Logitech", Title: "Logitech M650 Mouse Bundle"}, Item{Brand: "Logitech", Title: "Logitech Signature M650 Bundle"}, false},
		{"a part number outranks the maker's bundle words", Item{Brand: "Microsoft", MPN: "RRS-00010", Title: "Xbox Series S Game Pass Bundle"}, Item{Brand: "Microsoft", MPN: "RRS-00010", Title: "Xbox Series S"}, false},
		{"a lens kit against the body", Item{Brand: "Sony", Title: "Sony ZV-E10 Mirrorless Vlog Camera Body, Black", Category: "Cameras"}, Item{Brand: "Sony", Title: "Sony ZV-E10 Mirrorless Vlog Camera with 16-50mm Power Zoom Lens, Black", Category: "Cameras"}, true},
	}, func(p, q *profile) bool { return editionsDiffer(p, q, codeEvidence(p, q)) })
}

func TestTypesDiffer(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"a case and a phone", Item{Category: "Phones", Accessory: true, Title: "Case for iPhone 15"}, Item{Category: "Phones", Title: "Apple iPhone 15"}, true},
		{"two phones", Item{Category: "Phones", Title: "Apple iPhone 15"}, Item{Category: "Phones", Title: "iPhone 15 128GB"}, false},
		{"an accessory of another category", Item{Category: "Audio", Accessory: true, Title: "Ear tips"}, Item{Category: "Phones", Title: "Apple iPhone 15"}, false},
		{"no category", Item{Accessory: true, Title: "Case"}, Item{Title: "Apple iPhone 15"}, false},
	}, typesDiffer)
}

func TestVariantsDiffer(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"Pro and Pro Max", Item{Title: "Apple iPhone 15 Pro 256GB"}, Item{Title: "Apple iPhone 15 Pro Max 256GB"}, true},
		{"Pro and the plain model", Item{Title: "Apple iPhone 15 Pro"}, Item{Title: "Apple iPhone 15"}, true},
		{"Pro twice", Item{Title: "Apple iPhone 15 Pro 256GB"}, Item{Title: "iPhone 15 Pro (256 GB) - Black"}, false},
		{"Ultra HD is no variant", Item{Title: "Samsung 55\" Ultra HD TV"}, Item{Title: "Samsung 55\" TV"}, false},
		{"Neo QLED is a kind of screen", Item{Title: "Zentor QN90D Neo QLED 65 inch"}, Item{Title: "Zentor QN90D QLED 65 inch"}, false},
		{"Play after a model's name", Item{Title: "Zentor Vanta G6 Play 32GB"}, Item{Title: "Zentor Vanta G6 32GB"}, true},
		{"plug and play is no variant", Item{Title: "Zentor Q20 webcam plug and play"}, Item{Title: "Zentor Q20 webcam"}, false},
		{"a power bank is no variant", Item{Title: "Zentor 737 Power Bank 24000mAh"}, Item{Title: "Zentor 737 24000mAh portable charger"}, false},
		{"compact after a part number", Item{Title: "Zentor R272WM compact microwave"}, Item{Title: "Zentor R272WM solo microwave"}, false},
		{"turbo after a clock speed", Item{Title: "Zentor X9500 3.5GHz 3.8 turbo"}, Item{Title: "Zentor X9500 3.5GHz"}, false},
		{"after a model's name in one title, elsewhere in the other", Item{Title: "Zentor ClipLine 950 000 premier image pack"},
			Item{Title: "Zentor ClipLine 950000 premier image pack"}, false},
	}, variantsDiffer)
}

func TestSlotsConflict(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"Gen 2 and Gen 3", Item{Title: "Apple AirPods Pro Gen 2"}, Item{Title: "Apple AirPods Pro Gen 3"}, true},
		{"Flip 5 and Flip 6", Item{Title: "JBL Flip 5 Speaker"}, Item{Title: "JBL Flip 6 Speaker"}, true},
		{"one number twice", Item{Title: "JBL Flip 6 Speaker"}, Item{Title: "JBL Flip 6 Portable Speaker Black"}, false},
		{"a number one title leaves out", Item{Title: "JBL Flip 6 Speaker"}, Item{Title: "JBL Flip Speaker"}, false},
		{"two lengths", Item{Title: "Acme Tall Fridge 60cm"}, Item{Title: "Acme Tall Fridge 185cm"}, true},
	}, func(p, q *profile) bool { return slotsConflict(p.slots, q.slots, p.hasFit && q.hasFit, true) })
	// Under one model code, lengths are the product's dimensions.
	runPredicate(t, []predicateCase{
		{"width and height", Item{Title: "Acme FR600X Tall Fridge 60cm"}, Item{Title: "Acme FR600X Tall Fridge 185cm"}, false},
		{"1.85m and 185cm", Item{Title: "Acme FR600X Fridge 1.85m"}, Item{Title: "Acme FR600X Fridge 60cm"}, false},
		{"sizes still count", Item{Title: "Acme TV55X 55 inch TV"}, Item{Title: "Acme TV55X 65 inch TV"}, true},
		{"a washer dryer's wash and dry loads", Item{Title: "Acme WD7400X Series 6 7kg 4kg washer dryer"}, Item{Title: "Acme WD7400X washer dryer 7kg load"}, false},
		{"wash load and dry load", Item{Title: "Acme WD7400X 7kg wash 4kg dry"}, Item{Title: "Acme WD7400X 4kg dryer"}, false},
	}, func(p, q *profile) bool { return slotsConflict(p.slots, q.slots, p.hasFit && q.hasFit, false) })
	// Without a model code, loads that differ are different machines.
	runPredicate(t, []predicateCase{
		{"two loads", Item{Title: "Acme washing machine 7kg"}, Item{Title: "Acme washing machine 9kg"}, true},
	}, func(p, q *profile) bool { return slotsConflict(p.slots, q.slots, p.hasFit && q.hasFit, true) })
}

func TestFitsDiffer(t *testing.T) {
	m := &Matcher{}
	runPredicate(t, []predicateCase{
		{"iPad and iPod", Item{Accessory: true, Title: "Screen protector for iPad"}, Item{Accessory: true, Title: "Screen protector for iPod touch"}, true},
		{"one device", Item{Accessory: true, Title: "Case for Galaxy Tab S9"}, Item{Accessory: true, Title: "Slim case for Galaxy Tab S9 tablet"}, false},
		{"a device the other accessory's title lacks", Item{Accessory: true, Title: "Case for Galaxy S24"}, Item{Accessory: true, Title: "Case iPhone 13"}, true},
		{"a device the other accessory's title names", Item{Accessory: true, Title: "Case for Galaxy S24"}, Item{Accessory: true, Title: "Galaxy S24 Case"}, false},
		{"no device named", Item{Accessory: true, Title: "USB-C cable 1m"}, Item{Accessory: true, Title: "USB-C cable 2m"}, false},
	}, m.fitsDiffer)
}

func TestSharedModelName(t *testing.T) {
	runPredicate(t, []predicateCase{
		{"a letter code in pieces and whole", Item{Title: "Belkin ACC-TRW Adapter"}, Item{Title: "Belkin ACCTRW Adapter"}, true},
		{"a three-digit model number", Item{Title: "Sennheiser HD 599 Headphones"}, Item{Title: "Sennheiser HD 599 Open Back"}, true},
		{"a round hundred", Item{Title: "Devolo Powerline 600 Adapter"}, Item{Title: "Devolo Powerline 600 Kit"}, false},
		{"a four-digit model number", Item{Title: "Acme ZRB 4713 AW Einbau Kühlschrank"}, Item{Title: "Acme ZRB 4713 AW integrated fridge"}, true},
		{"a year", Item{Title: "Acme Office 2021 Home"}, Item{Title: "Acme Office 2021 Business"}, false},
		{"plain words", Item{Title: "Wireless Mouse Black"}, Item{Title: "Wireless Mouse Grey"}, false},
	}, func(p, q *profile) bool { return sharedLetterCode(p, q) || sharedModelNumber(p, q) })
}

func TestDescribedCode(t *testing.T) {
	tests := []predicateCase{
		{"the description names the other's code", Item{Title: "Sony Wireless Headphones", Description: "The Sony WH-1000XM5 in black."}, Item{Title: "Sony WH-1000XM5 Headphones"}, true},
		{"the description names another code", Item{Title: "Sony Wireless Headphones", Description: "The Sony WH-1000XM4 in black."}, Item{Title: "Sony WH-1000XM5 Headphones"}, false},
		{"no description", Item{Title: "Sony Wireless Headphones"}, Item{Title: "Sony WH-1000XM5 Headphones"}, false},
	}
	runPredicate(t, tests, func(p, q *profile) bool { return describedCode(p, q) || describedCode(q, p) })
}

func TestCodeEvidence(t *testing.T) {
	tests := []struct {
		name string
		a, b Item
		want string // the evidence flags that hold, as the trace lists them
	}{
		{"a shared part number", Item{MPN: "WH-1000XM5", Title: "Sony Headphones"}, Item{Title: "Sony WH1000XM5 Headphones"}, "part strong"},
		{"a code both titles give", Item{Title: "Sony WH-1000XM5 Headphones"}, Item{Title: "Sony WH1000XM5 Wireless"}, "strong"},
		{"codes of one shape that differ", Item{Title: "Brother TN2410 Toner"}, Item{Title: "Brother TN2420 Toner"}, "conflict"},
		{"part numbers that differ", Item{MPN: "ABC1234", Title: "Mouse"}, Item{MPN: "XYZ9876", Title: "Mouse"}, "conflict"},
		{"a model-line code", Item{Title: "ASUS Zenbook14 OLED Laptop"}, Item{Title: "ASUS Zenbook14 Laptop 16GB"}, "line"},
		{"colour letters against a stated colour", Item{Title: "Sony SRSXB100BLK Speaker"}, Item{Title: "Sony SRSXB100 Speaker", Colour: "Blue"}, "colour unrelated"},
		{"nothing shared", Item{Title: "Wireless Mouse"}, Item{Title: "Wired Keyboard"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, q := pairProfiles(tt.a, tt.b)
			for _, ev := range []codeEv{codeEvidence(p, q), codeEvidence(q, p)} {
				if got := evidenceFlags(ev); got != tt.want {
					t.Errorf("codeEvidence(%q, %q) = %q, want %q", tt.a.Title, tt.b.Title, got, tt.want)
				}
			}
		})
	}
}

// evidenceFlags names the flags of ev that hold, sorted.
func evidenceFlags(ev codeEv) string {
	var tr trace
	tr.evidence(ev, &profile{}, &profile{})
	var out []string
	for _, s := range tr.steps[0].Saw {
		out = append(out, strings.TrimPrefix(s, "found:"))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

func TestExplainTrace(t *testing.T) {
	tests := []struct {
		name     string
		a, b     Item
		wantLast string // the deciding step
	}{
		{"a barcode", Item{GTIN: "05012345678900", Title: "a"}, Item{GTIN: "05012345678900", Title: "b"}, "gtin: merge (a:05012345678900 b:05012345678900)"},
		{"two barcodes", Item{GTIN: "05012345678900", Title: "a"}, Item{GTIN: "05012345678917", Title: "a"}, "barcode: split (a:05012345678900 b:05012345678917)"},
		{"two makers", Item{Brand: "Sony", Title: "Sony Headphones"}, Item{Brand: "Bose", Title: "Bose Headphones"}, "brand: split (a:sony b:bose)"},
		{"different storage", Item{Title: "Apple iPhone 15", Specs: map[string]float64{"storage_gb": 128}}, Item{Title: "Apple iPhone 15", Specs: map[string]float64{"storage_gb": 256}}, "specs: split (a:storage_gb=128 b:storage_gb=256)"},
		{"Pro and Pro Max", Item{Title: "Apple iPhone 15 Pro"}, Item{Title: "Apple iPhone 15 Pro Max"}, "variant: split (a:pro b:max b:pro)"},
		{"two processor series", Item{Brand: "Chipco", Title: "Chipco FX 6300 Processor"}, Item{Brand: "Chipco", Title: "Chipco A4 6300 Processor"},
			"code-conflict: split (a:6300[strong,series=FX] b:6300[strong,series=A4])"},
	}
	m := &Matcher{opt: Options{descriptions: true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := m.Explain(tt.a, tt.b)
			if got := d.Trace[len(d.Trace)-1].String(); got != tt.wantLast {
				t.Errorf("last step = %q, want %q; trace:\n%s", got, tt.wantLast, d.Trace)
			}
		})
	}
}

// TestNamesModel checks which titles name a model and which only the kind
// of product.
func TestNamesModel(t *testing.T) {
	tests := []struct {
		it   Item
		want bool
	}{
		{Item{Brand: "Acme", Title: "Acme K 2330 kettle"}, true},                           // a code in pieces
		{Item{Brand: "Zentor", Title: "zentor p 30 128gb", Category: "Phones"}, true},      // a letter and a number after the brand
		{Item{Brand: "Zentor", Title: "zentor vela a 51 128gb", Category: "Phones"}, true}, // after the brand and its line's name
		{Item{Brand: "Acme", Title: "Acme washing machine 9kg a 10 white"}, false},         // an energy class
		{Item{Brand: "Acme", Title: "Acme frost free a 10 white"}, false},
		{Item{Brand: "Acme", Title: "Acme frost free fridge freezer"}, false},
		{Item{Brand: "Acme", Title: "Acme Pro 5 speaker"}, true},
		{Item{Brand: "Acme", Title: "acme 55in oled ultra hd tv 2016", Category: "TVs"}, false}, // a set's year after its kind
		{Item{Brand: "Acme", Title: "Acme TV 2017"}, false},
		{Item{Brand: "Acme", Title: "Acme Vela Lite 2017", Category: "Phones"}, true}, // a variant's year, after the line
	}
	for _, tt := range tests {
		p := profileOf(tt.it, Options{})
		if got := namesModel(&p); got != tt.want {
			t.Errorf("namesModel(%q) = %v, want %v", tt.it.Title, got, tt.want)
		}
	}
}

// TestFitClause checks which titles name a device the listing fits.
func TestFitClause(t *testing.T) {
	tests := []struct {
		title string
		fit   bool
	}{
		{"Slim case compatible with iPhone 15", true},
		{"Screen protector compatible iPhone 15", true},
		{"Zentor 27 inch G-Sync compatible gaming monitor", false}, // a standard it supports
		{"Zentor smart plug Alexa compatible", false},
	}
	for _, tt := range tests {
		p := profileOf(Item{Brand: "Zentor", Title: tt.title}, Options{})
		if p.hasFit != tt.fit {
			t.Errorf("profileOf(%q).hasFit = %v, want %v", tt.title, p.hasFit, tt.fit)
		}
	}
}

// TestSketchConfig checks that grouping's first, shorter reading of a
// listing gives the configuration its full reading does: the processor and
// graphics a title names, however it writes them.
func TestSketchConfig(t *testing.T) {
	for _, it := range []Item{
		{Brand: "Acme", Category: "Laptops", Title: "Acme Book 14 Core i7-1355U 16GB 512GB RTX 4050"},
		{Brand: "Acme", Category: "Laptops", Title: "Acme Book 14 Ryzen 7 7730U 16GB 512GB"},
		{Brand: "Acme", Category: "Desktops", Title: "Acme Tower Core Ultra 7 265K 32GB 1TB rtx4070"},
		{Brand: "Acme", Category: "Laptops", Title: "Acme Book 14 16GB 512GB"},
		{Brand: "Acme", Title: "acme xeon gold 6142 2.60ghz tray cpu 2 6 ghz"},
		{Brand: "Acme", Title: "acme render node gpu 4 32gb"},
		{Brand: "Acme", Category: "Phones", Title: "acme vela 8 128gb"},
	} {
		sketch := profileOf(it, Options{sketch: true})
		full := profileOf(it, Options{})
		if sketch.config != full.config {
			t.Errorf("%q: sketch config %v, full config %v", it.Title, sketch.config, full.config)
		}
	}
}
