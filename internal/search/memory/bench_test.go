package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
	"productsearch/internal/search/searchtest"
)

// benchSize is the size of the synthetic catalog: the interface's catalog
// holds more than 26,000 products.
const benchSize = 26000

// kind describes how to make products of one category.
type kind struct {
	category string
	weight   int
	brands   []string
	lines    []string
	noun     string
	specs    func(r *rand.Rand) (words []string, attrs map[string]float64)
	acc      []string // accessory nouns, "" when the category has none
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func storageWord(gb float64) string {
	if gb >= 1000 {
		return fmt.Sprintf("%gTB", gb/1000)
	}
	return fmt.Sprintf("%gGB", gb)
}

func kinds() []kind {
	laptopSpecs := func(r *rand.Rand) ([]string, map[string]float64) {
		mem := pick(r, []float64{8, 16, 16, 24, 32})
		sto := pick(r, []float64{256, 512, 512, 1000, 2000})
		scr := pick(r, []float64{13.3, 14, 15.6, 15.6, 16, 17.3})
		words := []string{pick(r, []string{"Intel Core i5", "Intel Core i7", "Intel Core Ultra 7", "AMD Ryzen 5", "AMD Ryzen 7", "Intel Core i9"})}
		attrs := map[string]float64{catalog.MemoryGB: mem, catalog.StorageGB: sto, catalog.ScreenIn: scr}
		if r.IntN(3) == 0 {
			words = append(words, pick(r, []string{"RTX 4050", "RTX 4060", "RTX 4070", "RTX 4080"}))
			hz := pick(r, []float64{144, 165, 240})
			attrs[catalog.RefreshHz] = hz
			words = append(words, fmt.Sprintf("%gHz", hz))
		}
		words = append(words, fmt.Sprintf("%gGB RAM", mem), storageWord(sto)+" SSD", fmt.Sprintf("%g\"", scr))
		return words, attrs
	}
	phoneSpecs := func(r *rand.Rand) ([]string, map[string]float64) {
		sto := pick(r, []float64{64, 128, 256, 512})
		return []string{storageWord(sto), pick(r, []string{"Black", "Blue", "Green", "Titanium", "Silver", "Pink"}), "5G"},
			map[string]float64{catalog.StorageGB: sto}
	}
	tvSpecs := func(r *rand.Rand) ([]string, map[string]float64) {
		scr := pick(r, []float64{32, 43, 50, 55, 65, 75, 85})
		res := pick(r, []float64{1080, 2160, 2160, 2160})
		w := []string{fmt.Sprintf("%g\"", scr)}
		if res == 2160 {
			w = append(w, "4K UHD")
		} else {
			w = append(w, "Full HD")
		}
		return append(w, pick(r, []string{"Smart TV", "QLED Smart TV", "OLED Smart TV", "LED TV"})),
			map[string]float64{catalog.ScreenIn: scr, catalog.ResolutionP: res}
	}
	monitorSpecs := func(r *rand.Rand) ([]string, map[string]float64) {
		scr := pick(r, []float64{21.5, 23.8, 24, 27, 27, 32, 34})
		res := pick(r, []float64{1080, 1440, 2160})
		hz := pick(r, []float64{60, 75, 100, 144, 165, 240})
		names := map[float64]string{1080: "Full HD", 1440: "QHD", 2160: "4K UHD"}
		return []string{fmt.Sprintf("%g\"", scr), names[res], fmt.Sprintf("%gHz", hz), pick(r, []string{"IPS", "VA", "OLED"})},
			map[string]float64{catalog.ScreenIn: scr, catalog.ResolutionP: res, catalog.RefreshHz: hz}
	}
	storageSpecs := func(r *rand.Rand) ([]string, map[string]float64) {
		sto := pick(r, []float64{250, 500, 512, 1000, 2000, 4000, 8000})
		return []string{storageWord(sto), pick(r, []string{"NVMe M.2 SSD", "SATA SSD", "External Hard Drive", "Portable SSD", "microSDXC Card"})},
			map[string]float64{catalog.StorageGB: sto}
	}
	routerSpecs := func(r *rand.Rand) ([]string, map[string]float64) {
		gen := pick(r, []float64{5, 6, 6, 6.5, 7})
		names := map[float64]string{5: "Wi-Fi 5", 6: "Wi-Fi 6", 6.5: "Wi-Fi 6E", 7: "Wi-Fi 7"}
		return []string{pick(r, []string{"AX3000", "AX5400", "AXE7800", "BE9300", "AC1200"}), names[gen], pick(r, []string{"Router", "Mesh System", "Range Extender"})},
			map[string]float64{catalog.WifiGen: gen}
	}
	chargerSpecs := func(r *rand.Rand) ([]string, map[string]float64) {
		w := pick(r, []float64{20, 30, 45, 65, 100, 140})
		return []string{fmt.Sprintf("%gW", w), pick(r, []string{"USB-C Charger", "GaN Charger", "Power Bank 10000mAh", "Car Charger"})},
			map[string]float64{catalog.PowerW: w}
	}
	plain := func(words ...string) func(r *rand.Rand) ([]string, map[string]float64) {
		return func(r *rand.Rand) ([]string, map[string]float64) { return []string{pick(r, words)}, nil }
	}
	return []kind{
		{"Laptops", 14, []string{"ASUS", "Lenovo", "HP", "Dell", "Acer", "Apple", "MSI", "Microsoft", "Samsung", "Razer"},
			[]string{"ROG Strix G16", "TUF Gaming A15", "Zenbook 14", "Vivobook 15", "Legion 5 Pro", "IdeaPad Slim 5", "ThinkPad X1 Carbon", "Yoga 7",
				"Pavilion 15", "Envy x360", "Victus 16", "Omen 17", "XPS 13", "Inspiron 15", "Latitude 5440", "Alienware m16", "Aspire 5",
				"Swift Go 14", "Nitro V 15", "MacBook Air", "MacBook Pro", "Katana 15", "Surface Laptop 6", "Galaxy Book4", "Blade 15"},
			"Laptop", laptopSpecs, []string{"Laptop Sleeve", "Laptop Bag", "Laptop Stand"}},
		{"Desktops", 4, []string{"HP", "Dell", "Lenovo", "Apple", "Acer"}, []string{"Pavilion", "OptiPlex", "IdeaCentre", "iMac", "Mac mini", "Aspire TC", "Omen 45L"},
			"Desktop PC", laptopSpecs, nil},
		{"Tablets", 5, []string{"Apple", "Samsung", "Lenovo", "Amazon", "Microsoft"}, []string{"iPad Air", "iPad Pro", "iPad mini", "Galaxy Tab S9", "Galaxy Tab A9", "Tab P12", "Fire HD 10", "Surface Pro 9"},
			"Tablet", phoneSpecs, []string{"Smart Folio", "Tablet Case", "Screen Protector"}},
		{"Phones", 12, []string{"Apple", "Samsung", "Google", "Motorola", "Xiaomi", "OnePlus", "Nokia", "Sony"},
			[]string{"iPhone 15", "iPhone 15 Pro", "iPhone 15 Pro Max", "iPhone 14", "Galaxy S24", "Galaxy S24+", "Galaxy S24 Ultra", "Galaxy A15", "Galaxy A55",
				"Galaxy Z Flip5", "Pixel 8", "Pixel 8 Pro", "Pixel 8a", "Moto G84", "Redmi Note 13", "OnePlus 12", "Xperia 10 V"},
			"Smartphone", phoneSpecs, []string{"Clear Case", "Silicone Case", "Screen Protector", "Wallet Case"}},
		{"TVs", 8, []string{"Samsung", "LG", "Sony", "Hisense", "TCL", "Panasonic", "Philips"}, []string{"QE55Q60C", "CU7100", "OLED C3", "Bravia XR A80L", "A6K", "C645", "MX800", "OLED806"},
			"TV", tvSpecs, []string{"TV Wall Bracket", "TV Stand"}},
		{"Monitors", 7, []string{"Dell", "LG", "Samsung", "ASUS", "AOC", "BenQ", "Acer", "MSI"}, []string{"UltraSharp U2723QE", "UltraGear 27GP850", "Odyssey G5", "ProArt PA279CV", "24G2SPU", "ZOWIE XL2546K", "Nitro XV272U", "MAG 274QRF"},
			"Monitor", monitorSpecs, []string{"Monitor Arm"}},
		{"Headphones", 9, []string{"Sony", "Bose", "Apple", "Sennheiser", "JBL", "Beats", "Samsung", "Jabra"},
			[]string{"WH-1000XM5", "WH-1000XM4", "WF-1000XM5", "QuietComfort Ultra", "QuietComfort 45", "AirPods Pro", "AirPods Max", "Momentum 4", "Tune 760NC", "Studio Pro", "Galaxy Buds2 Pro", "Elite 85t"},
			"Headphones", plain("Wireless Noise Cancelling", "True Wireless Earbuds", "Over-Ear Bluetooth", "Gaming Headset"), []string{"Ear Tips", "Headphone Case"}},
		{"Speakers", 5, []string{"Sonos", "JBL", "Bose", "Ultimate Ears", "Marshall", "Amazon"}, []string{"Era 100", "Charge 5", "Flip 6", "SoundLink Flex", "Boom 3", "Emberton II", "Echo Dot"},
			"Speaker", plain("Portable Bluetooth", "Smart Speaker", "Soundbar", "Waterproof"), nil},
		{"Cameras", 4, []string{"Canon", "Nikon", "Sony", "Fujifilm", "GoPro", "Panasonic"}, []string{"EOS R50", "Z50", "Alpha 7 IV", "X-T5", "HERO12 Black", "Lumix G9"},
			"Camera", plain("Mirrorless Camera Body", "with 18-45mm Lens", "Action Camera", "Vlogging Kit"), []string{"Camera Bag", "Lens Cap", "Tripod"}},
		{"Keyboards", 3, []string{"Logitech", "Razer", "Corsair", "SteelSeries", "Keychron"}, []string{"MX Keys S", "BlackWidow V4", "K70 RGB", "Apex Pro", "K2 Pro", "G915 TKL"},
			"Keyboard", plain("Wireless", "Mechanical Gaming", "RGB", "Low Profile"), nil},
		{"Mice", 3, []string{"Logitech", "Razer", "Corsair", "SteelSeries", "Microsoft"}, []string{"MX Master 3S", "G502 X", "DeathAdder V3", "Basilisk V3", "Rival 3", "Pebble"},
			"Mouse", plain("Wireless", "Gaming", "Ergonomic", "Bluetooth"), []string{"Mouse Mat"}},
		{"Printers", 3, []string{"HP", "Canon", "Epson", "Brother"}, []string{"DeskJet 2820e", "ENVY 6020e", "PIXMA TS5150", "EcoTank ET-2850", "HL-L2350DW"},
			"Printer", plain("All-in-One", "Wireless Inkjet", "Mono Laser"), []string{"Ink Cartridge", "Toner Cartridge"}},
		{"Networking", 4, []string{"TP-Link", "Netgear", "ASUS", "Linksys", "BT"}, []string{"Archer AX73", "Deco X50", "Nighthawk RAXE300", "RT-AX58U", "Orbi RBK752", "Velop MX4200", "Whole Home"},
			"", routerSpecs, nil},
		{"Storage", 6, []string{"Samsung", "WD", "Crucial", "SanDisk", "Seagate", "Kingston"}, []string{"990 PRO", "870 EVO", "Blue SN580", "P3 Plus", "Extreme Pro", "Expansion", "Black SN850X", "NV2"},
			"", storageSpecs, nil},
		{"Gaming", 4, []string{"Sony", "Microsoft", "Nintendo", "Valve", "Razer"}, []string{"PlayStation 5 Slim", "Xbox Series X", "Xbox Series S", "Switch OLED", "Steam Deck", "DualSense", "Xbox Wireless Controller"},
			"", plain("Console", "Controller", "Bundle", "Digital Edition"), []string{"Controller Charging Dock", "Console Carry Case"}},
		{"Wearables", 3, []string{"Apple", "Samsung", "Garmin", "Fitbit", "Google"}, []string{"Watch Series 9", "Watch Ultra 2", "Galaxy Watch6", "Forerunner 265", "Charge 6", "Pixel Watch 2"},
			"", plain("GPS 45mm", "Smartwatch", "Fitness Tracker", "LTE 41mm"), []string{"Sport Band", "Watch Strap"}},
		{"Drones", 1, []string{"DJI", "Ryze"}, []string{"Mini 4 Pro", "Air 3", "Avata 2", "Tello"}, "Drone", plain("Fly More Combo", "with RC 2", "4K Camera"), nil},
		{"Audio", 2, []string{"Sonos", "Yamaha", "Denon", "Audio-Technica", "Marantz"}, []string{"Arc", "Beam Gen 2", "YAS-209", "AVR-X1800H", "AT-LP60X", "PM6007"},
			"", plain("Soundbar", "AV Receiver", "Turntable", "Stereo Amplifier"), nil},
		{"Cables & Chargers", 3, []string{"Anker", "Apple", "Belkin", "Ugreen", "Samsung"}, []string{"Nano II", "735", "BoostCharge Pro", "Nexode", "PowerCore", "Super Fast"},
			"", chargerSpecs, nil},
	}
}

// syntheticSnapshot generates a deterministic catalog of n products with
// realistic titles across the 19 categories.
func syntheticSnapshot(n int) *catalog.Snapshot {
	r := rand.New(rand.NewPCG(1, 2))
	retailers := []string{"Currys", "Argos", "John Lewis", "AO", "Very", "Box", "Scan"}
	ks := kinds()
	total := 0
	for _, k := range ks {
		total += k.weight
	}
	sync := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	s := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: sync}}
	for i := range n {
		pos := r.IntN(total)
		var k kind
		for _, k = range ks {
			if pos < k.weight {
				break
			}
			pos -= k.weight
		}
		brand := pick(r, k.brands)
		line := pick(r, k.lines)
		words, attrs := k.specs(r)
		ptype := catalog.TypeProduct
		var title string
		if len(k.acc) > 0 && r.IntN(7) == 0 {
			ptype = catalog.TypeAccessory
			title = strings.Join([]string{brand, pick(r, k.acc), "for", line}, " ")
			attrs = nil
		} else {
			title = strings.Join(slices.Concat([]string{brand, line}, words, []string{k.noun}), " ")
		}
		title = strings.Join(strings.Fields(title), " ")
		price := float64(500+r.IntN(250000)) / 100
		if ptype == catalog.TypeAccessory {
			price = float64(299+r.IntN(6000)) / 100
		}
		offers := 1 + r.IntN(4)
		p := catalog.Product{
			ID: fmt.Sprintf("p%05d", i), Title: title, Brand: brand, Currency: catalog.Currency, Availability: catalog.InStock,
			Category: k.category, ProductType: ptype, ImageURL: fmt.Sprintf("https://images.example/p%05d.jpg", i),
			Specs:      catalog.Specs{Description: "Retailer description of " + title, ModelNumber: fmt.Sprintf("M%05d", i)},
			Attributes: map[string]catalog.Attribute{}, OfferCount: offers,
		}
		for j := range offers {
			src := retailers[(i+j)%len(retailers)]
			p.Offers = append(p.Offers, catalog.Offer{ID: fmt.Sprintf("%s-%05d", strings.ToLower(src[:2]), i), Source: src, Title: title,
				Price: price + float64(j)*10, Currency: catalog.Currency, Availability: catalog.InStock,
				PurchaseURL: fmt.Sprintf("https://%s.example/p/%05d", strings.ToLower(src[:2]), i), LastUpdated: sync})
		}
		p.Price, p.PurchaseURL = price, p.Offers[0].PurchaseURL
		p.Provenance = catalog.Provenance{Source: p.Offers[0].Source, LastUpdated: sync}
		for name, v := range attrs {
			var obs []catalog.Observation
			switch r.IntN(10) {
			case 0: // conflicting
				obs = []catalog.Observation{{Retailer: "Currys", Value: v}, {Retailer: "Argos", Value: v * 2}}
			case 1, 2, 3: // confirmed
				obs = []catalog.Observation{{Retailer: "Currys", Value: v}, {Retailer: "Argos", Value: v}}
			case 4: // unknown
				continue
			default:
				obs = []catalog.Observation{{Retailer: "Currys", Value: v}}
			}
			a, _ := catalog.BuildAttribute(obs)
			p.Attributes[name] = a
		}
		s.Products = append(s.Products, p)
	}
	s.Manifest.Products = len(s.Products)
	return s
}

