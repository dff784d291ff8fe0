package catalog

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
func WriteSnapshot(path string, s *Snapshot) (err error) {
	m := s.Manifest
	m.Format, m.Version, m.Products = SnapshotFormat, SnapshotVersion, len(s.Products)
	body, sum, err := writeBody(path, s.Products)
	if err != nil {
		return err
	}
	defer func() {
		body.Close()
		os.Remove(body.Name())
	}()
	m.BodySHA256 = sum
	f, err := createTemp(path)
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
	if _, err := body.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if _, err := io.Copy(f, body); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	return nil
}

// TempPattern is the os.CreateTemp pattern of the temporary files a
// snapshot at path is written through: they sit beside it and are named
// after it, path.<random>.tmp.
func TempPattern(path string) string { return filepath.Base(path) + ".*.tmp" }

func createTemp(path string) (*os.File, error) {
	return os.CreateTemp(filepath.Dir(path), TempPattern(path))
}

// writeBody encodes products, one per line, into a temporary file beside
// path and returns it with the hex SHA-256 of its content. The caller
// closes and removes the file.
func writeBody(path string, products []Product) (f *os.File, sum string, err error) {
	f, err = createTemp(path)
	if err != nil {
		return nil, "", fmt.Errorf("write snapshot: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	h := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range products {
		if err := enc.Encode(&products[i]); err != nil {
			return nil, "", fmt.Errorf("write snapshot product %s: %w", products[i].ID, err)
		}
	}
	if err := w.Flush(); err != nil {
		return nil, "", fmt.Errorf("write snapshot: %w", err)
	}
	return f, hex.EncodeToString(h.Sum(nil)), nil
}
