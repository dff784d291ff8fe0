package memory

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
)

// An index file holds an index's finished structures, to be mapped into
// memory and read in place (openMapped). It sits beside its snapshot
// (IndexPath) and names the snapshot it was built from by the checksum
// of the snapshot's body. Layout, little-endian:
//
//	header   magic "psindex\x00", format version u32, section count u32,
//	         CRC-32C of the section table u32, CRC-32C of the rest u32,
//	         the snapshot's body SHA-256 in hex (64 bytes)
//	table    per section: kind u32, zero u32, offset u64, length u64
//	sections each at an offset that is a multiple of 8, zero-padded
//
// Every section kind appears once. Per-document arrays are the index's
// own, written as their bytes; strings (terms, ids, JSON, records) are a
// table of offsets and the bytes, the terms also a hash table (hashTable);
// bitmaps are roaring's portable serialization, found by a table of
// offsets; fileMeta is JSON.
const (
	fileMagic   = "psindex\x00"
	fileVersion = 1
	headerSize  = 88
	entrySize   = 24
)

// Section kinds.
const (
	secMeta = iota + 1
	secPrices
	secNorm
	secInfo
	secWordsOff
	secWords
	secBrowseOrder
	secBrowseRank
	secNormOrder
	secNormRank
	secAccessory
	secIDF
	secTermOff
	secTermBytes
	secPostOff
	secPostBytes
	secIDOff
	secIDBytes
	secIDDoc
	secDocOff
	secDocBytes
	secRecBytes
	secFilterOff
	secFilterBytes
	secAttrValues
	secAttrMultiOff
	secAttrMultiVals
	secTermHash
	numSections = secTermHash
)

// fileMeta is the index file's JSON section: what is not an array.
type fileMeta struct {
	Manifest    catalog.Manifest `json:"manifest"`
	Docs        int              `json:"docs"`
	Terms       int              `json:"terms"`
	IDs         int              `json:"ids"`
	ProductRank uint32           `json:"product_rank"`
	// Attributes names the attribute columns in the order of the
	// attribute sections; Multi counts each one's conflicting values.
	Attributes []string `json:"attributes"`
	Multi      []int    `json:"multi"`
	// Filters holds the keys of the category, brand, type and fits
	// bitmaps, in that order, in the order of the filter sections.
	Filters [4][]string `json:"filters"`
}

// castagnoli is the CRC-32C table the file's checksums use.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// IndexPath is where the index file of the snapshot at path is written.
func IndexPath(snapshot string) string { return snapshot + ".index" }

