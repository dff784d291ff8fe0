package demo

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

func TestStyleFormat(t *testing.T) {
	volt := style{GB: "GB", TB: "TB", Inch: `"`, Hz: "Hz", Watt: "W",
		Res:  map[int]string{2160: "4K Ultra HD", 1080: "Full HD"},
		Wifi: map[string]string{"6": "Wi-Fi 6", "6E": "Wi-Fi 6E"}}
	pixel := style{GB: " GB", TB: " TB", Inch: " Inch", Hz: " Hz", Watt: " W"}
	tests := []struct {
		name string
		st   style
		attr int
		v    float64
		mod  string
		want string
	}{
		{"memory", volt, atMemory, 16, "", "16GB"},
		{"memory with a space", pixel, atMemory, 16, "", "16 GB"},
		{"storage in GB", volt, atStorage, 512, "", "512GB"},
		{"storage in TB", volt, atStorage, 1000, "", "1TB"},
		{"storage in TB with a space", pixel, atStorage, 2000, "", "2 TB"},
		{"storage of one and a half TB", volt, atStorage, 1500, "", "1.5TB"},
		{"forced space", volt, atMemory, 8, "sp", "8 GB"},
		{"screen in the retailer's way", volt, atScreen, 15.6, "", `15.6"`},
		{"screen inch", volt, atScreen, 55, "inch", "55 inch"},
		{"screen in", volt, atScreen, 14, "in", "14in"},
		{"screen quote", pixel, atScreen, 27, "q", `27"`},
		{"screen hyphen", volt, atScreen, 13.3, "hy", "13.3-inch"},
		{"screen Inch", pixel, atScreen, 6.1, "", "6.1 Inch"},
		{"resolution by name", volt, atRes, 2160, "", "4K Ultra HD"},
		{"resolution as lines", volt, atRes, 2160, "p", "2160p"},
		{"resolution without a name", volt, atRes, 1440, "", "1440p"},
		{"refresh", pixel, atHz, 144, "", "144 Hz"},
		{"power", volt, atPower, 65, "", "65W"},
		{"wifi 6", volt, atWifi, 6, "", "Wi-Fi 6"},
		{"wifi 6E", volt, atWifi, 6.5, "", "Wi-Fi 6E"},
		{"wifi without a name", volt, atWifi, 7, "", "Wi-Fi 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.st.format(tt.attr, tt.v, tt.mod); got != tt.want {
				t.Errorf("format mismatch (-want +got):\n%s", cmp.Diff(tt.want, got))
			}
		})
	}
}

func TestCPUName(t *testing.T) {
	tests := []struct{ in, family, short string }{
		{"Intel Core i5-13420H", "Intel Core i5", "i5"},
		{"Intel Core Ultra 7 155H", "Intel Core Ultra 7", "Ultra 7"},
		{"Intel Core 5 120U", "Intel Core 5", "Core 5"},
		{"AMD Ryzen 7 7730U", "AMD Ryzen 7", "Ryzen 7"},
		{"AMD Ryzen AI 9 HX 370", "AMD Ryzen AI 9", "Ryzen AI 9"},
		{"Intel Celeron N4500", "Intel Celeron", "Celeron"},
		{"Apple M3 Pro", "Apple M3 Pro", "M3 Pro"},
		{"Qualcomm Snapdragon X Elite", "Qualcomm Snapdragon X Elite", "Snapdragon X Elite"},
		{"Broadcom BCM2712", "Broadcom BCM2712", "Broadcom BCM2712"},
		{"", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := [2]string{cpuName(tt.in, "family"), cpuName(tt.in, "short")}
			if diff := cmp.Diff([2]string{tt.family, tt.short}, got); diff != "" {
				t.Errorf("cpuName mismatch (-want +got):\n%s", diff)
			}
			if full := cpuName(tt.in, ""); full != tt.in {
				t.Errorf("cpuName(%q, \"\") = %q, want the name unchanged", tt.in, full)
			}
		})
	}
}

