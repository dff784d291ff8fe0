package memory

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// BM25 parameters of the title score (term frequency is taken as 1).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// attrColumn holds one attribute for every document, read with one memory
// access per document: value holds the single stated value of a confirmed
// or inferred attribute, noValue when the attribute is absent, and for a
// conflicting attribute multiValue minus the index of its values in multi.
// Attribute values are positive, so the markers cannot be values.
type attrColumn struct {
	value     []float64
	multiOff  []uint32 // the values of conflict i are multiVals[multiOff[i]:multiOff[i+1]]
	multiVals []float64
}

// Markers in attrColumn.value.
const (
	noValue    = -1
	multiValue = -2
)

// values returns the values a conflicting attribute states, given its
// marker.
func (c *attrColumn) values(marker float64) []float64 {
	i := int(multiValue - marker)
	return c.multiVals[c.multiOff[i]:c.multiOff[i+1]]
}

// docInfo packs what ranking reads of every candidate, so that it takes
// one memory access.
type docInfo struct {
	norm  float64 // BM25 length norm of the title
	rank  uint32  // position in browse order
	tier  uint8   // 1 for accessories
	ptype uint8   // the product type: 0 none, i+1 productTypes[i]
}

// index is an immutable search index over one snapshot. Documents are
// numbered in price-ascending order (ties by id), so a document id order is
// the price_asc order and a price range is a range of document ids.
//
// An index is built in memory from a snapshot (build) or opened in place
// from an index file (openMapped): its arrays are then views of the mapped
// file, and the tables marked "in memory" below are nil, read from store
// instead. Term ids number the terms in the order the titles first use
// them, in both.
type index struct {
	manifest catalog.Manifest
	n        int // documents

	// In memory only.
	products []catalog.Product
	json     []search.ProductJSON
	byID     map[string]uint32 // canonical product ids and offer ids
	terms    map[string]uint32 // term -> term id
	postings []*roaring.Bitmap // by term id
	// Mapped only: the file's tables and mapping.
	store *stored

	nTerms   int
	prices   []float64
	idf      []float64 // by term id
	wordsOff []uint32  // doc -> offset into words; len N+1
	words    []uint32  // term ids of each title's words, in order
	norm     []float64

	category  map[string]*roaring.Bitmap
	brand     map[string]*roaring.Bitmap // by catalog.NormalizeBrand
	types     map[string]*roaring.Bitmap // by product type
	fits      map[string]*roaring.Bitmap // by term: products (not accessories) whose titles hold it only after "for" (search.TitleFits)
	accessory []bool

	browseOrder []uint32     // products before accessories, offer_count desc, price asc, id asc
	browseRank  []uint32     // doc -> position in browseOrder
	normOrder   []uint32     // products before accessories, length norm desc, then browse order
	normRank    []uint32     // doc -> position in normOrder
	productRank uint32       // ranks of normOrder below it are the products' tier, from it the accessories'
	buckets     []normBucket // the runs of normOrder with one tier and norm, in order (in memory)
	bucketOf    []uint16     // doc -> its bucket (in memory)
	earlyMode   int8         // 0 as early and walkLimit say; tests set 1 to read every ranking by bucket and walk every browse, -1 none
	info        []docInfo

	attrs map[string]*attrColumn
	// table holds the attributes the index has columns for.
	table *catalog.AttributeTable

	pool sync.Pool // *scratch
}

// build indexes a snapshot.
func build(s *catalog.Snapshot, table *catalog.AttributeTable) (*index, error) {
	ix, err := buildStructures(s, table)
	if err != nil {
		return nil, err
	}
	ix.buildJSON()
	return ix, nil
}

// buildStructures indexes a snapshot without its products' JSON, which an
// index file's writer encodes one product at a time.
func buildStructures(s *catalog.Snapshot, table *catalog.AttributeTable) (*index, error) {
	if s == nil {
		return nil, errors.New("build index: nil snapshot")
	}
	n := len(s.Products)
	if n > math.MaxUint32-1 {
		return nil, fmt.Errorf("build index: %d products is more than an index holds", n)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		pa, pb := &s.Products[a], &s.Products[b]
		return cmp.Or(cmp.Compare(pa.Price, pb.Price), cmp.Compare(pa.ID, pb.ID))
	})
	ix := &index{
		manifest:  s.Manifest,
		n:         n,
		products:  make([]catalog.Product, n),
		prices:    make([]float64, n),
		byID:      make(map[string]uint32, n*2),
		category:  map[string]*roaring.Bitmap{},
		brand:     map[string]*roaring.Bitmap{},
		types:     map[string]*roaring.Bitmap{},
		accessory: make([]bool, n),
		attrs:     map[string]*attrColumn{},
		table:     table,
	}
	for doc, i := range order {
		p := s.Products[i]
		if p.ID == "" {
			return nil, fmt.Errorf("build index: product at position %d has no id", i)
		}
		if _, dup := ix.byID[p.ID]; dup {
			return nil, fmt.Errorf("build index: duplicate product id %q", p.ID)
		}
		if !slices.IsSortedFunc(p.Offers, compareOffers) {
			p.Offers = slices.Clone(p.Offers)
			slices.SortStableFunc(p.Offers, compareOffers)
		}
		ix.products[doc] = p
		ix.prices[doc] = p.Price
		ix.byID[p.ID] = uint32(doc)
	}
	// Offer ids resolve to their product unless they equal a canonical id;
	// a duplicate offer id keeps the first product in price order.
	for doc := range ix.products {
		for _, o := range ix.products[doc].Offers {
			if _, taken := ix.byID[o.ID]; !taken && o.ID != "" {
				ix.byID[o.ID] = uint32(doc)
			}
		}
	}
	ix.buildText()
	ix.buildFilters()
	ix.buildAttributes()
	ix.buildBrowseOrder()
	return ix, nil
}

