package ingest

import (
	"time"
	"unique"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
	"productsearch/internal/match"
)

// offers are the listings of a sync as it holds them until their products
// are built: items[i] is what the matcher reads of listing i, sides[i] what
// else the sync needs in memory of it; the rest of the listing waits in the
// spill file. A listing's class is its item's category and accessory mark.
type offers struct {
	items []match.Item
	sides []side
}

// side is what a sync keeps in memory of a listing beside its match.Item.
type side struct {
	offerID string
	prevPID string    // the product this offer belonged to in the previous snapshot
	updated time.Time // the listing's LastUpdated
	rest    spillRef  // the listing's other fields (appendRest)
	hash    uint64    // listingHash of a listing read from a feed
	stale   bool      // carried over from the previous snapshot
}

// entry is one listing, whole again, while its product is built.
type entry struct {
	listing catalog.Listing
	class   classify.Result
	specs   extract.Values
}

// add appends listing l with its class and the specs read from its title,
// spilling what grouping does not read; buf is scratch space, returned for
// reuse. The strings kept are copied out of l (a feed reader's row buffer)
// into one allocation per listing; retailer, brand and colour names, which
// repeat, are kept once for the whole sync.
func (o *offers) add(sp *spill, l *catalog.Listing, cls classify.Result, specs extract.Values, s side, buf []byte) ([]byte, error) {
	buf = appendRest(buf[:0], l)
	ref, err := sp.append(buf)
	if err != nil {
		return buf, err
	}
	it := match.Item{
		Retailer: intern(l.Retailer), GTIN: l.GTIN, Brand: intern(l.Brand), MPN: l.MPN, ModelNumber: l.ModelNumber,
		Colour: intern(l.Colour), Title: l.Title, Specs: specs,
		Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory,
	}
	s.offerID, s.updated, s.rest = l.OfferID, l.LastUpdated, ref
	compactStrings(&s.offerID, &it.Title, &it.GTIN, &it.MPN, &it.ModelNumber)
	o.items = append(o.items, it)
	o.sides = append(o.sides, s)
	return buf, nil
}

// intern returns the one copy of s the process keeps.
func intern(s string) string {
	if s == "" {
		return s
	}
	return unique.Make(s).Value()
}

// class is the classification of listing i.
func (o *offers) class(i int) classify.Result {
	it := &o.items[i]
	r := classify.Result{Category: it.Category, Type: catalog.TypeProduct}
	if it.Accessory {
		r.Type = catalog.TypeAccessory
	}
	return r
}

// entry reads listing i back whole, its spilled fields from sp; buf is
// scratch space, returned for reuse.
func (o *offers) entry(i int, sp *spill, buf []byte) (*entry, []byte, error) {
	it, s := &o.items[i], &o.sides[i]
	e := &entry{
		listing: catalog.Listing{
			Retailer: it.Retailer, OfferID: s.offerID, Title: it.Title, GTIN: it.GTIN, MPN: it.MPN,
			ModelNumber: it.ModelNumber, Brand: it.Brand, Colour: it.Colour, LastUpdated: s.updated,
		},
		class: o.class(i),
		specs: it.Specs,
	}
	buf, err := sp.read(s.rest, buf)
	if err != nil {
		return nil, buf, err
	}
	if err := readRest(buf, &e.listing); err != nil {
		return nil, buf, err
	}
	return e, buf, nil
}

// concat joins the offers of several feeds, in order, emptying each.
func concat(parts []*offers) *offers {
	n := 0
	for _, p := range parts {
		n += len(p.items)
	}
	all := &offers{items: make([]match.Item, 0, n), sides: make([]side, 0, n)}
	for _, p := range parts {
		all.items = append(all.items, p.items...)
		all.sides = append(all.sides, p.sides...)
		*p = offers{}
	}
	return all
}

// len is the number of listings.
func (o *offers) len() int { return len(o.items) }
