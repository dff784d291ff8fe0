package search

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

func TestAnalyze(t *testing.T) {
	tests := []struct {
		query, category, brand string
		want                   string
	}{
		// required words, ranking-only category words and bare numbers
		{"asus rog 4070 laptop 24GB RAM", "Laptops", "", "+asus +rog ~4070 ~laptop ~24gb memory_gb>=24"},
		{"asus rog 4070 laptop", "", "", "+asus +rog +laptop ~4070"},
		{"RTX 4070", "Laptops", "", "+rtx ~4070"},
		{"rtx4070", "", "", "+rtx4070"},
		{"4070", "", "", "~4070"},
		{"router", "Networking", "", "~router"},
		{"mesh wifi", "Networking", "", "~mesh ~wifi"},
		{"router", "", "", "+router"},
		{"laptops", "Laptops", "", "~laptop"},
		{"notebook", "Laptops", "", "~notebook"},
		{"smartphone", "Phones", "", "~smartphone"},
		{"mobile phone", "Phones", "", "~mobile ~phone"},
		{"televisions", "TVs", "", "~television"},
		{"tvs", "TVs", "", "~tv"},
		{"earbuds", "Headphones", "", "~earbud"},
		{"earbuds", "Speakers", "", "+earbud"},
		{"mice", "Mice", "", "~mouse"},
		{"mice", "", "", "+mouse"},
		// model numbers, hyphens, plurals, punctuation
		{"WH-1000XM5", "", "", "+wh-1000xm5"},
		{"wh1000xm5", "", "", "+wh1000xm5"},
		{"i7-13700H", "", "", "+i7-13700h"},
		{"noise-cancelling headphones", "", "", "+noise-cancelling +headphone"},
		{"Headphones", "", "", "+headphone"},
		{"batteries boxes glasses", "", "", "+battery +box +glass"},
		{"S24+", "", "", "+s24 +plus"},
		{"galaxy s10+128gb", "", "", "+galaxy +s10 +plus ~128gb"},
		{"galaxy s9 4GB+64GB", "", "", "+galaxy +s9 ~4gb ~64gb"},
		{"USB-C", "", "", "+usb-c"},
		{"Wi-Fi", "", "", "+wi-fi"},
		{"Men's watch", "", "", "+men +watch"},
		{"Pokémon", "", "", "+pokemon"},
		{"MacBook (Air) / M3!", "", "", "+macbook +air +m3"},
		// labelled specs become constraints
		{"16GB RAM", "Laptops", "", "~16gb memory_gb>=16"},
		{"16 GB RAM", "Laptops", "", "~16gb memory_gb>=16"},
		{"16GBRAM", "Laptops", "", "~16gb memory_gb>=16"},
		{"1TBSSD laptop", "", "", "+laptop ~1tb ~ssd storage_gb>=1000"},
		{"16GB memory", "Laptops", "", "~16gb memory_gb>=16"},
		{"16GB of RAM", "Laptops", "", "~16gb memory_gb>=16"},
		{"16GB DDR5 RAM", "Laptops", "", "~16gb memory_gb>=16"},
		{"1TB", "", "", "~1tb storage_gb>=1000"},
		{"1.5TB HDD", "", "", "~1.5tb ~hdd storage_gb>=1500"},
		{"2TB SSD", "", "", "~2tb ~ssd storage_gb>=2000"},
		{"512GB SSD", "", "", "~512gb ~ssd storage_gb>=512"},
		{"1TB storage", "", "", "~1tb storage_gb>=1000"},
		{"256GB of storage", "", "", "~256gb storage_gb>=256"},
		{"256GB storage", "", "", "~256gb storage_gb>=256"},
		{"144Hz", "", "", "~144hz refresh_hz>=144"},
		{"144 Hz", "", "", "~144hz refresh_hz>=144"},
		{"4K", "", "", "~4k resolution_p>=2160"},
		{"8K", "", "", "~8k resolution_p>=4320"},
		{"1440p", "", "", "~1440p resolution_p>=1440"},
		{"QHD", "", "", "~qhd resolution_p>=1440"},
		{"full hd", "", "", "~full resolution_p>=1080"},
		{`55"`, "", "", "~55 screen_in=55"},
		{"55”", "", "", "~55 screen_in=55"},
		{"55''", "", "", "~55 screen_in=55"},
		{"55 inch", "", "", "~55 screen_in=55"},
		{"55 inches", "", "", "~55 screen_in=55"},
		{"55-inch", "", "", "~55 screen_in=55"},
		{"15.6in", "", "", "~15.6 screen_in=15.6"},
		{`13.3" laptop`, "Laptops", "", "~13.3 ~laptop screen_in=13.3"},
		{"65W", "", "", "~65w power_w>=65"},
		{"65 watt", "", "", "~65w power_w>=65"},
		{"Wi-Fi 6E", "", "", "~wifi6e wifi_gen>=6.5"},
		{"WiFi 6", "", "", "~wifi6 wifi_gen>=6"},
		{"wifi7", "", "", "~wifi7 wifi_gen>=7"},
		{"Wi-Fi 6E router", "Networking", "", "~wifi6e ~router wifi_gen>=6.5"},
		{"1TB 16GB RAM 15.6 inch 144Hz", "Laptops", "", "~1tb ~16gb ~15.6 ~144hz memory_gb>=16 storage_gb>=1000 screen_in=15.6 refresh_hz>=144"},
		{"16GB RAM 32GB RAM", "", "", "~16gb ~32gb memory_gb>=16"}, // the first statement of a name wins
		// unlabelled specs stay ranking-only words
		{"16GB", "", "", "~16gb"},
		{"16 GB", "", "", "~16gb"},
		{"5000mAh 50MP", "", "", "~5000mah ~50mp"},
		{"macbook 16GB 512GB", "", "", "+macbook ~16gb ~512gb"},
		// use-case words, brand words, stop words
		{"cheap gaming laptop", "Laptops", "", "~cheap ~gaming ~laptop"},
		{"best budget phone", "", "", "+phone ~best ~budget"},
		{"apple macbook", "", "Apple", "+macbook ~apple"},
		{"apple macbook", "", "", "+apple +macbook"},
		{"western digital blue", "", "Western Digital", "+blue ~western ~digital"},
		{"tp-link deco", "", "TP-Link", "+deco ~tp-link"},
		{"case for the iphone 15", "Phones", "", "+case +iphone ~15"},
		{"under £500", "", "", "~500"},
		{"laptop with 16GB RAM", "", "", "+laptop ~16gb memory_gb>=16"},
		// degenerate input
		{"", "", "", ""},
		{`"""`, "", "", ""},
		{"- + . '", "", "", ""},
		{"the and for", "", "", ""},
		{"laptop laptop Laptops", "", "", "+laptop"},
	}
	for _, tt := range tests {
		t.Run(tt.query+"/"+tt.category+"/"+tt.brand, func(t *testing.T) {
			got := AnalyzeWithBrand(tt.query, tt.category, tt.brand).String()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("AnalyzeWithBrand(%q, %q, %q) mismatch (-want +got):\n%s", tt.query, tt.category, tt.brand, diff)
			}
		})
	}
}