// compareOffers orders offers by price; ties keep the snapshot's order.
func compareOffers(a, b catalog.Offer) int { return cmp.Compare(a.Price, b.Price) }

// buildText tokenises titles into postings, per-document term lists and
// length norms.
func (ix *index) buildText() {
	n := len(ix.products)
	type tokens struct{ words, terms, fits []string }
	toks := make([]tokens, n)
	parallel(n, func(doc int) {
		w, t, f := search.TitleText(ix.products[doc].Title)
		toks[doc] = tokens{w, t, f}
	})
	ix.fits = map[string]*roaring.Bitmap{}
	ix.terms = map[string]uint32{}
	var lists [][]uint32
	id := func(t string) uint32 {
		if v, ok := ix.terms[t]; ok {
			return v
		}
		v := uint32(len(lists))
		ix.terms[strings.Clone(t)] = v // a term may be a substring of its title
		lists = append(lists, nil)
		return v
	}
	ix.wordsOff = make([]uint32, n+1)
	totalWords := 0
	for doc := range n {
		for _, w := range toks[doc].words {
			ix.words = append(ix.words, id(w))
		}
		for _, t := range toks[doc].terms {
			v := id(t)
			lists[v] = append(lists[v], uint32(doc))
		}
		if ix.products[doc].ProductType != catalog.TypeAccessory {
			for _, t := range toks[doc].fits {
				add(ix.fits, t, uint32(doc))
			}
		}
		ix.wordsOff[doc+1] = uint32(len(ix.words))
		totalWords += len(toks[doc].words)
	}
	ix.nTerms = len(lists)
	ix.postings = make([]*roaring.Bitmap, len(lists))
	ix.idf = make([]float64, len(lists))
	for v, docs := range lists {
		bm := roaring.New()
		bm.AddMany(docs)
		bm.RunOptimize()
		ix.postings[v] = bm
		df := float64(len(docs))
		ix.idf[v] = math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
	}
	avg := 1.0
	if n > 0 && totalWords > 0 {
		avg = float64(totalWords) / float64(n)
	}
	ix.norm = make([]float64, n)
	for doc := range n {
		l := float64(ix.wordsOff[doc+1] - ix.wordsOff[doc])
		ix.norm[doc] = (bm25K1 + 1) / (1 + bm25K1*(1-bm25B+bm25B*l/avg))
	}
}

// buildFilters builds the category, brand and product type bitmaps.
func (ix *index) buildFilters() {
	for doc := range ix.products {
		p := &ix.products[doc]
		add(ix.category, p.Category, uint32(doc))
		if b := catalog.NormalizeBrand(p.Brand); b != "" {
			add(ix.brand, b, uint32(doc))
		}
		ix.accessory[doc] = p.ProductType == catalog.TypeAccessory
		add(ix.types, string(p.ProductType), uint32(doc))
	}
	for _, m := range []map[string]*roaring.Bitmap{ix.category, ix.brand, ix.types} {
		for _, bm := range m {
			bm.RunOptimize()
		}
	}
}

func add(m map[string]*roaring.Bitmap, key string, doc uint32) {
	bm := m[key]
	if bm == nil {
		bm = roaring.New()
		m[strings.Clone(key)] = bm // a key may be a substring of a longer text
	}
	bm.Add(doc)
}

