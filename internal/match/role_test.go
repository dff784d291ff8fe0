package match

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompareProcessorRole covers processor numbers read by their role: a
// processor sold on its own is named by its number, every letter of it.
// TestCompareProcessorRole: suffixes, generations and glued forms of a
// processor number.
func TestCompareProcessorRole(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "an unlocked suffix is another processor",
			a:          Item{Brand: "Chipco", Title: "Chipco Core i7 8700K 3.7GHz Processor"},
			b:          Item{Brand: "Chipco", Title: "Chipco Core i7 8700 3.2GHz Processor"},
			wantReason: "code",
		},
		{
			name:       "a 3D cache suffix is another processor",
			a:          Item{Brand: "Chipco", Title: "Chipco Ryzen 7 7800X3D AM5 CPU"},
			b:          Item{Brand: "Chipco", Title: "Chipco Ryzen 7 7800X AM5 CPU"},
			wantReason: "code",
		},
		{
			name:       "another generation of one number",
			a:          Item{Brand: "Chipco", Title: "Chipco Xeon E5-2620 v3 2.4GHz"},
			b:          Item{Brand: "Chipco", Title: "Chipco Xeon E5-2620 v4 2.1GHz"},
			wantReason: "code",
		},
		{
			name:     "one number, written glued or apart, base or boost clock",
			a:        Item{Brand: "Chipco", Title: "Chipco Core i7-7700 Processor 8M Cache up to 4.20 GHz"},
			b:        Item{Brand: "Chipco", Title: "Chipco Core i7 7700 3.60GHz Socket 1151 Boxed CPU"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a family written after the number",
			a:        Item{Brand: "Chipco", Title: "Chipco 7 1800X Ryzen. Processor family Chipco Ryzen 7"},
			b:        Item{Brand: "Chipco", Title: "Chipco Ryzen 7 1800X 8 Core 16 Thread AM4 CPU Processor"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a family written after a number with another suffix",
			a:          Item{Brand: "Chipco", Title: "Chipco 7 1800 Ryzen. Processor family Chipco Ryzen 7"},
			b:          Item{Brand: "Chipco", Title: "Chipco Ryzen 7 1800X 8 Core 16 Thread AM4 CPU Processor"},
			wantReason: "code",
		},
		{
			name:       "a series written after the number",
			a:          Item{Brand: "Chipco", Title: "Chipco 6300 FX. Processor family Chipco FX"},
			b:          Item{Brand: "Chipco", Title: "Chipco A4 6300 3.7GHz 2 Cores Socket FM2"},
			wantReason: "code",
		},
		{
			name:     "a generation glued to the number",
			a:        Item{Brand: "Chipco", Title: "Chipco Xeon E5 2630v4 2.2 GHz 10 Core 25MB Cache"},
			b:        Item{Brand: "Chipco", Title: "Chipco Xeon E5-2630 v4 Processor Boxed"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "two generations, one glued",
			a:          Item{Brand: "Chipco", Title: "Chipco Xeon E5 2630v3 2.4 GHz 8 Core 20MB Cache"},
			b:          Item{Brand: "Chipco", Title: "Chipco Xeon E5-2630 v4 Processor Boxed"},
			wantReason: "code",
		},
		{
			name:     "a family glued to its series",
			a:        Item{Brand: "Chipco", Title: "Chipco xeone5 2650 2.2 ghz"},
			b:        Item{Brand: "Chipco", Title: "Chipco Xeon E5 2650 Processor 2.2GHz 30MB Cache Boxed"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a family glued to its tier, another suffix",
			a:          Item{Brand: "Chipco", Title: "Chipco corei5 6600 2.7 ghz"},
			b:          Item{Brand: "Chipco", Title: "Chipco Core i5 6600T 2.7 GHz 4 Cores 6MB Cache"},
			wantReason: "code",
		},
		{
			// A number without a generation names the first one, a
			// processor of its own.
			name:       "a number without a generation against one with",
			a:          Item{Brand: "Chipco", Title: "Chipco Xeon E5 4607 Processor 2.2 GHz 12 MB L3"},
			b:          Item{Brand: "Chipco", Title: "Chipco Xeon E5-4607 v2 Hexa Core 2.60 GHz Processor"},
			wantReason: "code",
		},
		{
			name:     "a generation in the box part number",
			a:        Item{Brand: "Chipco", Title: "Chipco Xeon E3 1220 3 GHz Skt 1151 8 MB Box Set BX80677E31220V6"},
			b:        Item{Brand: "Chipco", Title: "Chipco Xeon Processor E3-1220 v6 8M Cache 3.00 GHz"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another generation in the box part number",
			a:          Item{Brand: "Chipco", Title: "Chipco Xeon E3 1230 3.5 GHz Skt 1151 8 MB Box Set BX80677E31230V6"},
			b:          Item{Brand: "Chipco", Title: "Chipco Xeon Processor E3-1230 v5 8M Cache 3.40 GHz"},
			wantReason: "code",
		},
		{
			name:     "a generation written apart from the number",
			a:        Item{Brand: "Chipco", Title: "Chipco Xeon E3 1280 3.9 GHz Skt 1151 Kaby Lake Xeon Processor v6 8M Cache"},
			b:        Item{Brand: "Chipco", Title: "Chipco Xeon Processor E3-1280 v6 8M Cache 3.90 GHz"},
			wantSame: true, wantReason: "code",
		},
		{
			// "LGA2011 v3" is the socket's generation.
			name:     "a socket's generation",
			a:        Item{Brand: "Chipco", Title: "Chipco Core i7 6850K S2011 v3 3.60GHz 6 Core 15MB Cache CPU"},
			b:        Item{Brand: "Chipco", Title: "Chipco Core i7 6850K Processor 3.6 GHz Box 15 MB Smart Cache"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a generation left out does not join another number",
			a:          Item{Brand: "Chipco", Title: "Chipco Xeon E5 2690 2.6 GHz 14 Core 35MB Cache"},
			b:          Item{Brand: "Chipco", Title: "Chipco Xeon E5-2680 v4 Processor"},
			wantReason: "code",
		},
	})
}

// TestCompareProcessorSeries: a processor number read beside its family,
// series or socket, and in kits or under another brand.
func TestCompareProcessorSeries(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "a socket between the family and the number",
			a:        Item{Brand: "Chipco", Title: "Chipco Prozessor CPU Ryzen 7 Sockel AM4 1700 8 x 3.0 GHz 16 MB Box"},
			b:        Item{Brand: "Chipco", Title: "Chipco Ryzen 7 1700 65W 8 Core 3.7GHz 4MB CPU"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a socket between the family and another number",
			a:          Item{Brand: "Chipco", Title: "Chipco Prozessor CPU Ryzen 7 Sockel AM4 1700X 8 x 3.4 GHz 16 MB Box"},
			b:          Item{Brand: "Chipco", Title: "Chipco Ryzen 7 1700 8 Core 3.0GHz 16MB CPU"},
			wantReason: "code",
		},
		{
			name:       "one processor in kits for different machines",
			a:          Item{Brand: "Serverco", Title: "Serverco SV380 G7 Xeon E5640 2.66GHz Kit"},
			b:          Item{Brand: "Serverco", Title: "Serverco SV360 G7 Xeon E5640 2.66GHz Kit"},
			wantReason: "code",
		},
		{
			name:       "a processor number names no maker",
			a:          Item{Brand: "Chipco", Title: "Chipco Core i7-6700HQ Processor"},
			b:          Item{Brand: "Otherco", Title: "Otherco Core i7-6700HQ Processor"},
			wantReason: "brand",
		},
		{
			name:       "one number in two series",
			a:          Item{Brand: "Chipco", Title: "Chipco FX 6300 Black Edition 6 Core 3.5GHz Processor"},
			b:          Item{Brand: "Chipco", Title: "Chipco A4 6300 3.7GHz 2 Cores Socket FM2"},
			wantReason: "code",
		},
		{
			name:       "one number in two families",
			a:          Item{Brand: "Chipco", Title: "Chipco FX 8350 Black Edition 8 Core 4GHz AM3"},
			b:          Item{Brand: "Chipco", Title: "Chipco Opteron Quad 8350 2GHz 2MB L3 Processor"},
			wantReason: "code",
		},
		{
			name:     "a family written after the number",
			a:        Item{Brand: "Chipco", Title: "Chipco 8350 Opteron. Processor family Chipco Opteron"},
			b:        Item{Brand: "Chipco", Title: "Chipco Opteron Quad 8350 2GHz 2MB L3 Processor"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a series glued to its number or apart",
			a:        Item{Brand: "Chipco", Title: "Chipco FX-6300 3.5GHz AM3 CPU"},
			b:        Item{Brand: "Chipco", Title: "Chipco FX 6300 Black Edition 6 Core 3.5GHz Processor"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a series not read beside the number",
			a:        Item{Brand: "Chipco", Title: "Chipco Piledriver FX-6 Six Core 6300 Black Edition 3.50GHz Processor"},
			b:        Item{Brand: "Chipco", Title: "Chipco FX-6300 6-Core Black Edition 3.5GHz Processor"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "after the family and a tier number",
			a:        Item{Brand: "Chipco", Title: "Chipco Ryzen 5 2600X 6 Core CPU"},
			b:        Item{Brand: "Chipco", Title: "Chipco Ryzen 5 2600X Retail Processor 3.6GHz"},
			wantSame: true, wantReason: "code",
		},
	})
}

// TestProcessorCodes checks which titles make a processor number their own
// code: not a device's, nor the processor an accessory fits.
func TestProcessorCodes(t *testing.T) {
	tests := []struct {
		title string
		want  []string
	}{
		{"Chipco Core i5 7600K Processor", []string{"7600K"}},
		{"Chipco i5-7600K Quad Core", []string{"7600K"}},
		{"Chipco Pentium G4560 Dual Core", []string{"PENTIUM G4560"}},
		{"Chipco FX-6300 Black Edition", []string{"FX 6300"}},
		{"Chipco FX 6300 Black Edition", []string{"FX 6300"}},
		{"Chipco FX6 6300 Black Edition Six Core", []string{"FX 6300"}},
		{"Chipco Xeon DP L5420 Quad Core 2.5GHz", []string{"XEON L5420"}},
		{"Chipco A Series A4 6300 3.7GHz", []string{"A4 6300"}},
		{"Chipco A10-7850K APU", []string{"A10 7850K"}},
		{"Chipco Xeon E5 2690 v4 14 Core", []string{"E52690V4"}},
		{"Chipco Ryzen 7 Eight Core 1700X", []string{"1700X"}}, // "core" is a count
		{"Chipco 1800X Ryzen 7 Eight Core", []string{"RYZEN 1800X"}},
		{"Chipco Opteron Quad 8350 2GHz", []string{"OPTERON 8350"}},
		{"Chipco Ryzen 5 CPU 2600X 3.6GHz", []string{"RYZEN 2600X"}},
		{"Chipco Xeon Gold 6130 2.1GHz 16 Core", []string{"XEON 6130"}},
		{"Chipco Athlon II X3 455 3.3GHz triple core processor", []string{"ATHLON 455"}},
		{"Chipco Phenom X4 9650 2.3GHz", []string{"PHENOM 9650"}},
		{"Chipco Xeon W 2133 Hexa Core", []string{"XEON 2133"}},
		{"Chipco Pentium Dual Core G4600 3.6GHz", []string{"G4600"}},
		{"Chipco Core i5 Socket 1151 Cooler Bracket", nil},
		{"Chipco Notebook 15 with Core i5 7600K", nil},
		{"Chipco Desktop PC Core i5 7600K 16GB", nil},
		{"Chipco Y700 i7-6700HQ 12GB 1TB GTX960M 15.6", nil},
		{"Chipco G501 i7-6700HQ RTX 2060 Gaming", nil},
		{"Chipco Core i5 7600K Desktop Processor", []string{"7600K"}},
		{"Frostco Tower Cooler for Core i5 7600K", nil},
		{"Chipco Core i5 16GB", nil},
		{"Chipco Core i5 512GB", nil},
		{"Acme Galaxy S24 Ultra 512GB", nil},
		{"Acme Speed Booster Ultra 0.71x", nil},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			p := profileOf(Item{Brand: "Chipco", Title: tt.title}, Options{})
			var got []string
			for _, c := range p.codes {
				if c.cpu {
					got = append(got, strings.TrimSpace(c.series+" "+c.s))
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("processor codes of %q mismatch (-want +got):\n%s", tt.title, diff)
			}
		})
	}
}

// TestGroupTitlesWithoutModel checks that titles of category words alone
// join nothing on title evidence, within one retailer or across retailers,
// while titles that name a model still do, and so do longer titles that two
// shops write alike.
func TestGroupTitlesWithoutModel(t *testing.T) {
	// A title naming no brand takes its first word as a guessed one.
	items := []Item{
		{Retailer: "a", Brand: "Washing", BrandGuessed: true, Title: "washing machine"},
		{Retailer: "b", Brand: "Washing", BrandGuessed: true, Title: "washing machine"},
		{Retailer: "b", Brand: "Washing", BrandGuessed: true, Title: "Washing Machine"},
		{Retailer: "a", Brand: "Frost", BrandGuessed: true, Title: "frost free fridge freezer"},
		{Retailer: "c", Brand: "Frost", BrandGuessed: true, Title: "frost free fridge freezer"},
		{Retailer: "a", Brand: "Acme", Title: "Acme Serie 6 washing machine 8kg"},
		{Retailer: "b", Brand: "Acme", Title: "Acme Serie 6 washing machine 8kg"},
		{Retailer: "a", Brand: "Acme", Title: "Acme K 2330 freestanding freezer comfort"},
		{Retailer: "b", Brand: "Acme", Title: "Acme K 2330 freestanding freezer comfort"},
		{Retailer: "a", Brand: "Acme", Title: "Acme digital microwave 800w cream"},
		{Retailer: "b", Brand: "Acme", Title: "Acme Digital Microwave 800W Cream"},
		{Retailer: "c", Brand: "Acme", Title: "Acme digital microwave 800w black"},
		{Retailer: "a", Brand: "Acme", Category: "TVs", Title: "acme 40 inch full hd led tv"},
		{Retailer: "b", Brand: "Acme", Category: "TVs", Title: `acme 40" full hd led tv`},
	}
	want := [][]int{{0}, {1}, {2}, {3}, {4}, {5, 6}, {7, 8}, {9, 10}, {11}, {12, 13}}
	if diff := cmp.Diff(want, Group(items)); diff != "" {
		t.Errorf("groups mismatch (-want +got):\n%s", diff)
	}
}

// TestGroupRetailerOnce checks that listings of one retailer stay apart
// when a model code would join them (a shop lists a product once), while
// the same code joins listings of different retailers.
func TestGroupRetailerOnce(t *testing.T) {
	items := []Item{
		{Retailer: "a", Brand: "Serverco", Title: "Serverco Xeon E5506 2.13GHz Kit"},
		{Retailer: "a", Brand: "Serverco", Title: "Serverco Xeon E5506 2.13GHz Processor Kit 4MB"},
		{Retailer: "c", Brand: "Acme", Title: "Acme WM8000X 8kg Washing Machine"},
		{Retailer: "d", Brand: "Acme", Title: "Acme WM8000X Washing Machine White"},
	}
	want := [][]int{{0}, {1}, {2, 3}}
	if diff := cmp.Diff(want, Group(items)); diff != "" {
		t.Errorf("groups mismatch (-want +got):\n%s", diff)
	}
}

// TestCompareDimensionsUnderOneCode checks that one model code's listings
// giving different dimensions (a width, a height) are one product.
func TestCompareDimensionsUnderOneCode(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "width and height",
			a:        Item{Brand: "Acme", Title: "Acme FR600XBK 60cm Freestanding Larder Fridge Black"},
			b:        Item{Brand: "Acme", Title: "Acme FR600XBK 185cm Tall Freestanding Fridge Black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "microwave power and total power",
			a:        Item{Brand: "Acme", Title: "Acme MW32J7055CT Microwave Combi 900W 32 Litre Stainless Steel"},
			b:        Item{Brand: "Acme", Title: "Acme MW32J7055CT 32L 3200W Freestanding Microwave"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "without a code, watts still differ",
			a:          Item{Brand: "Acme", Title: "Acme Solo Digital Microwave 900W Black"},
			b:          Item{Brand: "Acme", Title: "Acme Solo Digital Microwave 800W Black"},
			wantReason: "model-line",
		},
		{
			name:       "without a code, lengths still differ",
			a:          Item{Brand: "Acme", Title: "Acme Freestanding Larder Fridge 60cm Black"},
			b:          Item{Brand: "Acme", Title: "Acme Freestanding Larder Fridge 55cm Black"},
			wantReason: "model-line",
		},
	})
}

// TestMeasureAfterNumber checks that a measure glued to its unit right
// after a number ("1 86m", a lost decimal point) is no measure, while a
// range in one word ("70-200mm") still is.
func TestMeasureAfterNumber(t *testing.T) {
	tests := []struct {
		title string
		want  []slot
	}{
		{"Acme FF500X 1 86m", nil},
		{"Acme FF500X 1.86m", []slot{{"#m", "1.86"}}},
		{"Acme 70-200mm Lens", []slot{{"#mm", "70"}, {"#mm", "200"}}},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			p := profileOf(Item{Brand: "Acme", Title: tt.title}, Options{})
			var got []slot
			for _, s := range p.slots {
				if s.key == "#m" || s.key == "#mm" {
					got = append(got, s)
				}
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(slot{})); diff != "" {
				t.Errorf("measures of %q mismatch (-want +got):\n%s", tt.title, diff)
			}
		})
	}
}