func TestAnalyzeFields(t *testing.T) {
	got := Analyze("Sony WH-1000XM5 case 16GB RAM 4070", "Headphones")
	want := Analysis{
		Required:  []Term{{Text: "sony"}, {Text: "wh1000xm5", Parts: []string{"wh", "1000xm5"}}, {Text: "case"}},
		RankOnly:  []Term{{Text: "16gb"}, {Text: "4070"}},
		Derived:   Constraints{"memory_gb": {Gte: ptr(16)}},
		Phrase:    []string{"sony", "wh1000xm5", "case", "16gb", "4070"},
		Accessory: true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Analyze mismatch (-want +got):\n%s", diff)
	}
}

func TestTitleTerms(t *testing.T) {
	tests := []struct {
		title      string
		words      []string
		extraTerms []string // terms beyond words
	}{
		{"Sony WH-1000XM5 Wireless Noise-Cancelling Headphones",
			[]string{"sony", "wh1000xm5", "wireless", "noisecancelling", "headphone"},
			[]string{"wh", "1000xm5", "noise", "cancelling"}},
		{"ASUS ROG RTX4070 16GB", []string{"asus", "rog", "rtx4070", "16gb"}, []string{"rtx", "4070"}},
		{"ASUS ROG RTX 4070 16 GB", []string{"asus", "rog", "rtx", "4070", "16gb"}, []string{"rtx4070"}},
		{`Apple iPhone 15 Pro 6.1" 128GB`, []string{"apple", "iphone", "15", "pro", "6.1", "128gb"}, []string{"iphone15"}},
		{"Samsung Galaxy S24+ 256 GB", []string{"samsung", "galaxy", "s24", "256gb"}, []string{"plus"}},
		{"Laptop Sleeve 15.6-inch", []string{"laptop", "sleeve", "15.6"}, nil},
		{"Wi-Fi 6E Router", []string{"wifi", "6e", "router"}, []string{"wi", "fi", "wifi6e"}},
		{"Mice & Keyboards", []string{"mouse", "keyboard"}, nil},
		{"Apple iPad (10th generation)", []string{"apple", "ipad", "10th", "gen"}, []string{"ipad10th"}},
		{"SanDisk Ultra microSDXC 128GB", []string{"sandisk", "ultra", "microsdxc", "128gb"}, []string{"microsd", "microsdxc128gb"}},
		{"Kingston Canvas Select SDHC Card", []string{"kingston", "canva", "select", "sdhc", "card"}, []string{"sd"}},
		{"MicroSD Card Reader", []string{"microsd", "card", "reader"}, nil},
		{"", []string{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			words, terms := TitleTerms(tt.title)
			if diff := cmp.Diff(tt.words, words); diff != "" {
				t.Errorf("words mismatch (-want +got):\n%s", diff)
			}
			want := []string{}
			for _, w := range tt.words {
				if !contains(want, w) {
					want = append(want, w)
				}
			}
			want = append(want, tt.extraTerms...)
			if diff := cmp.Diff(sortedCopy(want), sortedCopy(terms)); diff != "" {
				t.Errorf("terms mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestQueryTermsMatchTitles checks that the forms a query may take find a
// title indexed by TitleTerms: every required term is a title term, or
// every part of it is.
func TestQueryTermsMatchTitles(t *testing.T) {
	tests := []struct {
		title   string
		queries []string
	}{
		{"Sony WH-1000XM5 Headphones", []string{"WH-1000XM5", "WH1000XM5", "wh 1000xm5", "wh1000xm5 headphone"}},
		{"Sony WH1000XM5 Headphones", []string{"WH-1000XM5", "WH1000XM5", "wh 1000xm5"}},
		{"Sony WH 1000XM5 Headphones", []string{"WH-1000XM5", "WH1000XM5", "wh 1000xm5"}},
		{"Nvidia RTX 4070 Ti", []string{"rtx4070", "RTX-4070", "rtx", "4070 ti"}},
		{"Nvidia RTX4070 Ti", []string{"rtx4070", "RTX-4070", "rtx", "RTX 4070"}},
		{"Bose Noise Cancelling Headphones", []string{"noise-cancelling", "noise cancelling headphones"}},
		{"Netgear WiFi 6 Router", []string{"wi-fi", "wifi", "routers"}},
		{"TP-Link Wi-Fi Router", []string{"wi-fi", "wifi", "tp-link", "tplink"}},
		{"Samsung Galaxy S24 Plus", []string{"s24+", "S24 plus"}},
		{"Logitech MX Master 3S Mouse", []string{"mice", "mouse", "mx master 3s"}},
		{"Pokémon Scarlet", []string{"pokemon", "POKÉMON"}},
	}
	for _, tt := range tests {
		_, terms := TitleTerms(tt.title)
		for _, q := range tt.queries {
			a := Analyze(q, "")
			for _, term := range a.Required {
				ok := contains(terms, term.Text)
				if !ok && len(term.Parts) > 0 {
					ok = true
					for _, p := range term.Parts {
						ok = ok && contains(terms, p)
					}
				}
				if !ok {
					t.Errorf("query %q: required %q does not match title %q (terms %v)", q, term, tt.title, terms)
				}
			}
		}
	}
}

func TestStem(t *testing.T) {
	tests := map[string]string{
		"headphones": "headphone", "laptops": "laptop", "batteries": "battery", "accessories": "accessory",
		"boxes": "box", "watches": "watch", "glasses": "glass", "cases": "case", "keys": "key", "mice": "mouse",
		"tvs": "tv", "series": "series", "wireless": "wireless", "plus": "plus", "lens": "lens", "lenses": "lens",
		"1000xm5s": "1000xm5s", "gps": "gps", "bus": "bus", "": "",
		"generation": "gen", "generations": "gen", "gen": "gen",
	}
	for in, want := range tests {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"asus rog 4070 laptop 24GB RAM", "WH-1000XM5", `55" 4K`, "Wi-Fi 6E", "16 GB of RAM", "'' \"\" ++ --",
		"1.2.3TB", "0GB RAM", "wifi", "ａｂｃ", "\xff\xfe", "9999999999999999999999TB"} {
		f.Add(s, "Laptops")
	}
	f.Fuzz(func(t *testing.T, query, category string) {
		a := Analyze(query, category)
		if a.String() != Analyze(query, category).String() {
			t.Fatalf("Analyze(%q) is not deterministic", query)
		}
		seen := map[string]bool{}
		for _, term := range append(append([]Term{}, a.Required...), a.RankOnly...) {
			if term.Text == "" || seen[term.Text] {
				t.Fatalf("Analyze(%q): empty or repeated term %q in %s", query, term.Text, a)
			}
			seen[term.Text] = true
			if !utf8.ValidString(term.Text) || strings.ContainsAny(term.Text, " \t\n") {
				t.Fatalf("Analyze(%q): malformed term %q", query, term.Text)
			}
		}
		if len(a.Phrase) != len(a.Required)+len(a.RankOnly) {
			t.Fatalf("Analyze(%q): phrase %v does not list the %d terms", query, a.Phrase, len(a.Required)+len(a.RankOnly))
		}
		if err := a.Derived.Validate(); err != nil {
			t.Fatalf("Analyze(%q) derived invalid constraints %s: %v", query, a.Derived, err)
		}
		TitleTerms(query)
	})
}

func contains(s []string, v string) bool { return slices.Contains(s, v) }

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func TestAnalyzeKeepsVariantWords(t *testing.T) {
	// "Max" and "Min" name model variants (iPhone 16 Pro Max, AirPods Max);
	// prices belong in max_price, so they are title words like any other.
	for _, q := range []string{"iphone 16 pro max", "airpods max"} {
		if got := Analyze(q, "").String(); !strings.Contains(got, "+max") {
			t.Errorf("Analyze(%q) = %s, want max as a required word", q, got)
		}
	}
}

// TestAnalyzeWithTable reads specs by the query forms of a table with an
// attribute the default table lacks; Derived.String orders names the
// default table does not know after the others.
func TestAnalyzeWithTable(t *testing.T) {
	defs := append(catalog.DefaultAttributes().Defs(), catalog.AttributeDef{
		Name: "battery_mah", ExampleOp: catalog.OpGte,
		Query: catalog.QueryForms{Op: catalog.OpGte, Units: []catalog.Unit{{Suffix: "mah", Factor: 1}},
			Labels: []string{"battery"}},
	}, catalog.AttributeDef{
		Name: "weight_kg", ExampleOp: catalog.OpLte,
		Query: catalog.QueryForms{Op: catalog.OpLte, Units: []catalog.Unit{{Suffix: "kg", Factor: 1, NeedsLabel: true}},
			Labels: []string{"weight"}},
	})
	attrs, err := catalog.NewAttributeTable(defs...)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query, want string
	}{
		{"phone 5000mAh battery 8GB RAM", "+phone ~5000mah ~8gb memory_gb>=8 battery_mah>=5000"},
		{"5000mah", "~5000mah battery_mah>=5000"},
		{"tablet 2kg", "+tablet ~2kg"},
		{"tablet 2kg weight", "+tablet ~2kg weight_kg<=2"},
		{"1TB SSD 4K", "~1tb ~ssd ~4k storage_gb>=1000 resolution_p>=2160"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := AnalyzeWith(attrs, tt.query, "", "").String(); got != tt.want {
				t.Errorf("AnalyzeWith(%q) = %q, want %q", tt.query, got, tt.want)
			}
		})
	}
	if got := Analyze("5000mah", "").String(); got != "~5000mah" {
		t.Errorf("the default table reads %q as %q, want only a ranking term", "5000mah", got)
	}
}
