package memory

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// stored is what a mapped index reads from its file in place: the
// strings and bitmaps that an index built in memory keeps in maps and
// objects. Every slice is a view of the mapping, valid until close.
type stored struct {
	mapping []byte
	terms   strTable // by term id
	hash    []uint32 // term ids by termHash: see hashTable
	post    strTable // by term id
	// postings holds each posting list read so far: its containers are
	// read in place, only the small bitmap object is on the heap.
	postings []atomic.Pointer[roaring.Bitmap]
	ids      strTable // sorted canonical and offer ids
	idDoc    []uint32 // by position in ids
	docOff   []uint64 // docOffs per document and after the last: see writeProducts
	docBytes []byte   // the documents' JSON
	recBytes []byte   // the documents' snapshot records
	once     sync.Once
	onClose  func()
}

// strTable is a table of byte strings: string i is b[off[i]:off[i+1]].
type strTable struct {
	off []uint64
	b   []byte
}

func (t *strTable) len() int { return len(t.off) - 1 }

// at returns string i, with no room to append into the mapping.
func (t *strTable) at(i int) []byte {
	lo, hi := t.off[i], t.off[i+1]
	return t.b[lo:hi:hi]
}

// str returns string i as a string sharing the mapping's bytes.
func (t *strTable) str(i int) string {
	b := t.at(i)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// find binary searches a sorted table for s.
func (t *strTable) find(s string) (uint32, bool) {
	lo, hi := 0, t.len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.str(m) < s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < t.len() && t.str(lo) == s {
		return uint32(lo), true
	}
	return 0, false
}

// term finds a term's id through the hash table.
func (s *stored) term(t string) (uint32, bool) {
	mask := uint64(len(s.hash) - 1)
	for h := termHash(t) & mask; ; h = (h + 1) & mask {
		v := s.hash[h]
		if v == 0 {
			return 0, false
		}
		if s.terms.str(int(v-1)) == t {
			return v - 1, true
		}
	}
}

// posting returns term id's posting list, read in place the first time.
func (s *stored) posting(id uint32) *roaring.Bitmap {
	if bm := s.postings[id].Load(); bm != nil {
		return bm
	}
	bm := roaring.New()
	if _, err := bm.FromUnsafeBytes(s.post.at(int(id))); err != nil {
		bm = roaring.New() // every list was read once at open
	}
	s.postings[id].Store(bm)
	return bm
}

func (s *stored) docOf(id string) (uint32, bool) {
	i, ok := s.ids.find(id)
	if !ok {
		return 0, false
	}
	return s.idDoc[i], true
}

// productJSON fills pj and sp with doc's JSON and record, read in place
// (all but its product type, which the index's docInfo holds).
func (s *stored) productJSON(doc uint32, pj *search.ProductJSON, sp *search.StoredProduct) {
	i := docOffs * int(doc)
	off := s.docOff[i : i+2*docOffs : i+2*docOffs]
	b := s.docBytes
	*pj = search.ProductJSON{Full: b[off[0]:off[2]:off[2]], Split: int(off[1] - off[0]), Lite: b[off[2]:off[3]:off[3]]}
	sp.Attrs = b[off[3]:off[docOffs]:off[docOffs]]
	sp.Record = s.recBytes[off[jsonParts]:off[docOffs+jsonParts]:off[docOffs+jsonParts]]
}

func (s *stored) record(doc uint32) []byte {
	i := docOffs * int(doc)
	lo, hi := s.docOff[i+jsonParts], s.docOff[i+docOffs+jsonParts]
	return s.recBytes[lo:hi:hi]
}

// close unmaps the file once.
func (s *stored) close() {
	s.once.Do(func() {
		syscall.Munmap(s.mapping)
		if s.onClose != nil {
			s.onClose()
		}
	})
}

// errStale is wrapped by openMapped's error when the index file was built
// from another snapshot than the one at the path.
var errStale = errors.New("the index file was built from another snapshot")

// openMapped maps the index file of the snapshot at path and checks it
// whole: its version, that it was built from this snapshot, its checksums
// and every offset and id it holds, so that reading it cannot go out of
// range. Only the small filter maps are built on the heap.
func openMapped(path string, table *catalog.AttributeTable) (*index, error) {
	m, err := catalog.ReadManifest(path)
	if err != nil {
		return nil, err
	}
	if m.BodySHA256 == "" {
		return nil, errors.New("the snapshot has no body checksum to match an index file with")
	}
	f, err := os.Open(IndexPath(path))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < int64(dataStart()) || size > math.MaxInt {
		return nil, fmt.Errorf("index file of %d bytes", size)
	}
	head := make([]byte, dataStart())
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, err
	}
	if err := checkHeader(head, m.BodySHA256); err != nil {
		return nil, err
	}
	if err := checkData(f, size, binary.LittleEndian.Uint32(head[20:])); err != nil {
		return nil, err
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map index file: %w", err)
	}
	ix, err := readMapped(data, table)
	if err != nil {
		syscall.Munmap(data)
		return nil, err
	}
	return ix, nil
}

