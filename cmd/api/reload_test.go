package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"productsearch/internal/search/memory"
)

// writeIndexed writes the fixture with extra products and its index file,
// as the indexer does: the snapshot first, then the index.
func writeIndexed(t *testing.T, path string, extra int) {
	t.Helper()
	writeSnapshot(t, path, extra)
	if err := memory.WriteIndex(path, memory.Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestHotReloadMapped reloads catalogs with their index files under load:
// no request fails, every catalog is mapped (none is indexed in memory),
// and a snapshot whose index file is not written yet waits for it.
func TestHotReloadMapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	writeIndexed(t, path, 0)
	rs := startRun(t, map[string]string{"CATALOG_PATH": path, "RELOAD_INTERVAL": "10ms"})
	if n := healthItems(t, rs.URL); n != 12 {
		t.Fatalf("items = %d, want 12", n)
	}
	done := hammer(t, rs.URL, "/api/search?category=Laptops&limit=5", "/api/search?query=samsung&lite=true",
		`/api/search?query=laptop&lite=true&constraints={"memory_gb":{"gte":16}}`, "/api/product/dell-xps-13")
	for _, extra := range []int{30, 5, 60} {
		writeSnapshot(t, path, extra)
		time.Sleep(50 * time.Millisecond) // polls that find the index file older than the snapshot
		if n := healthItems(t, rs.URL); n == 12+extra {
			t.Errorf("the catalog of %d items was loaded before its index file was written", n)
		}
		if err := memory.WriteIndex(path, memory.Options{}); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, fmt.Sprintf("reload to %d items", 12+extra), func() bool { return healthItems(t, rs.URL) == 12+extra })
	}
	done()
	if strings.Contains(rs.stderr.String(), "index file not used") {
		t.Errorf("a catalog was indexed in memory:\n%s", rs.stderr.String())
	}
}

// hammer requests paths of base from four clients until the returned
// function is called, which fails the test if any request failed or too
// few ran.
func hammer(t *testing.T, base string, paths ...string) func() {
	var failures, requests atomic.Int64
	var firstFailure atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				status, err := getJSON(base+paths[(w+i)%len(paths)], nil)
				requests.Add(1)
				if err != nil || status != http.StatusOK {
					failures.Add(1)
					firstFailure.CompareAndSwap(nil, fmt.Sprintf("status %d err %v", status, err))
				}
			}
		})
	}
	return func() {
		t.Helper()
		close(stop)
		wg.Wait()
		if n := failures.Load(); n > 0 {
			t.Errorf("%d of %d requests failed during reloads; first: %v", n, requests.Load(), firstFailure.Load())
		}
		if requests.Load() < 20 {
			t.Errorf("only %d requests ran during the reloads", requests.Load())
		}
	}
}
