package feed

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// googleNS is the namespace of Google Merchant Center attributes.
const googleNS = "http://base.google.com/ns/1.0"

// googleItem is one product of a Google Merchant Center feed, XML or TSV,
// by attribute name. Where an attribute repeats, the first non-empty value
// is kept.
type googleItem struct {
	ID, PlainID              string // g:id; a plain <id> (Atom) as the fallback
	Title, GTitle            string // title; g:title
	Description, GDesc       string // description; g:description
	Link, ImageLink          string
	Availability             string
	Price, SalePrice         string
	SalePriceEffectiveDate   string
	Brand, GTIN, MPN         string
	Condition                string
	GoogleProductCategory    string
	ProductType              string
	Quantity, SellOnQuantity string // g:quantity; g:sell_on_google_quantity
	Color                    string
	MinHandling, MaxHandling string // item-level g:min_handling_time / g:max_handling_time
	Length, Width, Height    string // g:product_length / _width / _height
	Updated                  string // Atom <updated> or RSS <pubDate>
	Shipping                 []googleShipping
}

// googleShipping is one g:shipping group.
type googleShipping struct {
	Country         string `xml:"country"`
	Service         string `xml:"service"`
	Price           string `xml:"price"`
	MinHandlingTime string `xml:"min_handling_time"`
	MaxHandlingTime string `xml:"max_handling_time"`
	MinTransitTime  string `xml:"min_transit_time"`
	MaxTransitTime  string `xml:"max_transit_time"`
}

func (s *googleShipping) clean() {
	for _, p := range []*string{&s.Country, &s.Service, &s.Price, &s.MinHandlingTime, &s.MaxHandlingTime, &s.MinTransitTime, &s.MaxTransitTime} {
		*p = field(*p)
	}
}

// slot returns the field of a Google attribute name (lower-case, without the
// "g:" prefix), or nil for an attribute the reader does not use; plain tells
// an un-prefixed XML element from a g: one.
func (it *googleItem) slot(name string, plain bool) *string {
	var dst *string
	switch name {
	case "id":
		dst = &it.ID
		if plain {
			dst = &it.PlainID
		}
	case "title":
		dst = &it.GTitle
		if plain {
			dst = &it.Title
		}
	case "description":
		dst = &it.GDesc
		if plain {
			dst = &it.Description
		}
	case "link":
		dst = &it.Link
	case "image_link":
		dst = &it.ImageLink
	case "availability":
		dst = &it.Availability
	case "price":
		dst = &it.Price
	case "sale_price":
		dst = &it.SalePrice
	case "sale_price_effective_date":
		dst = &it.SalePriceEffectiveDate
	case "brand":
		dst = &it.Brand
	case "gtin":
		dst = &it.GTIN
	case "mpn":
		dst = &it.MPN
	case "condition":
		dst = &it.Condition
	case "google_product_category":
		dst = &it.GoogleProductCategory
	case "product_type":
		dst = &it.ProductType
	case "quantity":
		dst = &it.Quantity
	case "sell_on_google_quantity":
		dst = &it.SellOnQuantity
	case "color", "colour":
		dst = &it.Color
	case "min_handling_time":
		dst = &it.MinHandling
	case "max_handling_time":
		dst = &it.MaxHandling
	case "product_length":
		dst = &it.Length
	case "product_width":
		dst = &it.Width
	case "product_height":
		dst = &it.Height
	case "updated", "pubdate":
		dst = &it.Updated
	}
	return dst
}

// set stores value in the field of a Google attribute unless the field
// already holds a value.
func (it *googleItem) set(name string, plain bool, value string) {
	if dst := it.slot(name, plain); dst != nil && *dst == "" {
		*dst = field(value)
	}
}

// record adapts a Google item to a Record. now decides whether a sale price
// with an effective-date window applies.
func (it *googleItem) record(row int, now time.Time) Record {
	rec := Record{
		Row:          row,
		ID:           firstOf(it.ID, it.PlainID),
		Title:        firstOf(it.Title, it.GTitle),
		Description:  firstOf(it.Description, it.GDesc),
		Price:        it.Price,
		SalePrice:    it.SalePrice,
		Availability: it.Availability,
		Stock:        firstOf(it.Quantity, it.SellOnQuantity),
		DeliveryTime: it.delivery(),
		Link:         it.Link,
		ImageLink:    it.ImageLink,
		GTIN:         it.GTIN,
		MPN:          it.MPN,
		Brand:        it.Brand,
		Colour:       it.Color,
		CategoryPath: it.ProductType,
		TaxonomyID:   it.GoogleProductCategory,
		Condition:    it.Condition,
		LastUpdated:  it.Updated,
	}
	if it.Length != "" && it.Width != "" && it.Height != "" {
		rec.Dimensions = it.Length + " x " + it.Width + " x " + it.Height
	}
	if !saleActive(it.SalePriceEffectiveDate, now) {
		rec.SalePrice = ""
	}
	return rec
}

