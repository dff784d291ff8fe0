package api

import (
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

var update = flag.Bool("update", false, "rewrite testdata/catalog.snapshot from the fixture")

// fixtureSync is the sync time of the fixture catalog.
var fixtureSync = time.Date(2025, 3, 1, 6, 0, 0, 0, time.UTC)

// offer is a compact description of one fixture offer.
type offer struct {
	retailer string
	title    string
	price    float64
	avail    catalog.Availability
}

// fixtureProduct builds one product from its offers; attrs maps attribute
// names to what each offer's title states (by offer index).
func fixtureProduct(id, brand, category string, typ catalog.ProductType, offers []offer, attrs map[string][]float64) catalog.Product {
	p := catalog.Product{
		ID: id, Brand: brand, Currency: catalog.Currency, Category: category, ProductType: typ,
		Attributes: map[string]catalog.Attribute{},
		Specs:      catalog.Specs{Description: "Retailer description of " + offers[0].title, ModelNumber: "MN-" + id},
	}
	for i, o := range offers {
		stock := 5 + i
		p.Offers = append(p.Offers, catalog.Offer{
			ID:           fmt.Sprintf("%s-%s", o.retailer, id),
			Source:       o.retailer,
			Title:        o.title,
			Price:        o.price,
			Currency:     catalog.Currency,
			Availability: o.avail,
			Stock:        &stock,
			DeliveryTime: "Next day",
			PurchaseURL:  fmt.Sprintf("https://%s.example.co.uk/p/%s", o.retailer, id),
			ImageURL:     fmt.Sprintf("https://img.%s.example.co.uk/%s.jpg", o.retailer, id),
			LastUpdated:  fixtureSync.Add(-time.Duration(i) * time.Hour),
		})
	}
	slices.SortStableFunc(p.Offers, func(a, b catalog.Offer) int {
		switch {
		case a.Price < b.Price:
			return -1
		case a.Price > b.Price:
			return 1
		}
		return 0
	})
	best := p.Offers[0]
	p.Title, p.Price, p.Availability, p.Stock = best.Title, best.Price, best.Availability, best.Stock
	p.DeliveryTime, p.ImageURL, p.PurchaseURL, p.OfferCount = best.DeliveryTime, best.ImageURL, best.PurchaseURL, len(p.Offers)
	p.Provenance = catalog.Provenance{Source: best.Source, LastUpdated: best.LastUpdated}
	for name, values := range attrs {
		var obs []catalog.Observation
		for i, v := range values {
			if v > 0 {
				obs = append(obs, catalog.Observation{Retailer: offers[i].retailer, Value: v})
			}
		}
		if a, ok := catalog.BuildAttribute(obs); ok {
			p.Attributes[name] = a
		}
	}
	return p
}

// fixtureSnapshot is a small catalog covering every attribute status,
// accessories, several offers per product and every kind of attribute.
func fixtureSnapshot() *catalog.Snapshot {
	in, low, out := catalog.InStock, catalog.LowStock, catalog.OutOfStock
	products := []catalog.Product{
		fixtureProduct("lenovo-ideapad-slim5-14", "Lenovo", "Laptops", catalog.TypeProduct, []offer{
			{"currys", "Lenovo IdeaPad Slim 5 14\" Laptop Intel Core i7 16GB RAM 512GB SSD", 749, in},
			{"argos", "Lenovo IdeaPad Slim 5 14in i7 16GB 512GB Laptop", 729.99, low},
		}, map[string][]float64{catalog.MemoryGB: {16, 16}, catalog.StorageGB: {512, 512}, catalog.ScreenIn: {14, 14}}),
		fixtureProduct("asus-rog-strix-g16", "ASUS", "Laptops", catalog.TypeProduct, []offer{
			{"scan", "ASUS ROG Strix G16 16\" Gaming Laptop RTX 4070 32GB RAM 1TB SSD 240Hz", 1899, in},
		}, map[string][]float64{catalog.MemoryGB: {32}, catalog.StorageGB: {1000}, catalog.ScreenIn: {16}, catalog.RefreshHz: {240}}),
		fixtureProduct("hp-pavilion-15", "HP", "Laptops", catalog.TypeProduct, []offer{
			{"currys", "HP Pavilion 15.6\" Laptop AMD Ryzen 5 8GB RAM 256GB SSD", 499, in},
			{"ao", "HP Pavilion 15.6in Laptop Ryzen 5 16GB RAM 256GB", 529, out},
		}, map[string][]float64{catalog.MemoryGB: {8, 16}, catalog.StorageGB: {256, 256}, catalog.ScreenIn: {15.6, 15.6}}),
		fixtureProduct("dell-xps-13", "Dell", "Laptops", catalog.TypeProduct, []offer{
			{"very", "Dell XPS 13 Laptop Intel Core Ultra 7", 1099, in},
		}, nil),
		fixtureProduct("samsung-qe55-4k", "Samsung", "TVs", catalog.TypeProduct, []offer{
			{"currys", "Samsung QE55Q80C 55\" 4K QLED Smart TV 120Hz", 899, in},
			{"richersounds", "Samsung QE55Q80C 55 inch 4K QLED TV", 879, in},
			{"johnlewis", "Samsung Q80C 55\" QLED 4K HDR Smart TV", 899, low},
		}, map[string][]float64{catalog.ScreenIn: {55, 55, 55}, catalog.ResolutionP: {2160, 2160, 2160}, catalog.RefreshHz: {120, 0, 0}}),
		fixtureProduct("lg-27gp850-monitor", "LG", "Monitors", catalog.TypeProduct, []offer{
			{"scan", "LG UltraGear 27GP850 27\" QHD 165Hz Gaming Monitor", 329, in},
		}, map[string][]float64{catalog.ScreenIn: {27}, catalog.ResolutionP: {1440}, catalog.RefreshHz: {165}}),
		fixtureProduct("apple-iphone-15-128", "Apple", "Phones", catalog.TypeProduct, []offer{
			{"argos", "Apple iPhone 15 128GB Black", 699, in},
			{"very", "Apple iPhone 15 128GB - Black", 699, in},
		}, map[string][]float64{catalog.StorageGB: {128, 128}}),
		fixtureProduct("spigen-iphone-15-case", "Spigen", "Phones", catalog.TypeAccessory, []offer{
			{"argos", "Spigen Ultra Hybrid Case for iPhone 15", 14.99, in},
		}, nil),
		fixtureProduct("sony-wh1000xm5", "Sony", "Headphones", catalog.TypeProduct, []offer{
			{"johnlewis", "Sony WH-1000XM5 Wireless Noise Cancelling Headphones", 279, in},
			{"currys", "SONY WH-1000XM5 Wireless Bluetooth Noise-Cancelling Headphones - Black", 299, in},
		}, nil),
		fixtureProduct("tplink-archer-axe75", "TP-Link", "Networking", catalog.TypeProduct, []offer{
			{"scan", "TP-Link Archer AXE75 Wi-Fi 6E Router", 149.99, in},
		}, map[string][]float64{catalog.WifiGen: {6.5}}),
		fixtureProduct("anker-65w-charger", "Anker", "Cables & Chargers", catalog.TypeProduct, []offer{
			{"argos", "Anker 715 Nano II 65W USB-C Charger", 39.99, in},
			{"very", "Anker Nano II 65W GaN Charger", 42, in},
		}, map[string][]float64{catalog.PowerW: {65, 65}}),
		fixtureProduct("samsung-990-pro-2tb", "Samsung", "Storage", catalog.TypeProduct, []offer{
			{"scan", "Samsung 990 PRO 2TB NVMe M.2 SSD", 159.98, in},
		}, map[string][]float64{catalog.StorageGB: {2000}}),
	}
	return &catalog.Snapshot{
		Manifest: catalog.Manifest{SyncTime: fixtureSync, Offers: 18},
		Products: products,
	}
}

// TestFixtureFile keeps testdata/catalog.snapshot, used by
// scripts/fuzz-api.sh and scripts/bench-api.sh when no demo catalog is
// built, equal to the fixture; -update rewrites it.
func TestFixtureFile(t *testing.T) {
	const path = "testdata/catalog.snapshot"
	if *update {
		if err := catalog.WriteSnapshot(path, fixtureSnapshot()); err != nil {
			t.Fatal(err)
		}
	}
	got, err := catalog.ReadSnapshot(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/api -run TestFixtureFile -update)", err)
	}
	want := fixtureSnapshot()
	if diff := cmp.Diff(want.Products, got.Products); diff != "" || !got.Manifest.SyncTime.Equal(want.Manifest.SyncTime) {
		t.Errorf("testdata/catalog.snapshot is out of date (run go test ./internal/api -run TestFixtureFile -update); mismatch (-want +got):\n%s", diff)
	}
}
