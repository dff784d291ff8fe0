package catalog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	json "github.com/goccy/go-json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
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
}

// Snapshot is a complete catalog as published by the indexer.
type Snapshot struct {
	Manifest Manifest
	Products []Product
}

// WriteSnapshot writes s to path atomically: the file is written beside path
// under a temporary name, synced, then renamed over path. The layout is JSON
// Lines: the manifest on the first line, then one product per line.
func WriteSnapshot(path string, s *Snapshot) (err error) {
	m := s.Manifest
	m.Format, m.Version, m.Products = SnapshotFormat, SnapshotVersion, len(s.Products)
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("write snapshot manifest: %w", err)
	}
	for i := range s.Products {
		if err := enc.Encode(&s.Products[i]); err != nil {
			return fmt.Errorf("write snapshot product %s: %w", s.Products[i].ID, err)
		}
	}
	if err := w.Flush(); err != nil {
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

// ReadSnapshot loads a snapshot written by WriteSnapshot. Products are decoded
// in parallel; a malformed file yields an error naming the line.
func ReadSnapshot(path string) (*Snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	if len(lines) == 0 || len(lines[0]) == 0 {
		return nil, fmt.Errorf("read snapshot %s: empty file", path)
	}
	var s Snapshot
	if err := json.Unmarshal(lines[0], &s.Manifest); err != nil {
		return nil, fmt.Errorf("read snapshot %s line 1: %w", path, err)
	}
	if s.Manifest.Format != SnapshotFormat {
		return nil, fmt.Errorf("read snapshot %s: not a snapshot (format %q)", path, s.Manifest.Format)
	}
	if s.Manifest.Version != SnapshotVersion {
		return nil, fmt.Errorf("read snapshot %s: version %d, this build reads version %d", path, s.Manifest.Version, SnapshotVersion)
	}
	lines = lines[1:]
	if len(lines) != s.Manifest.Products {
		return nil, fmt.Errorf("read snapshot %s: manifest says %d products, file has %d (truncated?)", path, s.Manifest.Products, len(lines))
	}
	s.Products = make([]Product, len(lines))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(lines)/256))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(lines); i += workers {
				if err := json.Unmarshal(lines[i], &s.Products[i]); err != nil {
					errs[w] = fmt.Errorf("read snapshot %s line %d: %w", path, i+2, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &s, nil
}
