package memory

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"

	"productsearch/internal/catalog"
)

// readMapped makes an index over a mapped index file whose checksums
// hold, checking every offset and id so that no search reads out of
// range.
func readMapped(data []byte, table *catalog.AttributeTable) (*index, error) {
	if !littleEndian() {
		return nil, fmt.Errorf("index files are little-endian; this machine is not")
	}
	secs, err := sections(data)
	if err != nil {
		return nil, err
	}
	meta, err := decodeMeta(secs[secMeta], len(data), table)
	if err != nil {
		return nil, err
	}
	n := meta.Docs
	ix := &index{manifest: meta.Manifest, n: n, nTerms: meta.Terms, productRank: meta.ProductRank, table: table,
		store: &stored{mapping: data}}
	if err := ix.readDocs(&secs, meta); err != nil {
		return nil, err
	}
	if err := ix.readText(&secs, meta); err != nil {
		return nil, err
	}
	if err := ix.readProducts(&secs, meta); err != nil {
		return nil, err
	}
	if err := ix.readFilters(&secs, meta); err != nil {
		return nil, err
	}
	if err := ix.readAttributes(&secs, meta); err != nil {
		return nil, err
	}
	ix.buildBuckets()
	return ix, nil
}

// readDocs reads the per-document arrays of ranking.
func (ix *index) readDocs(secs *[numSections + 1][]byte, meta *fileMeta) error {
	n := meta.Docs
	var err error
	fail := func(what string, e error) error { return fmt.Errorf("index file %s: %w", what, e) }
	if ix.prices, err = view[float64](secs[secPrices], n); err != nil {
		return fail("prices", err)
	}
	if ix.norm, err = view[float64](secs[secNorm], n); err != nil {
		return fail("norms", err)
	}
	if ix.info, err = view[docInfo](secs[secInfo], n); err != nil {
		return fail("doc info", err)
	}
	acc := secs[secAccessory]
	if len(acc) != n {
		return fail("accessories", fmt.Errorf("%d bytes for %d documents", len(acc), n))
	}
	for i, b := range acc {
		if b > 1 || ix.info[i].tier > 1 || int(ix.info[i].ptype) > len(productTypes) {
			return fail("accessories", fmt.Errorf("document %d's tier or type is out of range", i))
		}
	}
	if ix.accessory, err = view[bool](acc, n); err != nil {
		return fail("accessories", err)
	}
	orders := []struct {
		dst  *[]uint32
		kind int
		what string
	}{
		{&ix.browseOrder, secBrowseOrder, "browse order"}, {&ix.browseRank, secBrowseRank, "browse ranks"},
		{&ix.normOrder, secNormOrder, "norm order"}, {&ix.normRank, secNormRank, "norm ranks"},
	}
	for _, o := range orders {
		if *o.dst, err = view[uint32](secs[o.kind], n); err != nil {
			return fail(o.what, err)
		}
		if err := below(*o.dst, n, o.what); err != nil {
			return fail(o.what, err)
		}
	}
	return nil
}

// readText reads the titles' words and the term dictionary with its
// posting lists, each read once to check it.
func (ix *index) readText(secs *[numSections + 1][]byte, meta *fileMeta) error {
	n, terms := meta.Docs, meta.Terms
	var err error
	fail := func(what string, e error) error { return fmt.Errorf("index file %s: %w", what, e) }
	if ix.wordsOff, err = view[uint32](secs[secWordsOff], n+1); err != nil {
		return fail("word offsets", err)
	}
	if ix.words, err = view[uint32](secs[secWords], len(secs[secWords])/4); err != nil {
		return fail("words", err)
	}
	if err := offsets(ix.wordsOff, len(ix.words), "word"); err != nil {
		return fail("words", err)
	}
	if err := below(ix.words, terms, "word"); err != nil {
		return fail("words", err)
	}
	if ix.idf, err = view[float64](secs[secIDF], terms); err != nil {
		return fail("idf", err)
	}
	st := ix.store
	if st.terms, err = strTableOf(secs[secTermOff], secs[secTermBytes], terms, false, "term"); err != nil {
		return fail("terms", err)
	}
	if st.hash, err = readHash(secs[secTermHash], terms); err != nil {
		return fail("term hash table", err)
	}
	if st.post, err = strTableOf(secs[secPostOff], secs[secPostBytes], terms, false, "posting"); err != nil {
		return fail("postings", err)
	}
	for i := range terms {
		if _, err := bitmapAt(&st.post, i, n); err != nil {
			return fail(fmt.Sprintf("posting list %d", i), err)
		}
	}
	st.postings = make([]atomic.Pointer[roaring.Bitmap], terms)
	if st.ids, err = strTableOf(secs[secIDOff], secs[secIDBytes], meta.IDs, true, "id"); err != nil {
		return fail("ids", err)
	}
	if st.idDoc, err = view[uint32](secs[secIDDoc], meta.IDs); err != nil {
		return fail("id documents", err)
	}
	return below(st.idDoc, n, "id document")
}

