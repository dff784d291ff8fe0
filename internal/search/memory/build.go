package memory

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// build indexes a snapshot, keeping its products and their JSON in memory.
func build(s *catalog.Snapshot, table *catalog.AttributeTable) (*index, error) {
	if s == nil {
		return nil, errors.New("build index: nil snapshot")
	}
	order := docOrder(s.Products, func(p *catalog.Product) (float64, string) { return p.Price, p.ID })
	b, err := newBuilder(s.Manifest, len(order), table)
	if err != nil {
		return nil, err
	}
	products := make([]catalog.Product, len(order))
	pos := make([]uint32, len(order))
	for doc, i := range order {
		products[doc], pos[doc] = s.Products[i], uint32(i)
	}
	if err := b.add(products, pos); err != nil {
		return nil, err
	}
	ix := b.finish()
	ix.products = products
	ix.buildJSON()
	return ix, nil
}

// docOrder returns the positions of items in document order: price
// ascending, ties by id.
func docOrder[T any](items []T, key func(*T) (float64, string)) []int {
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		pa, ia := key(&items[a])
		pb, ib := key(&items[b])
		return cmp.Or(cmp.Compare(pa, pb), cmp.Compare(ia, ib))
	})
	return order
}

// builder indexes products given in document order, a run at a time
// (add), and then builds what needs every document (finish). It keeps no
// product: build keeps them itself, and WriteIndex reads them from the
// snapshot a run at a time and writes their records to the index file.
type builder struct {
	ix         *index
	lists      [][]uint32 // documents by term id, ascending
	offers     []idDoc    // offer ids in document order
	offerCount []int
	ptype      []uint8 // 0 none, i+1 productTypes[i]
	totalWords int
	next       int // the next document
}

// idDoc is an id and the document it names.
type idDoc struct {
	id  string
	doc uint32
}

// newBuilder starts the index of n products.
func newBuilder(m catalog.Manifest, n int, table *catalog.AttributeTable) (*builder, error) {
	if n > math.MaxUint32-1 {
		return nil, fmt.Errorf("build index: %d products is more than an index holds", n)
	}
	ix := &index{
		manifest:  m,
		n:         n,
		prices:    make([]float64, n),
		byID:      make(map[string]uint32, n*2),
		category:  map[string]*roaring.Bitmap{},
		brand:     map[string]*roaring.Bitmap{},
		types:     map[string]*roaring.Bitmap{},
		fits:      map[string]*roaring.Bitmap{},
		terms:     map[string]uint32{},
		accessory: make([]bool, n),
		attrs:     map[string]*attrColumn{},
		table:     table,
		wordsOff:  make([]uint32, n+1),
	}
	for _, name := range table.Names() {
		col := &attrColumn{value: make([]float64, n), multiOff: []uint32{0}}
		for i := range col.value {
			col.value[i] = noValue
		}
		ix.attrs[name] = col
	}
	return &builder{ix: ix, offerCount: make([]int, n), ptype: make([]uint8, n)}, nil
}

// sortOffers orders p's offers by price (compareOffers), on a copy of
// them when they are out of order.
func sortOffers(p *catalog.Product) {
	if !slices.IsSortedFunc(p.Offers, compareOffers) {
		p.Offers = slices.Clone(p.Offers)
		slices.SortStableFunc(p.Offers, compareOffers)
	}
}

// compareOffers orders offers by price; ties keep the snapshot's order.
func compareOffers(a, b catalog.Offer) int { return cmp.Compare(a.Price, b.Price) }

// add indexes the next documents, ps, whose positions in the snapshot are
// pos. It sorts each one's offers (sortOffers).
func (b *builder) add(ps []catalog.Product, pos []uint32) error {
	ix := b.ix
	if b.next+len(ps) > ix.n {
		return fmt.Errorf("build index: more than the %d products begun with", ix.n)
	}
	for i := range ps {
		p, doc := &ps[i], b.next+i
		if p.ID == "" {
			return fmt.Errorf("build index: product at position %d has no id", pos[i])
		}
		if _, dup := ix.byID[p.ID]; dup {
			return fmt.Errorf("build index: duplicate product id %q", p.ID)
		}
		sortOffers(p)
		ix.prices[doc] = p.Price
		ix.byID[p.ID] = uint32(doc)
		for _, o := range p.Offers {
			if o.ID != "" {
				b.offers = append(b.offers, idDoc{o.ID, uint32(doc)})
			}
		}
		b.offerCount[doc] = p.OfferCount
		b.ptype[doc] = uint8(slices.Index(productTypes, p.ProductType) + 1)
		b.addFilters(p, uint32(doc))
		b.addAttributes(p, doc)
	}
	b.addText(ps)
	b.next += len(ps)
	return nil
}

// finish builds what needs every document and returns the index, without
// products or their JSON.
func (b *builder) finish() *index {
	ix := b.ix
	// Offer ids resolve to their product unless they equal a canonical id;
	// a duplicate offer id keeps the first product in price order.
	for _, o := range b.offers {
		if _, taken := ix.byID[o.id]; !taken {
			ix.byID[o.id] = o.doc
		}
	}
	b.offers = nil
	b.finishText()
	for _, m := range []map[string]*roaring.Bitmap{ix.category, ix.brand, ix.types} {
		for _, bm := range m {
			bm.RunOptimize()
		}
	}
	b.buildBrowseOrder()
	return ix
}