func benchRequests(b *testing.B) []search.Request {
	b.Helper()
	queries := searchtest.BenchQueries()
	reqs := make([]search.Request, len(queries))
	for i, q := range queries {
		v, err := url.ParseQuery(q)
		if err != nil {
			b.Fatal(err)
		}
		if reqs[i], err = search.ParseQuery(v); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	return reqs
}

func BenchmarkBuild(b *testing.B) {
	s := syntheticSnapshot(benchSize)
	for b.Loop() {
		if _, err := memory.New(s, memory.DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch runs the query mix through Engine.Search and reports the
// latency percentiles of single queries.
func BenchmarkSearch(b *testing.B) { benchMix(b, false, false) }

// BenchmarkSearchJSON is BenchmarkSearch with each result encoded as the
// REST API does (Result.AppendJSON).
func BenchmarkSearchJSON(b *testing.B) { benchMix(b, true, false) }

// BenchmarkSearchJSONMapped is BenchmarkSearchJSON on the catalog's index
// file, mapped.
func BenchmarkSearchJSONMapped(b *testing.B) { benchMix(b, true, true) }

func benchMix(b *testing.B, encode, fromFile bool) {
	var e *memory.Engine
	var err error
	if fromFile {
		e = mapped(b, syntheticSnapshot(benchSize), memory.DefaultOptions())
	} else if e, err = memory.New(syntheticSnapshot(benchSize), memory.DefaultOptions()); err != nil {
		b.Fatal(err)
	}
	reqs := benchRequests(b)
	ctx := context.Background()
	var durations []time.Duration
	buf := make([]byte, 0, 1<<20)
	i := 0
	for b.Loop() {
		start := time.Now()
		res, err := e.Search(ctx, reqs[i%len(reqs)])
		if err != nil {
			b.Fatal(err)
		}
		if encode {
			buf = res.AppendJSON(buf[:0])
		}
		durations = append(durations, time.Since(start))
		i++
	}
	slices.Sort(durations)
	pct := func(p float64) float64 { return float64(durations[int(p*float64(len(durations)-1))].Nanoseconds()) }
	b.ReportMetric(pct(0.50), "p50-ns")
	b.ReportMetric(pct(0.99), "p99-ns")
}

// BenchmarkQuery runs each query of the mix on its own.
func BenchmarkQuery(b *testing.B) {
	e, err := memory.New(syntheticSnapshot(benchSize), memory.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i, req := range benchRequests(b) {
		b.Run(fmt.Sprintf("%02d", i), func(b *testing.B) {
			buf := make([]byte, 0, 1<<20)
			for b.Loop() {
				res, err := e.Search(ctx, req)
				if err != nil {
					b.Fatal(err)
				}
				buf = res.AppendJSON(buf[:0])
			}
		})
	}
}

// TestSyntheticCatalog keeps the benchmark's catalog and queries sound:
// every query parses and finds something.
func TestSyntheticCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 26,000-product index")
	}
	s := syntheticSnapshot(benchSize)
	e, err := memory.New(s, memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range searchtest.BenchQueries() {
		v, _ := url.ParseQuery(q)
		req, err := search.ParseQuery(v)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		res, err := e.Search(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(res.Products) == 0 {
			t.Errorf("%s: no products", q)
		}
	}
}