// writeFile writes the index file of the snapshot at snapshot atomically,
// through a temporary file named as the snapshot's are (catalog.TempPattern),
// so that a sync removes it if a crash leaves it.
func (ix *index) writeFile(snapshot string, pf *productFiles) (err error) {
	path := IndexPath(snapshot)
	if len(ix.manifest.BodySHA256) != 64 {
		return errors.New("write index: the snapshot has no body checksum")
	}
	if !littleEndian() {
		return errors.New("write index: index files are little-endian; this machine is not")
	}
	f, err := os.CreateTemp(filepath.Dir(path), catalog.TempPattern(snapshot))
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := &fileWriter{f: f, crc: crc32.New(castagnoli), off: dataStart()}
	w.w = bufio.NewWriterSize(io.MultiWriter(f, w.crc), 1<<20)
	if _, err := f.Seek(int64(w.off), io.SeekStart); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	if err := ix.writeSections(w, pf); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	if err := w.finish(ix.manifest.BodySHA256); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// dataStart is the offset of the first section.
func dataStart() uint64 { return align8(headerSize + entrySize*numSections) }

func align8(n uint64) uint64 { return (n + 7) &^ 7 }

// littleEndian reports whether this machine stores numbers as the file
// does, so that arrays are written and viewed as their bytes.
func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// asBytes is the memory of a slice of fixed-size values.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// writeSections writes every section.
func (ix *index) writeSections(w *fileWriter, pf *productFiles) error {
	meta := fileMeta{Manifest: ix.manifest, Docs: ix.n, Terms: ix.nTerms, ProductRank: ix.productRank,
		Attributes: ix.table.Names()}
	for _, name := range meta.Attributes {
		meta.Multi = append(meta.Multi, len(ix.attrs[name].multiOff)-1)
	}
	w.section(secPrices, asBytes(ix.prices))
	w.section(secNorm, asBytes(ix.norm))
	w.section(secInfo, asBytes(ix.info))
	w.section(secWordsOff, asBytes(ix.wordsOff))
	w.section(secWords, asBytes(ix.words))
	w.section(secBrowseOrder, asBytes(ix.browseOrder))
	w.section(secBrowseRank, asBytes(ix.browseRank))
	w.section(secNormOrder, asBytes(ix.normOrder))
	w.section(secNormRank, asBytes(ix.normRank))
	w.section(secAccessory, asBytes(ix.accessory))
	w.section(secIDF, asBytes(ix.idf))
	terms := make([]string, ix.nTerms)
	for t, id := range ix.terms {
		terms[id] = t
	}
	w.strings(secTermOff, secTermBytes, len(terms), func(i int, b []byte) []byte { return append(b, terms[i]...) })
	w.section(secTermHash, asBytes(hashTable(terms)))
	w.bitmaps(secPostOff, secPostBytes, ix.postings)
	ids := make([]string, 0, len(ix.byID))
	for id := range ix.byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	meta.IDs = len(ids)
	docs := make([]uint32, len(ids))
	for i, id := range ids {
		docs[i] = ix.byID[id]
	}
	w.strings(secIDOff, secIDBytes, len(ids), func(i int, b []byte) []byte { return append(b, ids[i]...) })
	w.section(secIDDoc, asBytes(docs))
	ix.writeProducts(w, pf)
	var filters []*roaring.Bitmap
	for i, m := range []map[string]*roaring.Bitmap{ix.category, ix.brand, ix.types, ix.fits} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		meta.Filters[i] = keys
		for _, k := range keys {
			filters = append(filters, m[k])
		}
	}
	w.bitmaps(secFilterOff, secFilterBytes, filters)
	var values, multi []float64
	var multiOff []uint32
	for _, name := range meta.Attributes {
		col := ix.attrs[name]
		values = append(values, col.value...)
		multiOff = append(multiOff, col.multiOff...)
		multi = append(multi, col.multiVals...)
	}
	w.section(secAttrValues, asBytes(values))
	w.section(secAttrMultiOff, asBytes(multiOff))
	w.section(secAttrMultiVals, asBytes(multi))
	b, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	w.section(secMeta, b)
	return w.err
}

// writeProducts writes each document's JSON parts (jsonParts strings
// side by side: its full JSON up to where constraint status goes and after
// it, its lite JSON and its lite attributes) and, in a section of their
// own, the snapshot records, which searches do not read: the pages they
// touch hold JSON only. One run of docOffs offsets per document says where
// both are, so that a hit reads one run of offsets (see stored.productJSON).
// pf holds them, written as the documents were read (encodedProduct).
func (ix *index) writeProducts(w *fileWriter, pf *productFiles) {
	if len(pf.jsonOff) != jsonParts*ix.n+1 || len(pf.recOff) != ix.n+1 {
		if w.err == nil {
			w.err = fmt.Errorf("%d products written, %d indexed", len(pf.recOff)-1, ix.n)
		}
		return
	}
	pf.copyTo(w, secDocBytes, pf.json, pf.jsonW, pf.jsonOff[jsonParts*ix.n])
	pf.copyTo(w, secRecBytes, pf.rec, pf.recW, pf.recOff[ix.n])
	offs := make([]uint64, docOffs*(ix.n+1))
	for doc := range ix.n + 1 {
		o := offs[docOffs*doc:]
		if doc < ix.n {
			copy(o, pf.jsonOff[jsonParts*doc:jsonParts*doc+jsonParts])
		} else {
			o[0] = pf.jsonOff[jsonParts*doc]
		}
		o[jsonParts] = pf.recOff[doc]
	}
	w.section(secDocOff, asBytes(offs))
}

// The offsets of a document: its jsonParts JSON parts' starts, then its
// record's start; the next document's say where they end.
const (
	jsonParts = 4
	docOffs   = jsonParts + 1
)

// hashTable is an open-addressing table of the strings' positions (plus
// one; 0 is an empty slot), probed linearly from termHash: a power of two
// of slots, at least twice as many as strings, so that a lookup reads a
// slot or two and one string (a binary search over sorted terms reads
// many lines and ran the query mix slower). Terms keep the ids the index
// gave them, in the order titles first use them: frequent terms have
// nearby ids, which the per-query arrays indexed by term id keep in few
// cache lines.
func hashTable(strs []string) []uint32 {
	size := 2
	for size < 2*len(strs) {
		size *= 2
	}
	table := make([]uint32, size)
	mask := uint64(size - 1)
	for i, s := range strs {
		h := termHash(s) & mask
		for table[h] != 0 {
			h = (h + 1) & mask
		}
		table[h] = uint32(i + 1)
	}
	return table
}

