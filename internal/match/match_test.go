package match

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGroup(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  [][]int
	}{
		{
			name: "same GTIN across retailers",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900", Title: "Sony WH-1000XM5 Headphones"},
				{Retailer: "B", GTIN: "05012345678900", Title: "SONY WH1000XM5 Wireless"},
				{Retailer: "C", GTIN: "05012345678917", Title: "Sony WH-1000XM4"},
			},
			want: [][]int{{0, 1}, {2}},
		},
		{
			// The barcode group holds a listing of another brand; a title
			// match with the group weighs that listing too.
			name: "title evidence meets a barcode group spanning brands",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900", Brand: "Sony", Title: "Sony WH-1000XM5 Wireless Noise Cancelling Headphones", Category: "Headphones"},
				{Retailer: "B", GTIN: "05012345678900", Brand: "Generic", Title: "WH-1000XM5 Wireless Headphones", Category: "Headphones"},
				{Retailer: "C", Brand: "Sony", Title: "Sony WH-1000XM5 Wireless Noise Cancelling Headphones", Category: "Headphones"},
				{Retailer: "D", Title: "Wireless Headphones"},
			},
			want: [][]int{{0, 1, 2}, {3}},
		},
		{
			name: "brand and MPN without GTIN, spelled differently",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900", Brand: "Sony", MPN: "WH-1000XM5-UK"},
				{Retailer: "B", Brand: "Sony", MPN: "wh1000xm5"},
				{Retailer: "C", Brand: "Bose", MPN: "WH1000XM5"},
			},
			want: [][]int{{0, 1}, {2}},
		},
		{
			name: "MPN link vetoed by a different storage",
			items: []Item{
				{Retailer: "A", Brand: "Apple", MPN: "IPHONE15", Specs: map[string]float64{"storage_gb": 128}},
				{Retailer: "B", Brand: "Apple", MPN: "iPhone15", Specs: map[string]float64{"storage_gb": 256}},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "MPN link vetoed by colour",
			items: []Item{
				{Retailer: "A", Brand: "Apple", MPN: "MXCR3B/A", Colour: "Midnight"},
				{Retailer: "B", Brand: "Apple", MPN: "MXCR3", Title: "Apple MacBook Air 13 Starlight"},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "colour synonyms agree",
			items: []Item{
				{Retailer: "A", Brand: "Apple", MPN: "MXCR3B/A", Colour: "Space Gray"},
				{Retailer: "B", Brand: "Apple", MPN: "MXCR3", Title: "Apple MacBook Air 13 Space Grey"},
			},
			want: [][]int{{0, 1}},
		},
		{
			name: "GTIN groups ignore the veto: the barcode is the product",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900", Specs: map[string]float64{"memory_gb": 8}},
				{Retailer: "B", GTIN: "05012345678900", Specs: map[string]float64{"memory_gb": 16}},
			},
			want: [][]int{{0, 1}},
		},
		{
			name: "short or digitless part numbers are not identifiers",
			items: []Item{
				{Retailer: "A", Brand: "Anker", MPN: "A1"},
				{Retailer: "B", Brand: "Anker", MPN: "A-1"},
				{Retailer: "C", Brand: "Anker", MPN: "CABLE"},
				{Retailer: "D", Brand: "Anker", MPN: "cable"},
			},
			want: [][]int{{0}, {1}, {2}, {3}},
		},
		{
			name: "one retailer's two rows of one title stay apart (a shop lists a product once); another's title joins one",
			items: []Item{
				{Retailer: "A", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker - Blue"},
				{Retailer: "A", Brand: "JBL", Title: "JBL  Flip 6 portable speaker, blue"},
				{Retailer: "B", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker - Blue"},
				{Retailer: "B", Brand: "JBL", Title: "JBL Flip 5 Portable Speaker - Blue"},
			},
			want: [][]int{{0, 2}, {1}, {3}},
		},
		{
			name: "a shop's rows of one processor title are different items",
			items: []Item{
				{Retailer: "A", Brand: "HPE", Title: "HPE Intel Xeon X5670 2.93GHz 12MB L3 Processor"},
				{Retailer: "A", Brand: "HPE", Title: "HPE Intel Xeon X5670 2.93GHz 12MB L3 Processor"},
				{Retailer: "A", Brand: "HPE", Title: "HPE Intel Xeon X5670 2.93GHz 12MB L3 Processor"},
			},
			want: [][]int{{0}, {1}, {2}},
		},
		{
			name: "link keeps a stale offer with its product",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900"},
				{Retailer: "B", Link: "pabc"},
				{Retailer: "C", GTIN: "05012345678900", Link: "pabc"},
			},
			want: [][]int{{0, 1, 2}},
		},
		{
			name: "a veto holds against the merged group, not just the pair",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900", Brand: "Samsung", MPN: "SM-S921B", Specs: map[string]float64{"storage_gb": 128}},
				{Retailer: "B", GTIN: "05012345678900", Brand: "Samsung"},
				{Retailer: "C", Brand: "Samsung", MPN: "SMS921B", Specs: map[string]float64{"storage_gb": 256}},
			},
			want: [][]int{{0, 1}, {2}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Group(tt.items)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Group mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNormalizePart(t *testing.T) {
	tests := []struct{ in, want string }{
		{"WH-1000XM5", "WH1000XM5"},
		{"wh 1000 xm5", "WH1000XM5"},
		{"MXCR3B/A", "MXCR3"},
		{"SM-S921B/DS", "SMS921B"}, // the dual-SIM market's letters
		{"KD-55X80L-UK", "KD55X80L"},
		{"90NR0GI1-M00420", "90NR0GI1M00420"},
		{"A/B", "AB"},
		{"MXCR3LL/A", "MXCR3"},
		{"ABC/A", "ABCA"}, // too short to carry a region suffix
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizePart(tt.in); got != tt.want {
			t.Errorf("NormalizePart(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTitleColour(t *testing.T) {
	tests := []struct{ title, want string }{
		{"Apple iPhone 15 128GB Black", "black"},
		{"MacBook Air 13 M3 (2024) Space Grey", "grey"},
		{"Galaxy S24 - Cobalt Violet", "purple"},
		{"Nintendo Switch OLED White and Red Joy-Con", ""},
		{"Logitech MX Master 3S", ""},
		{"Acme MW20 Mikrowelle 20l schwarz", "black"},
		{"Acme MW20 Mikrowelle 20l Weiß", "white"},
		{"Acme MW20 micro-ondes gris", "grey"},
		{"Acme MW20 800W silber", "silver"},
		{"Acme MW20 Rot", "red"},
		{"Acme MW20 grau / blau", ""},
		{`"Acme MW20 Digital Camera Black"@en-US`, "black"},
	}
	for _, tt := range tests {
		if got := titleColour(tt.title); got != tt.want {
			t.Errorf("titleColour(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
}

// benchItems makes n listings shaped like the retailer feeds: products of
// 40 brands in 19 categories, each listed by one to seven retailers with
// their own title styles; configurations and colour variants that share a
// model line; a third of the listings without a barcode and half without a
// part number.
func benchItems(n int) []Item {
	items, _ := benchProducts(n)
	return items
}

// benchProducts is benchItems with the true product of each listing.
func benchProducts(n int) ([]Item, []int) {
	brands := make([]string, 40)
	for i := range brands {
		brands[i] = fmt.Sprintf("Brand%c%c", 'A'+i%26, 'a'+i/26)
	}
	cats := []string{"Laptops", "Desktops", "Tablets", "Phones", "TVs", "Monitors", "Headphones", "Speakers", "Cameras",
		"Keyboards", "Mice", "Printers", "Networking", "Storage", "Gaming", "Wearables", "Drones", "Audio", "Cables & Chargers"}
	colours := []string{"Black", "White", "Silver", "Blue", "Space Grey"}
	styles := []func(brand, line, model, spec, colour string) string{
		func(b, l, m, s, c string) string { return fmt.Sprintf("%s %s %s %s - %s", b, l, m, s, c) },
		func(b, l, m, s, c string) string { return fmt.Sprintf("%s %s (%s, %s)", strings.ToUpper(b), l, s, c) },
		func(b, l, m, s, c string) string { return fmt.Sprintf("%s %s | %s | %s", b, l, s, c) },
		func(b, l, m, s, c string) string { return fmt.Sprintf("%s %s %s, %s, Free Delivery", b, l, s, c) },
		func(b, l, m, s, c string) string { return fmt.Sprintf("%s %s %s %s", b, m, l, s) },
		func(b, l, m, s, c string) string {
			return fmt.Sprintf("%s %s – Great Value – %s – %s", b, l, s, c)
		},
		func(b, l, m, s, c string) string { return fmt.Sprintf("%s %s %s %s", b, l, s, c) },
	}
	items := make([]Item, 0, n)
	var truth []int
	for p := 0; len(items) < n; p++ {
		brand := brands[p%len(brands)]
		cat := cats[(p/7)%len(cats)]
		line := fmt.Sprintf("Series %d Pro", p/40%97)
		model := fmt.Sprintf("%c%c-%04d%c", 'A'+p%23, 'K'+p%11, p%9973, 'A'+p%5)
		spec := fmt.Sprintf("%dGB RAM %dGB", 4<<(p%4), 128<<(p%3))
		colour := colours[p%len(colours)]
		gtin := fmt.Sprintf("%014d", 5000000000000+p)
		offers := 1 + p%7
		for r := 0; r < offers && len(items) < n; r++ {
			it := Item{
				Retailer: fmt.Sprint("R", r),
				GTIN:     gtin,
				Brand:    brand,
				Colour:   colour,
				Category: cat,
				Title:    styles[r](brand, line, model, spec, colour),
				Specs:    map[string]float64{"memory_gb": float64(int(4) << (p % 4)), "storage_gb": float64(int(128) << (p % 3))},
			}
			if (p+r)%3 == 0 {
				it.GTIN = ""
			}
			if (p+r)%2 == 0 {
				it.MPN = model
			}
			items = append(items, it)
			truth = append(truth, p)
		}
	}
	return items, truth
}

func BenchmarkGroup(b *testing.B) {
	for _, n := range []int{100_000, 650_000} {
		items := benchItems(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Group(items)
			}
		})
	}
}

func TestGroupBarcodes(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  [][]int
	}{
		{
			name: "identical titles at one retailer with different barcodes stay apart",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900", Brand: "HP", Title: "HP EliteBook 840 G10 14\" Laptop i7 32GB 1TB"},
				{Retailer: "A", GTIN: "05012345678917", Brand: "HP", Title: "HP EliteBook 840 G10 14\" Laptop i7 32GB 1TB"},
			},
			want: [][]int{{0}, {1}},
		},
		{
			name: "a part number shared by two barcoded products links neither",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900", Brand: "Sonos", MPN: "003G1UK1WH", Title: "Sonos Arc Ultra"},
				{Retailer: "B", GTIN: "05012345678917", Brand: "Sonos", MPN: "003G1UK1WH", Title: "Sonos Era 300"},
				{Retailer: "C", Brand: "Sonos", MPN: "003G1UK1WH", Title: "Sonos 003G1UK1WH Speaker"},
			},
			want: [][]int{{0}, {1}, {2}},
		},
		{
			name: "a part number with one barcode links the listing without one",
			items: []Item{
				{Retailer: "A", GTIN: "05012345678900", Brand: "Sonos", MPN: "E30G1UK1BLK"},
				{Retailer: "B", GTIN: "05012345678900", Brand: "Sonos", MPN: "E30G1UK1BLK"},
				{Retailer: "C", Brand: "Sonos", MPN: "E30G1UK1BLK"},
			},
			want: [][]int{{0, 1, 2}},
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
