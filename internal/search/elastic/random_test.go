package elastic_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// randomVocabulary holds title words chosen to exercise the ranking's
// corners: hyphenated words whose joined form no title holds ("wi fi"
// without "wifi"), letter-digit joins ("rtx 4070" and "rtx4070"), category
// and use-case words, accessory words, specs and plurals.
var randomVocabulary = []string{
	"Acme", "Zenith", "Nova", "Pro", "Max", "Mini", "Ultra", "Air",
	"RTX", "4070", "RTX4070", "4060", "X1", "S24", "S24+",
	"Wi", "Fi", "Noise", "Cancelling", "Wireless", "Bluetooth", "Gaming",
	"Laptop", "Laptops", "Phone", "Headphones", "Router", "Mesh", "Monitor",
	"Case", "Cover", "Charger", "Stand", "Strap",
	"16GB", "RAM", "8GB", "512GB", "SSD", "1TB", "144Hz", "4K", "65W", `15.6"`, "27in",
	"Black", "Silver", "Edition", "Bundle",
}

// randomQueryWords are the query words drawn from: title words in other
// spellings, and words no title holds.
var randomQueryWords = []string{
	"acme", "zenith", "nova", "pro", "max", "mini", "ultra", "air",
	"rtx", "4070", "rtx4070", "rtx-4070", "4060", "x1", "s24", "s24+",
	"wi-fi", "wifi", "wi", "fi", "noise-cancelling", "noise", "cancelling", "wireless", "gaming",
	"laptop", "laptops", "phone", "headphone", "router", "mesh", "monitor",
	"case", "cover", "charger", "stand", "cheap", "best",
	"16gb", "16GB RAM", "8gb", "512GB SSD", "1TB", "144Hz", "4K", "65W", `15.6"`, "27 inch",
	"black", "edition", "missing", "zzz",
}

var randomCategories = []string{"Laptops", "Phones", "Headphones", "Networking", "Monitors"}

// randomSnapshot builds a catalog of n products with titles from
// randomVocabulary, few distinct prices (so that ties are common) and
// random attributes, some conflicting.
func randomSnapshot(seed uint64, n int) *catalog.Snapshot {
	r := rand.New(rand.NewPCG(seed, 7))
	sync := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	s := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: sync}}
	for i := range n {
		words := make([]string, 2+r.IntN(7))
		for j := range words {
			words[j] = randomVocabulary[r.IntN(len(randomVocabulary))]
		}
		if r.IntN(4) == 0 {
			// Common words whose joined form no title holds: a query for
			// "noise-cancelling" requires both, with weight 0.
			words = append([]string{"Noise", "Cancelling"}, words...)
		}
		title := strings.Join(words, " ")
		ptype := catalog.TypeProduct
		if r.IntN(5) == 0 {
			ptype = catalog.TypeAccessory
		}
		price := float64(10+r.IntN(20)) * 25
		offers := 1 + r.IntN(3)
		p := catalog.Product{
			ID: fmt.Sprintf("r%04d", i), Title: title, Brand: []string{"Acme", "Zenith", "Nova", ""}[r.IntN(4)],
			Price: price, Currency: catalog.Currency, Availability: catalog.InStock,
			Category: randomCategories[r.IntN(len(randomCategories))], ProductType: ptype,
			Attributes: map[string]catalog.Attribute{}, OfferCount: offers,
			Provenance: catalog.Provenance{Source: "Currys", LastUpdated: sync},
		}
		for j := range offers {
			p.Offers = append(p.Offers, catalog.Offer{ID: fmt.Sprintf("o%d-%04d", j, i), Source: "Currys", Title: title,
				Price: price + float64(j)*5, Currency: catalog.Currency, Availability: catalog.InStock,
				PurchaseURL: fmt.Sprintf("https://shop.example/%d/%d", j, i), LastUpdated: sync})
		}
		p.PurchaseURL = p.Offers[0].PurchaseURL
		for _, a := range []struct {
			name   string
			values []float64
		}{
			{catalog.MemoryGB, []float64{8, 16, 32}},
			{catalog.StorageGB, []float64{256, 500, 512, 1000}},
			{catalog.ScreenIn, []float64{13.6, 14, 15.6, 27}},
			{catalog.RefreshHz, []float64{60, 144}},
		} {
			var obs []catalog.Observation
			switch r.IntN(5) {
			case 0, 1:
				continue
			case 2:
				obs = []catalog.Observation{{Retailer: "Currys", Value: a.values[r.IntN(len(a.values))]},
					{Retailer: "Argos", Value: a.values[r.IntN(len(a.values))]}}
			default:
				obs = []catalog.Observation{{Retailer: "Currys", Value: a.values[r.IntN(len(a.values))]}}
			}
			attr, _ := catalog.BuildAttribute(obs)
			p.Attributes[a.name] = attr
		}
		s.Products = append(s.Products, p)
	}
	s.Manifest.Products = n
	return s
}

