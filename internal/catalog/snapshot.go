package catalog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	json "github.com/goccy/go-json"
)

// SnapshotFormat and SnapshotVersion identify the snapshot file layout.
const (
	SnapshotFormat  = "productsearch-snapshot"
	SnapshotVersion = 1
)

// RetailerStats counts one retailer's contribution to a snapshot.
type RetailerStats struct {
	Offers   int  `json:"offers"`
	Rejected int  `json:"rejected"`
	Stale    bool `json:"stale,omitempty"` // offers carried over from the previous snapshot
}

// Manifest describes a snapshot: when it was synced and what it holds.
type Manifest struct {
	Format     string                   `json:"format"`
	Version    int                      `json:"version"`
	SyncTime   time.Time                `json:"sync_time"`
	Products   int                      `json:"products"`
	Offers     int                      `json:"offers"`
	Retailers  map[string]RetailerStats `json:"retailers"`
	Categories map[string]int           `json:"categories"`
	Rejected   map[string]int           `json:"rejected"` // rejected rows by reason
	// BodySHA256 is the hex SHA-256 of every byte after the manifest line.
	// ReadSnapshot refuses a file whose body does not hash to it. Snapshots
	// written before the field existed lack it and are read unverified.
	BodySHA256 string `json:"body_sha256,omitempty"`
}

// ErrChecksum is wrapped by the error of ReadSnapshot when the file's body
// does not match the checksum in its manifest: the file is damaged.
var ErrChecksum = errors.New("snapshot body does not match its checksum")

// Snapshot is a complete catalog as published by the indexer.
type Snapshot struct {
	Manifest Manifest
	Products []Product
}

// WriteSnapshot writes s to path atomically: the file is written beside path
// under a temporary name, synced, then renamed over path. The layout is JSON
// Lines: the manifest, with the SHA-256 of the rest of the file, on the first
// line, then one product per line. The products are encoded once, into a
// second temporary file while they are hashed, and copied after the
// manifest, so that memory does not grow with the catalog.
func WriteSnapshot(path string, s *Snapshot) error {
	w, err := NewSnapshotWriter(path)
	if err != nil {
		return err
	}
	for i := range s.Products {
		if err := w.Add(&s.Products[i]); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Commit(s.Manifest)
}

// TempPattern is the os.CreateTemp pattern of the temporary files a
// snapshot at path is written through: they sit beside it and are named
// after it, path.<random>.tmp.
func TempPattern(path string) string { return filepath.Base(path) + ".*.tmp" }

// CreateTemp creates a temporary file beside the snapshot at path, named
// by TempPattern, so that a sync that dies leaves only files the next one
// recognises and removes.
func CreateTemp(path string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(path), TempPattern(path))
}

// RecordEncoder encodes products as the lines of a snapshot's body.
type RecordEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// NewRecordEncoder returns an encoder of snapshot records.
func NewRecordEncoder() *RecordEncoder {
	e := &RecordEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

// Line returns p's line of a snapshot body, with its newline. The slice
// is the encoder's and valid until its next call.
func (e *RecordEncoder) Line(p *Product) ([]byte, error) {
	e.buf.Reset()
	if err := e.enc.Encode(p); err != nil {
		return nil, fmt.Errorf("write snapshot product %s: %w", p.ID, err)
	}
	return e.buf.Bytes(), nil
}

// SnapshotWriter writes a snapshot whose products are given one at a time,
// in the order the file lists them (WriteSnapshot's callers sort by id).
// The body goes to a temporary file beside the snapshot as it is hashed;
// Commit writes the manifest before it and renames the whole over the
// snapshot; Abort removes what was written. Memory does not grow with the
// catalog.
type SnapshotWriter struct {
	path     string
	body     *os.File
	hash     hash.Hash
	w        *bufio.Writer
	enc      *RecordEncoder
	products int
}

// NewSnapshotWriter starts a snapshot at path.
func NewSnapshotWriter(path string) (*SnapshotWriter, error) {
	f, err := CreateTemp(path)
	if err != nil {
		return nil, fmt.Errorf("write snapshot: %w", err)
	}
	h := sha256.New()
	return &SnapshotWriter{path: path, body: f, hash: h, w: bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20), enc: NewRecordEncoder()}, nil
}

// Add encodes p as the next line of the body.
func (w *SnapshotWriter) Add(p *Product) error {
	line, err := w.enc.Line(p)
	if err != nil {
		return err
	}
	return w.AddLine(line)
}

