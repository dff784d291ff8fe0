package normalize

import (
	"testing"

	"productsearch/internal/feed"
)

// BenchmarkListing normalises a typical Awin row.
func BenchmarkListing(b *testing.B) {
	rec := feed.Record{
		Row: 1, ID: "LEN-82XF", Title: "Lenovo IdeaPad Slim 5 14&quot; OLED Laptop, 16GB RAM, 512GB SSD",
		Description: "<p>Thin, light &amp; fast.</p><ul><li>Up to 14 hours battery</li><li>OLED display</li></ul>",
		Price:       "£699.00", SalePrice: "649.00", Currency: "GBP", Availability: "1", Stock: "12",
		DeliveryTime: "Next day delivery", Link: "https://shop.example.co.uk/p/LEN-82XF",
		ImageLink: "https://img.example.co.uk/LEN-82XF.jpg", GTIN: "5012345678900", MPN: "82XF0012UK",
		Brand: "LENOVO", Colour: "Cloud Grey", CategoryPath: "Computing > Laptops", Condition: "new",
		LastUpdated: "2025-06-01 09:30:00",
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Listing(rec, shop, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