func TestWordHelpers(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"gpu short", gpuShort("NVIDIA GeForce RTX 4070"), "RTX 4070"},
		{"gpu short AMD", gpuShort("AMD Radeon RX 7600S"), "RX 7600S"},
		{"gpu other", gpuShort("Apple 10-core GPU"), "Apple 10-core GPU"},
		{"colour basic word", simpleColour("Cloud Grey"), "Grey"},
		{"colour without basic word", simpleColour("Natural Titanium"), "Natural"},
		{"colour single", simpleColour("Midnight"), "Midnight"},
		{"colour empty", simpleColour(""), ""},
		{"colour in German", germanColour("Grey"), "Grau"},
		{"colour in German, lower case", germanColour("black"), "Schwarz"},
		{"colour without a German word", germanColour("Midnight"), "Midnight"},
		{"overlap one word", trimOverlap("Arc Mouse", "Mouse"), ""},
		{"overlap leading word", trimOverlap("MOMENTUM 4 Wireless", "Wireless Noise Cancelling Headphones"), "Noise Cancelling Headphones"},
		{"overlap two words", trimOverlap("Cat 8 Ethernet Cable", "Ethernet Cable"), ""},
		{"no overlap", trimOverlap("WH-1000XM5", "Wireless Headphones"), "Wireless Headphones"},
		{"overlap ignores case", trimOverlap("Pixel tablet", "Tablet"), ""},
		{"slug", slug("Wi-Fi + Cellular 13.6\""), "wi-fi-plus-cellular-13-6"},
		{"slug plus first", slug("+"), "plus"},
		{"colour code two words", colourCode("Space Grey"), "SG"},
		{"colour code one word", colourCode("Black"), "BL"},
		{"colour code none", colourCode(""), "XX"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("mismatch (-want +got):\n%s", cmp.Diff(tt.want, tt.got))
			}
		})
	}
}

func TestWrongValue(t *testing.T) {
	tests := []struct {
		attr int
		v    float64
		up   bool
		want float64
	}{
		{atMemory, 8, true, 16},
		{atMemory, 8, false, 4},
		{atMemory, 4, false, 8},
		{atMemory, 128, true, 64},
		{atStorage, 512, true, 1000},
		{atStorage, 1000, false, 512},
		{atScreen, 15.6, true, 16},
		{atRes, 1080, true, 1440},
		{atHz, 144, false, 120},
		{atWifi, 6, true, 6.5},
		{atWifi, 7, true, 6.5},
		{atPower, 2000, true, 140},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v up=%v", attrNames[tt.attr], tt.v, tt.up), func(t *testing.T) {
			got := wrongValue(tt.attr, tt.v, tt.up)
			if got != tt.want {
				t.Errorf("wrongValue = %v, want %v", got, tt.want)
			}
			if got == tt.v {
				t.Errorf("wrongValue returned the true value %v", got)
			}
		})
	}
}

func TestPrices(t *testing.T) {
	tests := []struct {
		v      float64
		ending string
		want   string
	}{
		{1299.4, ".99", "1298.99"},
		{1299.6, ".99", "1299.99"},
		{1299.4, ".00", "1299.00"},
		{0.3, ".99", "0.99"},
		{0.3, ".00", "1.00"},
		{12.49, ".95", "11.95"},
		{7, "bad", "6.99"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v%s", tt.v, tt.ending), func(t *testing.T) {
			if got := money(roundPrice(tt.v, tt.ending)); got != tt.want {
				t.Errorf("price mismatch (-want +got):\n%s", cmp.Diff(tt.want, got))
			}
		})
	}
}

func TestScrambleIDUnique(t *testing.T) {
	tests := []struct {
		pattern string
		n       int
		prefix  string
		length  int
	}{
		{"VL{n:4}", 10000, "VL", 6},
		{"{n:8}", 50000, "", 8},
		{"PP-{n:6}-X", 20000, "PP-", 11},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			seen := make(map[string]bool, tt.n)
			for i := range tt.n {
				id := scrambleID(tt.pattern, i, 12345)
				if seen[id] {
					t.Fatalf("id %s repeats at row %d", id, i)
				}
				seen[id] = true
				if len(id) != tt.length || id[:len(tt.prefix)] != tt.prefix {
					t.Fatalf("id %q: want %d characters starting %q", id, tt.length, tt.prefix)
				}
			}
		})
	}
}

