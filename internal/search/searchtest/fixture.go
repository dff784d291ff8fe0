// Package searchtest is the conformance suite of the search semantics: a
// data-driven set of requests with expected answers over fixed catalogs,
// run against any search.Engine. Both the embedded engine and the
// Elasticsearch engine pass it, so they give the same answers.
//
// Fixtures live in testdata: catalog.json is a hand-written catalog (the
// loader fills the routine fields, see LoadFixture); "bulk" is generated
// (BulkSnapshot) to exercise the 2,000-candidate limit. Case files under
// testdata/cases name their fixture and list requests, as REST parameters,
// with the expected products, counts, statuses and shapes, or the expected
// error.
package searchtest

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"productsearch/internal/catalog"
)

//go:embed testdata
var testdata embed.FS

// fixtureProduct is a catalog product as written in a fixture file. It
// adds shorthands to catalog.Product: attributes may be bare numbers
// (inferred) or attributes without sources; offers may be left out.
type fixtureProduct struct {
	catalog.Product
	Attributes map[string]json.RawMessage `json:"attributes"`
	NoImage    bool                       `json:"no_image"`
}

type fixtureFile struct {
	SyncTime time.Time        `json:"sync_time"`
	Products []fixtureProduct `json:"products"`
}

// The retailers default offers and sources are drawn from.
var defaultRetailers = [...]string{"Currys", "Argos"}

// Fixture returns a named fixture catalog: "catalog" (testdata/catalog.json)
// or "bulk" (BulkSnapshot).
func Fixture(name string) (*catalog.Snapshot, error) {
	if name == "bulk" {
		return BulkSnapshot(), nil
	}
	data, err := testdata.ReadFile("testdata/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("fixture %s: %w", name, err)
	}
	return LoadFixture(data)
}

// LoadFixture decodes a fixture file and fills what a real snapshot
// holds: a product without offers gets one Currys offer at its price;
// offers get the product's title, GBP, in_stock, a purchase URL and the sync
// time unless set; offers are sorted by price, and the product takes its
// price, stock, delivery time and purchase URL from the cheapest one;
// offer_count, currency, availability, product_type (product), image_url
// (unless no_image) and provenance are filled; a bare-number attribute is
// inferred from the first offer's retailer, and attributes without sources
// get them (confirmed: two retailers, conflicting: one per value).
func LoadFixture(data []byte) (*catalog.Snapshot, error) {
	var f fixtureFile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("decode fixture: %w", err)
	}
	s := &catalog.Snapshot{Manifest: catalog.Manifest{
		Format: catalog.SnapshotFormat, Version: catalog.SnapshotVersion, SyncTime: f.SyncTime,
		Retailers: map[string]catalog.RetailerStats{}, Categories: map[string]int{}, Rejected: map[string]int{},
	}}
	for _, fp := range f.Products {
		p, err := fillProduct(fp, f.SyncTime)
		if err != nil {
			return nil, err
		}
		s.Products = append(s.Products, p)
		s.Manifest.Categories[p.Category]++
		s.Manifest.Offers += len(p.Offers)
		for _, o := range p.Offers {
			st := s.Manifest.Retailers[o.Source]
			st.Offers++
			s.Manifest.Retailers[o.Source] = st
		}
	}
	s.Manifest.Products = len(s.Products)
	return s, nil
}