// buildAttributes builds one column per attribute name.
func (ix *index) buildAttributes() {
	n := len(ix.products)
	for _, name := range ix.table.Names() {
		col := &attrColumn{value: make([]float64, n), multiOff: []uint32{0}}
		for i := range col.value {
			col.value[i] = noValue
		}
		ix.attrs[name] = col
	}
	for doc := range ix.products {
		for name, a := range ix.products[doc].Attributes {
			col := ix.attrs[name]
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
}

// buildBrowseOrder orders documents for browsing without query words:
// products before accessories, then offer_count descending, then price
// ascending, then id ascending (the last two are the document order).
func (ix *index) buildBrowseOrder() {
	n := len(ix.products)
	ix.browseOrder = make([]uint32, n)
	for i := range ix.browseOrder {
		ix.browseOrder[i] = uint32(i)
	}
	slices.SortFunc(ix.browseOrder, func(a, b uint32) int {
		return cmp.Or(
			cmp.Compare(b2i(ix.accessory[a]), b2i(ix.accessory[b])),
			cmp.Compare(ix.products[b].OfferCount, ix.products[a].OfferCount),
			cmp.Compare(a, b))
	})
	ix.browseRank = make([]uint32, n)
	ix.info = make([]docInfo, n)
	for rank, doc := range ix.browseOrder {
		ix.browseRank[doc] = uint32(rank)
		ix.info[doc] = docInfo{norm: ix.norm[doc], rank: uint32(rank), tier: uint8(b2i(ix.accessory[doc])),
			ptype: uint8(slices.Index(productTypes, ix.products[doc].ProductType) + 1)}
	}
	// The relevance order of a query whose only scoring words are required:
	// every candidate holds them, so the score is a constant times the norm.
	ix.normOrder = slices.Clone(ix.browseOrder)
	slices.SortStableFunc(ix.normOrder, func(a, b uint32) int {
		return cmp.Or(cmp.Compare(ix.info[a].tier, ix.info[b].tier), cmp.Compare(ix.norm[b], ix.norm[a]))
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// buildJSON precomputes every product's full and lite JSON.
func (ix *index) buildJSON() {
	ix.json = make([]search.ProductJSON, len(ix.products))
	// Each worker encodes a run of products into a scratch buffer and
	// copies them into chunks of jsonChunk bytes: a few large allocations
	// instead of one, with its spare capacity, per product.
	n := len(ix.products)
	workers := workersFor(n)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() {
			var scratch, chunk []byte
			for doc := lo; doc < hi; doc++ {
				var pj search.ProductJSON
				pj, scratch = search.AppendProductJSON(scratch[:0], &ix.products[doc])
				if len(chunk)+len(scratch) > cap(chunk) {
					chunk = make([]byte, 0, max(jsonChunk, len(scratch)))
				}
				at := len(chunk)
				chunk = append(chunk, scratch...)
				full := len(pj.Full)
				ix.json[doc] = search.ProductJSON{Full: chunk[at : at+full : at+full], Split: pj.Split,
					Lite: chunk[at+full : len(chunk) : len(chunk)]}
			}
		})
	}
	wg.Wait()
}

// jsonChunk is the size of the buffers products' JSON is copied into.
const jsonChunk = 1 << 20

// workersFor is how many goroutines share n documents' work: up to
// GOMAXPROCS, at least 512 documents each.
func workersFor(n int) int { return min(runtime.GOMAXPROCS(0), max(1, n/512)) }

// parallel runs fn for 0..n-1 across GOMAXPROCS goroutines.
func parallel(n int, fn func(i int)) {
	workers := workersFor(n)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// lookup finds a term's id.
func (ix *index) lookup(term string) (uint32, bool) {
	if ix.store != nil {
		return ix.store.term(term)
	}
	v, ok := ix.terms[term]
	return v, ok
}

// posting returns the documents whose titles hold term id; the bitmap must
// not be modified.
func (ix *index) posting(id uint32) *roaring.Bitmap {
	if ix.store != nil {
		return ix.store.posting(id)
	}
	return ix.postings[id]
}

// docOf finds the document of a canonical product id or offer id.
func (ix *index) docOf(id string) (uint32, bool) {
	if ix.store != nil {
		return ix.store.docOf(id)
	}
	v, ok := ix.byID[id]
	return v, ok
}

// fullJSON returns doc's precomputed full JSON.
func (ix *index) fullJSON(doc uint32) []byte {
	if ix.store != nil {
		var pj search.ProductJSON
		var sp search.StoredProduct
		ix.store.productJSON(doc, &pj, &sp)
		return pj.Full
	}
	return ix.json[doc].Full
}

// product returns doc's product: the one in memory, or its stored record
// decoded.
func (ix *index) product(doc uint32) (*catalog.Product, error) {
	if ix.store != nil {
		return catalog.DecodeRecord(ix.store.record(doc))
	}
	return &ix.products[doc], nil
}

// hits fills a page's hits with their products: the products in memory,
// or their stored JSON and records, which Hit.Item decodes.
func (ix *index) hits(hs []search.Hit, page []uint32) {
	if ix.store == nil {
		for i, doc := range page {
			hs[i].Product, hs[i].JSON = &ix.products[doc], &ix.json[doc]
		}
		return
	}
	type storedHit struct {
		pj search.ProductJSON
		sp search.StoredProduct
	}
	shs := make([]storedHit, len(page))
	for i, doc := range page {
		sh := &shs[i]
		ix.store.productJSON(doc, &sh.pj, &sh.sp)
		if t := ix.info[doc].ptype; t > 0 {
			sh.sp.Type = productTypes[t-1]
		}
		sh.pj.Stored, hs[i].JSON = &sh.sp, &sh.pj
	}
}

// docWords returns the term ids of doc's title words in order.
func (ix *index) docWords(doc uint32) []uint32 {
	return ix.words[ix.wordsOff[doc]:ix.wordsOff[doc+1]]
}
