// Command gencatalog writes a synthetic catalog snapshot of demo size for
// load tests when no real demo catalog has been built: products in all 19
// categories with brands, model lines, title-derived attributes in every
// status and one to four retailer offers each.
//
//	go run ./loadtest/gencatalog -out build/bench-api/catalog.snapshot -products 26000
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"productsearch/internal/catalog"
)

func main() {
	out := flag.String("out", "build/bench-api/catalog.snapshot", "snapshot `path` to write")
	n := flag.Int("products", 26000, "number of `products`")
	seed := flag.Uint64("seed", 1, "random `seed`")
	flag.Parse()
	if err := os.MkdirAll(dirOf(*out), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
	s := generate(*n, *seed)
	if err := catalog.WriteSnapshot(*out, s); err != nil {
		fmt.Fprintln(os.Stderr, "gencatalog:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s: %d products, %d offers\n", *out, len(s.Products), s.Manifest.Offers)
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "."
}

type kind struct {
	category string
	noun     string
	brands   []string
	lines    []string
	attrs    map[string][]float64
	price    [2]float64
}

// kinds describes the products of each category.
func kinds() []kind {
	return []kind{
		{"Laptops", "Laptop", []string{"Lenovo", "HP", "Dell", "ASUS", "Acer", "Apple", "MSI"}, []string{"IdeaPad", "ThinkPad", "Pavilion", "XPS", "ROG Strix", "Aspire", "MacBook Air", "Zenbook"},
			map[string][]float64{catalog.MemoryGB: {8, 16, 32}, catalog.StorageGB: {256, 512, 1000}, catalog.ScreenIn: {13.3, 14, 15.6, 16}}, [2]float64{299, 2499}},
		{"Desktops", "Desktop PC", []string{"Dell", "HP", "Lenovo", "Acer"}, []string{"OptiPlex", "Omen", "Legion Tower", "Nitro"},
			map[string][]float64{catalog.MemoryGB: {8, 16, 32, 64}, catalog.StorageGB: {512, 1000, 2000}}, [2]float64{399, 2999}},
		{"Tablets", "Tablet", []string{"Apple", "Samsung", "Lenovo", "Amazon"}, []string{"iPad", "Galaxy Tab S9", "Tab P12", "Fire HD"},
			map[string][]float64{catalog.StorageGB: {64, 128, 256}, catalog.ScreenIn: {8, 10.9, 11, 12.4}}, [2]float64{89, 1199}},
		{"Phones", "Smartphone", []string{"Apple", "Samsung", "Google", "Motorola", "Xiaomi"}, []string{"iPhone 15", "Galaxy S24", "Pixel 8", "moto g84", "Redmi Note 13"},
			map[string][]float64{catalog.StorageGB: {128, 256, 512}}, [2]float64{149, 1399}},
		{"TVs", "Smart TV", []string{"Samsung", "LG", "Sony", "Hisense", "TCL"}, []string{"QLED Q80C", "OLED C3", "Bravia X90L", "U8K", "C845"},
			map[string][]float64{catalog.ScreenIn: {43, 50, 55, 65, 75}, catalog.ResolutionP: {1080, 2160}, catalog.RefreshHz: {60, 120}}, [2]float64{229, 2999}},
		{"Monitors", "Monitor", []string{"LG", "Samsung", "Dell", "AOC", "ASUS"}, []string{"UltraGear", "Odyssey G5", "UltraSharp", "24G2", "TUF Gaming"},
			map[string][]float64{catalog.ScreenIn: {24, 27, 32, 34}, catalog.ResolutionP: {1080, 1440, 2160}, catalog.RefreshHz: {60, 144, 165, 240}}, [2]float64{99, 1299}},
		{"Headphones", "Headphones", []string{"Sony", "Bose", "JBL", "Sennheiser", "Apple"}, []string{"WH-1000XM5", "QuietComfort", "Tune 770NC", "Momentum 4", "AirPods Max"}, nil, [2]float64{29, 549}},
		{"Speakers", "Speaker", []string{"JBL", "Sonos", "Bose", "Ultimate Ears"}, []string{"Flip 6", "Era 100", "SoundLink", "Boom 3"}, map[string][]float64{catalog.PowerW: {20, 30, 50}}, [2]float64{39, 499}},
		{"Cameras", "Camera", []string{"Canon", "Sony", "Nikon", "Fujifilm"}, []string{"EOS R50", "Alpha 7 IV", "Z50", "X-T5"}, nil, [2]float64{399, 2499}},
		{"Keyboards", "Keyboard", []string{"Logitech", "Corsair", "Razer"}, []string{"MX Keys", "K70", "BlackWidow"}, nil, [2]float64{29, 199}},
		{"Mice", "Mouse", []string{"Logitech", "Razer", "Corsair"}, []string{"MX Master 3S", "DeathAdder", "M65"}, nil, [2]float64{15, 149}},
		{"Printers", "Printer", []string{"HP", "Canon", "Epson", "Brother"}, []string{"DeskJet", "PIXMA", "EcoTank", "HL-L2350DW"}, nil, [2]float64{49, 499}},
		{"Networking", "Router", []string{"TP-Link", "Netgear", "ASUS"}, []string{"Archer AX55", "Nighthawk", "RT-AX58U", "Deco X50"}, map[string][]float64{catalog.WifiGen: {6, 6.5, 7}}, [2]float64{39, 599}},
		{"Storage", "SSD", []string{"Samsung", "WD", "Crucial", "Seagate"}, []string{"990 PRO", "Black SN850X", "P3 Plus", "FireCuda"}, map[string][]float64{catalog.StorageGB: {500, 1000, 2000, 4000}}, [2]float64{39, 399}},
		{"Gaming", "Console", []string{"Sony", "Microsoft", "Nintendo"}, []string{"PlayStation 5", "Xbox Series X", "Switch OLED"}, map[string][]float64{catalog.StorageGB: {512, 825, 1000}}, [2]float64{249, 549}},
		{"Wearables", "Smartwatch", []string{"Apple", "Samsung", "Garmin", "Fitbit"}, []string{"Watch Series 9", "Galaxy Watch6", "Forerunner 265", "Charge 6"}, nil, [2]float64{99, 799}},
		{"Drones", "Drone", []string{"DJI"}, []string{"Mini 4 Pro", "Air 3", "Avata 2"}, nil, [2]float64{299, 1499}},
		{"Audio", "Soundbar", []string{"Sonos", "Samsung", "Bose", "Yamaha"}, []string{"Beam", "HW-Q990C", "Smart Soundbar 600", "SR-B20A"}, map[string][]float64{catalog.PowerW: {100, 200, 400}}, [2]float64{99, 1299}},
		{"Cables & Chargers", "Charger", []string{"Anker", "Belkin", "Ugreen"}, []string{"Nano II", "BoostCharge", "Nexode"}, map[string][]float64{catalog.PowerW: {20, 30, 65, 100}}, [2]float64{9, 99}},
	}
}

func generate(n int, seed uint64) *catalog.Snapshot {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	kinds := kinds()
	retailers := []string{"currys", "argos", "ao", "johnlewis", "very", "scan", "richersounds"}
	sync := time.Date(2025, 3, 1, 6, 0, 0, 0, time.UTC)
	s := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: sync, Retailers: map[string]catalog.RetailerStats{}, Categories: map[string]int{}}}
	for i := range n {
		k := kinds[i%len(kinds)]
		brand := k.brands[rng.IntN(len(k.brands))]
		line := k.lines[rng.IntN(len(k.lines))]
		model := fmt.Sprintf("%c%d", 'A'+rune(rng.IntN(26)), 100+rng.IntN(9000))
		values := map[string]float64{}
		var specs []string
		for _, name := range slices.Sorted(mapKeys(k.attrs)) {
			v := k.attrs[name][rng.IntN(len(k.attrs[name]))]
			values[name] = v
			specs = append(specs, specText(name, v))
		}
		base := k.price[0] + rng.Float64()*(k.price[1]-k.price[0])
		offers := 1 + rng.IntN(4)
		shops := rng.Perm(len(retailers))[:offers]
		typ := catalog.TypeProduct
		noun := k.noun
		if rng.IntN(10) == 0 {
			typ, noun = catalog.TypeAccessory, "Case for "+k.noun
		}
		p := catalog.Product{
			ID: fmt.Sprintf("p%06d", i), Brand: brand, Currency: catalog.Currency, Category: k.category, ProductType: typ,
			Attributes: map[string]catalog.Attribute{},
			Specs:      catalog.Specs{Description: fmt.Sprintf("%s %s %s with a one-year warranty.", brand, line, noun), ModelNumber: model},
		}
		obs := map[string][]catalog.Observation{}
		for j, shop := range shops {
			title := fmt.Sprintf("%s %s %s %s", brand, line, model, noun)
			// Some retailers leave specs out of the title; rarely one
			// states a different value (a conflicting attribute).
			if rng.IntN(3) > 0 {
				title += " " + strings.Join(specs, " ")
				for name, v := range values {
					if rng.IntN(40) == 0 {
						v = k.attrs[name][rng.IntN(len(k.attrs[name]))]
					}
					obs[name] = append(obs[name], catalog.Observation{Retailer: retailers[shop], Value: v})
				}
			}
			stock := rng.IntN(50)
			avail := catalog.InStock
			switch {
			case stock == 0:
				avail = catalog.OutOfStock
			case stock < 5:
				avail = catalog.LowStock
			}
			p.Offers = append(p.Offers, catalog.Offer{
				ID: fmt.Sprintf("%s-%06d-%d", retailers[shop], i, j), Source: retailers[shop], Title: title,
				Price: float64(int((base*(0.9+rng.Float64()*0.2))*100)) / 100, Currency: catalog.Currency,
				Availability: avail, Stock: &stock, DeliveryTime: "2-3 days",
				PurchaseURL: fmt.Sprintf("https://www.%s.example.co.uk/p/%06d", retailers[shop], i),
				ImageURL:    fmt.Sprintf("https://img.%s.example.co.uk/%06d.jpg", retailers[shop], i),
				LastUpdated: sync.Add(-time.Duration(rng.IntN(48)) * time.Hour),
			})
			st := s.Manifest.Retailers[retailers[shop]]
			st.Offers++
			s.Manifest.Retailers[retailers[shop]] = st
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
		for name, o := range obs {
			if a, ok := catalog.BuildAttribute(o); ok {
				p.Attributes[name] = a
			}
		}
		s.Products = append(s.Products, p)
		s.Manifest.Offers += len(p.Offers)
		s.Manifest.Categories[k.category]++
	}
	return s
}

func mapKeys(m map[string][]float64) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func specText(name string, v float64) string {
	num := strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", v), "0"), ".")
	switch name {
	case catalog.MemoryGB:
		return num + "GB RAM"
	case catalog.StorageGB:
		if v >= 1000 {
			return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", v/1000), "0"), ".") + "TB"
		}
		return num + "GB SSD"
	case catalog.ScreenIn:
		return num + "\""
	case catalog.ResolutionP:
		switch v {
		case 2160:
			return "4K"
		case 1440:
			return "QHD"
		}
		return "Full HD"
	case catalog.RefreshHz:
		return num + "Hz"
	case catalog.PowerW:
		return num + "W"
	case catalog.WifiGen:
		if v == 6.5 {
			return "Wi-Fi 6E"
		}
		return "Wi-Fi " + num
	}
	return num
}
