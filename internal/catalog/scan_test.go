package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

// scanAll reads the snapshot at path with a SnapshotFile: its products as
// Scan decodes them, checked against ProductAt at each one's ref.
func scanAll(t *testing.T, path string) (*Snapshot, error) {
	t.Helper()
	sf, err := OpenSnapshot(path)
	if err != nil {
		return nil, err
	}
	defer sf.Close()
	s := &Snapshot{Manifest: sf.Manifest()}
	var refs []ProductRef
	err = sf.Scan(func(line []byte, ref ProductRef) error {
		var p Product
		if err := json.Unmarshal(line, &p); err != nil {
			return err
		}
		s.Products = append(s.Products, p)
		refs = append(refs, ref)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var buf []byte
	for i, ref := range refs {
		var p Product
		if buf, err = sf.ProductAt(ref, &p, buf); err != nil {
			t.Fatalf("product %d at %+v: %v", i, ref, err)
		}
		if diff := cmp.Diff(s.Products[i], p); diff != "" {
			t.Fatalf("product %d at %+v differs from the scanned one (-scan +at):\n%s", i, ref, diff)
		}
	}
	if s.Products == nil {
		s.Products = []Product{}
	}
	return s, nil
}

// TestScanSnapshot reads files with a SnapshotFile and with ReadSnapshot
// and gets the same products or the same error.
func TestScanSnapshot(t *testing.T) {
	dir, data := writtenSample(t)
	good := string(data)
	lines := strings.SplitAfter(good, "\n")
	sum := strings.Index(good, `,"body_sha256"`)
	legacy := good[:sum] + good[strings.Index(good, "}\n"):]
	last := len(good) - 10
	tests := []struct {
		name    string
		content string
		wantErr string
	}{
		{"written", good, ""},
		{"unverified with trailing blank lines", legacy + "\n\n", ""},
		{"damaged", good[:last] + "x" + good[last+1:], "does not match its checksum"},
		{"truncated", strings.Join(lines[:len(lines)-2], ""), "does not match its checksum"},
		{"no manifest", "", "empty file"},
		{"not a snapshot", `{"format":"other"}` + "\n", "not a snapshot"},
		{"blank line inside", `{"format":"productsearch-snapshot","version":1,"products":2}` + "\n\n{\"id\":\"a\"}\n", "line 2"},
		{"bad line", `{"format":"productsearch-snapshot","version":1,"products":2}` + "\n{\"id\":\"a\"}\n{\"id\":7}\n", "line 3"},
		{"count", `{"format":"productsearch-snapshot","version":1,"products":3}` + "\n{\"id\":\"a\"}\n", "manifest says 3 products, file has 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, "case.snapshot")
			if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			want, wantErr := ReadSnapshot(p)
			got, err := scanAll(t, p)
			if tt.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want one saying %q", err, tt.wantErr)
			}
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("scan: %v; ReadSnapshot: %v", err, wantErr)
			}
			if diff := cmp.Diff(want, got); err == nil && diff != "" {
				t.Errorf("mismatch (-ReadSnapshot +scan):\n%s", diff)
			}
		})
	}
}

// FuzzScanSnapshot reads arbitrary files with a SnapshotFile and with
// ReadSnapshot: neither panics, and both read the same products or fail
// with the same error.
func FuzzScanSnapshot(f *testing.F) {
	fuzzSnapshots(f, func(t *testing.T, p string) {
		want, wantErr := ReadSnapshot(p)
		got, err := scanAll(t, p)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("scan: %v; ReadSnapshot: %v", err, wantErr)
		}
		if err != nil {
			if err.Error() != wantErr.Error() {
				t.Fatalf("errors differ: scan %q, ReadSnapshot %q", err, wantErr)
			}
			return
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("snapshots differ (-ReadSnapshot +scan):\n%s", diff)
		}
	})
}
