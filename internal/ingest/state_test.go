package ingest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

func TestListingHash(t *testing.T) {
	stock := 3
	base := catalog.Listing{Retailer: "Alpha", OfferID: "alpha-1", Title: "Laptop 14", Price: 649, Stock: &stock,
		LastUpdated: time.Date(2026, 11, 19, 8, 0, 0, 0, time.UTC)}
	other := 4
	tests := []struct {
		name string
		mod  func(*catalog.Listing)
		same bool
	}{
		{"row number", func(l *catalog.Listing) { l.Row = 9 }, true},
		{"title", func(l *catalog.Listing) { l.Title = "Laptop 15" }, false},
		{"price", func(l *catalog.Listing) { l.Price = 649.01 }, false},
		{"stock", func(l *catalog.Listing) { l.Stock = &other }, false},
		{"no stock", func(l *catalog.Listing) { l.Stock = nil }, false},
		{"time", func(l *catalog.Listing) { l.LastUpdated = l.LastUpdated.Add(time.Second) }, false},
		{"category text", func(l *catalog.Listing) { l.CategoryPath = "Laptops" }, false},
		{"fields do not run together", func(l *catalog.Listing) { l.Retailer, l.OfferID = "Alphaalpha-1", "" }, false},
	}
	for _, tt := range tests {
		l := base
		tt.mod(&l)
		if got := listingHash(&l) == listingHash(&base); got != tt.same {
			t.Errorf("%s: same hash %v, want %v", tt.name, got, tt.same)
		}
	}
}

// TestIncrementalSyncKeepsGroups: a second incremental sync over the same
// feeds keeps every offer with its product and writes the same products; a
// changed offer is grouped afresh and changes its product alone.
func TestIncrementalSyncKeepsGroups(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata")); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(filepath.Join(dir, "retailers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "catalog.snapshot")
	sync := func(now time.Time) (*Report, *catalog.Snapshot) {
		t.Helper()
		rep, err := Sync(context.Background(), Options{Config: cfg, Out: out, Now: now, Incremental: true})
		if err != nil {
			t.Fatal(err)
		}
		snap, err := catalog.ReadSnapshot(out)
		if err != nil {
			t.Fatal(err)
		}
		return rep, snap
	}
	rep, first := sync(syncTime)
	if rep.OffersUnchanged != 0 {
		t.Errorf("first sync: %d offers unchanged, want 0 (no state)", rep.OffersUnchanged)
	}
	if _, err := os.Stat(StatePath(out)); err != nil {
		t.Fatalf("no state written: %v", err)
	}
	rep, second := sync(syncTime.Add(time.Hour))
	if rep.OffersUnchanged != rep.Offers {
		t.Errorf("second sync: %d of %d offers unchanged, want all", rep.OffersUnchanged, rep.Offers)
	}
	if diff := cmp.Diff(first.Products, second.Products); diff != "" {
		t.Errorf("products changed without a feed change (-first +second):\n%s", diff)
	}

	feed := filepath.Join(dir, "feeds", "alpha.csv")
	data, err := os.ReadFile(feed)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(feed, []byte(strings.Replace(string(data), ",Next day,", ",2-3 days,", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, third := sync(syncTime.Add(2 * time.Hour))
	if rep.OffersUnchanged != rep.Offers-1 {
		t.Errorf("third sync: %d of %d offers unchanged, want all but one", rep.OffersUnchanged, rep.Offers)
	}
	changed := 0
	for i := range third.Products {
		if i >= len(second.Products) || third.Products[i].ID != second.Products[i].ID {
			t.Fatalf("product ids changed: %v", third.Products[i].ID)
		}
		if !cmp.Equal(second.Products[i], third.Products[i]) {
			changed++
		}
	}
	if changed != 1 {
		t.Errorf("%d products changed, want 1", changed)
	}
}
