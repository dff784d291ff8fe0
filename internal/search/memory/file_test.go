package memory_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
	"productsearch/internal/search/searchtest"
)

// writeIndexed writes s as a snapshot with its index file into a
// temporary directory and returns the snapshot's path.
func writeIndexed(t testing.TB, s *catalog.Snapshot, opt memory.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	if err := catalog.WriteSnapshot(path, s); err != nil {
		t.Fatal(err)
	}
	if err := memory.WriteIndex(path, opt); err != nil {
		t.Fatal(err)
	}
	return path
}

// mapped returns an engine reading the index file of s in place.
func mapped(t testing.TB, s *catalog.Snapshot, opt memory.Options) *memory.Engine {
	t.Helper()
	e, fl, err := memory.Open(writeIndexed(t, s, opt), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !fl.Mapped {
		t.Fatalf("the index file was not mapped: %v", fl.NotMapped)
	}
	return e
}

func TestConformanceMapped(t *testing.T) {
	searchtest.Run(t, func(t *testing.T, s *catalog.Snapshot) search.Engine {
		return mapped(t, s, memory.DefaultOptions())
	})
}

// TestMappedAnswersAsBuilt compares an engine over an index file with one
// built in memory: the same responses, byte for byte, the same products.
func TestMappedAnswersAsBuilt(t *testing.T) {
	for _, tt := range []struct {
		name string
		s    *catalog.Snapshot
	}{
		{"catalog", fixture(t, "catalog")},
		{"bulk", fixture(t, "bulk")},
		{"synthetic", syntheticSnapshot(3000)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opt := memory.Options{MaxCandidates: 50}
			built, err := memory.New(tt.s, opt)
			if err != nil {
				t.Fatal(err)
			}
			m := mapped(t, tt.s, opt)
			ctx := context.Background()
			r := rand.New(rand.NewPCG(5, 6))
			for i := range 600 {
				v := randomRequest(r, tt.s)
				if i%2 == 0 {
					v.Set("lite", "true")
				}
				if i%5 == 0 {
					v.Set("product_type", "product")
				}
				req, err := search.ParseQuery(v)
				if err != nil {
					continue
				}
				want, err1 := built.Search(ctx, req)
				got, err2 := m.Search(ctx, req)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: %v, %v", v.Encode(), err1, err2)
				}
				wb, _ := json.Marshal(want)
				gb, _ := json.Marshal(got)
				if string(wb) != string(gb) {
					t.Fatalf("%s: responses differ:\nbuilt  %s\nmapped %s", v.Encode(), wb, gb)
				}
				for i := range got.Products {
					if diff := cmp.Diff(want.Products[i].Product, searchtest.Item(got.Products[i])); diff != "" {
						t.Fatalf("%s: hit %d's product differs (-built +mapped):\n%s", v.Encode(), i, diff)
					}
				}
			}
			for _, p := range tt.s.Products {
				for _, id := range append([]string{p.ID, "no-" + p.ID}, offerIDs(p)...) {
					wp, wb, werr := built.ProductJSON(ctx, id)
					gp, gb, gerr := m.ProductJSON(ctx, id)
					if (werr == nil) != (gerr == nil) || string(wb) != string(gb) || !cmp.Equal(wp, gp) {
						t.Fatalf("ProductJSON(%s) differs: %v, %v", id, werr, gerr)
					}
				}
			}
			wh, _ := built.Health(ctx)
			gh, _ := m.Health(ctx)
			if diff := cmp.Diff(wh, gh); diff != "" {
				t.Errorf("Health differs (-built +mapped):\n%s", diff)
			}
		})
	}
}

func offerIDs(p catalog.Product) []string {
	var ids []string
	for _, o := range p.Offers {
		ids = append(ids, o.ID)
	}
	return ids
}

