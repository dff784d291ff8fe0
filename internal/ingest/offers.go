package ingest

import (
	"errors"
	"math"
	"strings"
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
// listings wait in, the strings kept of each, and the names of their
// retailers and categories.
type store struct {
	sp    *spill
	texts texts
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

// side is what a sync keeps in memory of a listing. It holds no pointer
// (its strings are in store.texts), so the garbage collector has nothing
// to follow in the millions of them.
type side struct {
	offerID text
	gtin    text
	prevPID text // the product this offer belonged to in the previous snapshot
	// The listing's LastUpdated, in UTC (updated).
	updatedSec  int64
	updatedNsec uint32
	itemLen     uint32
	rec         spillRef // the listing's other fields: its item (itemLen bytes, appendItem) then the rest (appendRest)
	hash        uint64   // listingHash of a listing read from a feed
	retailer    uint16   // store.name
	category    uint16   // store.name; the listing's class with accessory
	// linked ties the listing to the other listings of prevPID, so they
	// stay in one product (match.Item.Link).
	linked    bool
	accessory bool
	stale     bool // carried over from the previous snapshot
}

// origin is where a listing comes from, as add records it.
type origin struct {
	prevPID string // the product of a stale listing
	hash    uint64 // listingHash of a listing read from a feed
	stale   bool   // carried over from the previous snapshot
}

func (o *offers) offerID(i int) string { return o.texts.get(o.sides[i].offerID) }
func (o *offers) gtin(i int) string    { return o.texts.get(o.sides[i].gtin) }
func (o *offers) prevPID(i int) string { return o.texts.get(o.sides[i].prevPID) }

// updated is listing i's LastUpdated.
func (o *offers) updated(i int) time.Time {
	s := &o.sides[i]
	return time.Unix(s.updatedSec, int64(s.updatedNsec)).UTC()
}

func (o *offers) setUpdated(i int, t time.Time) {
	o.sides[i].updatedSec, o.sides[i].updatedNsec = t.Unix(), uint32(t.Nanosecond())
}

// entry is one listing, whole again, while its product is built.
type entry struct {
	listing catalog.Listing
	class   classify.Result
	specs   extract.Values
}

// add appends listing l from where with its class and the specs read from
// its title, spilling what the sync does not keep in memory; buf is
// scratch space, returned for reuse. The strings kept are copied out of l
// (a feed reader's row buffer) into the store's texts; retailer and
// category names, which repeat, are kept once for the whole sync.
func (o *offers) add(l *catalog.Listing, cls classify.Result, specs extract.Values, from origin, buf []byte) ([]byte, error) {
	buf = appendItem(buf[:0], l, specs)
	n := len(buf)
	buf = appendRest(buf, l)
	ref, err := o.sp.append(buf)
	if err != nil {
		return buf, err
	}
	s := side{rec: ref, itemLen: uint32(n), hash: from.hash, stale: from.stale}
	s.offerID, s.gtin, s.prevPID = o.texts.put(l.OfferID), o.texts.put(l.GTIN), o.texts.put(from.prevPID)
	s.updatedSec, s.updatedNsec = l.LastUpdated.Unix(), uint32(l.LastUpdated.Nanosecond())
	if s.retailer, err = o.label(l.Retailer); err != nil {
		return buf, err
	}
	if s.category, err = o.label(cls.Category); err != nil {
		return buf, err
	}
	s.accessory = cls.Type == catalog.TypeAccessory
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
			it, err := o.item(s, run[at:at+int64(s.itemLen)])
			if err != nil {
				return err
			}
			fn(k, &it)
		}
		start = end
	}
	return nil
}

// item is what the matcher knows of the listing of s, its item record rec.
func (o *offers) item(s *side, rec []byte) (match.Item, error) {
	it := match.Item{Retailer: o.name(s.retailer), GTIN: o.texts.get(s.gtin), Category: o.name(s.category), Accessory: s.accessory}
	if s.linked {
		it.Link = o.texts.get(s.prevPID)
	}
	err := readItem(string(rec), &it)
	return it, err
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
	it, err := o.item(s, buf[:s.itemLen])
	if err != nil {
		return nil, buf, err
	}
	e := &entry{
		listing: catalog.Listing{
			Retailer: it.Retailer, OfferID: o.offerID(i), Title: it.Title, GTIN: it.GTIN, MPN: it.MPN,
			ModelNumber: it.ModelNumber, Brand: it.Brand, Colour: it.Colour, LastUpdated: o.updated(i),
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

// texts holds strings end to end in large blocks: a text is a place in
// them, not a pointer. It is safe for concurrent use.
type texts struct {
	mu     sync.RWMutex
	sealed []string
	cur    strings.Builder // the block being filled; what it holds never moves
}

// text is a string kept in texts; the zero text is "".
type text struct{ block, off, n uint32 }

// textBlock is the size of a block of texts.
const textBlock = 1 << 20

// put keeps s and returns where.
func (t *texts) put(s string) text {
	if s == "" {
		return text{}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur.Len()+len(s) > t.cur.Cap() {
		if t.cur.Len() > 0 {
			t.sealed = append(t.sealed, t.cur.String())
			t.cur = strings.Builder{}
		}
		t.cur.Grow(max(textBlock, len(s)))
	}
	r := text{block: uint32(len(t.sealed)), off: uint32(t.cur.Len()), n: uint32(len(s))}
	t.cur.WriteString(s)
	return r
}

// get returns the string kept at r.
func (t *texts) get(r text) string {
	if r.n == 0 {
		return ""
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	b := t.cur.String()
	if int(r.block) < len(t.sealed) {
		b = t.sealed[r.block]
	}
	return b[r.off : r.off+r.n]
}
