package search

import (
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseConstraints(t *testing.T) {
	tests := []struct {
		in      string
		want    Constraints
		wantErr string
	}{
		{in: "", want: nil},
		{in: "  ", want: nil},
		{in: "{}", want: Constraints{}},
		{in: `{"memory_gb":{"gte":16}}`, want: Constraints{"memory_gb": {Gte: ptr(16)}}},
		{in: ` { "screen_in" : { "eq" : 15.6 } , "wifi_gen":{"gte":6.5}} `,
			want: Constraints{"screen_in": {Eq: ptr(15.6)}, "wifi_gen": {Gte: ptr(6.5)}}},
		{in: `{"storage_gb":{"gte":512,"lte":1000}}`, want: Constraints{"storage_gb": {Gte: ptr(512), Lte: ptr(1000)}}},
		{in: `{"storage_gb":{"gte":512,"lte":512,"eq":512}}`, want: Constraints{"storage_gb": {Eq: ptr(512), Gte: ptr(512), Lte: ptr(512)}}},
		{in: `{"power_w":{"gte":0}}`, want: Constraints{"power_w": {Gte: ptr(0)}}},
		{in: `{"refresh_hz":{"gte":1.44e2}}`, want: Constraints{"refresh_hz": {Gte: ptr(144)}}},
		{in: `{"ram":{"gte":16}}`, wantErr: `unknown constraint name "ram": valid names are memory_gb, storage_gb, screen_in, resolution_p, refresh_hz, power_w, wifi_gen (did you mean memory_gb?)`},
		{in: `{"Memory_GB":{"gte":16}}`, wantErr: "did you mean memory_gb?"},
		{in: `{"screen size":{"eq":15}}`, wantErr: "did you mean screen_in?"},
		{in: `{"refresh_rate":{"gte":120}}`, wantErr: "did you mean refresh_hz?"},
		{in: `{"wattage":{"gte":65}}`, wantErr: "did you mean power_w?"},
		{in: `{"wifi":{"gte":6}}`, wantErr: "did you mean wifi_gen?"},
		{in: `{"resolution":{"gte":2160}}`, wantErr: "did you mean resolution_p?"},
		{in: `{"storage":{"gte":512}}`, wantErr: "did you mean storage_gb?"},
		{in: `{"weight":{"lte":2}}`, wantErr: `valid names are memory_gb, storage_gb, screen_in, resolution_p, refresh_hz, power_w, wifi_gen; example: {"memory_gb":{"gte":16}}`},
		{in: `{"memory_gb":{">=":16}}`, wantErr: `unknown operator ">=" in constraints.memory_gb: valid operators are eq, gte, lte (did you mean gte?)`},
		{in: `{"memory_gb":{"max":16}}`, wantErr: "(did you mean lte?)"},
		{in: `{"memory_gb":{"equals":16}}`, wantErr: "(did you mean eq?)"},
		{in: `{"memory_gb":{"between":[8,16]}}`, wantErr: "valid operators are eq, gte, lte; example"},
		{in: `{"memory_gb":{"gte":"16"}}`, wantErr: `constraints.memory_gb.gte must be a number (not quoted), e.g. {"memory_gb":{"gte":16}}; got the string "16"`},
		{in: `{"memory_gb":{"gte":null}}`, wantErr: "must be a number (not quoted)"},
		{in: `{"memory_gb":{"gte":{"value":16}}}`, wantErr: "got an object"},
		{in: `{"memory_gb":{"gte":-16}}`, wantErr: "constraints.memory_gb.gte must not be negative (got -16)"},
		{in: `{"memory_gb":{"gte":1e999}}`, wantErr: "is out of range"},
		{in: `{"memory_gb":{"gte":32,"lte":16}}`, wantErr: `constraints.memory_gb has gte 32 greater than lte 16; a range needs gte <= lte, e.g. {"memory_gb":{"gte":16,"lte":32}}`},
		{in: `{"memory_gb":{"eq":8,"lte":4}}`, wantErr: "outside its gte/lte range"},
		{in: `{"memory_gb":{}}`, wantErr: "constraints.memory_gb has no operator; give eq, gte or lte"},
		{in: `{"memory_gb":16}`, wantErr: "constraints.memory_gb must be an object of operators (eq, gte, lte), e.g. {\"memory_gb\":{\"gte\":16}}; got the number 16"},
		{in: `{"screen_in":"15.6"}`, wantErr: `constraints.screen_in must be an object of operators (eq, gte, lte), e.g. {"screen_in":{"eq":15.6}}; got the string "15.6"`},
		{in: `{"memory_gb":null}`, wantErr: "got null"},
		{in: `[]`, wantErr: "constraints must be a JSON object mapping attribute names to operators, e.g. {\"memory_gb\":{\"gte\":16},\"screen_in\":{\"eq\":15.6}}; got an array"},
		{in: `"memory_gb"`, wantErr: "got the string"},
		{in: `16`, wantErr: "got the number 16"},
		{in: `true`, wantErr: "got true"},
		{in: `null`, wantErr: "got null"},
		{in: `memory_gb:16`, wantErr: "constraints is not valid JSON"},
		{in: `%7B%22memory_gb%22%3A%7B%22gte%22%3A16%7D%7D`, wantErr: "it was encoded twice; encode the JSON once"},
		{in: `%7b%22memory_gb%22`, wantErr: "it was encoded twice"},
		{in: `{"memory_gb":{"gte":16}`, wantErr: "constraints is not valid JSON"},
		{in: `{"memory_gb":{"gte":16}},`, wantErr: "constraints is not valid JSON"},
		{in: `{"memory_gb":{"gte":16}} {"a":1}`, wantErr: "constraints has an object after the closing brace"},
		{in: `{'memory_gb':{'gte':16}}`, wantErr: "constraints is not valid JSON"},
		{in: `{"memory_gb":{"gte":16},"memory_gb":{"gte":8}}`, wantErr: "constraints names memory_gb twice"},
		{in: `{"memory_gb":{"gte":16,"gte":8}}`, wantErr: "constraints.memory_gb gives gte twice"},
		{in: `{"memory_gb":{"gte":16}}` + strings.Repeat(" ", MaxConstraintsLen), want: Constraints{"memory_gb": {Gte: ptr(16)}}},
		{in: `{"memory_gb":` + strings.Repeat(" ", MaxConstraintsLen) + `{"gte":16}}`, wantErr: "at most 2048 are accepted"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseConstraints(tt.in)
			if tt.wantErr != "" {
				var inv *InvalidError
				if !errors.As(err, &inv) || !strings.Contains(inv.Message, tt.wantErr) {
					t.Fatalf("ParseConstraints(%q) error = %v, want *InvalidError containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseConstraints(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseConstraints(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		name string
		in   url.Values
		want Request
	}{
		{"defaults", url.Values{}, Request{Limit: DefaultLimit, Sort: SortRelevance}},
		{"every parameter", url.Values{
			"query": {" rtx 4070 "}, "min_price": {"100"}, "max_price": {"2000.50"}, "brand": {"ASUS"}, "category": {"laptops"},
			"constraints": {`{"memory_gb":{"gte":16}}`}, "limit": {"20"}, "offset": {"40"}, "sort": {"price_desc"}, "lite": {"TRUE"},
		}, Request{Query: "rtx 4070", MinPrice: ptr(100), MaxPrice: ptr(2000.5), Brand: "ASUS", Category: "Laptops",
			Constraints: Constraints{"memory_gb": {Gte: ptr(16)}}, Limit: 20, Offset: 40, Sort: SortPriceDesc, Lite: true}},
		{"lite false and zero", url.Values{"lite": {"0"}}, Request{Limit: DefaultLimit, Sort: SortRelevance}},
		{"limit bounds", url.Values{"limit": {"100"}, "offset": {"10000"}}, Request{Limit: 100, Offset: MaxOffset, Sort: SortRelevance}},
		{"empty constraints object", url.Values{"constraints": {"{}"}}, Request{Limit: DefaultLimit, Sort: SortRelevance}},
		{"repeated equal values", url.Values{"brand": {"Sony", "Sony", ""}}, Request{Brand: "Sony", Limit: DefaultLimit, Sort: SortRelevance}},
		{"category with ampersand", url.Values{"category": {"cables & chargers"}}, Request{Category: "Cables & Chargers", Limit: DefaultLimit, Sort: SortRelevance}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseQuery(tt.in)
			if err != nil {
				t.Fatalf("ParseQuery(%v): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseQuery(%v) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		in      Request
		want    Request
		wantErr string
	}{
		{name: "defaults", in: Request{}, want: Request{Limit: DefaultLimit, Sort: SortRelevance}},
		{name: "trims and corrects case", in: Request{Query: " x ", Brand: " Sony ", Category: " tvs ", Sort: " Price_Asc "},
			want: Request{Query: "x", Brand: "Sony", Category: "TVs", Limit: DefaultLimit, Sort: SortPriceAsc}},
		{name: "empty constraints become nil", in: Request{Constraints: Constraints{}, Category: "Laptops"},
			want: Request{Category: "Laptops", Limit: DefaultLimit, Sort: SortRelevance}},
		{name: "negative limit", in: Request{Limit: -1}, wantErr: "limit must be from 1 to 100 (default 50), e.g. limit=20; got -1"},
		{name: "limit above", in: Request{Limit: 500}, wantErr: "limit 500 is above the maximum of 100; use limit=100 and offset"},
		{name: "negative offset", in: Request{Offset: -3}, wantErr: "offset must be 0 or more"},
		{name: "sort", in: Request{Sort: "popularity"}, wantErr: `sort must be one of relevance, price_asc, price_desc; got "popularity"`},
		{name: "sort hint", in: Request{Sort: "price"}, wantErr: "(did you mean price_asc?)"},
		{name: "category", in: Request{Category: "Smartphones"}, wantErr: `unknown category "Smartphones": did you mean Phones? Use one of the exact values Laptops, Desktops, Tablets, Phones, TVs, Monitors, Headphones, Speakers, Cameras, Keyboards, Mice, Printers, Networking, Storage, Gaming, Wearables, Drones, Audio, Cables & Chargers (e.g. category=Phones)`},
		{name: "category ampersand hint", in: Request{Category: "Cables and Chargers"}, wantErr: "did you mean Cables & Chargers?"},
		{name: "category hint for a product kind", in: Request{Category: "Routers"}, wantErr: "did you mean Networking?"},
		{name: "category hint for SSD", in: Request{Category: "SSDs"}, wantErr: "did you mean Storage?"},
		{name: "category without hint", in: Request{Category: "Garden"}, wantErr: "Or leave category out and put the product kind in query"},
		{name: "NaN price", in: Request{MinPrice: ptr(nan())}, wantErr: "min_price must be a finite number"},
		{name: "negative price", in: Request{MaxPrice: ptr(-1)}, wantErr: "max_price must not be negative"},
		{name: "min above max", in: Request{MinPrice: ptr(10), MaxPrice: ptr(5)}, wantErr: "min_price 10 is above max_price 5; swap them"},
		{name: "invalid constraint name", in: Request{Category: "Laptops", Constraints: Constraints{"ram": {Gte: ptr(8)}}}, wantErr: `unknown constraint name "ram"`},
		{name: "empty bound", in: Request{Category: "Laptops", Constraints: Constraints{"memory_gb": {}}}, wantErr: "has no operator"},
		{name: "infinite bound", in: Request{Category: "Laptops", Constraints: Constraints{"memory_gb": {Lte: ptr(inf())}}}, wantErr: "must be a finite number"},
		{name: "constraints alone", in: Request{Constraints: Constraints{"memory_gb": {Gte: ptr(8)}}}, wantErr: "constraints need a category or brand"},
		{name: "query specs alone", in: Request{Query: "32GB RAM 1TB"}, wantErr: "specs in query (read as memory_gb>=32 storage_gb>=1000) need a category or brand"},
		{name: "constraints with a brand", in: Request{Brand: "Dell", Constraints: Constraints{"memory_gb": {Gte: ptr(8)}}},
			want: Request{Brand: "Dell", Constraints: Constraints{"memory_gb": {Gte: ptr(8)}}, Limit: DefaultLimit, Sort: SortRelevance}},
		{name: "constraints with words", in: Request{Query: "xps 16GB RAM"},
			want: Request{Query: "xps 16GB RAM", Limit: DefaultLimit, Sort: SortRelevance}},
		{name: "long query", in: Request{Query: strings.Repeat("é", MaxQueryLen+1)}, wantErr: "query is 501 characters long; at most 500"},
		{name: "longest query", in: Request{Query: strings.Repeat("é", MaxQueryLen)},
			want: Request{Query: strings.Repeat("é", MaxQueryLen), Limit: DefaultLimit, Sort: SortRelevance}},
		{name: "long brand", in: Request{Brand: strings.Repeat("b", MaxBrandLen+1)}, wantErr: "brand is 101 characters long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.in
			err := r.Validate()
			if tt.wantErr != "" {
				var inv *InvalidError
				if !errors.As(err, &inv) || !strings.Contains(inv.Message, tt.wantErr) {
					t.Fatalf("Validate(%+v) error = %v, want *InvalidError containing %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Validate(%+v): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, r); diff != "" {
				t.Errorf("Validate mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanConstraints(t *testing.T) {
	tests := []struct {
		name string
		in   Request
		want Constraints
	}{
		{"none", Request{Category: "Laptops", Query: "rog"}, nil},
		{"derived", Request{Category: "Laptops", Query: "rog 24GB RAM 1TB"}, Constraints{"memory_gb": {Gte: ptr(24)}, "storage_gb": {Gte: ptr(1000)}}},
		{"screen is eq", Request{Category: "TVs", Query: `65"`}, Constraints{"screen_in": {Eq: ptr(65)}}},
		{"explicit wins per name", Request{Category: "Laptops", Query: "24GB RAM 1TB", Constraints: Constraints{"memory_gb": {Lte: ptr(16)}}},
			Constraints{"memory_gb": {Lte: ptr(16)}, "storage_gb": {Gte: ptr(1000)}}},
		{"explicit only", Request{Category: "Laptops", Constraints: Constraints{"screen_in": {Eq: ptr(14)}}}, Constraints{"screen_in": {Eq: ptr(14)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.in
			p, err := r.Plan()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, p.Constraints); diff != "" {
				t.Errorf("Plan constraints mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.in.Constraints, p.Request.Constraints); diff != "" {
				t.Errorf("Plan changed the request's own constraints (-want +got):\n%s", diff)
			}
		})
	}
}

func nan() float64 { return math.NaN() }

func inf() float64 { return math.Inf(1) }

func FuzzParseQuery(f *testing.F) {
	f.Add("rtx 4070", "100", "2000", "ASUS", "Laptops", `{"memory_gb":{"gte":16}}`, "20", "price_asc", "true", "0")
	f.Add("16GB RAM", "", "", "", "", "", "", "", "", "")
	f.Add("", "-1", "NaN", "", "smartphones", `{"x":1}`, "0", "best", "yes", "-5")
	f.Add(`55" 4K`, "1e400", "0x10", " ", "TVS", "[]", "1e2", "PRICE_DESC", "1", "10001")
	f.Fuzz(func(t *testing.T, query, minPrice, maxPrice, brand, category, constraints, limit, sort, lite, offset string) {
		v := url.Values{}
		for k, s := range map[string]string{"query": query, "min_price": minPrice, "max_price": maxPrice, "brand": brand,
			"category": category, "constraints": constraints, "limit": limit, "sort": sort, "lite": lite, "offset": offset} {
			v.Set(k, s)
		}
		r, err := ParseQuery(v)
		if err != nil {
			var inv *InvalidError
			if !errors.As(err, &inv) || inv.Message == "" {
				t.Fatalf("ParseQuery error %v is not an *InvalidError with a message", err)
			}
			return
		}
		if r.Limit < 1 || r.Limit > MaxLimit || r.Offset < 0 || r.Offset > MaxOffset {
			t.Fatalf("ParseQuery accepted limit %d offset %d", r.Limit, r.Offset)
		}
		if r.Sort != SortRelevance && r.Sort != SortPriceAsc && r.Sort != SortPriceDesc {
			t.Fatalf("ParseQuery accepted sort %q", r.Sort)
		}
		again := r
		if err := again.Validate(); err != nil {
			t.Fatalf("a parsed request fails Validate: %v", err)
		}
		if diff := cmp.Diff(r, again); diff != "" {
			t.Fatalf("Validate changed a parsed request (-want +got):\n%s", diff)
		}
	})
}

func FuzzParseConstraints(f *testing.F) {
	for _, s := range []string{`{"memory_gb":{"gte":16}}`, `{"screen_in":{"eq":15.6},"wifi_gen":{"gte":6.5}}`, `{}`, `[]`, `null`,
		`{"memory_gb":{"gte":16,"lte":8}}`, `{"a":`, `{"memory_gb":{"gte":1e999}}`, `{"memory_gb":{"gte":-0}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConstraints(s)
		if err != nil {
			var inv *InvalidError
			if !errors.As(err, &inv) || inv.Message == "" {
				t.Fatalf("ParseConstraints error %v is not an *InvalidError with a message", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("parsed constraints fail Validate: %v", err)
		}
		if c == nil {
			return
		}
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseConstraints(string(data))
		if err != nil {
			t.Fatalf("re-parse %s: %v", data, err)
		}
		if diff := cmp.Diff(c, back); diff != "" {
			t.Fatalf("round trip mismatch (-want +got):\n%s", diff)
		}
	})
}
