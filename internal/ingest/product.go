package ingest

import (
	"cmp"
	"crypto/sha256"
	"encoding/base32"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
)

// placed is a product of the new catalog as it is known before it is
// built: its group of listings, its anchor, the previous products of its
// offers, its id, and, once built, where its snapshot line waits in the
// spill.
type placed struct {
	group int
	// prevPIDs are the previous snapshot's products of its offers, one
	// per offer that had one.
	prevPIDs []string
	anchor   string // the smallest identifier of the group, for new ids and ordering
	id       string
	line     spillRef
}

// build makes the canonical product of one group of listings; its id is
// left to the caller.
func build(es []*entry) *catalog.Product {
	classes := make([]classify.Result, len(es))
	for i, e := range es {
		classes[i] = e.class
	}
	cls := classify.Combine(classes)
	p := &catalog.Product{}
	p.Category, p.ProductType = cls.Category, cls.Type
	if p.Category == "" {
		return p
	}

	p.Offers = make([]catalog.Offer, len(es))
	for i, e := range es {
		l := e.listing
		p.Offers[i] = catalog.Offer{
			ID: l.OfferID, Source: l.Retailer, Title: l.Title, Price: l.Price, Currency: catalog.Currency,
			Availability: l.Availability, Stock: l.Stock, DeliveryTime: l.DeliveryTime,
			PurchaseURL: l.URL, ImageURL: l.ImageURL, LastUpdated: l.LastUpdated,
		}
	}
	slices.SortStableFunc(p.Offers, func(a, b catalog.Offer) int {
		return cmp.Or(cmp.Compare(a.Price, b.Price), strings.Compare(a.Source, b.Source), strings.Compare(a.ID, b.ID))
	})
	cheapest := p.Offers[0]
	p.Price, p.Currency = cheapest.Price, catalog.Currency
	p.Availability, p.Stock, p.DeliveryTime = cheapest.Availability, cheapest.Stock, cheapest.DeliveryTime
	p.PurchaseURL = cheapest.PurchaseURL
	p.OfferCount = len(p.Offers)
	p.Provenance = catalog.Provenance{Source: cheapest.Source, LastUpdated: cheapest.LastUpdated}
	for _, o := range p.Offers {
		if o.LastUpdated.After(p.Provenance.LastUpdated) {
			p.Provenance.LastUpdated = o.LastUpdated
		}
		if p.ImageURL == "" {
			p.ImageURL = o.ImageURL
		}
	}

	p.Brand = majority(es, func(e *entry) string { return e.listing.Brand })
	p.Specs = catalog.Specs{
		ModelNumber: majority(es, func(e *entry) string { return cmp.Or(e.listing.ModelNumber, e.listing.MPN) }),
		Dimensions:  majority(es, func(e *entry) string { return e.listing.Dimensions }),
	}
	for _, e := range es {
		if len(e.listing.Description) > len(p.Specs.Description) {
			p.Specs.Description = e.listing.Description
		}
	}

	// Specs are read again under the product's agreed category when a
	// listing's own classification differed: a lone "256GB" is storage on a
	// phone but ambiguous on a laptop.
	ctx := extract.Context{Category: p.Category, Accessory: p.ProductType == catalog.TypeAccessory}
	obs := map[string][]catalog.Observation{}
	for _, e := range es {
		specs := e.specs
		if e.class != cls {
			specs = extract.Title(e.listing.Title, ctx)
		}
		for name, v := range specs {
			obs[name] = append(obs[name], catalog.Observation{Retailer: e.listing.Retailer, Value: v})
		}
	}
	p.Attributes = make(map[string]catalog.Attribute, len(obs))
	for name, o := range obs {
		if a, ok := catalog.BuildAttribute(o); ok {
			p.Attributes[name] = a
		}
	}
	p.Title = representativeTitle(es, p.Brand, mostStated(p.Attributes))
	return p
}

// anchorOf is the smallest GTIN of the listings group, or failing that
// their smallest offer id.
func anchorOf(o *offers, group []int) string {
	var gtin, offer string
	for _, i := range group {
		if g := o.gtin(i); g != "" && (gtin == "" || g < gtin) {
			gtin = g
		}
		if id := o.offerID(i); offer == "" || id < offer {
			offer = id
		}
	}
	if gtin != "" {
		return "gtin:" + gtin
	}
	return "offer:" + offer
}

