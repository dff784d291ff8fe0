package normalize

import (
	"strconv"
	"strings"

	"productsearch/internal/catalog"
)

// stockState is what a feed's availability text says.
type stockState int

const (
	stateUnknown stockState = iota // empty or unrecognised
	stateIn
	stateLow
	stateOut
)

// parseState reads an availability text: Google's values ("in stock",
// "out of stock", "preorder", "backorder"), Awin's in_stock flag ("1", "0",
// "yes", "no"), booleans, schema.org URLs (".../InStock") and common
// phrases. Pre-orders and back-orders cannot be bought for delivery now and
// count as out of stock.
func parseState(s string) stockState {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range []string{"https://schema.org/", "http://schema.org/"} {
		s = strings.TrimPrefix(s, p)
	}
	s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return ' '
		}
		return r
	}, s)), " ")
	switch s {
	case "in stock", "instock", "yes", "y", "1", "true", "available", "in stock online", "available online":
		return stateIn
	case "limited", "low stock", "limited stock", "limited availability", "limitedavailability", "last few", "few left":
		return stateLow
	case "out of stock", "outofstock", "no", "n", "0", "false", "sold out", "soldout", "unavailable",
		"not available", "discontinued", "preorder", "pre order", "backorder", "back order":
		return stateOut
	}
	return stateUnknown
}

// parseStock reads a stock count: a whole number, possibly written "1,000",
// "10+" or "3.0". It reports false for anything else or a negative count.
func parseStock(s string) (int, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, "+")
	s = strings.ReplaceAll(s, ",", "")
	if whole, frac, ok := strings.Cut(s, "."); ok && strings.Trim(frac, "0") == "" {
		s = whole
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || strings.HasPrefix(s, "+") {
		return 0, false
	}
	return n, true
}

// availability decides an offer's availability and stock. A stock count,
// when given, decides: 0 is out_of_stock; 1 to threshold is low_stock unless
// the feed says out of stock; above it in_stock unless the feed says out of
// stock (a count never makes a listing the retailer calls unavailable
// buyable). Without a count the feed's state stands; a listing with neither
// is in_stock, since a feed lists what the retailer sells.
func availability(state, stock string, threshold int) (catalog.Availability, *int) {
	st := parseState(state)
	n, ok := parseStock(stock)
	if !ok {
		switch st {
		case stateLow:
			return catalog.LowStock, nil
		case stateOut:
			return catalog.OutOfStock, nil
		}
		return catalog.InStock, nil
	}
	count := &n
	switch {
	case n == 0 || st == stateOut:
		return catalog.OutOfStock, count
	case n <= threshold:
		return catalog.LowStock, count
	}
	return catalog.InStock, count
}
