package catalog

import "time"

// Listing is one retailer listing after normalisation: the unit the indexer
// classifies, reads specs from and groups into products.
type Listing struct {
	Retailer     string // retailer display name, the offer's source
	OfferID      string // retailer-scoped, URL-safe offer id
	MerchantID   string // the retailer's own product id, as in the feed
	Row          int    // record number in the feed, for reports
	Title        string
	Description  string
	Price        float64 // GBP, the price a buyer pays now (sale price when set)
	Availability Availability
	Stock        *int
	DeliveryTime string
	URL          string // absolute http(s) purchase link
	ImageURL     string // absolute http(s) image link, or empty
	GTIN         string // check-digit-valid GTIN as 14 digits, or empty
	MPN          string
	ModelNumber  string
	Brand        string // canonical brand spelling, or empty
	Colour       string
	CategoryPath string // the retailer's own category text, e.g. "Computing > Laptops"
	TaxonomyID   string // Google product category id when the feed gives one
	Dimensions   string
	LastUpdated  time.Time
}