func fillProduct(fp fixtureProduct, sync time.Time) (catalog.Product, error) {
	p := fp.Product
	if p.ID == "" || p.Title == "" || !catalog.IsCategory(p.Category) {
		return p, fmt.Errorf("fixture product %q: id, title and a valid category are required", p.ID)
	}
	if p.Availability == "" {
		p.Availability = catalog.InStock
	}
	if p.ProductType == "" {
		p.ProductType = catalog.TypeProduct
	}
	if len(p.Offers) == 0 {
		p.Offers = []catalog.Offer{{ID: p.ID + "-currys", Source: "Currys", Price: p.Price,
			Availability: p.Availability, Stock: p.Stock, DeliveryTime: p.DeliveryTime}}
	}
	for i := range p.Offers {
		o := &p.Offers[i]
		if o.Title == "" {
			o.Title = p.Title
		}
		if o.Currency == "" {
			o.Currency = catalog.Currency
		}
		if o.Availability == "" {
			o.Availability = catalog.InStock
		}
		if o.PurchaseURL == "" {
			o.PurchaseURL = "https://" + strings.ToLower(strings.ReplaceAll(o.Source, " ", "")) + ".example/p/" + o.ID
		}
		if o.LastUpdated.IsZero() {
			o.LastUpdated = sync
		}
	}
	slices.SortStableFunc(p.Offers, func(a, b catalog.Offer) int {
		switch {
		case a.Price < b.Price:
			return -1
		case a.Price > b.Price:
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	cheapest := p.Offers[0]
	p.Price = cheapest.Price
	p.Currency = catalog.Currency
	p.PurchaseURL = cheapest.PurchaseURL
	if fp.Product.Availability == "" {
		p.Availability = cheapest.Availability
	}
	if p.Stock == nil {
		p.Stock = cheapest.Stock
	}
	if p.DeliveryTime == "" {
		p.DeliveryTime = cheapest.DeliveryTime
	}
	p.OfferCount = len(p.Offers)
	if !fp.NoImage && p.ImageURL == "" {
		p.ImageURL = "https://images.example/" + p.ID + ".jpg"
	}
	p.Provenance = catalog.Provenance{Source: cheapest.Source, LastUpdated: cheapest.LastUpdated}
	retailers := make([]string, 0, len(p.Offers)+len(defaultRetailers))
	for _, o := range p.Offers {
		if !slices.Contains(retailers, o.Source) {
			retailers = append(retailers, o.Source)
		}
	}
	for _, r := range defaultRetailers {
		if !slices.Contains(retailers, r) {
			retailers = append(retailers, r)
		}
	}
	p.Attributes = map[string]catalog.Attribute{}
	for name, raw := range fp.Attributes {
		if !catalog.IsAttribute(name) {
			return p, fmt.Errorf("fixture product %s: unknown attribute %q", p.ID, name)
		}
		a, err := fillAttribute(raw, retailers)
		if err != nil {
			return p, fmt.Errorf("fixture product %s attribute %s: %w", p.ID, name, err)
		}
		p.Attributes[name] = a
	}
	return p, nil
}

func source(r string) catalog.Source { return catalog.Source{Retailer: r, Field: catalog.FieldTitle} }

func fillAttribute(raw json.RawMessage, retailers []string) (catalog.Attribute, error) {
	var v float64
	if err := json.Unmarshal(raw, &v); err == nil {
		return catalog.Attribute{Status: catalog.Inferred, Value: v, Sources: []catalog.Source{source(retailers[0])}}, nil
	}
	var a catalog.Attribute
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, err
	}
	switch a.Status {
	case catalog.Inferred:
		if a.Sources == nil {
			a.Sources = []catalog.Source{source(retailers[0])}
		}
	case catalog.Confirmed:
		if a.Sources == nil {
			a.Sources = []catalog.Source{source(retailers[0]), source(retailers[1])}
		}
	case catalog.Conflicting:
		for i := range a.Values {
			if a.Values[i].Sources == nil {
				a.Values[i].Sources = []catalog.Source{source(retailers[i%len(retailers)])}
			}
		}
	default:
		return a, fmt.Errorf("unknown status %q", a.Status)
	}
	return a, nil
}

// BulkSize is the number of products in BulkSnapshot: more than the
// 2,000 candidates checked against constraints.
const BulkSize = 2050

// BulkSnapshot generates a catalog of BulkSize USB-C cables in Cables &
// Chargers, "bulk-0000" to "bulk-2049", priced £1.00, £1.01, ... in id
// order. Product i states power_w 60 when i%3 == 0, power_w 30 when
// i%3 == 1 and no power when i%3 == 2.
func BulkSnapshot() *catalog.Snapshot {
	sync := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	s := &catalog.Snapshot{Manifest: catalog.Manifest{
		Format: catalog.SnapshotFormat, Version: catalog.SnapshotVersion, SyncTime: sync, Products: BulkSize, Offers: BulkSize,
		Retailers:  map[string]catalog.RetailerStats{"Currys": {Offers: BulkSize}},
		Categories: map[string]int{"Cables & Chargers": BulkSize}, Rejected: map[string]int{},
	}}
	for i := range BulkSize {
		id := fmt.Sprintf("bulk-%04d", i)
		price := float64(100+i) / 100
		title := fmt.Sprintf("Generic USB-C Cable 1m Model %04d", i)
		url := "https://currys.example/p/" + id
		p := catalog.Product{
			ID: id, Title: title, Brand: "Generic", Price: price, Currency: catalog.Currency,
			Availability: catalog.InStock, Category: "Cables & Chargers", ProductType: catalog.TypeProduct,
			Attributes: map[string]catalog.Attribute{}, Provenance: catalog.Provenance{Source: "Currys", LastUpdated: sync},
			PurchaseURL: url, OfferCount: 1,
			Offers: []catalog.Offer{{ID: id + "-currys", Source: "Currys", Title: title, Price: price, Currency: catalog.Currency,
				Availability: catalog.InStock, PurchaseURL: url, LastUpdated: sync}},
		}
		switch i % 3 {
		case 0:
			p.Attributes[catalog.PowerW] = catalog.Attribute{Status: catalog.Inferred, Value: 60, Sources: []catalog.Source{source("Currys")}}
		case 1:
			p.Attributes[catalog.PowerW] = catalog.Attribute{Status: catalog.Inferred, Value: 30, Sources: []catalog.Source{source("Currys")}}
		}
		s.Products = append(s.Products, p)
	}
	return s
}