// AddLine appends line, a product's line as RecordEncoder.Line returns it
// (with its newline), to the body.
func (w *SnapshotWriter) AddLine(line []byte) error {
	if _, err := w.w.Write(line); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	w.products++
	return nil
}

// Abort removes the body written so far; the snapshot at path is left as
// it was.
func (w *SnapshotWriter) Abort() {
	w.body.Close()
	os.Remove(w.body.Name())
}

// Commit publishes the snapshot: m, with the format, version, product
// count and body checksum filled in, on the first line, then the body,
// written beside path, synced and renamed over it. The writer is done
// with either way.
func (w *SnapshotWriter) Commit(m Manifest) (err error) {
	defer w.Abort()
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	m.Format, m.Version, m.Products = SnapshotFormat, SnapshotVersion, w.products
	m.BodySHA256 = hex.EncodeToString(w.hash.Sum(nil))
	f, err := CreateTemp(w.path)
	if err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	line, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("write snapshot manifest: %w", err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if _, err := w.body.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if _, err := io.Copy(f, w.body); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := os.Rename(f.Name(), w.path); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	return nil
}

// Batches of product lines that ReadSnapshot decodes at once: the
// undecoded file is held a batch at a time, never whole.
const (
	batchBytes = 8 << 20
	batchLines = 8192
)

// ReadSnapshot loads a snapshot written by WriteSnapshot. The file is read
// in batches of lines, each decoded in parallel, and hashed as it is read.
// A damaged file (its body does not hash to the manifest's checksum) yields
// an error wrapping ErrChecksum; a file with fewer or more products than
// its manifest says, an error saying so; otherwise a malformed file yields
// an error naming the first bad line.
func ReadSnapshot(path string) (*Snapshot, error) {
	return readSnapshot(path, batchLines, batchBytes)
}

// readSnapshot is ReadSnapshot with batches of at most maxLines lines or
// about maxBytes bytes.
func readSnapshot(path string, maxLines, maxBytes int) (*Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var s Snapshot
	if s.Manifest, err = readManifest(r, path); err != nil {
		return nil, err
	}
	h := sha256.New()
	d := &decoder{path: path, maxLines: maxLines, maxBytes: maxBytes, products: make([]Product, 0, capHint(f, s.Manifest.Products))}
	if err := d.read(bufio.NewReaderSize(io.TeeReader(r, h), 1<<20)); err != nil {
		return nil, fmt.Errorf("read snapshot %s: %w", path, err)
	}
	if err := checkBody(path, s.Manifest, h, d.lines); err != nil {
		return nil, err
	}
	if d.err != nil {
		return nil, d.err
	}
	s.Products = d.products
	return &s, nil
}

// checkBody checks a body that hashed to h and held lines product lines
// against its manifest m: a damaged body is an error wrapping
// ErrChecksum, a count unlike the manifest's an error saying so.
func checkBody(path string, m Manifest, h hash.Hash, lines int) error {
	if want := m.BodySHA256; want != "" {
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			return fmt.Errorf("read snapshot %s: %w (the file is damaged: manifest says %s, body hashes to %s)", path, ErrChecksum, want, got)
		}
	}
	if lines != m.Products {
		return fmt.Errorf("read snapshot %s: manifest says %d products, file has %d (truncated?)", path, m.Products, lines)
	}
	return nil
}

// lineError is the error of a malformed product at line (the manifest is
// line 1).
func lineError(path string, line int, err error) error {
	return fmt.Errorf("read snapshot %s line %d: %w", path, line, err)
}

// ReadManifest reads the manifest of the snapshot at path (its first line)
// without reading its products or verifying its body.
func ReadManifest(path string) (Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return Manifest{}, fmt.Errorf("read snapshot: %w", err)
	}
	defer f.Close()
	return readManifest(bufio.NewReaderSize(f, 64<<10), path)
}

// readManifest reads and checks the manifest line at the start of r.
func readManifest(r *bufio.Reader, path string) (Manifest, error) {
	var m Manifest
	head, err := r.ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return m, fmt.Errorf("read snapshot %s: %w", path, err)
	}
	head = bytes.TrimSuffix(head, []byte("\n"))
	if len(head) == 0 {
		return m, fmt.Errorf("read snapshot %s: empty file", path)
	}
	if err := json.Unmarshal(head, &m); err != nil {
		return m, fmt.Errorf("read snapshot %s line 1: %w", path, err)
	}
	if m.Format != SnapshotFormat {
		return m, fmt.Errorf("read snapshot %s: not a snapshot (format %q)", path, m.Format)
	}
	if m.Version != SnapshotVersion {
		return m, fmt.Errorf("read snapshot %s: version %d, this build reads version %d", path, m.Version, SnapshotVersion)
	}
	return m, nil
}