// readProducts reads the products' JSON and records and checks their
// offsets: each document's run, and the next one's, ascend through the
// sections from their start to their end.
func (ix *index) readProducts(secs *[numSections + 1][]byte, meta *fileMeta) error {
	st := ix.store
	n := meta.Docs
	off, err := view[uint64](secs[secDocOff], docOffs*(n+1))
	if err != nil {
		return fmt.Errorf("index file product offsets: %w", err)
	}
	st.docOff, st.docBytes, st.recBytes = off, secs[secDocBytes], secs[secRecBytes]
	var json, rec uint64 // where the previous part ended
	for doc := range n {
		o := off[docOffs*doc:]
		if o[0] != json || o[jsonParts] != rec {
			return fmt.Errorf("index file products: document %d does not start where the one before ends", doc)
		}
		for p := 1; p < jsonParts; p++ {
			if o[p] < o[p-1] {
				return fmt.Errorf("index file products: document %d's JSON offsets run backwards", doc)
			}
		}
		json, rec = o[docOffs], o[docOffs+jsonParts]
		if json < o[jsonParts-1] || rec < o[jsonParts] {
			return fmt.Errorf("index file products: document %d ends before it starts", doc)
		}
	}
	if json != uint64(len(st.docBytes)) || rec != uint64(len(st.recBytes)) {
		return errors.New("index file products: offsets do not span the sections")
	}
	return nil
}

// readFilters builds the maps of category, brand, type and fits bitmaps,
// read in place.
func (ix *index) readFilters(secs *[numSections + 1][]byte, meta *fileMeta) error {
	count := 0
	for _, keys := range meta.Filters {
		count += len(keys)
	}
	if count > len(secs[secFilterOff]) {
		return fmt.Errorf("index file filters: %d keys for %d bytes of offsets", count, len(secs[secFilterOff]))
	}
	t, err := strTableOf(secs[secFilterOff], secs[secFilterBytes], count, false, "filter")
	if err != nil {
		return fmt.Errorf("index file filters: %w", err)
	}
	maps := []*map[string]*roaring.Bitmap{&ix.category, &ix.brand, &ix.types, &ix.fits}
	i := 0
	for f, keys := range meta.Filters {
		m := make(map[string]*roaring.Bitmap, len(keys))
		for _, k := range keys {
			bm, err := bitmapAt(&t, i, meta.Docs)
			if err != nil {
				return fmt.Errorf("index file filter %q: %w", k, err)
			}
			m[k] = bm
			i++
		}
		*maps[f] = m
	}
	return nil
}

// readAttributes reads the attribute columns and checks that every
// marker of conflicting values names values the column holds.
func (ix *index) readAttributes(secs *[numSections + 1][]byte, meta *fileMeta) error {
	n, names := meta.Docs, meta.Attributes
	if len(names) > 0 && n > len(secs[secAttrValues])/8/len(names) {
		return fmt.Errorf("index file attributes: %d bytes for %d columns of %d", len(secs[secAttrValues]), len(names), n)
	}
	values, err := view[float64](secs[secAttrValues], len(names)*n)
	if err != nil {
		return fmt.Errorf("index file attributes: %w", err)
	}
	offs, err := view[uint32](secs[secAttrMultiOff], len(secs[secAttrMultiOff])/4)
	if err != nil {
		return fmt.Errorf("index file attribute conflicts: %w", err)
	}
	vals, err := view[float64](secs[secAttrMultiVals], len(secs[secAttrMultiVals])/8)
	if err != nil {
		return fmt.Errorf("index file attribute conflicts: %w", err)
	}
	ix.attrs = make(map[string]*attrColumn, len(names))
	for a, name := range names {
		m := meta.Multi[a]
		if m+1 > len(offs) {
			return fmt.Errorf("index file attribute %s: conflict offsets out of the file", name)
		}
		off := offs[: m+1 : m+1]
		offs = offs[m+1:]
		if len(off) == 0 || int64(off[m]) > int64(len(vals)) {
			return fmt.Errorf("index file attribute %s: conflict values out of the file", name)
		}
		col := &attrColumn{value: values[a*n : (a+1)*n : (a+1)*n], multiOff: off, multiVals: vals[:off[m]:off[m]]}
		vals = vals[off[m]:]
		if err := offsets(off, len(col.multiVals), "conflict"); err != nil {
			return fmt.Errorf("index file attribute %s: %w", name, err)
		}
		for doc, x := range col.value {
			if x > multiValue {
				continue
			}
			if i := multiValue - x; i != math.Trunc(i) || i >= float64(m) {
				return fmt.Errorf("index file attribute %s: document %d names conflict %g of %d", name, doc, i, m)
			}
		}
		ix.attrs[name] = col
	}
	return nil
}

// readHash reads a hash table of n strings' positions (see hashTable): a
// power of two of slots, each empty or a position, at least one empty so
// that every probe ends.
func readHash(b []byte, n int) ([]uint32, error) {
	table, err := view[uint32](b, len(b)/4)
	if err != nil {
		return nil, err
	}
	size := len(table)
	if size < 2 || size&(size-1) != 0 || size <= n {
		return nil, fmt.Errorf("%d slots for %d strings", size, n)
	}
	if err := below(table, n+1, "slot"); err != nil {
		return nil, err
	}
	if !slices.Contains(table, 0) {
		return nil, errors.New("no empty slot")
	}
	return table, nil
}