// delivery builds a delivery text from the handling and transit times of the
// UK shipping group (else the first group), e.g. "Free delivery in 2-4
// business days" or "Dispatched within 1 business day". It is empty when the
// feed gives neither times nor free shipping.
func (it *googleItem) delivery() string {
	var s googleShipping
	if len(it.Shipping) > 0 {
		s = it.Shipping[0]
	}
	for _, g := range it.Shipping {
		if strings.EqualFold(g.Country, "GB") || strings.EqualFold(g.Country, "UK") {
			s = g
			break
		}
	}
	minH, okMinH := days(firstOf(s.MinHandlingTime, it.MinHandling))
	maxH, okMaxH := days(firstOf(s.MaxHandlingTime, it.MaxHandling))
	minT, okMinT := days(s.MinTransitTime)
	maxT, okMaxT := days(s.MaxTransitTime)
	if !okMaxH && okMinH {
		maxH, okMaxH = minH, true
	}
	if !okMaxT && okMinT {
		maxT, okMaxT = minT, true
	}
	if !okMinT {
		minT = maxT
	}
	free := isZeroPrice(s.Price)
	switch {
	case okMaxT && free:
		return "Free delivery in " + dayRange(minH+minT, maxH+maxT)
	case okMaxT:
		return "Delivery in " + dayRange(minH+minT, maxH+maxT)
	case okMaxH && free:
		return "Free delivery, dispatched within " + dayRange(maxH, maxH)
	case okMaxH:
		return "Dispatched within " + dayRange(maxH, maxH)
	case free:
		return "Free delivery"
	}
	return ""
}

func dayRange(lo, hi int) string {
	if hi < lo {
		hi = lo
	}
	unit := "business days"
	if hi == 1 {
		unit = "business day"
	}
	if lo == hi {
		return fmt.Sprintf("%d %s", hi, unit)
	}
	return fmt.Sprintf("%d-%d %s", lo, hi, unit)
}

// days parses a whole number of days between 0 and 365.
func days(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 365 {
		return 0, false
	}
	return n, true
}

// isZeroPrice reports whether a shipping price such as "0.00 GBP" is zero.
func isZeroPrice(s string) bool {
	num := strings.TrimSpace(strings.TrimRightFunc(strings.TrimLeft(s, "£ "), func(r rune) bool {
		return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == ' '
	}))
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && f == 0
}

// saleActive reports whether a sale price applies at now, given a Google
// sale_price_effective_date "start/end" (ISO 8601). An absent or unreadable
// window means the sale price applies.
func saleActive(window string, now time.Time) bool {
	start, end, ok := strings.Cut(window, "/")
	if !ok {
		return true
	}
	if t, ok := parseISOTime(start); ok && now.Before(t) {
		return false
	}
	if t, ok := parseISOTime(end); ok && !now.Before(t) {
		return false
	}
	return true
}

func parseISOTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05Z0700", "2006-01-02T15:04Z0700", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseShipping reads a TSV shipping value, groups separated by commas, each
// "country:region:service:price" or with the sub-attributes named by the
// header, e.g. "shipping(country:price:max_handling_time)".
func parseShipping(value string, subattrs []string) []googleShipping {
	if len(subattrs) == 0 {
		subattrs = []string{"country", "region", "service", "price", "min_handling_time", "max_handling_time", "min_transit_time", "max_transit_time"}
	}
	var out []googleShipping
	for group := range strings.SplitSeq(value, ",") {
		if strings.TrimSpace(group) == "" {
			continue
		}
		var s googleShipping
		for i, part := range strings.Split(group, ":") {
			if i >= len(subattrs) {
				break
			}
			v := field(part)
			switch subattrs[i] {
			case "country":
				s.Country = v
			case "service":
				s.Service = v
			case "price":
				s.Price = v
			case "min_handling_time":
				s.MinHandlingTime = v
			case "max_handling_time":
				s.MaxHandlingTime = v
			case "min_transit_time":
				s.MinTransitTime = v
			case "max_transit_time":
				s.MaxTransitTime = v
			}
		}
		out = append(out, s)
	}
	return out
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