// TestGroupLongCodeAcrossBrands checks that a long model code joins
// listings a retailer files under another name (its series, or the code
// itself in front), while a short code does not join two brands.
func TestGroupLongCodeAcrossBrands(t *testing.T) {
	items := []Item{
		{Retailer: "a", Brand: "Acme", Title: "Acme KGN34XL35G Fridge Freezer"},
		{Retailer: "b", Brand: "Serie", Title: "Serie 4 KGN34XL35G 319 litre fridge freezer"},
		{Retailer: "c", Brand: "KGN34XL35G", Title: "KGN34XL35G fridge freezer white"},
		{Retailer: "a", Brand: "Acme", Title: "Acme X100 Speaker"},
		{Retailer: "b", Brand: "Zeta", Title: "Zeta X100 Speaker"},
	}
	want := [][]int{{0, 1, 2}, {3}, {4}}
	if diff := cmp.Diff(want, Group(items)); diff != "" {
		t.Errorf("groups mismatch (-want +got):\n%s", diff)
	}
}

// TestMergeAroundRefusals checks that listings met under one key that
// agree with every other join even when two of them refuse each other (one
// shop's two listings), while a listing that agrees with two listings that
// refuse each other (no colour against black and white) joins neither,
// unless its title is the same as the one's and not the other's.
func TestMergeAroundRefusals(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  [][]int
	}{
		{
			name: "one shop's two listings",
			items: []Item{
				{Retailer: "a", Brand: "Acme", Title: "Acme WM8000X 8kg Washing Machine"},
				{Retailer: "a", Brand: "Acme", Title: "Acme WM8000X Washing Machine 1400 spin"},
				{Retailer: "b", Brand: "Acme", Title: "Acme WM8000X Washing Machine White"},
				{Retailer: "c", Brand: "Acme", Title: "Acme WM8000X freestanding washing machine"},
				{Retailer: "d", Brand: "Acme", Title: "Acme WM8000X washer"},
			},
			want: [][]int{{0}, {1}, {2, 3, 4}},
		},
		{
			name: "no colour against two colours",
			items: []Item{
				{Retailer: "a", Brand: "Acme", Title: "Acme SP100 Speaker Black"},
				{Retailer: "b", Brand: "Acme", Title: "Acme SP100 Speaker White"},
				{Retailer: "c", Brand: "Acme", Title: "Acme SP100 Speaker"},
			},
			want: [][]int{{0}, {1}, {2}},
		},
		{
			name: "three shops' two products under one code",
			items: []Item{
				{Retailer: "a", Brand: "Acme", Title: "Acme Zentor X500 2.66ghz 12mb l3 processor"},
				{Retailer: "b", Brand: "Acme", Title: "Acme Zentor X500 2.66ghz 12mb l3 processor"},
				{Retailer: "c", Brand: "Acme", Title: "Acme Zentor X500 2.66ghz 12mb l3 processor"},
				{Retailer: "a", Brand: "Acme", Title: "Acme Zentor X500 2.66ghz 12mb smart cache processor"},
				{Retailer: "b", Brand: "Acme", Title: "Acme Zentor X500 2.66ghz 12mb smart cache processor"},
				{Retailer: "c", Brand: "Acme", Title: "Acme Zentor X500 2.66ghz 12mb smart cache processor"},
			},
			want: [][]int{{0, 1, 2}, {3, 4, 5}},
		},
		{
			name: "two shops' one title join, its colour still open",
			items: []Item{
				{Retailer: "a", Brand: "Acme", Title: "Acme SP100 Speaker Black"},
				{Retailer: "b", Brand: "Acme", Title: "Acme SP100 Speaker White"},
				{Retailer: "c", Brand: "Acme", Title: "Acme SP100 Portable Speaker"},
				{Retailer: "d", Brand: "Acme", Title: "Acme SP100 Portable Speaker"},
			},
			want: [][]int{{0}, {1}, {2, 3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := newGroups(Items(tt.items), Options{})
			if err != nil {
				t.Fatal(err)
			}
			all := make([]int, len(tt.items))
			for i := range all {
				all[i] = i
			}
			if err := g.readProfiles(all); err != nil {
				t.Fatal(err)
			}
			g.merge(all, false)
			if diff := cmp.Diff(tt.want, g.result()); diff != "" {
				t.Errorf("groups mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCompareProcessorPacks checks that a processor's tray and its box are
// two products, and that a title saying neither meets either.
func TestCompareProcessorPacks(t *testing.T) {
	tests := []compareCase{
		{
			name:       "tray against box",
			a:          Item{Brand: "Acme", Title: "Acme Core i5 8400 2.8GHz Processor OEM"},
			b:          Item{Brand: "Acme", Title: "Acme Core i5 8400 2.8GHz Processor Boxed"},
			wantReason: "edition",
		},
		{
			name:       "tray against a cooler",
			a:          Item{Brand: "Acme", Title: "Acme Ryzen 5 2600 CPU tray"},
			b:          Item{Brand: "Acme", Title: "Acme Ryzen 5 2600 CPU with Wraith Stealth cooler"},
			wantReason: "edition",
		},
		{
			name:       "tray against a boxed part number",
			a:          Item{Brand: "Acme", Title: "Acme Xeon E5 2620 v4 2.1 GHz 20 MB cache FCLGA2011 socket OEM"},
			b:          Item{Brand: "Acme", Title: "Acme Xeon E5 2620 v4 2.1 GHz 20 MB cache FCLGA2011 BX80660E52620V4"},
			wantReason: "edition",
		},
		{
			name:       "box against a tray part number",
			a:          Item{Brand: "Acme", Title: "Acme Core i7 7700 3.6 GHz 8 MB box"},
			b:          Item{Brand: "Acme", Title: "Acme Core i7 7700 3.6 GHz skt 1151 CM8067702868314"},
			wantReason: "edition",
		},
		{
			name:       "a box without a fan against tray",
			a:          Item{Brand: "Acme", Title: "Acme Sempron 3850 1.3 GHz socket AM1 OEM"},
			b:          Item{Brand: "Acme", Title: "Acme Sempron 3850 1.3 GHz socket AM1 SD3850JAHMWOF"},
			wantReason: "edition",
		},
		{
			name:     "tray against a title that says neither",
			a:        Item{Brand: "Acme", Title: "Acme Core i5 8400 2.8GHz Processor OEM"},
			b:        Item{Brand: "Acme", Title: "Acme Core i5 8400 2.8GHz Processor"},
			wantSame: true, wantReason: "code",
		},
	}
	runCompare(t, tests)
}
