// Package normalize turns a retailer feed record into a catalog listing:
// prices parsed into GBP, availability and stock decided, links checked,
// barcodes validated, brands given one spelling, text cleaned, and rows the
// catalog must not hold (no id or title, no valid price, another currency,
// not new, no valid link) rejected with a reason.
package normalize

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"productsearch/internal/catalog"
	"productsearch/internal/feed"
)

// DefaultLowStockThreshold is the stock count at or below which an offer is
// low_stock, when Options leave it zero.
const DefaultLowStockThreshold = 5

// Options tune normalisation. The zero value uses the defaults.
type Options struct {
	// LowStockThreshold: a stock count from 1 to this is low_stock.
	// Zero means DefaultLowStockThreshold; a negative value turns counts
	// into low_stock never.
	LowStockThreshold int
}

func (o Options) threshold() int {
	switch {
	case o.LowStockThreshold == 0:
		return DefaultLowStockThreshold
	case o.LowStockThreshold < 0:
		return 0
	}
	return o.LowStockThreshold
}

// Retailer names the retailer a feed belongs to.
type Retailer struct {
	Name string // display name, the offers' source
	Slug string // lower-case [a-z0-9-], prefixes the offer ids
}

// Validate checks that the retailer has a name and a valid slug.
func (r Retailer) Validate() error {
	if strings.TrimSpace(r.Name) == "" {
		return errors.New("retailer has no name")
	}
	if !validSlug(r.Slug) {
		return fmt.Errorf("retailer %s: slug %q must be lower-case letters, digits and inner hyphens", r.Name, r.Slug)
	}
	return nil
}

func validSlug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Reasons a row is rejected, the Rejection.Reason values.
const (
	ReasonMissingID    = "missing_id"    // no merchant product id
	ReasonMissingTitle = "missing_title" // no title left after cleaning
	ReasonBadPrice     = "bad_price"     // price missing, unparseable, zero, negative or implausibly large
	ReasonNonGBP       = "non_gbp"       // a currency field or price in a currency other than GBP
	ReasonNotNew       = "not_new"       // refurbished, used, open-box, ex-display or graded stock
	ReasonBadURL       = "bad_url"       // purchase link missing or not an absolute http(s) URL
)

var reasons = [...]string{ReasonMissingID, ReasonMissingTitle, ReasonBadPrice, ReasonNonGBP, ReasonNotNew, ReasonBadURL}

// Reasons returns every rejection reason.
func Reasons() []string { return slices.Clone(reasons[:]) }

// Rejection is the error for a row the catalog must not hold. The caller
// counts it by Reason and goes on with the next row.
type Rejection struct {
	Reason string // one of the Reason constants
	Detail string // what was wrong, with the offending value
}

func (r *Rejection) Error() string {
	if r.Detail == "" {
		return "rejected: " + r.Reason
	}
	return "rejected: " + r.Reason + ": " + r.Detail
}

