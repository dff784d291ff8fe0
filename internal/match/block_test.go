package match

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGroupTitleEvidence(t *testing.T) {
	const (
		g1 = "05012345678900"
		g2 = "05012345678917"
		g3 = "05012345678924"
	)
	tests := []struct {
		name  string
		items []Item
		want  [][]int
	}{
		{
			name: "a listing without a barcode joins by the model number in its title",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "Sony", Title: "Sony WH-1000XM5 Wireless Headphones - Black"},
				{Retailer: "B", GTIN: g1, Brand: "Sony", Title: "SONY WH-1000XM5 Noise Cancelling Headphones, Black"},
				{Retailer: "C", Brand: "Sony", Title: "Sony WH1000XM5 Headphones Black"},
			},
			want: [][]int{{0, 1, 2}},
		},
		{
			name: "a listing without a barcode joins by title words",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "JBL", Title: "JBL Flip 6 Portable Bluetooth Speaker - Blue"},
				{Retailer: "B", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker, Blue"},
				{Retailer: "C", Brand: "JBL", Title: "JBL Flip 5 Portable Speaker, Blue"},
			},
			want: [][]int{{0, 1}, {2}},
		},
		{
			name: "not the other storage",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "Apple", Title: "Apple iPhone 15 128GB Black", Specs: map[string]float64{"storage_gb": 128}},
				{Retailer: "B", Brand: "Apple", Title: "Apple iPhone 15 256GB Black", Specs: map[string]float64{"storage_gb": 256}},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "not the Pro Max",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "Apple", Title: "Apple iPhone 15 Pro 256GB Natural Titanium"},
				{Retailer: "B", Brand: "Apple", Title: "Apple iPhone 15 Pro Max 256GB Natural Titanium"},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "a listing naming no colour matches two colours and joins neither",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "JBL", Title: "JBL Charge 5 Portable Speaker - Black"},
				{Retailer: "B", GTIN: g2, Brand: "JBL", Title: "JBL Charge 5 Portable Speaker - White"},
				{Retailer: "C", Brand: "JBL", Title: "JBL Charge 5 Portable Speaker"},
			},
			want: [][]int{{0}, {1}, {2}},
		},
		{
			name: "a listing naming its colour picks the right one",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "JBL", Title: "JBL Charge 5 Portable Speaker - Black"},
				{Retailer: "B", GTIN: g2, Brand: "JBL", Title: "JBL Charge 5 Portable Speaker - White"},
				{Retailer: "C", Brand: "JBL", Title: "JBL Charge 5 Portable Speaker, White"},
			},
			want: [][]int{{0}, {1, 2}},
		},
		{
			name: "never on titles within one retailer",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "JBL", Title: "JBL Flip 6 Portable Bluetooth Speaker - Blue"},
				{Retailer: "A", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker Blue"},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "a title leaving the graphics open does not join a product that states them",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "MSI", Title: "MSI Titan 18 HX 18\" Gaming Laptop - Intel Core i9, RTX 4090, 64GB RAM, 2TB SSD",
					Specs: map[string]float64{"memory_gb": 64, "storage_gb": 2000}},
				{Retailer: "B", Brand: "MSI", Title: "MSI Titan 18 HX 18in Gaming Laptop i9 64GB RAM 2TB SSD",
					Specs: map[string]float64{"memory_gb": 64, "storage_gb": 2000}},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "different part numbers keep equal titles apart",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "Ringke", MPN: "RK-OX0068", Title: "Ringke Onyx Case for Samsung Galaxy S24 Ultra - Navy"},
				{Retailer: "B", Brand: "Ringke", MPN: "FU0142RS", Title: "Ringke Onyx Case for Samsung Galaxy S24 Ultra, Navy"},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "a model code shared by two barcoded products is ambiguous",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "Sony", Title: "Sony KD-55X80L 55\" 4K TV Black"},
				{Retailer: "B", GTIN: g2, Brand: "Sony", Title: "Sony KD-55X80L 55\" 4K TV Black"},
				{Retailer: "C", Brand: "Sony", Title: "Sony KD55X80L Television"},
			},
			want: [][]int{{0}, {1}, {2}},
		},
		{
			name: "three barcodes, one model: the listing without one stays out",
			items: []Item{
				{Retailer: "A", GTIN: g1, Brand: "Sony", MPN: "KD55X80LU", Title: "Sony KD-55X80L"},
				{Retailer: "B", GTIN: g2, Brand: "Sony", MPN: "KD55X80LU", Title: "Sony KD-55X80L"},
				{Retailer: "C", GTIN: g3, Brand: "Sony", MPN: "KD55X80LU", Title: "Sony KD-55X80L"},
				{Retailer: "D", Brand: "Sony", MPN: "KD55X80LU", Title: "Sony KD-55X80L"},
			},
			want: [][]int{{0}, {1}, {2}, {3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Group(tt.items)); diff != "" {
				t.Errorf("Group mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGroupShopTitles groups titles as shops write them when a listing
// gives nothing else: phones' generations, memory left out, and one title
// that agrees with none of the others.
func TestGroupShopTitles(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  [][]int
	}{
		{
			// "X" is the generation, as "8" is: both titles name a model,
			// and the generations differ.
			name: "a generation in letters names a model",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela x 64gb silver", Specs: map[string]float64{"storage_gb": 64}},
				{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme vela x 64gb 5.8 single sim 4g unlocked sim free silver", Specs: map[string]float64{"storage_gb": 64}},
				{Retailer: "C", Brand: "Acme", Category: "Phones", Title: "acme vela 8 64gb silver", Specs: map[string]float64{"storage_gb": 64}},
			},
			want: [][]int{{0, 1}, {2}},
		},
		{
			// A phone's memory comes with its model and storage: a title
			// that leaves it out joins one that states it. A laptop's
			// title that leaves it out could be another configuration.
			name: "a phone's memory left out of one title",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela m60 pro 12gb ram 512gb", Specs: map[string]float64{"memory_gb": 12, "storage_gb": 512}},
				{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme vela m60 pro 512gb", Specs: map[string]float64{"storage_gb": 512}},
				{Retailer: "A", Brand: "Acme", Category: "Laptops", Title: "acme zenpad 14 16gb ram 512gb ssd", Specs: map[string]float64{"memory_gb": 16, "storage_gb": 512}},
				{Retailer: "B", Brand: "Acme", Category: "Laptops", Title: "acme zenpad 14 512gb ssd", Specs: map[string]float64{"storage_gb": 512}},
			},
			want: [][]int{{0, 1}, {2}, {3}},
		},
		{
			// A phone's listing without its storage is the one storage
			// the other shops sell, or, when they sell two, either; one
			// shop's storage is as likely another than its own.
			name: "a phone's storage left out of one title",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela 40 128gb dual sim", Specs: map[string]float64{"storage_gb": 128}},
				{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme vela 40 128gb 6.1 inch sim free", Specs: map[string]float64{"storage_gb": 128}},
				{Retailer: "C", Brand: "Acme", Category: "Phones", Title: "mob/acme vela 40"},
				{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme nova 20 128gb dual sim", Specs: map[string]float64{"storage_gb": 128}},
				{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme nova 20 256gb 6.1 inch sim free", Specs: map[string]float64{"storage_gb": 256}},
				{Retailer: "C", Brand: "Acme", Category: "Phones", Title: "mob/acme nova 20"},
				{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme orbit 30 128gb dual sim", Specs: map[string]float64{"storage_gb": 128}},
				{Retailer: "C", Brand: "Acme", Category: "Phones", Title: "mob/acme orbit 30"},
			},
			want: [][]int{{0, 1, 2}, {3}, {4}, {5}, {6}, {7}},
		},
		{
			name: "a short name written with a hyphen names a model",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Title: "Acme K-3 II DSLR Body (24.35MP) [UK Stock]", Category: "Cameras"},
				{Retailer: "B", Brand: "Acme", Title: "Brand New Acme K-3 II Camera Body - UK Stock", Category: "Cameras"},
			},
			want: [][]int{{0, 1}},
		},
		{
			// The longer title names no model, so it refuses every other
			// listing on title evidence; the four shops' identical titles
			// still join each other.
			name: "one listing that agrees with none leaves the others to join",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Title: "acme vistar z 40mm f/2 lens", Category: "Cameras"},
				{Retailer: "B", Brand: "Acme", Title: "acme vistar z 40mm f/2 lens", Category: "Cameras"},
				{Retailer: "C", Brand: "Acme", Title: "acme vistar 40mm f/2 lens engineered for performance", Category: "Cameras"},
				{Retailer: "D", Brand: "Acme", Title: "acme vistar z 40mm f/2 lens", Category: "Cameras"},
				{Retailer: "E", Brand: "Acme", Title: "acme vistar z 40mm f/2 lens", Category: "Cameras"},
			},
			want: [][]int{{0, 1, 3, 4}, {2}},
		},
		{
			// A number after a model's code is a descriptor of the model
			// (a style, a voltage), not the number of a line's model.
			name: "numbers after a model's code",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Title: "acme zx40lb1 50s style white home bar fridge"},
				{Retailer: "B", Brand: "Acme", Title: "acme fridges and freezers zx40lb1 220 240 v"},
				{Retailer: "C", Brand: "Acme", Title: "acme zx40lb1 55cm retro fridge white"},
			},
			want: [][]int{{0, 1, 2}},
		},
		{
			// A code written after a series' letters ("DSC-") or alone is
			// one code; a numeral after it in one title only is another
			// generation, however the shops pair up.
			name: "two generations of one code",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Category: "Cameras", Title: "acme vista dsc-zx100 iii"},
				{Retailer: "B", Brand: "Acme", Category: "Cameras", Title: "acme zx100 iii compact camera"},
				{Retailer: "A", Brand: "Acme", Category: "Cameras", Title: "acme vista dsc-zx100"},
				{Retailer: "B", Brand: "Acme", Category: "Cameras", Title: "acme zx100 compact camera 20.2mp"},
			},
			want: [][]int{{0, 1}, {2, 3}},
		},
		{
			// A brand, a name and a kind, written alike, name a product
			// without a model number; a brand and a kind name none.
			name: "short titles written alike",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Title: "acme studio webcam"},
				{Retailer: "B", Brand: "Acme", Title: "acme studio webcam"},
				{Retailer: "C", Brand: "Acme", Title: "acme studio webcam"},
				{Retailer: "A", Brand: "Acme", Title: "acme webcam"},
				{Retailer: "B", Brand: "Acme", Title: "acme webcam"},
			},
			want: [][]int{{0, 1, 2}, {3}, {4}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Group(tt.items)); diff != "" {
				t.Errorf("Group mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGroupIgnoreColour(t *testing.T) {
	items := []Item{
		{Retailer: "A", GTIN: "05012345678900", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker - Black"},
		{Retailer: "B", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker, Blue"},
	}
	if diff := cmp.Diff([][]int{{0}, {1}}, GroupWith(items, Options{})); diff != "" {
		t.Errorf("GroupWith mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]int{{0, 1}}, GroupWith(items, Options{IgnoreColour: true})); diff != "" {
		t.Errorf("GroupWith(IgnoreColour) mismatch (-want +got):\n%s", diff)
	}
	// A colour's letter after a code's last hyphen ("-K" black, "-S"
	// silver) makes the codes colour variants of one model.
	items = []Item{
		{Retailer: "A", Brand: "Acme", Category: "Cameras", Title: "acme dc-zt90eb-k"},
		{Retailer: "B", Brand: "Acme", Category: "Cameras", Title: "acme dc-zt90eb-s travel zoom camera"},
	}
	if diff := cmp.Diff([][]int{{0}, {1}}, GroupWith(items, Options{})); diff != "" {
		t.Errorf("GroupWith mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]int{{0, 1}}, GroupWith(items, Options{IgnoreColour: true})); diff != "" {
		t.Errorf("GroupWith(IgnoreColour) of colour codes mismatch (-want +got):\n%s", diff)
	}
}

// TestIgnoreColourWords checks that with colours together a title of the
// catalog's categories gives no colour words, in any language, nor the
// word naming the colour with the one that ends it ("space grey"), and one
// outside them keeps them (an appliance's colour is often its model).
func TestIgnoreColourWords(t *testing.T) {
	tests := []struct {
		item Item
		want []string
	}{
		// A word before the colour that ends a title names the colour.
		{Item{Brand: "Acme", Category: "Phones", Title: "acme vela 14 256gb space grey"}, []string{"acme", "vela", "14", "256gb"}},
		{Item{Brand: "Acme", Category: "Cameras", Title: "acme snap mini 9 instant camera flamingo pink"}, []string{"acme", "snap", "mini", "9", "instant", "camera"}},
		{Item{Brand: "Acme", Category: "Phones", Title: "acme vela 14 compact black"}, []string{"acme", "vela", "14", "compact"}},
		{Item{Brand: "Acme", Category: "Phones", Title: "acme vela 14 256gb grau"}, []string{"acme", "vela", "14", "256gb"}},
		// What the product is, before its colour, is no colour's name.
		{Item{Brand: "Acme", Category: "Cameras", Title: "acme procam hd streaming webcam graphite"}, []string{"acme", "procam", "hd", "streaming", "webcam"}},
		{Item{Brand: "Acme", Category: "Cameras", Title: "acme procam hd streaming webcam off white"}, []string{"acme", "procam", "hd", "streaming", "webcam"}},
		{Item{Brand: "Acme", Title: "acme serie 2 dishwasher in white"}, []string{"acme", "serie", "2", "dishwasher", "white"}},
	}
	for _, tt := range tests {
		p := profileOf(tt.item, Options{IgnoreColour: true})
		if diff := cmp.Diff(tt.want, p.words); diff != "" {
			t.Errorf("profileOf(%q).words mismatch (-want +got):\n%s", tt.item.Title, diff)
		}
	}
}

// TestCodeKeysModelLine checks that a listing meets others in its title
// block through the model line and generation it names, besides its rarest
// words, which may all be its shop's own ("brilliant display blazing
// speed"), and not through a processor or a measure.
func TestCodeKeysModelLine(t *testing.T) {
	tests := []struct {
		title, category string
		want            []string
		not             []string
	}{
		{"acme vela k60 pro brilliant display blazing speed 256gb", "", []string{"K60"}, []string{"#gb=256"}},
		{"acme vela 16 5g smartphone 128gb", "", []string{"vela=16"}, []string{"#gb=128"}},
		{"acme book core i7 16gb", "", nil, []string{"cpu=i7", "#gb=16"}},
		// A camera line's name and number also as its initial and the
		// number, the code other shops write ("A6000").
		{"acme alpha 6000 16-50 kit", "Cameras", []string{"alpha=6000", "A6000"}, nil},
		{"acme vela 6000 mah power bank", "", nil, []string{"V6000"}},
		// The model's name after a series' letters and a hyphen, without
		// its generation or its market's letters, as other titles give it.
		{"acme dsc-zx100m7", "Cameras", []string{"ZX100"}, nil},
		{"acme dc-tz90eb-k", "Cameras", []string{"TZ90"}, nil},
		{"acme kd-55xf9005", "TVs", nil, []string{"55XF9005"}},
	}
	for _, tt := range tests {
		p := profileOf(Item{Brand: "Acme", Title: tt.title, Category: tt.category}, Options{})
		keys := codeKeys(&p)
		for _, k := range tt.want {
			if !slices.Contains(keys, codeKeyMark+k) {
				t.Errorf("codeKeys(%q) = %q, lacks %q", tt.title, keys, k)
			}
		}
		for _, k := range tt.not {
			if slices.Contains(keys, codeKeyMark+k) {
				t.Errorf("codeKeys(%q) = %q, has %q", tt.title, keys, k)
			}
		}
	}
}

// TestGroupLarge groups a corpus large enough to take the parallel paths:
// no group may join two products, two runs must agree, and most listings
// without a barcode must find their product.
func TestGroupLarge(t *testing.T) {
	items, truth := benchProducts(6000)
	first := Group(items)
	if diff := cmp.Diff(first, Group(items)); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
	groupOf := make([]int, len(items))
	for g, members := range first {
		for _, i := range members {
			groupOf[i] = g
			if truth[i] != truth[members[0]] {
				t.Fatalf("group joins %q and %q", items[members[0]].Title, items[i].Title)
			}
		}
	}
	joined, alone := 0, 0
	for i, it := range items {
		if it.GTIN != "" {
			continue
		}
		// A listing without a barcode whose product has one elsewhere.
		for j := range items {
			if truth[j] == truth[i] && items[j].GTIN != "" {
				if groupOf[j] == groupOf[i] {
					joined++
				} else {
					alone++
				}
				break
			}
		}
	}
	t.Logf("%d listings without a barcode joined their product, %d did not", joined, alone)
	if joined < 9*(joined+alone)/10 {
		t.Errorf("%d listings without a barcode joined their product, %d did not; want at least 90%%", joined, alone)
	}
}

// TestGroupCodeInPieces checks that a model code one title spells in pieces
// ("CNSL 3033", "RPD 10457 JKK") meets the code written whole, though the
// two titles share no rare word but the brand.
func TestGroupCodeInPieces(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  [][]int
	}{
		{
			name: "two pieces",
			items: []Item{
				{Retailer: "A", Brand: "Liebherr", Title: "Liebherr CNSL3033 freestanding fridge"},
				{Retailer: "B", Brand: "Liebherr", Title: "Liebherr CNSL 3033 comfort no frost 274 litre"},
			},
			want: [][]int{{0, 1}},
		},
		{
			name: "three pieces against the code with a suffix",
			items: []Item{
				{Retailer: "A", Brand: "Hotpoint", Title: "Hotpoint RPD10457JKK/RPD10457JKK"},
				{Retailer: "B", Brand: "Hotpoint", Title: "Hotpoint Ultima S Line RPD 10457 JKK washing machine black"},
			},
			want: [][]int{{0, 1}},
		},
		{
			name: "a code ending in letters and the code with its revision digit",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Title: "Acme ZQXV31K undercounter larder"},
				{Retailer: "B", Brand: "Acme", Title: "Acme ZQXV31K1 55cm wide freestanding under counter fridge shiny black"},
			},
			want: [][]int{{0, 1}},
		},
		{
			name: "a series' letters before a code that starts with a digit, filed under another brand",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Title: "Acme ZMT84M451 25 litre microwave"},
				{Retailer: "B", Brand: "Mikrowellengerat", Title: "Mikrowellengerat zmt 84m451"},
			},
			want: [][]int{{0, 1}},
		},
		{
			name: "a long code in four pieces",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Title: "Acme mikrowelle zmt75g451"},
				{Retailer: "B", Brand: "Acme", Title: "Acme zmt 75 g 451"},
				{Retailer: "C", Brand: "Acme", Title: "Acme zu 15 ra 60 a 92kwh 38db"},
				{Retailer: "D", Brand: "Acme", Title: "Acme zu15ra60 refrigerator"},
			},
			want: [][]int{{0, 1}, {2, 3}},
		},
		{
			name: "four pieces with a word among them spell no code",
			items: []Item{
				{Retailer: "A", Brand: "Acme", Title: "Acme zq 7700 kerne 6 tray"},
				{Retailer: "B", Brand: "Acme", Title: "Acme zq7700kerne6 tray"},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "other pieces stay apart",
			items: []Item{
				{Retailer: "A", Brand: "Liebherr", Title: "Liebherr CNSL3033 freestanding fridge"},
				{Retailer: "B", Brand: "Liebherr", Title: "Liebherr CNSL 3133 comfort no frost 274 litre"},
			},
			want: [][]int{{0}, {1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Group(tt.items)); diff != "" {
				t.Errorf("Group mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGroupBridgeAfterBrand checks that a listing filed under no brand, or
// under its series, joins through its long model code the group the
// brand's listings of that code form, though with them more shops list the
// code than one key joins listing by listing.
func TestGroupBridgeAfterBrand(t *testing.T) {
	var items []Item
	var want []int
	for i := range maxKeyGroups - 1 {
		items = append(items, Item{Retailer: fmt.Sprintf("m%d", i), Brand: "Acme", Title: "Acme WXG30462GB 7kg washer dryer white"})
		want = append(want, i)
	}
	items = append(items,
		Item{Retailer: "x", Title: "WXG30462GB washer dryer 7kg load 1500rpm spin in white"},
		Item{Retailer: "y", Brand: "Serie", Title: "Serie 6 WXG30462GB 7kg 1500 spin washer dryer"},
	)
	want = append(want, len(items)-2, len(items)-1)
	if diff := cmp.Diff([][]int{want}, Group(items)); diff != "" {
		t.Errorf("Group mismatch (-want +got):\n%s", diff)
	}
}

// TestPartitionsDoNotChainByBridges checks that listings filed under a
// series with another brand's long code still join that brand's groups,
// without the brands they bridge being read as one partition.
func TestPartitionsDoNotChainByBridges(t *testing.T) {
	items := []Item{
		{Retailer: "a", Brand: "Acme", Title: "Acme WXG30462GB 7kg washer dryer"},
		{Retailer: "b", Brand: "Serie", Title: "Serie 6 WXG30462GB 7kg washer dryer"},
		{Retailer: "c", Brand: "Serie", Title: "Serie 4 KGN34XL35G fridge freezer"},
		{Retailer: "d", Brand: "Bolt", Title: "Bolt KGN34XL35G fridge freezer"},
		{Retailer: "e", Brand: "Acme", Title: "Acme WAN28201GB 8kg washing machine"},
		{Retailer: "f", Brand: "Bolt", Title: "Bolt KGN36VL35G fridge freezer"},
	}
	g, err := newGroups(Items(items), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range g.partitions() {
		brands := map[string]bool{}
		for _, i := range part {
			brands[items[i].Brand] = true
		}
		if len(brands) > 1 {
			t.Errorf("one partition holds the listings of %d brands: %v", len(brands), part)
		}
	}
	if diff := cmp.Diff([][]int{{0, 1}, {2, 3}, {4}, {5}}, Group(items)); diff != "" {
		t.Errorf("Group mismatch (-want +got):\n%s", diff)
	}
}
