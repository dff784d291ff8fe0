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
)

// spill is a temporary file beside the snapshot that holds what a sync
// does not need in memory until late: the parts of listings that grouping
// does not read, and each product's snapshot line once it is built. It is
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

// The rest of a listing, what neither grouping nor the offer's state
// reads, is spilled as its strings (length-prefixed), its price's bits and
// its stock (-1 for none).

// appendRest appends the spilled fields of l to dst.
func appendRest(dst []byte, l *catalog.Listing) []byte {
	for _, s := range []string{l.Description, string(l.Availability), l.DeliveryTime, l.URL, l.ImageURL, l.Dimensions} {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(l.Price))
	stock := int64(-1)
	if l.Stock != nil {
		stock = int64(*l.Stock)
	}
	return binary.AppendVarint(dst, stock)
}

var errRest = errors.New("sync spill file: malformed listing")

// readRest sets the spilled fields of l from rec, as appendRest wrote them.
func readRest(rec []byte, l *catalog.Listing) error {
	var avail string
	for _, f := range []*string{&l.Description, &avail, &l.DeliveryTime, &l.URL, &l.ImageURL, &l.Dimensions} {
		n, k := binary.Uvarint(rec)
		if k <= 0 || uint64(len(rec)-k) < n {
			return errRest
		}
		*f, rec = string(rec[k:k+int(n)]), rec[k+int(n):]
	}
	l.Availability = catalog.Availability(avail)
	if len(rec) < 8 {
		return errRest
	}
	l.Price, rec = math.Float64frombits(binary.LittleEndian.Uint64(rec)), rec[8:]
	stock, k := binary.Varint(rec)
	if k <= 0 || k != len(rec) {
		return errRest
	}
	l.Stock = nil
	if stock >= 0 {
		n := int(stock)
		l.Stock = &n
	}
	return nil
}