func reject(reason, format string, args ...any) *Rejection {
	return &Rejection{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// Listing normalises one feed record of retailer r. The error is a
// *Rejection for a row to skip, or a plain error when r is invalid.
//
// Rows are rejected, in this order, for: no id (missing_id); no title
// (missing_title); a condition field or title that marks refurbished, used,
// open-box, ex-display or graded stock (not_new); a currency field, price or
// sale price not in GBP (non_gbp); no valid price (bad_price); no absolute
// http(s) purchase link (bad_url).
//
// The price is the sale price when a valid one below the regular price is
// given, else the regular price (the sale price alone when there is none).
// Availability: the feed's state ("in stock", "1", "preorder", "limited",
// ...) unless a stock count decides: 0 is out_of_stock, 1 to the low-stock
// threshold low_stock, more in_stock, except that a listing the feed calls
// out of stock (or pre-order, back-order) stays out_of_stock; with neither a
// state nor a count it is in_stock. A bad image link, a GTIN that fails its
// check, a placeholder brand, MPN or model number ("N/A", "none",
// "Unbranded", ...) and an unparseable last-updated time are dropped.
func Listing(rec feed.Record, r Retailer, opt Options) (catalog.Listing, error) {
	if err := r.Validate(); err != nil {
		return catalog.Listing{}, err
	}
	id := strings.TrimSpace(rec.ID)
	if id == "" {
		return catalog.Listing{}, reject(ReasonMissingID, "the record has no id")
	}
	name := title(rec.Title)
	if name == "" {
		return catalog.Listing{}, reject(ReasonMissingTitle, "the record has no title")
	}
	if why, used := notNew(rec.Condition, name); used {
		return catalog.Listing{}, reject(ReasonNotNew, "%s", why)
	}
	price, rej := offerPrice(rec)
	if rej != nil {
		return catalog.Listing{}, rej
	}
	link, ok := httpURL(rec.Link)
	if !ok {
		if strings.TrimSpace(rec.Link) == "" {
			return catalog.Listing{}, reject(ReasonBadURL, "no purchase link")
		}
		return catalog.Listing{}, reject(ReasonBadURL, "purchase link %q is not an absolute http(s) URL", short(rec.Link))
	}
	image, _ := httpURL(rec.ImageLink)
	avail, stock := availability(rec.Availability, rec.Stock, opt.threshold())
	gtin, _ := GTIN(rec.GTIN)
	return catalog.Listing{
		Retailer:     r.Name,
		OfferID:      OfferID(r.Slug, id),
		MerchantID:   id,
		Row:          rec.Row,
		Title:        name,
		Description:  description(rec.Description),
		Price:        price,
		Availability: avail,
		Stock:        stock,
		DeliveryTime: text(rec.DeliveryTime),
		URL:          link,
		ImageURL:     image,
		GTIN:         gtin,
		MPN:          identifier(rec.MPN),
		ModelNumber:  identifier(rec.ModelNumber),
		Brand:        Brand(rec.Brand),
		Colour:       text(rec.Colour),
		CategoryPath: text(rec.CategoryPath),
		TaxonomyID:   text(rec.TaxonomyID),
		Dimensions:   text(rec.Dimensions),
		LastUpdated:  lastUpdated(rec.LastUpdated),
	}, nil
}

// offerPrice decides the price a buyer pays now, in GBP.
func offerPrice(rec feed.Record) (float64, *Rejection) {
	if cur, ok := currencyCode(rec.Currency); !ok || cur != "" && cur != catalog.Currency {
		return 0, reject(ReasonNonGBP, "currency %q is not GBP", short(rec.Currency))
	}
	regular, regCur, regErr := parseMoney(rec.Price)
	sale, saleCur, saleErr := parseMoney(rec.SalePrice)
	if regCur != "" && regCur != catalog.Currency {
		return 0, reject(ReasonNonGBP, "price %q is in %s", short(rec.Price), regCur)
	}
	if saleCur != "" && saleCur != catalog.Currency {
		return 0, reject(ReasonNonGBP, "sale price %q is in %s", short(rec.SalePrice), saleCur)
	}
	switch {
	case regErr == nil && saleErr == nil && sale < regular:
		return sale, nil
	case regErr == nil:
		return regular, nil
	case strings.TrimSpace(rec.Price) == "" && saleErr == nil:
		return sale, nil
	}
	return 0, reject(ReasonBadPrice, "%v", regErr)
}

// identifier trims a part or model number, keeping its case, and drops
// placeholders such as "N/A".
func identifier(s string) string {
	s = text(s)
	if isPlaceholder(s) {
		return ""
	}
	return s
}

// isPlaceholder reports whether s is a feed's way of saying "no value".
func isPlaceholder(s string) bool {
	switch strings.ToLower(strings.Trim(s, " .")) {
	case "", "-", "--", "n/a", "na", "n.a", "none", "null", "nil", "unknown", "not applicable",
		"does not apply", "not available", "no brand", "unbranded", "generic", "other", "0":
		return true
	}
	return false
}

// short cuts a value quoted in a rejection detail to 80 characters.
func short(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= 80 {
		return s
	}
	r := []rune(s)
	return string(r[:79]) + "…"
}