// termHash is FNV-1a, 64 bits: the same in every process, as a file's
// hash table needs.
func termHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// productTypes numbers the product types in the file: 0 is the empty
// type, i+1 productTypes[i].
var productTypes = []catalog.ProductType{catalog.TypeProduct, catalog.TypeAccessory}

// fileWriter writes sections one after another and records the table.
type fileWriter struct {
	f     *os.File
	w     *bufio.Writer
	crc   hash.Hash32
	off   uint64
	table []byte
	err   error
	buf   []byte
}

// section writes one section and pads it to a multiple of 8 bytes.
func (w *fileWriter) section(kind uint32, b []byte) {
	if w.err != nil {
		return
	}
	w.entry(kind, uint64(len(b)))
	w.write(b)
	w.write(make([]byte, align8(uint64(len(b)))-uint64(len(b))))
}

// sectionFrom writes a section of size bytes read from r and pads it to a
// multiple of 8 bytes.
func (w *fileWriter) sectionFrom(kind uint32, r io.Reader, size uint64) {
	if w.err != nil {
		return
	}
	w.entry(kind, size)
	n, err := io.Copy(w.w, r)
	w.off += uint64(n)
	if err == nil && uint64(n) != size {
		err = fmt.Errorf("section %d: %d bytes of %d", kind, n, size)
	}
	w.err = err
	w.write(make([]byte, align8(size)-size))
}

// entry adds the table entry of a section of size bytes that starts here.
func (w *fileWriter) entry(kind uint32, size uint64) {
	w.table = binary.LittleEndian.AppendUint32(w.table, kind)
	w.table = binary.LittleEndian.AppendUint32(w.table, 0)
	w.table = binary.LittleEndian.AppendUint64(w.table, w.off)
	w.table = binary.LittleEndian.AppendUint64(w.table, size)
}

func (w *fileWriter) write(b []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.w.Write(b)
	w.off += uint64(len(b))
}

// strings writes n strings, each appended by add, as a bytes section and
// a section of n+1 u64 offsets into it.
func (w *fileWriter) strings(offKind, bytesKind uint32, n int, add func(i int, b []byte) []byte) {
	w.section(offKind, asBytes(w.blob(bytesKind, n, add)))
}

// blob writes n strings, each appended by add, as one bytes section and
// returns their n+1 offsets in it.
func (w *fileWriter) blob(kind uint32, n int, add func(i int, b []byte) []byte) []uint64 {
	offs := make([]uint64, n+1)
	at := len(w.table)
	w.entry(kind, 0)
	var total uint64
	for i := range n {
		w.buf = add(i, w.buf[:0])
		w.write(w.buf)
		total += uint64(len(w.buf))
		offs[i+1] = total
	}
	binary.LittleEndian.PutUint64(w.table[at+16:], total)
	w.write(make([]byte, align8(total)-total))
	return offs
}

// bitmaps writes bitmaps as strings of their serialization.
func (w *fileWriter) bitmaps(offKind, bytesKind uint32, bms []*roaring.Bitmap) {
	w.strings(offKind, bytesKind, len(bms), func(i int, b []byte) []byte {
		n := int(bms[i].GetSerializedSizeInBytes())
		b = slices.Grow(b, n)
		var err error
		_, err = bms[i].WriteTo(appender{&b})
		if err != nil && w.err == nil {
			w.err = err
		}
		return b
	})
}

// appender is an io.Writer appending to a slice.
type appender struct{ b *[]byte }

func (a appender) Write(p []byte) (int, error) {
	*a.b = append(*a.b, p...)
	return len(p), nil
}

// finish flushes the sections and writes the header and table.
func (w *fileWriter) finish(snapshotSum string) error {
	if w.err != nil {
		return w.err
	}
	if len(w.table) != entrySize*numSections {
		return fmt.Errorf("%d bytes of section table, want %d", len(w.table), entrySize*numSections)
	}
	if err := w.w.Flush(); err != nil {
		return err
	}
	h := make([]byte, 0, headerSize)
	h = append(h, fileMagic...)
	h = binary.LittleEndian.AppendUint32(h, fileVersion)
	h = binary.LittleEndian.AppendUint32(h, numSections)
	h = binary.LittleEndian.AppendUint32(h, crc32.Checksum(w.table, castagnoli))
	h = binary.LittleEndian.AppendUint32(h, w.crc.Sum32())
	h = append(h, snapshotSum...)
	_, err := w.f.WriteAt(append(h, w.table...), 0)
	return err
}