// TestLoadFileFallsBack checks that an index file that is missing, stale,
// of another version, damaged or built for other attributes is not used:
// the snapshot is indexed in memory instead, with the same answers.
func TestLoadFileFallsBack(t *testing.T) {
	s := fixture(t, "catalog")
	other := fixture(t, "bulk")
	for _, tt := range []struct {
		name  string
		spoil func(t *testing.T, path string)
		opt   memory.Options
	}{
		{"missing", func(t *testing.T, path string) { os.Remove(memory.IndexPath(path)) }, memory.Options{}},
		{"stale", func(t *testing.T, path string) {
			idx := memory.IndexPath(path)
			b, _ := os.ReadFile(idx)
			if err := catalog.WriteSnapshot(path, other); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(idx, b, 0o644)
		}, memory.Options{}},
		{"version", func(t *testing.T, path string) {
			patch(t, path, func(b []byte) { binary.LittleEndian.PutUint32(b[8:], 99) })
		}, memory.Options{}},
		{"damaged", func(t *testing.T, path string) { patch(t, path, func(b []byte) { b[len(b)/2] ^= 0x40 }) }, memory.Options{}},
		{"truncated", func(t *testing.T, path string) {
			patch(t, path, func(b []byte) {}) // unchanged, then cut
			os.Truncate(memory.IndexPath(path), 100)
		}, memory.Options{}},
		{"attributes", func(t *testing.T, path string) {}, memory.Options{Attributes: memory.ExtendedTable(t)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeIndexed(t, s, memory.Options{})
			tt.spoil(t, path)
			e, fl, err := memory.Open(path, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if fl.Mapped || fl.NotMapped == nil {
				t.Fatalf("LoadFile mapped = %t, reason %v; want the snapshot indexed", fl.Mapped, fl.NotMapped)
			}
			t.Logf("not mapped: %v", fl.NotMapped)
			snap, err := catalog.ReadSnapshot(path)
			if err != nil {
				t.Fatal(err)
			}
			if h, _ := e.Health(context.Background()); h.Items != len(snap.Products) || fl.Products != h.Items {
				t.Errorf("Health items = %d, LoadFile %d, want %d", h.Items, fl.Products, len(snap.Products))
			}
		})
	}
}

// patch rewrites the index file of the snapshot at path.
func patch(t *testing.T, path string, fn func(b []byte)) {
	t.Helper()
	idx := memory.IndexPath(path)
	b, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	fn(b)
	if err := os.WriteFile(idx, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReloadMappedWhileSearching loads index files over and over while
// searches run and read their hits' bytes after returning; every search
// sees one whole catalog, and replaced files are unmapped once their last
// search is done and the retire time has passed.
func TestReloadMappedWhileSearching(t *testing.T) {
	small, bulk := fixture(t, "catalog"), fixture(t, "bulk")
	var unmapped atomic.Int64
	opt := memory.Options{Retire: 20 * time.Millisecond}
	memory.OnUnmap(&opt, func() { unmapped.Add(1) })
	paths := []string{writeIndexed(t, small, opt), writeIndexed(t, bulk, opt)}
	e, _, err := memory.Open(paths[0], opt)
	if err != nil {
		t.Fatal(err)
	}
	req := searchtest.MustParse(t, "sort=price_asc&limit=20")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := e.Search(context.Background(), req)
				if err != nil {
					errs <- err
					return
				}
				if res.Total != len(small.Products) && res.Total != len(bulk.Products) {
					errs <- fmt.Errorf("total %d matches neither catalog", res.Total)
					return
				}
				sum := 0
				for _, h := range res.Products {
					for _, c := range h.JSON.Full {
						sum += int(c)
					}
				}
				if sum == 0 && len(res.Products) > 0 {
					errs <- errors.New("hits without JSON")
					return
				}
			}
		})
	}
	for i := range 20 {
		fl, err := e.LoadFile(paths[i%2])
		if err != nil || !fl.Mapped {
			t.Fatalf("LoadFile: %v, mapped %t (%v)", err, fl.Mapped, fl.NotMapped)
		}
		time.Sleep(2 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for unmapped.Load() < 20 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := unmapped.Load(); n < 20 {
		t.Errorf("%d of the 20 replaced index files unmapped", n)
	}
	if h, _ := e.Health(context.Background()); h.Items != len(bulk.Products) {
		t.Errorf("Health items = %d, want %d", h.Items, len(bulk.Products))
	}
}

// TestWriteIndexRuns writes the index file of one snapshot reading its
// products in runs of several sizes and gets the same bytes each time,
// and no temporary file left beside it.
func TestWriteIndexRuns(t *testing.T) {
	path := writeIndexed(t, syntheticSnapshot(700), memory.Options{})
	want, err := os.ReadFile(memory.IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{1, 7, 256, 700, 4096} {
		if err := memory.WriteIndexInRuns(path, memory.Options{}, batch); err != nil {
			t.Fatalf("runs of %d: %v", batch, err)
		}
		got, err := os.ReadFile(memory.IndexPath(path))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("runs of %d: the index file differs", batch)
		}
		assertFiles(t, filepath.Dir(path), "catalog.snapshot", "catalog.snapshot.index")
	}
}

// TestWriteIndexFails checks that a snapshot that cannot be indexed gives
// an error naming why, writes no index file and leaves no temporary file.
func TestWriteIndexFails(t *testing.T) {
	for _, tt := range []struct {
		name    string
		spoil   func(s *catalog.Snapshot)
		damage  bool
		wantErr string
	}{
		{"duplicate id", func(s *catalog.Snapshot) { s.Products[5].ID = s.Products[9].ID }, false, "duplicate product id"},
		{"no id", func(s *catalog.Snapshot) { s.Products[3].ID = "" }, false, "product at position 3 has no id"},
		{"damaged", func(*catalog.Snapshot) {}, true, "does not match its checksum"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := syntheticSnapshot(50)
			tt.spoil(s)
			path := filepath.Join(t.TempDir(), "catalog.snapshot")
			if err := catalog.WriteSnapshot(path, s); err != nil {
				t.Fatal(err)
			}
			if tt.damage {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				b[len(b)-20] ^= 0x01
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, batch := range []int{1, 4096} {
				err := memory.WriteIndexInRuns(path, memory.Options{}, batch)
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("runs of %d: error %v, want one saying %q", batch, err, tt.wantErr)
				}
				assertFiles(t, filepath.Dir(path), "catalog.snapshot")
			}
		})
	}
}

// assertFiles checks that dir holds the named files and no others.
func assertFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if diff := cmp.Diff(names, got); diff != "" {
		t.Errorf("files in the directory (-want +got):\n%s", diff)
	}
}
