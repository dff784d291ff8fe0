package ingest

import (
	"errors"
	"math"
	"sync"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
	"productsearch/internal/match"
)

// offers are the listings of a sync as it holds them until their products
// are built: sides[i] is what the sync keeps in memory of listing i; the
// rest of it, what the matcher reads first, waits in the spill file. offers
// is the matcher's Source: grouping reads a listing back whole only while
// its brand is matched.
type offers struct {
	*store
	sides []side
}

// store is what the offers of one sync share: the spill file their
// listings wait in and the names of their retailers and categories.
type store struct {
	sp    *spill
	bufs  *sync.Pool // of *[]byte, for Read
	mu    sync.RWMutex
	names []string
	index map[string]uint16
}

func newStore(sp *spill) *store {
	return &store{sp: sp, bufs: &sync.Pool{New: func() any { return new([]byte) }}, index: map[string]uint16{}}
}

// newOffers returns an empty set of offers kept in st.
func newOffers(st *store) *offers {
	return &offers{store: st}
}

// label returns the number of the retailer or category name s, which
// repeat across listings and are kept once.
func (st *store) label(s string) (uint16, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if k, ok := st.index[s]; ok {
		return k, nil
	}
	if len(st.names) == math.MaxUint16+1 {
		return 0, errors.New("sync: more than 65,536 retailer and category names")
	}
	k := uint16(len(st.names))
	st.names = append(st.names, s)
	st.index[s] = k
	return k, nil
}

// name returns the name numbered k.
func (st *store) name(k uint16) string {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.names[k]
}

// side is what a sync keeps in memory of a listing.
type side struct {
	offerID  string
	prevPID  string // the product this offer belonged to in the previous snapshot
	gtin     string
	updated  time.Time // the listing's LastUpdated
	rec      spillRef  // the listing's other fields: its item (itemLen bytes, appendItem) then the rest (appendRest)
	hash     uint64    // listingHash of a listing read from a feed
	itemLen  uint32
	retailer uint16 // store.name
	category uint16 // store.name; the listing's class with accessory
	// linked ties the listing to the other listings of prevPID, so they
	// stay in one product (match.Item.Link).
	linked    bool
	accessory bool
	stale     bool // carried over from the previous snapshot
}

// entry is one listing, whole again, while its product is built.
type entry struct {
	listing catalog.Listing
	class   classify.Result
	specs   extract.Values
}

// add appends listing l with its class and the specs read from its title,
// spilling what the sync does not keep in memory; buf is scratch space,
// returned for reuse. The strings kept are copied out of l (a feed
// reader's row buffer) into one allocation per listing; retailer and
// category names, which repeat, are kept once for the whole sync.
func (o *offers) add(l *catalog.Listing, cls classify.Result, specs extract.Values, s side, buf []byte) ([]byte, error) {
	buf = appendItem(buf[:0], l, specs)
	n := len(buf)
	buf = appendRest(buf, l)
	ref, err := o.sp.append(buf)
	if err != nil {
		return buf, err
	}
	s.offerID, s.gtin, s.updated, s.rec, s.itemLen = l.OfferID, l.GTIN, l.LastUpdated, ref, uint32(n)
	if s.retailer, err = o.label(l.Retailer); err != nil {
		return buf, err
	}
	if s.category, err = o.label(cls.Category); err != nil {
		return buf, err
	}
	s.accessory = cls.Type == catalog.TypeAccessory
	compactStrings(&s.offerID, &s.gtin)
	o.sides = append(o.sides, s)
	return buf, nil
}

// class is the classification of listing i.
func (o *offers) class(i int) classify.Result {
	s := &o.sides[i]
	r := classify.Result{Category: o.name(s.category), Type: catalog.TypeProduct}
	if s.accessory {
		r.Type = catalog.TypeAccessory
	}
	return r
}

// Len is the number of listings.
func (o *offers) Len() int { return len(o.sides) }

// Read calls fn with what the matcher knows of each listing of idx. Item
// records that lie close together in the spill are read with one read
// (maxGap). It is safe for concurrent use once the spill is flushed.
func (o *offers) Read(idx []int, fn func(k int, it *match.Item)) error {
	bp := o.bufs.Get().(*[]byte)
	defer o.bufs.Put(bp)
	for start := 0; start < len(idx); {
		first := &o.sides[idx[start]]
		lo, hi := first.rec.off, first.rec.off+int64(first.itemLen)
		end := start + 1
		for ; end < len(idx); end++ {
			s := &o.sides[idx[end]]
			if s.rec.off < hi || s.rec.off-hi > maxGap || s.rec.off+int64(s.itemLen)-lo > maxRun {
				break
			}
			hi = s.rec.off + int64(s.itemLen)
		}
		run, err := o.sp.read(spillRef{off: lo, n: int(hi - lo)}, *bp)
		if err != nil {
			return err
		}
		*bp = run
		for k := start; k < end; k++ {
			s := &o.sides[idx[k]]
			at := s.rec.off - lo
			it := match.Item{Retailer: o.name(s.retailer), GTIN: s.gtin, Category: o.name(s.category), Accessory: s.accessory}
			if s.linked {
				it.Link = s.prevPID
			}
			if err := readItem(string(run[at:at+int64(s.itemLen)]), &it); err != nil {
				return err
			}
			fn(k, &it)
		}
		start = end
	}
	return nil
}

// A run of item records read at once spans at most maxRun bytes, with at
// most maxGap bytes between two of its records: copying a gap costs less
// than another read.
const (
	maxGap = 8 << 10
	maxRun = 1 << 20
)

// entry reads listing i back whole, its spilled fields from the spill;
// buf is scratch space, returned for reuse.
func (o *offers) entry(i int, buf []byte) (*entry, []byte, error) {
	s := &o.sides[i]
	buf, err := o.sp.read(s.rec, buf)
	if err != nil {
		return nil, buf, err
	}
	var it match.Item
	if err := readItem(string(buf[:s.itemLen]), &it); err != nil {
		return nil, buf, err
	}
	e := &entry{
		listing: catalog.Listing{
			Retailer: o.name(s.retailer), OfferID: s.offerID, Title: it.Title, GTIN: s.gtin, MPN: it.MPN,
			ModelNumber: it.ModelNumber, Brand: it.Brand, Colour: it.Colour, LastUpdated: s.updated,
		},
		class: o.class(i),
		specs: it.Specs,
	}
	if err := readRest(string(buf[s.itemLen:]), &e.listing); err != nil {
		return nil, buf, err
	}
	return e, buf, nil
}

// concat joins the offers of several feeds, in order, emptying each.
func concat(st *store, parts []*offers) *offers {
	n := 0
	for _, p := range parts {
		n += len(p.sides)
	}
	all := newOffers(st)
	all.sides = make([]side, 0, n)
	for _, p := range parts {
		all.sides = append(all.sides, p.sides...)
		*p = offers{}
	}
	return all
}