// randomQueries draws n valid requests: query words, filters, constraints,
// sort orders and pages.
func randomQueries(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, 11))
	constraints := []string{
		`{"memory_gb":{"gte":16}}`, `{"storage_gb":{"eq":512}}`, `{"screen_in":{"lte":15}}`,
		`{"screen_in":{"eq":14}}`, `{"refresh_hz":{"gte":100},"memory_gb":{"lte":16}}`, `{"storage_gb":{"gte":1024}}`,
	}
	var out []string
	for len(out) < n {
		v := url.Values{}
		words := make([]string, r.IntN(4))
		for j := range words {
			words[j] = randomQueryWords[r.IntN(len(randomQueryWords))]
		}
		if len(words) > 0 {
			v.Set("query", strings.Join(words, " "))
		}
		if r.IntN(2) == 0 {
			v.Set("category", randomCategories[r.IntN(len(randomCategories))])
		}
		if r.IntN(4) == 0 {
			v.Set("brand", []string{"acme", "ZENITH", "Nova"}[r.IntN(3)])
		}
		if r.IntN(3) == 0 {
			v.Set("constraints", constraints[r.IntN(len(constraints))])
		}
		if r.IntN(4) == 0 {
			v.Set("max_price", fmt.Sprint(300+r.IntN(200)))
		}
		v.Set("sort", []string{"relevance", "relevance", "price_asc", "price_desc"}[r.IntN(4)])
		if r.IntN(3) == 0 {
			v.Set("offset", fmt.Sprint(r.IntN(20)))
			v.Set("limit", fmt.Sprint(1+r.IntN(30)))
		}
		if _, err := search.ParseQuery(v); err != nil {
			continue // constraints without anything to narrow them
		}
		out = append(out, v.Encode())
	}
	return out
}

// cornerQueries reach the ranking's rarer branches on the random catalog:
// a ranking-only word of weight 0 that still marks titles (no title holds
// "wifi", many hold "wi" and "fi"), required words of weight 0 beside a
// scoring word, accessory queries (no tiers), joined and adjacent pairs.
var cornerQueries = []string{
	"category=Networking&query=wi-fi",
	"category=Networking&query=wi-fi+mesh",
	`category=Networking&query=wi-fi&constraints={"refresh_hz":{"gte":100}}`,
	"query=noise-cancelling+4070",
	"query=noise-cancelling+wi-fi",
	"query=noise-cancelling",
	`query=noise-cancelling+4070&constraints={"memory_gb":{"gte":16}}`,
	"query=case+pro",
	"query=case",
	"query=charger+stand+max",
	"query=rtx+4070",
	"query=rtx4070+laptop",
	"category=Laptops&query=rtx+4070+16gb",
	"category=Laptops&query=gaming+laptops",
	"category=Phones&query=cheap",
	"query=s24%2B",
	"query=pro+max+ultra+air+mini",
}

// TestSameAnswersRandom compares the engines on a random catalog built to
// exercise the ranking's corners, with random requests, under three
// candidate limits.
func TestSameAnswersRandom(t *testing.T) {
	nodeURL(t)
	s := randomSnapshot(1, 1500)
	alias := uniqueAlias(t, "random")
	publishSnapshot(t, alias, s)
	n := 400
	if testing.Short() {
		n = 100
	}
	queries := append(variants(cornerQueries), randomQueries(2, n)...)
	compareEngines(t, s, alias, queries, []int{search.DefaultMaxCandidates, 0, 25})
}
