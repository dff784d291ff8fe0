package lexer_test

import (
	"testing"

	"productsearch/internal/catalog"
	"productsearch/internal/extract"
	"productsearch/internal/search"
)

// TestQueryAndTitleAgree checks that a query and a title read each spelling
// of a spec alike: query analysis derives the constraint the title states.
func TestQueryAndTitleAgree(t *testing.T) {
	tests := []struct {
		category  string
		name      string
		want      float64
		spellings []string
	}{
		{"Laptops", catalog.MemoryGB, 16, []string{"16GB RAM", "16 GB RAM", "16gb ram", "16-GB RAM", "16GB memory"}},
		{"Laptops", catalog.StorageGB, 1000, []string{"1TB SSD", "1 TB SSD", "1tb ssd", "1-TB SSD", "1,000GB SSD",
			"1000 GB SSD", "1000GB SSD"}},
		{"Storage", catalog.StorageGB, 2000, []string{"2TB", "2 TB", "2tb", "2-TB"}},
		{"Laptops", catalog.ScreenIn, 15.6, []string{`15.6"`, "15.6″", "15.6”", "15.6''", "15.6 inch", "15.6-inch",
			"15.6 inches", "15.6in", "15.6-in"}},
		{"Monitors", catalog.RefreshHz, 144, []string{"144Hz", "144 Hz", "144hz", "144-Hz"}},
		{"Monitors", catalog.ResolutionP, 2160, []string{"4K", "4k", "2160p", "UHD"}},
		{"Speakers", catalog.PowerW, 65, []string{"65W", "65 W", "65 watts", "65-watt", "65watt", "65 Watt"}},
		{"Networking", catalog.WifiGen, 6.5, []string{"Wi-Fi 6E", "WiFi 6E", "wifi 6e", "Wi‑Fi 6E"}},
	}
	for _, tt := range tests {
		for _, s := range tt.spellings {
			t.Run(tt.name+"/"+s, func(t *testing.T) {
				title := extract.Title("Acme Model "+s, extract.Context{Category: tt.category})
				if got, ok := title[tt.name]; !ok || got != tt.want {
					t.Errorf("title %q: %s = %v (stated %v), want %v", s, tt.name, got, ok, tt.want)
				}
				b, ok := search.Analyze("acme "+s, "").Derived[tt.name]
				var got *float64
				if ok {
					got = b.Gte
					if b.Eq != nil {
						got = b.Eq
					}
				}
				if got == nil || *got != tt.want {
					t.Errorf("query %q: %s bound %+v, want %v", s, tt.name, b, tt.want)
				}
			})
		}
	}
}