// checkHeader checks the header and the table's checksum.
func checkHeader(head []byte, snapshotSum string) error {
	if !bytes.Equal(head[:8], []byte(fileMagic)) {
		return errors.New("not an index file")
	}
	if v := binary.LittleEndian.Uint32(head[8:]); v != fileVersion {
		return fmt.Errorf("index file version %d, this build reads version %d", v, fileVersion)
	}
	if n := binary.LittleEndian.Uint32(head[12:]); n != numSections {
		return fmt.Errorf("index file of %d sections, want %d", n, numSections)
	}
	if got := string(head[24:headerSize]); got != snapshotSum {
		return fmt.Errorf("%w (its body SHA-256 %.12s…, the snapshot's %.12s…)", errStale, got, snapshotSum)
	}
	if crc32.Checksum(head[headerSize:headerSize+entrySize*numSections], castagnoli) != binary.LittleEndian.Uint32(head[16:]) {
		return errors.New("index file section table does not match its checksum")
	}
	return nil
}

// checkData checks the checksum of the sections, read with the file's
// reads rather than through the mapping, which stays untouched.
func checkData(f *os.File, size int64, want uint32) error {
	crc := crc32.New(castagnoli)
	if _, err := io.Copy(crc, io.NewSectionReader(f, int64(dataStart()), size-int64(dataStart()))); err != nil {
		return err
	}
	if crc.Sum32() != want {
		return errors.New("index file does not match its checksum (damaged)")
	}
	return nil
}

// sections cuts the mapping into its sections by the table.
func sections(data []byte) ([numSections + 1][]byte, error) {
	var secs [numSections + 1][]byte
	seen := [numSections + 1]bool{}
	for i := range numSections {
		e := data[headerSize+i*entrySize:]
		kind := binary.LittleEndian.Uint32(e)
		off, n := binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint64(e[16:])
		if kind == 0 || kind > numSections || seen[kind] {
			return secs, fmt.Errorf("index file section %d has kind %d", i, kind)
		}
		if off%8 != 0 || off < dataStart() || off > uint64(len(data)) || n > uint64(len(data))-off {
			return secs, fmt.Errorf("index file section %d (kind %d) at %d+%d is out of the file", i, kind, off, n)
		}
		seen[kind] = true
		secs[kind] = data[off : off+n : off+n]
	}
	return secs, nil
}

// view makes a slice of n values over b, which must hold exactly them.
func view[T any](b []byte, n int) ([]T, error) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if n < 0 || len(b) != n*size || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%unsafe.Alignof(zero) != 0 {
		return nil, fmt.Errorf("%d bytes for %d values of %d bytes", len(b), n, size)
	}
	if n == 0 {
		return []T{}, nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n), nil
}

// below checks that every value of s is below n.
func below(s []uint32, n int, what string) error {
	for i, v := range s {
		if int(v) >= n {
			return fmt.Errorf("%s %d is %d, beyond %d", what, i, v, n)
		}
	}
	return nil
}

// offsets checks that off runs from 0 up to end, never down.
func offsets[T uint32 | uint64](off []T, end int, what string) error {
	if len(off) == 0 || off[0] != 0 || uint64(off[len(off)-1]) != uint64(end) {
		return fmt.Errorf("%s offsets do not span %d bytes", what, end)
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return fmt.Errorf("%s offset %d runs backwards", what, i)
		}
	}
	return nil
}

// strTableOf reads a table of n strings from its offsets and bytes
// sections; sorted checks that the strings ascend strictly.
func strTableOf(offSec, b []byte, n int, sorted bool, what string) (strTable, error) {
	off, err := view[uint64](offSec, n+1)
	if err != nil {
		return strTable{}, fmt.Errorf("%s: %w", what, err)
	}
	if err := offsets(off, len(b), what); err != nil {
		return strTable{}, err
	}
	t := strTable{off: off, b: b}
	if sorted {
		for i := 1; i < n; i++ {
			if t.str(i-1) >= t.str(i) {
				return strTable{}, fmt.Errorf("%s %d is out of order", what, i)
			}
		}
	}
	return t, nil
}

// bitmapAt reads bitmap i of t in place and checks it holds documents
// below n only.
func bitmapAt(t *strTable, i, n int) (*roaring.Bitmap, error) {
	bm := roaring.New()
	if _, err := bm.FromUnsafeBytes(t.at(i)); err != nil {
		return nil, err
	}
	if err := bm.Validate(); err != nil {
		return nil, err
	}
	if !bm.IsEmpty() && int(bm.Maximum()) >= n {
		return nil, fmt.Errorf("bitmap holds document %d of %d", bm.Maximum(), n)
	}
	return bm, nil
}

// decodeMeta reads the meta section and checks its counts against the
// file's size and the engine's attributes.
func decodeMeta(b []byte, size int, table *catalog.AttributeTable) (*fileMeta, error) {
	var meta fileMeta
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, fmt.Errorf("index file meta: %w", err)
	}
	if meta.Docs < 0 || meta.Terms < 0 || meta.IDs < 0 || meta.Docs > size || meta.Terms > size || meta.IDs > size ||
		meta.Docs >= math.MaxUint32 || int(meta.ProductRank) > meta.Docs {
		return nil, errors.New("index file meta: counts out of range")
	}
	if !slices.Equal(meta.Attributes, table.Names()) {
		return nil, fmt.Errorf("index file has columns for attributes %v, the engine %v", meta.Attributes, table.Names())
	}
	if len(meta.Multi) != len(meta.Attributes) {
		return nil, errors.New("index file meta: conflict counts do not match the attributes")
	}
	for _, c := range meta.Multi {
		if c < 0 || c > size {
			return nil, errors.New("index file meta: conflict count out of range")
		}
	}
	return &meta, nil
}
