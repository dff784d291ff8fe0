package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// TestReadSnapshotBatches reads one file in batches of every size, with
// blank lines at its end, and gets the same snapshot each time.
func TestReadSnapshotBatches(t *testing.T) {
	dir, data := writtenSample(t)
	want, err := ReadSnapshot(filepath.Join(dir, "catalog.snapshot"))
	if err != nil {
		t.Fatal(err)
	}
	legacy := strings.Replace(string(data), want.Manifest.BodySHA256, "", 1)
	legacy = strings.Replace(legacy, `,"body_sha256":""`, "", 1)
	p := filepath.Join(dir, "trailing")
	if err := os.WriteFile(p, []byte(legacy+"\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want.Manifest.BodySHA256 = ""
	for _, b := range []struct{ lines, bytes int }{{1, 1 << 20}, {2, 1 << 20}, {3, 1 << 20}, {7, 1 << 20}, {100, 1}, {100, 600}, {batchLines, batchBytes}} {
		got, err := readSnapshot(p, b.lines, b.bytes)
		if err != nil {
			t.Fatalf("batches of %d lines, %d bytes: %v", b.lines, b.bytes, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("batches of %d lines, %d bytes: mismatch (-want +got):\n%s", b.lines, b.bytes, diff)
		}
	}
}

// FuzzReadSnapshot reads arbitrary files in small and in large batches:
// neither panics, and both read the same products or both fail alike.
func FuzzReadSnapshot(f *testing.F) {
	fuzzSnapshots(f, func(t *testing.T, p string) {
		small, errSmall := readSnapshot(p, 1, 16)
		large, errLarge := ReadSnapshot(p)
		if (errSmall == nil) != (errLarge == nil) {
			t.Fatalf("small batches: %v; large: %v", errSmall, errLarge)
		}
		if errSmall != nil {
			if errSmall.Error() != errLarge.Error() {
				t.Fatalf("errors differ: %q and %q", errSmall, errLarge)
			}
			return
		}
		if diff := cmp.Diff(large, small); diff != "" {
			t.Fatalf("snapshots differ (-large +small):\n%s", diff)
		}
	})
}

// fuzzSnapshots runs fn on files of arbitrary content, written at p,
// seeded with a written snapshot and files with blank lines.
func fuzzSnapshots(f *testing.F, fn func(t *testing.T, p string)) {
	sample := filepath.Join(f.TempDir(), "catalog.snapshot")
	if err := WriteSnapshot(sample, sampleSnapshot(3)); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(sample)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"format":"productsearch-snapshot","version":1,"products":2}` + "\n{}\n\n{\"id\":\"a\"}\n\n"))
	f.Add([]byte(`{"format":"productsearch-snapshot","version":1,"products":1}` + "\n\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, content []byte) {
		p := filepath.Join(dir, "fuzz.snapshot")
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
		fn(t, p)
	})
}

// TestReadSnapshotSharesValues checks that values every product repeats
// (retailer, currency, availability, category, statuses) are one copy
// after reading, and that no value changes.
func TestReadSnapshotSharesValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	if err := WriteSnapshot(path, sampleSnapshot(50)); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	a, b := &s.Products[0], &s.Products[len(s.Products)-1]
	same := func(name string, x, y string) {
		t.Helper()
		if x != y {
			t.Errorf("%s: %q and %q differ", name, x, y)
		} else if unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: %q is held twice", name, x)
		}
	}
	same("brand", a.Brand, b.Brand)
	same("currency", a.Currency, b.Offers[0].Currency)
	same("availability", string(a.Availability), string(b.Offers[0].Availability))
	same("category", a.Category, b.Category)
	same("retailer", a.Provenance.Source, b.Offers[0].Source)
	same("status", a.Attributes[MemoryGB].Status, b.Attributes[MemoryGB].Status)
	same("source field", a.Attributes[MemoryGB].Sources[0].Field, b.Attributes[MemoryGB].Sources[0].Field)
}