// addText tokenises the titles of the next documents into postings and
// per-document term lists.
func (b *builder) addText(ps []catalog.Product) {
	ix := b.ix
	type tokens struct{ words, terms, fits []string }
	toks := make([]tokens, len(ps))
	parallel(len(ps), func(i int) {
		w, t, f := search.TitleText(ps[i].Title)
		toks[i] = tokens{w, t, f}
	})
	id := func(t string) uint32 {
		if v, ok := ix.terms[t]; ok {
			return v
		}
		v := uint32(len(b.lists))
		ix.terms[strings.Clone(t)] = v // a term may be a substring of its title
		b.lists = append(b.lists, nil)
		return v
	}
	for i := range ps {
		doc := b.next + i
		for _, w := range toks[i].words {
			ix.words = append(ix.words, id(w))
		}
		for _, t := range toks[i].terms {
			v := id(t)
			b.lists[v] = append(b.lists[v], uint32(doc))
		}
		if ps[i].ProductType != catalog.TypeAccessory {
			for _, t := range toks[i].fits {
				add(ix.fits, t, uint32(doc))
			}
		}
		ix.wordsOff[doc+1] = uint32(len(ix.words))
		b.totalWords += len(toks[i].words)
	}
}

// finishText turns the term lists into postings and computes term weights
// and length norms.
func (b *builder) finishText() {
	ix := b.ix
	n := ix.n
	ix.nTerms = len(b.lists)
	ix.postings = make([]*roaring.Bitmap, len(b.lists))
	ix.idf = make([]float64, len(b.lists))
	for v, docs := range b.lists {
		bm := roaring.New()
		bm.AddMany(docs)
		bm.RunOptimize()
		ix.postings[v] = bm
		b.lists[v] = nil
		df := float64(len(docs))
		ix.idf[v] = math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
	}
	b.lists = nil
	avg := 1.0
	if n > 0 && b.totalWords > 0 {
		avg = float64(b.totalWords) / float64(n)
	}
	ix.norm = make([]float64, n)
	for doc := range n {
		l := float64(ix.wordsOff[doc+1] - ix.wordsOff[doc])
		ix.norm[doc] = (bm25K1 + 1) / (1 + bm25K1*(1-bm25B+bm25B*l/avg))
	}
}

// addFilters adds doc to the category, brand and product type bitmaps.
func (b *builder) addFilters(p *catalog.Product, doc uint32) {
	ix := b.ix
	add(ix.category, p.Category, doc)
	if br := catalog.NormalizeBrand(p.Brand); br != "" {
		add(ix.brand, br, doc)
	}
	ix.accessory[doc] = p.ProductType == catalog.TypeAccessory
	add(ix.types, string(p.ProductType), doc)
}

func add(m map[string]*roaring.Bitmap, key string, doc uint32) {
	bm := m[key]
	if bm == nil {
		bm = roaring.New()
		m[strings.Clone(key)] = bm // a key may be a substring of a longer text
	}
	bm.Add(doc)
}

// addAttributes fills doc's cells of the attribute columns.
func (b *builder) addAttributes(p *catalog.Product, doc int) {
	for name, a := range p.Attributes {
		col := b.ix.attrs[name]
		switch {
		case col == nil:
		case a.Status == catalog.Conflicting:
			col.value[doc] = multiValue - float64(len(col.multiOff)-1)
			col.multiVals = append(col.multiVals, a.Stated()...)
			col.multiOff = append(col.multiOff, uint32(len(col.multiVals)))
		case a.Value > 0:
			col.value[doc] = a.Value
		}
	}
}

// buildBrowseOrder orders documents for browsing without query words:
// products before accessories, then offer_count descending, then price
// ascending, then id ascending (the last two are the document order).
func (b *builder) buildBrowseOrder() {
	ix := b.ix
	n := ix.n
	ix.browseOrder = make([]uint32, n)
	for i := range ix.browseOrder {
		ix.browseOrder[i] = uint32(i)
	}
	slices.SortFunc(ix.browseOrder, func(x, y uint32) int {
		return cmp.Or(
			cmp.Compare(b2i(ix.accessory[x]), b2i(ix.accessory[y])),
			cmp.Compare(b.offerCount[y], b.offerCount[x]),
			cmp.Compare(x, y))
	})
	ix.browseRank = make([]uint32, n)
	ix.info = make([]docInfo, n)
	for rank, doc := range ix.browseOrder {
		ix.browseRank[doc] = uint32(rank)
		ix.info[doc] = docInfo{norm: ix.norm[doc], rank: uint32(rank), tier: uint8(b2i(ix.accessory[doc])),
			ptype: b.ptype[doc]}
	}
	// The relevance order of a query whose only scoring words are required:
	// every candidate holds them, so the score is a constant times the norm.
	ix.normOrder = slices.Clone(ix.browseOrder)
	slices.SortStableFunc(ix.normOrder, func(x, y uint32) int {
		return cmp.Or(cmp.Compare(ix.info[x].tier, ix.info[y].tier), cmp.Compare(ix.norm[y], ix.norm[x]))
	})
	ix.normRank = make([]uint32, n)
	for rank, doc := range ix.normOrder {
		ix.normRank[doc] = uint32(rank)
	}
	for _, acc := range ix.accessory {
		if !acc {
			ix.productRank++
		}
	}
	ix.buildBuckets()
}
