package match

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScreenOfCode(t *testing.T) {
	tests := []struct{ code, want string }{
		{"OLED55C46LA", "55"},
		{"QE65Q80CATXXU", "65"},
		{"KD55X85L", "55"},
		{"55A6KTUK", "55"},
		{"TX50MX800B", "50"},
		{"C2420SF", ""},  // a digit after the two: no size
		{"ZX12C100", ""}, // too small for a screen
		{"ZXQWE55C", ""}, // five letters first
		{"55", ""},       // no letter after
		{"OLED5C", ""},   // one digit
		{"PX19C2", "19"}, // the smallest size
		{"Q80C", ""},     // a series: no digit after its number
		{"X85L", ""},
	}
	for _, tt := range tests {
		if got, _ := screenOfCode(tt.code); got != tt.want {
			t.Errorf("screenOfCode(%q) = %q, want %q", tt.code, got, tt.want)
		}
	}
}

// tv is a television listing of a shop.
func tv(retailer, title string) Item {
	return Item{Retailer: retailer, Brand: "Zentor", Category: "TVs", Title: title}
}

// TestCompareTelevisionSizes checks that a television's model code and a
// title's stated size agree, or keep two sizes of one model apart.
func TestCompareTelevisionSizes(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "a market's number written with a hyphen and with a slash",
			a:        tv("A", "Zentor 50zus6753-12 50-inch 4k ultra hd hdr led tv"),
			b:        tv("B", "Zentor 50zus6753/12 50\" 4k uhd led smart tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a market's number after another model",
			a:          tv("A", "Zentor 50zus6753-12 50-inch 4k ultra hd hdr led tv"),
			b:          tv("B", "Zentor 50zus6754/12 50\" 4k uhd led smart tv"),
			wantReason: "code",
		},
		{
			name:       "the code's size against another size stated",
			a:          tv("A", "Zentor OLED55B36LA 55 smart 4k ultra hd oled tv"),
			b:          tv("B", "Zentor OLED B3 65 inch 4k uhd smart oled tv"),
			wantReason: "model-line",
		},
		{
			name:     "the code's size and the size stated agree",
			a:        tv("A", "Zentor OLED55B36LA smart 4k ultra hd oled tv"),
			b:        tv("B", "Zentor OLED55B36LA 55 inch 4k uhd smart oled tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a size after the model's year, against another size",
			a:          tv("A", "zentor 2020 40 hx700 uhd smart led tv"),
			b:          tv("B", "zentor hx700 zx 50hx700b 50 ultra hd 4k android tv led"),
			wantReason: "model-line",
		},
		{
			name:       "a size in centimetres against the code's size",
			a:          tv("A", "ZENTOR 50'' 4K SMART LCD ZX-50GX800B TV"),
			b:          tv("B", "Zentor GX800 102 cm 4K Smart TV"),
			wantReason: "model-line",
		},
		{
			name:     "centimetres of the set sold by the code's size",
			a:        tv("A", "ZENTOR 49'' 4K SMART LCD ZX-49GX800B TV"),
			b:        tv("B", "Zentor GX800 123cm 4K Smart TV"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a series of letters after the code's size is no suffix of the size",
			a:          tv("A", "Zentor C9 OLED 55\" 4K Ultra HD Smart TV"),
			b:          tv("B", "Zentor 55\" OLED55CX"),
			wantReason: "title",
		},
		{
			name:     "the series written after the size",
			a:        tv("A", "Zentor OLED 55 CX 4K Ultra HD Smart TV"),
			b:        tv("B", "Zentor 55\" OLED55CX"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a size right after the brand is no line's number",
			a:        tv("A", "zentor 7 series zu7100 43\" 2160p led smart tv"),
			b:        tv("B", "Zentor 43 ZE43ZU7100"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a code without the maker's letters before the size",
			a:        tv("A", "Zentor 43\" 4K UHD Smart LED Z43B7100UK TV UK Model"),
			b:        tv("B", "ZENTOR 43 Inch 43B7100 Smart 4K Ultra HD LED Freeview TV (UK Model)"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "and of another series",
			a:          tv("A", "Zentor 43\" 4K UHD Smart LED Z43B7100UK TV UK Model"),
			b:          tv("B", "ZENTOR 43 Inch 43A7100 Smart 4K Ultra HD LED Freeview TV (UK Model)"),
			wantReason: "title",
		},
		{
			name:       "a set's title that names no model, against a code",
			a:          tv("A", "Zentor 55-Inch 4K UHD OLED TV with Magic Remote"),
			b:          tv("B", "Zentor 55 Inch ZLED55BX6LB Smart 4K UHD HDR OLED Freeview TV"),
			wantReason: "title",
		},
		{
			name:     "an accessory's code gives no screen size",
			a:        Item{Retailer: "A", Brand: "Zentor", Category: "TVs", Accessory: true, Title: "Zentor WB55A wall bracket for 32 inch tv"},
			b:        Item{Retailer: "B", Brand: "Zentor", Category: "TVs", Accessory: true, Title: "Zentor WB55A wall bracket"},
			wantSame: true, wantReason: "code",
		},
	})
}

// TestCompareTelevisionSeries checks that a television's code, its size and
// series written together, meets a title that names the series and states
// the size, and no other series or size.
func TestCompareTelevisionSeries(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "two years' short names a letter apart",
			a:          tv("A", "zentor 2018 55\" bravia master series z9f 4k smart oled tv"),
			b:          tv("B", "zentor z9g master series 55\" oled 4k hdr android tv"),
			wantReason: "code",
		},
		{
			name:     "a series of a letter and a digit, and the code that gives it",
			a:        tv("A", "zentor c8 55 inch oled 4k hdr smart tv"),
			b:        tv("B", "zentor oled55c8pla 55\" (139cm)"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a series of a letter and a digit, and a code of another",
			a:          tv("A", "zentor c8 55 inch oled 4k hdr smart tv"),
			b:          tv("B", "zentor oled55b8pla 55\" (139cm)"),
			wantReason: "model-line",
		},
		{
			name:       "a series' short name against another series in a code",
			a:          tv("A", "zentor oled evo c4 65 inch 4k 144hz oled tv"),
			b:          tv("B", "zentor oled65g45lw 65 smart 4k ultra hd 144hz oled tv"),
			wantReason: "model-line",
		},
		{
			name:       "a short name among a set's features is no series",
			a:          tv("A", "zentor 55 inch 4k smart tv freeview dvb-t2"),
			b:          tv("B", "zentor ze55nu7100 55 4k smart tv"),
			wantReason: "title",
		},
		{
			name:       "two sets of one size whose codes have nothing in common, in short titles",
			a:          Item{Retailer: "A", Brand: "Zentor", Category: "TVs", Title: "zentor ze65nu7100 65 4k", Specs: map[string]float64{"resolution_p": 2160}},
			b:          Item{Retailer: "B", Brand: "Zentor", Category: "TVs", Title: "zentor zq65q6fnaxxu 65\" qled 4k", Specs: map[string]float64{"resolution_p": 2160, "screen_in": 65}},
			wantReason: "title",
		},
		{
			name:     "the series and the size written apart",
			a:        tv("A", "zentor ze55mu6100 55 4k ultra hd smart tv"),
			b:        tv("B", "zentor mu6100 55 inch 4k tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "the series' name against a code with a market's two digits after it",
			a:        tv("A", "zentor 65\" zd65xe9005 (2017) 4k hdr smart tv"),
			b:        tv("B", "zentor 65\" xe90 series 4k ultra hd tv with android tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a series' name against a code with one digit more",
			a:          tv("A", "zentor zq65q900r 65\" 8k qled smart tv"),
			b:          tv("B", "zentor q90 65\" 4k qled smart tv"),
			wantReason: "title",
		},
		{
			name:     "a market's letters after the series",
			a:        tv("A", "zentor 55zk6300pla 55 4k ultra hd smart tv"),
			b:        tv("B", "zentor 55zk6300plb"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another series of one size",
			a:          tv("A", "zentor 55zk6300pla 55 4k ultra hd smart tv"),
			b:          tv("B", "zentor 55zk6400pla 55 4k ultra hd smart tv"),
			wantReason: "code",
		},
		{
			name:     "two digits after a slash name the market",
			a:        tv("A", "zentor 55zus6262/12 55 inch 4k ambilight tv"),
			b:        tv("B", "zentor 55zus6262 4k uhd smart tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "the series with its year letter, the region's letters left out",
			a:        tv("A", "zentor zq65q80catxxu 65 smart 4k tv"),
			b:        tv("B", "zentor q80c qled 65 inch 4k uhd smart tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "the series of another year",
			a:          tv("A", "zentor zq65q80catxxu 65 smart 4k tv"),
			b:          tv("B", "zentor q80b qled 65 inch 4k uhd smart tv"),
			wantReason: "model-line",
		},
		{
			name:     "a variant word after the series, beside the part number",
			a:        tv("A", "zentor zq85qn90datxxu 85 smart 4k tv"),
			b:        tv("B", "zentor qn90d neo qled 85 inch 4k tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "the series in another size, written without its inch mark",
			a:          tv("A", "zentor ze65mu6100 65 4k ultra hd smart tv"),
			b:          tv("B", "zentor mu6100 55 crystal uhd 4k smart tv"),
			wantReason: "model-line",
		},
		{
			name:     "a bare number of the same size",
			a:        tv("A", "zentor ze55mu6100 4k ultra hd smart tv"),
			b:        tv("B", "zentor mu6100 55 crystal uhd 4k smart tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "the series in another size",
			a:          tv("A", "zentor ze55mu6100 55 4k ultra hd smart tv"),
			b:          tv("B", "zentor mu6100 49 inch 4k tv"),
			wantReason: "model-line",
		},
	})
}

// TestGroupTelevisionSizes checks that listings a series' code joins, of
// several sizes, become one product per size: the sizes refuse each other,

// TestCompareTelevisionMarkets checks that one set's codes for different
// markets, and its titles' standards, name one set, and other series or
// sizes another.
func TestCompareTelevisionMarkets(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "a market's letters after a dot, in a title that names no kind of product",
			a:        Item{Retailer: "A", Brand: "Zentor", Title: "zentor oled55b8 / oled55b8pla.aek"},
			b:        Item{Retailer: "B", Brand: "Zentor", Title: "zentor 55 ultra hd oled smart tv oled55b8pla hdmi cable"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "one set's code with a version's letter and two markets' letters",
			a:        tv("A", "zentor ze40k5500akxxu 40 inch / 102 cm full hd 1080p"),
			b:        tv("B", "zentor ze40k5500akxeu 101 cm 40 zoll led fernseher full hd smart tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name: "one set's code with two markets' letters, one sold with a wall bracket",
			a: Item{Retailer: "A", Brand: "Zentor", Category: "TVs", Accessory: true,
				Title: "zentor oled55b8pla 55 oled 4k hdr tv wall bracket"},
			b:        tv("B", "zentor oled55b8lla 2018 model 55 inch"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "one set's code with two markets' letters",
			a:        tv("A", "zentor ze65ru7100kxxu 65 inch 4k ultra hd led tv"),
			b:        tv("B", "zentor ze65ru7100uxzg 65 zoll led tv 4k ultra hd"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "two series' codes with two markets' letters",
			a:          tv("A", "zentor ze65ru7100kxxu 65 inch 4k ultra hd led tv"),
			b:          tv("B", "zentor ze65ru7400uxzg 65 zoll led tv 4k ultra hd"),
			wantReason: "code",
		},
		{
			name:     "a set's code and the code with a digit and a market's letters after it",
			a:        tv("A", "zentor zled55cx 55 inch oled 4k ultra hd smart tv with dolby vision iq"),
			b:        tv("B", "zentor zled55cx6la 55\" cx oled 4k hdr smart tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a plus that ends a standard's name is no model's Plus",
			a:        tv("A", "zentor 50 inch 6700 series 4k uhd smart led tv hdr10+"),
			b:        tv("B", "zentor 6700 series 50 inch 4k uhd smart led tv"),
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a set's code with its market's letters against its size and series written apart, a word after them",
			a:        tv("A", "zentor 43uk6300plb 108 cm 4k ultra hd"),
			b:        tv("B", "zentor 43 uk6300 uhd webos led tv"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "against another series written apart",
			a:          tv("A", "zentor 43uk6300plb 108 cm 4k ultra hd"),
			b:          tv("B", "zentor 43 uk6500 uhd webos led tv"),
			wantReason: "model-line",
		},
		{
			name:       "another size's code with a digit and a market's letters after it",
			a:          tv("A", "zentor zled55cx 55 inch oled 4k ultra hd smart tv with dolby vision iq"),
			b:          tv("B", "zentor zled65cx6la 65\" cx oled 4k hdr smart tv"),
			wantReason: "model-line",
		},
	})
}

// TestGroupTelevisionSizes checks that a series' sizes are products of
// their own while the listings of one size agree.
func TestGroupTelevisionSizes(t *testing.T) {
	items := []Item{
		tv("A", "zentor zq85qn90datxxu 85 smart 4k ultra hd tv"),
		tv("B", "zentor qn90d neo qled 85 4k uhd smart tv zq85qn90datxxu"),
		tv("C", "zentor qn90d neo qled 85 inch 4k tv"),
		tv("A", "zentor zq75qn90datxxu 75 smart 4k ultra hd tv"),
		tv("B", "zentor qn90d neo qled 75 4k uhd smart tv zq75qn90datxxu"),
		tv("C", "zentor qn90d neo qled 75 inch 4k tv"),
		tv("D", "zentor qn90d neo qled 75 inch 4k uhd smart tv"),
		tv("A", "zentor zq65qn90datxxu 65 smart 4k ultra hd tv"),
		tv("C", "zentor qn90d neo qled 65 inch 4k tv"),
	}
	want := [][]int{{0, 1, 2}, {3, 4, 5, 6}, {7, 8}}
	if diff := cmp.Diff(want, Group(items)); diff != "" {
		t.Errorf("Group mismatch (-want +got):\n%s", diff)
	}
}

// TestGroupTelevisionShortSeries checks that sets named by a series of a
// letter and a digit meet the sets named by their codes, size by size,
// though their titles share no rarer word.
func TestGroupTelevisionShortSeries(t *testing.T) {
	items := []Item{
		tv("A", "zentor oled55c8pla 55\" (139cm)"),
		tv("B", "zentor c8 55 inch oled 4k hdr smart tv ai"),
		tv("A", "zentor oled65c8pla 65\" (164cm)"),
		tv("B", "zentor c8 65 inch oled 4k hdr smart tv ai"),
		tv("C", "zentor oled55b8pla 55\" (139cm)"),
		// A short name of the code's series in another order.
		tv("A", "zentor kd65af8bu 65in 4k ultra hd oled tv"),
		tv("B", "zentor bravia a8f 65\" oled 4k hdr tv"),
		tv("C", "zentor bravia a9f 65\" oled 4k hdr tv"),
		// A set's code alone, and with a digit and a market's letters.
		tv("A", "zentor zled55cx"),
		tv("B", "zentor zled55cx6la 55\""),
	}
	want := [][]int{{0, 1}, {2, 3}, {4}, {5, 6}, {7}, {8, 9}}
	if diff := cmp.Diff(want, Group(items)); diff != "" {
		t.Errorf("Group mismatch (-want +got):\n%s", diff)
	}
}

// TestGroupTelevisionMarkets checks how a set's codes with other markets'
// letters group: a series written with its market's letters and without
// its size ("b8pla 55") joins the set's code with those letters and without
// them, and codes of one year's and version's letters join whatever market
// they end in, while another year's set of the series stays apart.
func TestGroupTelevisionMarkets(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  [][]int
	}{
		{
			name: "a series with a market's letters",
			items: []Item{
				tv("A", "2018 zentor b8pla 55 oled 4k uhd"),
				tv("B", "zentor oled55b8pla 55 smart 4k ultra hd hdr oled tv"),
				tv("C", "zentor oled55b8 55 inch"),
				tv("D", "zentor oled55c8pla 55 inch"),
			},
			want: [][]int{{0, 1, 2}, {3}},
		},
		{
			name: "one year's and version's letters, other markets'",
			items: []Item{
				tv("A", "zentor ze55q80tatxxu 55 q80t qled 4k tv"),
				tv("B", "zentor ze55q80tatxzt smart tv 55 qled 4k ultra hd"),
				tv("C", "zentor ze55q80tatxxh 55 zoll qled 4k smart tv"),
				tv("D", "zentor ze55q80t 55in qled"),
				tv("E", "zentor ze55q80ratxxu 55 q80r qled 4k tv"),
			},
			want: [][]int{{0, 1, 2, 3}, {4}},
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