func TestGTIN(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"5012345678900", true},
		{"05012345678900", true},
		{"5012345678901", false},
		{"96385074", true},
		{"036000291452", true},
		{"50123456789", false},
		{"50123456789O0", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := ValidGTIN(tt.in); got != tt.want {
				t.Errorf("ValidGTIN(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
	seen := map[string]bool{}
	for brand := range 50 {
		for item := range 200 {
			g := makeGTIN(brand, item)
			if !ValidGTIN(g) || len(g) != 13 || g[:2] != "50" {
				t.Fatalf("makeGTIN(%d, %d) = %q, want a valid EAN-13 starting 50", brand, item, g)
			}
			if seen[g] {
				t.Fatalf("makeGTIN(%d, %d) = %q repeats", brand, item, g)
			}
			seen[g] = true
		}
	}
}

func TestParseOption(t *testing.T) {
	tests := []struct {
		in      string
		want    option
		wantErr bool
	}{
		{in: "Midnight", want: option{Value: "Midnight"}},
		{in: "16 +80", want: option{Value: "16", Op: '+', Num: 80}},
		{in: "AMD Ryzen 3 7320U -60", want: option{Value: "AMD Ryzen 3 7320U", Op: '-', Num: 60}},
		{in: "1-Pack *0.45", want: option{Value: "1-Pack", Op: '*', Num: 0.45}},
		{in: "55 =1399", want: option{Value: "55", Op: '=', Num: 1399}},
		{in: "Wi-Fi + Cellular +150", want: option{Value: "Wi-Fi + Cellular", Op: '+', Num: 150}},
		{in: "Tele 58mm", want: option{Value: "Tele 58mm"}},
		{in: "Pro +x", wantErr: true},
		{in: "  ", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseOption(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("parseOption(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			}
			if err == nil {
				if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(option{})); diff != "" {
					t.Errorf("option mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func FuzzParseOption(f *testing.F) {
	for _, s := range []string{"16 +80", "55 =1399", "x *", "+1", "a -b", "Wi-Fi + Cellular +150"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := parseOption(s)
		if err == nil && o.Value == "" {
			t.Errorf("parseOption(%q) gave an empty value without an error", s)
		}
	})
}

func TestDims(t *testing.T) {
	got := makeDims("30.4-35.9 x 21.2-25.1 x 1.4-2.0 cm", "some-product")
	if got != makeDims("30.4-35.9 x 21.2-25.1 x 1.4-2.0 cm", "some-product") {
		t.Fatal("makeDims is not stable for the same key")
	}
	var w, d, h float64
	var unit string
	if _, err := fmt.Sscanf(got, "%g x %g x %g %s", &w, &d, &h, &unit); err != nil {
		t.Fatalf("makeDims = %q: %v", got, err)
	}
	if w < 30.4 || w > 35.9 || d < 21.2 || d > 25.1 || h < 1.4 || h > 2.0 || unit != "cm" {
		t.Errorf("makeDims = %q, outside the ranges", got)
	}
	for _, bad := range []string{"", "10", "10-5 x 3 cm", "a x b cm"} {
		if _, err := parseDims(bad); err == nil {
			t.Errorf("parseDims(%q) succeeded, want an error", bad)
		}
	}
}

func TestSpecsIn(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]float64
	}{
		{"Fire TV Stick 4K", map[string]float64{"resolution_p": 2160}},
		{"240W USB-C Charge Cable", map[string]float64{"power_w": 240}},
		{"Magic 2 WiFi 6", map[string]float64{"wifi_gen": 6}},
		{"Deco XE75 Wi-Fi 6E", map[string]float64{"wifi_gen": 6.5}},
		{"Wi-Fi + Ethernet 128GB", map[string]float64{"storage_gb": 128}},
		{"Xbox Series X 2TB Galaxy Black", map[string]float64{"storage_gb": 2000}},
		{"QN900C Neo QLED 8K", map[string]float64{"resolution_p": 4320}},
		{"ViewFinity S9 5K", map[string]float64{"resolution_p": 2880}},
		{"Full HD Webcam", map[string]float64{"resolution_p": 1080}},
		{"Predator 240Hz", map[string]float64{"refresh_hz": 240}},
		{"WH-1000XM5", map[string]float64{}},
		{"622GW", map[string]float64{}},
		{"Wi-Fi 64GB", map[string]float64{"storage_gb": 64}},
		{"iPad Pro 12.9-inch (6th generation)", map[string]float64{"screen_in": 12.9}},
		{`Studio 27" Display`, map[string]float64{"screen_in": 27}},
		{"", map[string]float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := map[string]float64{}
			for a, v := range specsIn(tt.in) {
				if v > 0 {
					got[attrNames[a]] = v
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("specsIn(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func FuzzSpecsIn(f *testing.F) {
	for _, s := range []string{"Fire TV Stick 4K", "240W", "WiFi 6E", "1.5TB", "999999999999999999999GB", "Hz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for a, v := range specsIn(s) {
			if v < 0 {
				t.Errorf("specsIn(%q) gives %s %v", s, attrNames[a], v)
			}
		}
	})
}

func FuzzParseDims(f *testing.F) {
	for _, s := range []string{"30.4-35.9 x 21.2-25.1 x 1.4-2.0 cm", "1 x 2 mm", "x cm", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ranges, err := parseDims(s)
		if err != nil {
			return
		}
		for _, r := range ranges {
			if r.hi < r.lo {
				t.Errorf("parseDims(%q) gave range %v-%v", s, r.lo, r.hi)
			}
		}
		_ = makeDims(s, "key")
	})
}

// TestAttrNames holds the generator's attribute indexes to the default
// attribute table's order.
func TestAttrNames(t *testing.T) {
	if diff := cmp.Diff(catalog.AttributeNames(), attrNames[:]); diff != "" {
		t.Errorf("attribute names mismatch (-want +got):\n%s", diff)
	}
}