// AppendRecord appends p's snapshot record, the line of the snapshot's
// body that holds it (without its newline), to dst: encoded as
// RecordEncoder does, HTML characters as they are.
func AppendRecord(dst []byte, p *Product) ([]byte, error) {
	b, err := json.MarshalWithOption(p, json.DisableHTMLEscape())
	if err != nil {
		return dst, fmt.Errorf("product %s: %w", p.ID, err)
	}
	return append(dst, b...), nil
}

// DecodeRecord decodes a product's snapshot record, as ReadSnapshot does.
func DecodeRecord(rec []byte) (*Product, error) {
	var p Product
	if err := json.Unmarshal(rec, &p); err != nil {
		return nil, fmt.Errorf("product record: %w", err)
	}
	return &p, nil
}

// capHint is how many products to make room for: the manifest's count,
// unless the file is too small to hold that many.
func capHint(f *os.File, products int) int {
	fi, err := f.Stat()
	if err != nil {
		return 0
	}
	return max(0, min(products, int(fi.Size()/2)))
}

// decoder turns the body of a snapshot, one product per line, into
// products. Lines are gathered into one buffer, reused from batch to
// batch; after the first bad line the rest are only counted.
type decoder struct {
	path     string
	maxLines int // lines a batch holds at most
	maxBytes int // bytes after which a batch is full
	products []Product
	lines    int   // product lines read
	err      error // the first bad line's
	buf      []byte
	ends     []int      // end of each gathered line in buf
	blank    int        // empty lines not yet followed by a product line
	interns  []interner // one per decoding worker
}

// read gathers the body's lines into batches and decodes them.
func (d *decoder) read(r *bufio.Reader) error {
	for {
		pos := d.start()
		d.buf = d.buf[:pos]
		var err error
		d.buf, err = appendLine(d.buf, r)
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if len(d.buf) == pos {
			d.blank++ // empty lines at the end of the file are no products
		} else {
			for ; d.blank > 0; d.blank-- {
				d.ends = append(d.ends, pos)
			}
			d.ends = append(d.ends, len(d.buf))
		}
		if err != nil || len(d.ends) >= d.maxLines || len(d.buf) >= d.maxBytes {
			d.decode()
		}
		if err != nil {
			return nil
		}
	}
}

// appendLine appends r's next line, without its newline, to buf; the
// error is io.EOF after the last line.
func appendLine(buf []byte, r *bufio.Reader) ([]byte, error) {
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimSuffix(buf, []byte("\n")), err
		}
	}
}

// start is where the next line goes in buf: after the last gathered one.
func (d *decoder) start() int {
	if len(d.ends) == 0 {
		return 0
	}
	return d.ends[len(d.ends)-1]
}

// decode decodes the gathered lines in parallel, unless a bad line was
// met before, and empties the batch.
func (d *decoder) decode() {
	n := len(d.ends)
	if n == 0 {
		return
	}
	first := d.lines
	d.lines += n
	defer func() { d.ends, d.buf = d.ends[:0], d.buf[:0] }()
	if d.err != nil {
		return
	}
	at := len(d.products)
	d.products = slices.Grow(d.products, n)[:at+n]
	workers := min(runtime.GOMAXPROCS(0), max(1, n/256))
	for len(d.interns) < workers {
		d.interns = append(d.interns, interner{})
	}
	bad := make([]int, workers) // each worker's first bad line, -1 for none
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		bad[w] = -1
		wg.Go(func() {
			for i := w; i < n; i += workers {
				lo := 0
				if i > 0 {
					lo = d.ends[i-1]
				}
				if err := json.Unmarshal(d.buf[lo:d.ends[i]], &d.products[at+i]); err != nil {
					bad[w], errs[w] = i, err
					return
				}
				d.interns[w].share(&d.products[at+i])
			}
		})
	}
	wg.Wait()
	worst := -1
	for w := range workers {
		if bad[w] >= 0 && (worst < 0 || bad[w] < bad[worst]) {
			worst = w
		}
	}
	if worst >= 0 {
		// Line 1 is the manifest.
		d.err = lineError(d.path, first+bad[worst]+2, errs[worst])
		d.products = nil
	}
}