// majority returns the most common non-empty value, ties broken by the
// lexically smallest.
func majority(es []*entry, value func(*entry) string) string {
	counts := map[string]int{}
	for _, e := range es {
		if v := value(e); v != "" {
			counts[v]++
		}
	}
	best, bestN := "", 0
	for v, n := range counts {
		if n > bestN || (n == bestN && v < best) {
			best, bestN = v, n
		}
	}
	return best
}

// representativeTitle picks the cleanest title among a product's listings:
// one that several retailers agree on, starts with the brand, states no spec
// value that most retailers contradict, and is neither shouted, decorated nor
// overlong.
func representativeTitle(es []*entry, brand string, agreed map[string]float64) string {
	counts := map[string]int{}
	dissent := map[string]int{}
	for _, e := range es {
		t := e.listing.Title
		counts[t]++
		for name, v := range e.specs {
			if want, ok := agreed[name]; ok && v != want {
				dissent[t] = 1
			}
		}
	}
	best, bestScore := "", 0
	for t, n := range counts {
		s := titleScore(t, brand) + 2*n - 10*dissent[t]
		if best == "" || s > bestScore || (s == bestScore && (len(t) < len(best) || (len(t) == len(best) && t < best))) {
			best, bestScore = t, s
		}
	}
	return best
}

// mostStated maps each attribute to the value most retailers state: the
// value of a confirmed or inferred attribute, or the strictly most supported
// value of a conflicting one (none on a tie).
func mostStated(attrs map[string]catalog.Attribute) map[string]float64 {
	out := make(map[string]float64, len(attrs))
	for name, a := range attrs {
		if a.Status != catalog.Conflicting {
			out[name] = a.Value
			continue
		}
		best, bestN, tie := 0.0, 0, false
		for _, v := range a.Values {
			switch n := len(v.Sources); {
			case n > bestN:
				best, bestN, tie = v.Value, n, false
			case n == bestN:
				tie = true
			}
		}
		if !tie {
			out[name] = best
		}
	}
	return out
}

func titleScore(t, brand string) int {
	s := 0
	if brand != "" && strings.HasPrefix(strings.ToLower(t), strings.ToLower(brand)) {
		s += 3
	}
	if n := len(t); n > 100 {
		s -= (n - 100) / 10
	} else if n < 15 {
		s -= 3
	}
	for _, w := range strings.Fields(t) {
		if len(w) > 4 && strings.IndexFunc(w, unicode.IsLower) < 0 && strings.IndexFunc(w, unicode.IsLetter) >= 0 &&
			strings.IndexFunc(w, unicode.IsDigit) < 0 {
			s -= 2 // a shouted word such as "SALE" or "LAPTOP"
		}
	}
	if strings.ContainsAny(t, "!|★*") {
		s -= 3
	}
	return s
}

// assignIDs gives every product an id. A product keeps the id of the
// previous product that most of its offers belonged to; each old id goes to
// one product at most (the one holding most of its offers). Other products
// get an id derived from their anchor, so a sync over the same feeds yields
// the same ids even without a previous snapshot. It returns how many ids were
// carried over.
func assignIDs(products []*placed) int {
	slices.SortFunc(products, func(a, b *placed) int { return strings.Compare(a.anchor, b.anchor) })
	type claim struct {
		product int
		pid     string
		n       int
	}
	var claims []claim
	for i, b := range products {
		counts := map[string]int{}
		for _, pid := range b.prevPIDs {
			counts[pid]++
		}
		for pid, n := range counts {
			claims = append(claims, claim{i, pid, n})
		}
	}
	slices.SortFunc(claims, func(a, b claim) int {
		return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.pid, b.pid), cmp.Compare(a.product, b.product))
	})
	used := map[string]bool{}
	carried := 0
	for _, c := range claims {
		p := products[c.product]
		if p.id != "" || used[c.pid] {
			continue
		}
		p.id, used[c.pid] = c.pid, true
		carried++
	}
	for _, b := range products {
		if b.id != "" {
			continue
		}
		for salt := 0; ; salt++ {
			id := newID(b.anchor, salt)
			if !used[id] {
				b.id, used[id] = id, true
				break
			}
		}
	}
	return carried
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID derives a URL-safe product id from an anchor.
func newID(anchor string, salt int) string {
	key := anchor
	if salt > 0 {
		key += "#" + strconv.Itoa(salt)
	}
	sum := sha256.Sum256([]byte(key))
	return "p" + idEncoding.EncodeToString(sum[:8])[:12]
}
