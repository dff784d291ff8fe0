package memory

import (
	"runtime"
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
