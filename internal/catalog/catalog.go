// Package catalog holds the domain types of the product catalog: products,
// retailer offers, title-derived attributes and the snapshot that carries them
// from the indexer to the search engines. It imports nothing else from this
// module, so every other package can depend on it.
package catalog

import (
	"slices"
	"strings"
	"time"
)

// Currency is the only currency the catalog holds.
const Currency = "GBP"

// Availability is the stock state of a product or offer.
type Availability string

// The three availability states of the interface.
const (
	InStock    Availability = "in_stock"
	LowStock   Availability = "low_stock"
	OutOfStock Availability = "out_of_stock"
)

// Valid reports whether a is one of the three availability states.
func (a Availability) Valid() bool {
	return a == InStock || a == LowStock || a == OutOfStock
}

// ProductType tells a device from an accessory that fits one.
type ProductType string

// The two product types of the interface.
const (
	TypeProduct   ProductType = "product"
	TypeAccessory ProductType = "accessory"
)

// Attribute statuses.
const (
	Confirmed   = "confirmed"
	Inferred    = "inferred"
	Conflicting = "conflicting"
)

// FieldTitle is the only field attributes are read from.
const FieldTitle = "title"

// Source names the retailer listing field a value was read from.
type Source struct {
	Retailer string `json:"retailer"`
	Field    string `json:"field"`
}

// StatedValue is one of several values retailers state for a conflicting
// attribute, with the retailers that state it.
type StatedValue struct {
	Value   float64  `json:"value"`
	Sources []Source `json:"sources,omitempty"`
}

// Attribute is a spec read from retailer titles with its confidence status.
// Value and Sources are set for confirmed and inferred attributes; Values only
// for conflicting ones. Attribute values are always positive, so a zero Value
// means "absent".
type Attribute struct {
	Status  string        `json:"status"`
	Value   float64       `json:"value,omitempty"`
	Sources []Source      `json:"sources,omitempty"`
	Values  []StatedValue `json:"values,omitempty"`
}

// Stated returns every value retailers state for the attribute: one for a
// confirmed or inferred attribute, several for a conflicting one.
func (a Attribute) Stated() []float64 {
	if a.Status != Conflicting {
		return []float64{a.Value}
	}
	out := make([]float64, len(a.Values))
	for i, v := range a.Values {
		out[i] = v.Value
	}
	return out
}

// Observation is one retailer title stating one value for one attribute.
type Observation struct {
	Retailer string
	Value    float64
}

// BuildAttribute derives an attribute from what retailer titles state, by the
// status rules of the interface: one value stated by two or more retailers is
// confirmed, by one retailer inferred; different values are conflicting.
// It reports false when there are no observations.
func BuildAttribute(obs []Observation) (Attribute, bool) {
	if len(obs) == 0 {
		return Attribute{}, false
	}
	byValue := map[float64][]string{}
	for _, o := range obs {
		if !slices.Contains(byValue[o.Value], o.Retailer) {
			byValue[o.Value] = append(byValue[o.Value], o.Retailer)
		}
	}
	values := make([]float64, 0, len(byValue))
	for v := range byValue {
		values = append(values, v)
	}
	slices.Sort(values)
	sources := func(v float64) []Source {
		names := byValue[v]
		slices.Sort(names)
		out := make([]Source, len(names))
		for i, n := range names {
			out[i] = Source{Retailer: n, Field: FieldTitle}
		}
		return out
	}
	if len(values) == 1 {
		status := Inferred
		if len(byValue[values[0]]) >= 2 {
			status = Confirmed
		}
		return Attribute{Status: status, Value: values[0], Sources: sources(values[0])}, true
	}
	a := Attribute{Status: Conflicting}
	for _, v := range values {
		a.Values = append(a.Values, StatedValue{Value: v, Sources: sources(v)})
	}
	return a, true
}

// Specs holds retailer-supplied details that are not attributes.
type Specs struct {
	Description string `json:"description,omitempty"`
	ModelNumber string `json:"model_number,omitempty"`
	Dimensions  string `json:"dimensions,omitempty"`
}

// Provenance says where a product's canonical price comes from.
type Provenance struct {
	Source      string    `json:"source"`
	LastUpdated time.Time `json:"last_updated"`
}

// Offer is one retailer's listing of a product.
type Offer struct {
	ID           string       `json:"id"`
	Source       string       `json:"source"`
	Title        string       `json:"title"`
	Price        float64      `json:"price"`
	Currency     string       `json:"currency"`
	Availability Availability `json:"availability"`
	Stock        *int         `json:"stock,omitempty"`
	DeliveryTime string       `json:"delivery_time,omitempty"`
	PurchaseURL  string       `json:"purchase_url"`
	ImageURL     string       `json:"image_url,omitempty"`
	LastUpdated  time.Time    `json:"last_updated"`
}

// Product is the canonical record of one product with every retailer offer.
// Price, availability, stock, delivery time and purchase URL come from the
// cheapest offer; Offers are sorted by price ascending.
type Product struct {
	ID           string               `json:"id"`
	Title        string               `json:"title"`
	Brand        string               `json:"brand,omitempty"`
	Price        float64              `json:"price"`
	Currency     string               `json:"currency"`
	Availability Availability         `json:"availability"`
	Stock        *int                 `json:"stock,omitempty"`
	DeliveryTime string               `json:"delivery_time,omitempty"`
	ImageURL     string               `json:"image_url,omitempty"`
	Category     string               `json:"category"`
	ProductType  ProductType          `json:"product_type"`
	Specs        Specs                `json:"specs"`
	Attributes   map[string]Attribute `json:"attributes"`
	Provenance   Provenance           `json:"provenance"`
	PurchaseURL  string               `json:"purchase_url"`
	OfferCount   int                  `json:"offer_count"`
	Offers       []Offer              `json:"offers"`
}

// NormalizeBrand folds a brand for case-insensitive comparison.
func NormalizeBrand(brand string) string {
	return strings.ToLower(strings.TrimSpace(brand))
}
