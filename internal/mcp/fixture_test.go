package mcp

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
)

// fixtureSnapshot reads testdata/catalog.json: eight products (laptops with
// confirmed, inferred, conflicting and unknown attributes, a phone sold by
// three retailers, a phone case, a TV) written as catalog.Product.
func fixtureSnapshot(t testing.TB) *catalog.Snapshot {
	t.Helper()
	data, err := os.ReadFile("testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		SyncTime time.Time         `json:"sync_time"`
		Products []catalog.Product `json:"products"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("decode testdata/catalog.json: %v", err)
	}
	s := &catalog.Snapshot{Manifest: catalog.Manifest{
		Format: catalog.SnapshotFormat, Version: catalog.SnapshotVersion, SyncTime: f.SyncTime,
		Products: len(f.Products), Categories: map[string]int{}, Retailers: map[string]catalog.RetailerStats{},
	}, Products: f.Products}
	for _, p := range f.Products {
		s.Manifest.Categories[p.Category]++
		s.Manifest.Offers += len(p.Offers)
	}
	return s
}

// fixtureEngine is the memory engine over the fixture, checking every
// candidate.
func fixtureEngine(t testing.TB) search.Engine {
	t.Helper()
	e, err := memory.New(fixtureSnapshot(t), memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return e
}
