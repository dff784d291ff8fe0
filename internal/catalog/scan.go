package catalog

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"

	json "github.com/goccy/go-json"
)

// SnapshotFile reads a snapshot one product at a time, so that memory
// does not grow with the catalog: Scan reads its body in order, verifying
// its checksum and count as ReadSnapshot does, and ProductAt reads one
// product again where Scan found it. The file stays open until Close, so
// that a snapshot renamed over it meanwhile is not read instead.
type SnapshotFile struct {
	f         *os.File
	path      string
	manifest  Manifest
	bodyStart int64
}

// ProductRef says where Scan found a product line: its offset and length
// in the file and its position among the products (0 for the first).
type ProductRef struct {
	Off int64
	Len uint32
	Pos uint32
}

// OpenSnapshot opens the snapshot at path and reads its manifest.
func OpenSnapshot(path string) (*SnapshotFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	m, err := readManifest(r, path)
	if err == nil {
		var at int64
		at, err = f.Seek(0, io.SeekCurrent)
		if err == nil {
			sf := &SnapshotFile{f: f, path: path, manifest: m, bodyStart: at - int64(r.Buffered())}
			return sf, nil
		}
		err = fmt.Errorf("read snapshot %s: %w", path, err)
	}
	f.Close()
	return nil, err
}

// Manifest is the snapshot's manifest.
func (s *SnapshotFile) Manifest() Manifest { return s.manifest }

// Close closes the file.
func (s *SnapshotFile) Close() error { return s.f.Close() }

// Scan calls fn with every product line of the body in order (without its
// newline; the slice is reused after fn returns) and where it is. After
// the first line fn fails on, the rest are only hashed and counted. The
// error is ReadSnapshot's for the same file: a damaged body's or a wrong
// count's first, then the first failed line's, naming it.
func (s *SnapshotFile) Scan(fn func(line []byte, ref ProductRef) error) error {
	if _, err := s.f.Seek(s.bodyStart, io.SeekStart); err != nil {
		return fmt.Errorf("read snapshot %s: %w", s.path, err)
	}
	h := sha256.New()
	r := bufio.NewReaderSize(io.TeeReader(bufio.NewReaderSize(s.f, 1<<20), h), 1<<20)
	var (
		buf     []byte
		lines   int   // product lines
		blank   int   // empty lines not yet followed by a product line
		bad     error // the first failed line's
		off     = s.bodyStart
		blankAt int64
	)
	line := func(b []byte, at int64) {
		if bad == nil {
			if err := fn(b, ProductRef{Off: at, Len: uint32(len(b)), Pos: uint32(lines)}); err != nil {
				bad = lineError(s.path, lines+2, err)
			}
		}
		lines++
	}
	for {
		var err error
		buf, err = appendLine(buf[:0], r)
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read snapshot %s: %w", s.path, err)
		}
		switch {
		case len(buf) == 0 && blank == 0:
			blank, blankAt = 1, off
		case len(buf) == 0:
			blank++ // empty lines at the end of the file are no products
		default:
			for ; blank > 0; blank-- {
				line(nil, blankAt)
				blankAt++
			}
			line(buf, off)
		}
		off += int64(len(buf)) + 1
		if err != nil {
			break
		}
	}
	if err := checkBody(s.path, s.manifest, h, lines); err != nil {
		return err
	}
	return bad
}

// ProductAt reads and decodes into p the product line Scan found at ref,
// using buf for the line and returning it for the next call. Calls may
// run at the same time.
func (s *SnapshotFile) ProductAt(ref ProductRef, p *Product, buf []byte) ([]byte, error) {
	if cap(buf) < int(ref.Len) {
		buf = make([]byte, ref.Len)
	}
	buf = buf[:ref.Len]
	if _, err := s.f.ReadAt(buf, ref.Off); err != nil {
		return buf, fmt.Errorf("read snapshot %s: %w", s.path, err)
	}
	*p = Product{}
	if err := json.Unmarshal(buf, p); err != nil {
		return buf, lineError(s.path, int(ref.Pos)+2, err)
	}
	return buf, nil
}
