package explorer

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"productsearch/internal/catalog"
)

var update = flag.Bool("update", false, "rewrite testdata files from the fixture")

// fixturePath is the catalog the Go tests serve; scripts/test-browser.sh
// serves it too, to prove that hostile feed titles stay text in the page.
const fixturePath = "testdata/catalog.snapshot"

var fixtureSync = time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)

// Hostile feed text: the browser test checks that none of it runs.
const (
	hostileScriptTitle = `<script>window.__xss = 1</script> Hostile Laptop 16GB RAM 512GB SSD`
	hostileAttrTitle   = `"><img src=x onerror="window.__xss = 2"> Hostile Monitor 27" 144Hz`
	hostileDescription = `<img src=x onerror="window.__xss = 3"> Ports: <b>2x USB-C</b> & HDMI`
	hostileURL         = `javascript:window.__xss = 4`
)

type offer struct {
	retailer string
	title    string
	price    float64
	avail    catalog.Availability
}

// fixtureProduct builds a product from its offers (cheapest first) and
// the values each offer's title states per attribute (0: not stated).
func fixtureProduct(id, brand, category string, typ catalog.ProductType, offers []offer, stated map[string][]float64) catalog.Product {
	p := catalog.Product{
		ID: id, Brand: brand, Currency: catalog.Currency, Category: category, ProductType: typ,
		Attributes: map[string]catalog.Attribute{},
		Specs:      catalog.Specs{Description: "The " + brand + " " + id + " as described by its retailer.", ModelNumber: strings.ToUpper(id)},
	}
	for i, o := range offers {
		stock := 10 + i
		p.Offers = append(p.Offers, catalog.Offer{
			ID: strings.ToLower(strings.ReplaceAll(o.retailer, " ", "")) + "-" + id, Source: o.retailer, Title: o.title,
			Price: o.price, Currency: catalog.Currency, Availability: o.avail, Stock: &stock,
			DeliveryTime: "Next day", PurchaseURL: "https://www." + strings.ToLower(strings.ReplaceAll(o.retailer, " ", "")) + ".example/p/" + id,
			ImageURL: "https://img." + strings.ToLower(strings.ReplaceAll(o.retailer, " ", "")) + ".example/" + id + ".jpg", LastUpdated: fixtureSync,
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
	p.Provenance = catalog.Provenance{Source: best.Source, LastUpdated: fixtureSync}
	for name, values := range stated {
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

// fixtureSnapshot is a small catalog with every attribute status, products
// without attributes, and hostile feed text.
func fixtureSnapshot() *catalog.Snapshot {
	in, low, out := catalog.InStock, catalog.LowStock, catalog.OutOfStock
	products := []catalog.Product{
		fixtureProduct("lenovo-thinkpad-e14", "Lenovo", "Laptops", catalog.TypeProduct, []offer{
			{"Brightbox", "Lenovo ThinkPad E14 14in Laptop Ryzen 7 16GB RAM 512GB SSD", 749, in},
			{"Voltline", "Lenovo ThinkPad E14 Gen 5 14\" Ryzen 7 16GB 512GB", 729.99, low},
			{"PixelPort", "Lenovo ThinkPad E14 | 14 Inch | 16 GB RAM", 769, in},
		}, map[string][]float64{catalog.MemoryGB: {16, 16, 16}, catalog.StorageGB: {512, 512, 0}, catalog.ScreenIn: {14, 14, 14}}),
		fixtureProduct("apple-macbook-pro-16", "Apple", "Laptops", catalog.TypeProduct, []offer{
			{"ByteBarn", "Apple MacBook Pro 16.2in M4 24GB RAM 512GB SSD Silver", 2494.99, in},
			{"Kestrel Digital", "Apple MacBook Pro 16.2-inch M4 24GB Memory & 1TB SSD", 2678.99, in},
		}, map[string][]float64{catalog.MemoryGB: {24, 24}, catalog.StorageGB: {512, 1000}, catalog.ScreenIn: {16.2, 16.2}}),
		fixtureProduct("hp-pavilion-15", "HP", "Laptops", catalog.TypeProduct, []offer{
			{"Northgate Tech", "HP Pavilion 15.6\" Laptop Ryzen 5", 499, out},
		}, nil),
		fixtureProduct("dell-inspiron-14", "Dell", "Laptops", catalog.TypeProduct, []offer{
			{"Harbour Electronics", "Dell Inspiron 14 Laptop 8GB RAM 256GB SSD", 429, in},
		}, map[string][]float64{catalog.MemoryGB: {8}, catalog.StorageGB: {256}}),
		fixtureProduct("hostile-laptop", "Evil", "Laptops", catalog.TypeProduct, []offer{
			{"Voltline", hostileScriptTitle, 666, in},
			{"Brightbox", hostileAttrTitle, 667, in},
		}, map[string][]float64{catalog.MemoryGB: {16, 0}, catalog.StorageGB: {512, 0}}),
		fixtureProduct("hostile-monitor", "Evil", "Monitors", catalog.TypeProduct, []offer{
			{"ByteBarn", hostileAttrTitle, 199, in},
		}, map[string][]float64{catalog.ScreenIn: {27}, catalog.RefreshHz: {144}}),
		fixtureProduct("lg-27gp850", "LG", "Monitors", catalog.TypeProduct, []offer{
			{"PixelPort", "LG UltraGear 27GP850 27\" QHD 165Hz Gaming Monitor", 329, in},
		}, map[string][]float64{catalog.ScreenIn: {27}, catalog.ResolutionP: {1440}, catalog.RefreshHz: {165}}),
		fixtureProduct("samsung-qe55q80c", "Samsung", "TVs", catalog.TypeProduct, []offer{
			{"Brightbox", "Samsung QE55Q80C 55\" 4K QLED Smart TV 120Hz", 899, in},
			{"Voltline", "Samsung QE55Q80C 55 inch 4K QLED TV", 879, in},
		}, map[string][]float64{catalog.ScreenIn: {55, 55}, catalog.ResolutionP: {2160, 2160}, catalog.RefreshHz: {120, 0}}),
		fixtureProduct("tplink-archer-be800", "TP-Link", "Networking", catalog.TypeProduct, []offer{
			{"Northgate Tech", "TP-Link Archer BE800 Wi-Fi 7 Router", 449.99, in},
		}, map[string][]float64{catalog.WifiGen: {7}}),
		fixtureProduct("anker-715-65w", "Anker", "Cables & Chargers", catalog.TypeProduct, []offer{
			{"ByteBarn", "Anker 715 Nano II 65W USB-C Charger", 39.99, in},
			{"PixelPort", "Anker Nano II 65W GaN Charger", 42, in},
		}, map[string][]float64{catalog.PowerW: {65, 65}}),
	}
	// The hostile products also carry hostile descriptions, brands and
	// links that are not http(s).
	for i := range products {
		p := &products[i]
		if !strings.HasPrefix(p.ID, "hostile-") {
			continue
		}
		p.Brand = `<b>Evil</b>`
		p.Specs.Description = hostileDescription
		p.Specs.Dimensions = `<i>1 x 2 x 3 cm</i>`
		p.PurchaseURL = hostileURL
		p.Offers[0].PurchaseURL = hostileURL
		p.ImageURL = hostileURL
		p.Offers[0].ImageURL = hostileURL
	}
	offers := 0
	for _, p := range products {
		offers += len(p.Offers)
	}
	return &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: fixtureSync, Offers: offers}, Products: products}
}

// TestFixtureFile keeps testdata/catalog.snapshot equal to the fixture;
// -update rewrites it.
func TestFixtureFile(t *testing.T) {
	if *update {
		if err := catalog.WriteSnapshot(fixturePath, fixtureSnapshot()); err != nil {
			t.Fatal(err)
		}
	}
	tmp := filepath.Join(t.TempDir(), "catalog.snapshot")
	if err := catalog.WriteSnapshot(tmp, fixtureSnapshot()); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/explorer -run TestFixtureFile -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from fixtureSnapshot(); run go test ./internal/explorer -run TestFixtureFile -update", fixturePath)
	}
}
