package ingest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"

	"productsearch/internal/catalog"
	"productsearch/internal/match"
)

// spill is a temporary file beside the snapshot that holds what a sync
// does not keep in memory: its listings, read back by grouping one brand at
// a time and whole when their product is built, and each product's
// snapshot line once it is built. It is
// named like the snapshot's own temporary files (catalog.TempPattern), so
// the file of a sync that died is removed by the next one.
type spill struct {
	f   *os.File
	mu  sync.Mutex
	w   *bufio.Writer
	end int64 // bytes appended so far
}

// spillRef locates one record in the spill.
type spillRef struct {
	off int64
	n   int
}

func newSpill(out string) (*spill, error) {
	f, err := catalog.CreateTemp(out)
	if err != nil {
		return nil, fmt.Errorf("sync spill file: %w", err)
	}
	return &spill{f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// append adds rec to the spill and says where it is. It is safe for
// concurrent use.
func (s *spill) append(rec []byte) (spillRef, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.w.Write(rec); err != nil {
		return spillRef{}, fmt.Errorf("sync spill file: %w", err)
	}
	ref := spillRef{off: s.end, n: len(rec)}
	s.end += int64(len(rec))
	return ref, nil
}

// flush makes what was appended readable.
func (s *spill) flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("sync spill file: %w", err)
	}
	return nil
}

// read returns the record at ref, in buf when it has room. Records are read
// only after a flush that follows their append; reads are safe for
// concurrent use.
func (s *spill) read(ref spillRef, buf []byte) ([]byte, error) {
	if cap(buf) < ref.n {
		buf = make([]byte, ref.n)
	}
	buf = buf[:ref.n]
	if _, err := s.f.ReadAt(buf, ref.off); err != nil {
		return nil, fmt.Errorf("sync spill file: %w", err)
	}
	return buf, nil
}

// remove closes and removes the file.
func (s *spill) remove() {
	s.f.Close()
	os.Remove(s.f.Name())
}

// A listing is spilled as two records, one after the other: its item,
// what grouping reads of it beside what the sync keeps in memory (brand,
// part numbers, colour, title and the specs its title states), and the
// rest, what neither grouping nor the offer's state reads. Strings are
// length-prefixed; numbers are their bits.

var errSpilled = errors.New("sync spill file: malformed listing")

// appendItem appends the item fields of l, with its title's specs, to dst.
func appendItem(dst []byte, l *catalog.Listing, specs map[string]float64) []byte {
	for _, s := range []string{l.Brand, l.MPN, l.ModelNumber, l.Colour, l.Title} {
		dst = appendString(dst, s)
	}
	dst = binary.AppendUvarint(dst, uint64(len(specs)))
	for name, v := range specs {
		dst = appendString(dst, name)
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
	}
	return dst
}

// readItem sets the item fields of it from rec, as appendItem wrote them;
// the strings it sets are parts of rec.
func readItem(rec string, it *match.Item) error {
	for _, f := range []*string{&it.Brand, &it.MPN, &it.ModelNumber, &it.Colour, &it.Title} {
		var err error
		if *f, rec, err = cutString(rec); err != nil {
			return err
		}
	}
	n, k := binary.Uvarint([]byte(rec[:min(len(rec), binary.MaxVarintLen64)]))
	if k <= 0 || n > uint64(len(rec)) {
		return errSpilled
	}
	rec = rec[k:]
	it.Specs = nil
	if n > 0 {
		it.Specs = make(map[string]float64, n)
	}
	for range n {
		var name string
		var err error
		if name, rec, err = cutString(rec); err != nil {
			return err
		}
		if len(rec) < 8 {
			return errSpilled
		}
		it.Specs[name] = math.Float64frombits(binary.LittleEndian.Uint64([]byte(rec[:8])))
		rec = rec[8:]
	}
	if rec != "" {
		return errSpilled
	}
	return nil
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// cutString returns the length-prefixed string at the start of rec and
// what follows it.
func cutString(rec string) (string, string, error) {
	n, k := binary.Uvarint([]byte(rec[:min(len(rec), binary.MaxVarintLen64)]))
	if k <= 0 || uint64(len(rec)-k) < n {
		return "", "", errSpilled
	}
	return rec[k : k+int(n)], rec[k+int(n):], nil
}

// appendRest appends the fields of l that appendItem leaves out to dst.
func appendRest(dst []byte, l *catalog.Listing) []byte {
	for _, s := range []string{l.Description, string(l.Availability), l.DeliveryTime, l.URL, l.ImageURL, l.Dimensions} {
		dst = appendString(dst, s)
	}
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(l.Price))
	stock := int64(-1)
	if l.Stock != nil {
		stock = int64(*l.Stock)
	}
	return binary.AppendVarint(dst, stock)
}

// readRest sets the spilled fields of l from rec, as appendRest wrote them.
func readRest(rec string, l *catalog.Listing) error {
	var avail string
	for _, f := range []*string{&l.Description, &avail, &l.DeliveryTime, &l.URL, &l.ImageURL, &l.Dimensions} {
		var err error
		if *f, rec, err = cutString(rec); err != nil {
			return err
		}
	}
	l.Availability = catalog.Availability(avail)
	if len(rec) < 8 {
		return errSpilled
	}
	l.Price, rec = math.Float64frombits(binary.LittleEndian.Uint64([]byte(rec[:8]))), rec[8:]
	stock, k := binary.Varint([]byte(rec))
	if k <= 0 || k != len(rec) {
		return errSpilled
	}
	l.Stock = nil
	if stock >= 0 {
		n := int(stock)
		l.Stock = &n
	}
	return nil
}
