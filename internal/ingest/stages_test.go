package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

// Tests of the stages of a sync, one function each, in the order Sync runs
// them.

func TestReadRetailer(t *testing.T) {
	cfg := fixtureConfig(t)
	tests := []struct {
		name       string
		retailer   Retailer
		wantFailed bool
		wantRows   int
		wantOffers []string
	}{
		{"csv with rejected rows", cfg.Retailers[0], false, 7, []string{"alpha-A-100", "alpha-A-200", "alpha-A-600"}},
		{"missing feed", func() Retailer {
			r := cfg.Retailers[1]
			r.Location = filepath.Join(t.TempDir(), "missing.xml")
			return r
		}(), true, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := readRetailer(context.Background(), tt.retailer, cfg.Threshold(), syncTime)
			if res.failed != tt.wantFailed || res.report.Rows != tt.wantRows {
				t.Errorf("failed %v rows %d, want %v %d (report %+v)", res.failed, res.report.Rows, tt.wantFailed, tt.wantRows, res.report)
			}
			if tt.wantFailed && res.report.Error == "" {
				t.Error("failed feed reports no error")
			}
			var got []string
			for _, e := range res.entries {
				got = append(got, e.listing.OfferID)
			}
			if diff := cmp.Diff(tt.wantOffers, got); diff != "" {
				t.Errorf("offers mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// previous is a snapshot of two products, p1 with an Alpha and a Beta offer
// and p2 with a Beta offer.
func previous() *catalog.Snapshot {
	return &catalog.Snapshot{Products: []catalog.Product{
		{ID: "p1", Category: "Laptops", Offers: []catalog.Offer{{ID: "alpha-1", Source: "Alpha", Title: "Lenovo IdeaPad Slim 5"}, {ID: "beta-1", Source: "Beta", Title: "Lenovo IdeaPad Slim 5 14"}}},
		{ID: "p2", Category: "Phones", Offers: []catalog.Offer{{ID: "beta-2", Source: "Beta", Title: "Apple iPhone 15 128GB"}}},
	}}
}

func TestCarryOver(t *testing.T) {
	retailers := []Retailer{{Name: "Alpha"}, {Name: "Beta"}}
	fresh := func() []retailerResult {
		return []retailerResult{
			{report: RetailerReport{Name: "Alpha"}, entries: []*entry{{listing: catalog.Listing{OfferID: "alpha-1"}}}},
			{report: RetailerReport{Name: "Beta"}, failed: true},
		}
	}
	tests := []struct {
		name       string
		prev       *catalog.Snapshot
		wantOffers []string
		wantStale  int
	}{
		{"failed feed keeps its previous offers", previous(), []string{"alpha-1", "beta-1", "beta-2"}, 2},
		{"no previous snapshot to keep", nil, []string{"alpha-1"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results := fresh()
			entries, failed := carryOver(results, tt.prev, retailers)
			if failed != 1 {
				t.Errorf("failed = %d, want 1", failed)
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.listing.OfferID)
				if e.stale != (e.listing.Retailer == "Beta") {
					t.Errorf("%s: stale = %v", e.listing.OfferID, e.stale)
				}
			}
			if diff := cmp.Diff(tt.wantOffers, got); diff != "" {
				t.Errorf("offers mismatch (-want +got):\n%s", diff)
			}
			if b := results[1].report; b.StaleOffer != tt.wantStale || b.Stale != (tt.wantStale > 0) {
				t.Errorf("Beta report stale %v with %d offers, want %d", b.Stale, b.StaleOffer, tt.wantStale)
			}
			if results[0].entries != nil {
				t.Error("results still hold their entries")
			}
		})
	}
}

func TestMatchItems(t *testing.T) {
	entries := []*entry{
		{listing: catalog.Listing{Retailer: "Alpha", OfferID: "alpha-1", Title: "Lenovo IdeaPad Slim 5"}},
		{listing: catalog.Listing{Retailer: "Beta", OfferID: "beta-1"}, prevPID: "p1", stale: true},
		{listing: catalog.Listing{Retailer: "Alpha", OfferID: "alpha-9"}},
		{listing: catalog.Listing{Retailer: "Gamma", OfferID: "gamma-2"}},
	}
	items, _ := matchItems(entries, previous(), nil)
	type got struct{ PrevPID, Link, Title string }
	want := []got{{"p1", "p1", "Lenovo IdeaPad Slim 5"}, {"p1", "p1", ""}, {"", "", ""}, {"", "", ""}}
	var have []got
	for i, e := range entries {
		have = append(have, got{e.prevPID, items[i].Link, items[i].Title})
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("previous products and links mismatch (-want +got):\n%s", diff)
	}
}

func TestGroup(t *testing.T) {
	listing := func(retailer, id, title, gtin string) *entry {
		return newEntry(catalog.Listing{Retailer: retailer, OfferID: id, Title: title, GTIN: gtin, Brand: "Apple", Price: 699, Availability: catalog.InStock, LastUpdated: syncTime})
	}
	entries := []*entry{
		listing("Alpha", "alpha-1", "Apple iPhone 15 128GB Black", "0194253401230"),
		listing("Beta", "beta-1", "Apple iPhone 15 (128 GB) - Black", "0194253401230"),
		listing("Beta", "beta-2", "Russell Hobbs Kettle 1.7L", ""),
	}
	products, outOfScope, _ := group(entries, nil, nil, nopProgress{})
	if len(products) != 1 || len(products[0].product.Offers) != 2 || products[0].product.Category != "Phones" {
		t.Fatalf("products = %d, want the two iPhone listings as one phone", len(products))
	}
	if diff := cmp.Diff(map[string]int{"Beta": 1}, outOfScope); diff != "" {
		t.Errorf("out of scope mismatch (-want +got):\n%s", diff)
	}
	for i, e := range entries {
		if e != nil {
			t.Errorf("entry %d is still held after its product was built", i)
		}
	}
}

func TestAssignIDs(t *testing.T) {
	product := func(anchor string, prev ...string) *built {
		b := &built{anchor: anchor}
		for _, pid := range prev {
			if pid != "" {
				b.prevPIDs = append(b.prevPIDs, pid)
			}
		}
		return b
	}
	tests := []struct {
		name        string
		products    []*built
		want        map[string]string // anchor: id; "new" for a derived id
		wantCarried int
	}{
		{"new ids from anchors", []*built{product("a"), product("b")}, map[string]string{"a": newID("a", 0), "b": newID("b", 0)}, 0},
		{"ids carried over", []*built{product("a", "p1"), product("b", "p2", "")}, map[string]string{"a": "p1", "b": "p2"}, 2},
		{"an old id goes to the product with most of its offers", []*built{product("a", "p1"), product("b", "p1", "p1")}, map[string]string{"a": newID("a", 0), "b": "p1"}, 1},
		{"the majority of a product's offers decide", []*built{product("a", "p1", "p2", "p2")}, map[string]string{"a": "p2"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			carried := assignIDs(tt.products)
			got := map[string]string{}
			for _, b := range tt.products {
				got[b.anchor] = b.product.ID
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || carried != tt.wantCarried {
				t.Errorf("carried %d, want %d; ids mismatch (-want +got):\n%s", carried, tt.wantCarried, diff)
			}
		})
	}
}

func TestAssemble(t *testing.T) {
	products := []*built{{product: catalog.Product{ID: "pb"}}, {product: catalog.Product{ID: "pa"}}}
	snap := assemble(syncTime, products)
	if got := []string{snap.Products[0].ID, snap.Products[1].ID}; !cmp.Equal(got, []string{"pa", "pb"}) {
		t.Errorf("products %v, want sorted by id", got)
	}
	if !snap.Manifest.SyncTime.Equal(syncTime) || products[0] != nil {
		t.Errorf("sync time %v, built products kept: %v", snap.Manifest.SyncTime, products[0] != nil)
	}
}

func TestSummarize(t *testing.T) {
	snap := assemble(syncTime, []*built{
		{product: catalog.Product{ID: "p1", Category: "Laptops", Offers: []catalog.Offer{{Source: "Alpha"}, {Source: "Beta"}},
			Attributes: map[string]catalog.Attribute{catalog.MemoryGB: {Status: catalog.Confirmed}}}},
		{product: catalog.Product{ID: "p2", Category: "Phones", ProductType: catalog.TypeAccessory, Offers: []catalog.Offer{{Source: "Alpha"}},
			Attributes: map[string]catalog.Attribute{catalog.MemoryGB: {Status: catalog.Conflicting}}}},
	})
	results := []retailerResult{
		{report: RetailerReport{Name: "Alpha", Rejected: map[string]int{"bad_price": 2}}},
		{report: RetailerReport{Name: "Beta", Stale: true}},
	}
	rep := &Report{}
	summarize(rep, snap, results, map[string]int{"Beta": 3})
	if rep.Products != 2 || rep.Offers != 3 || rep.Accessories != 1 {
		t.Errorf("products %d offers %d accessories %d, want 2 3 1", rep.Products, rep.Offers, rep.Accessories)
	}
	if diff := cmp.Diff(map[string]Statuses{catalog.MemoryGB: {Confirmed: 1, Conflicting: 1}}, rep.Attributes); diff != "" {
		t.Errorf("attributes mismatch (-want +got):\n%s", diff)
	}
	wantRetailers := map[string]catalog.RetailerStats{"Alpha": {Offers: 2, Rejected: 2}, "Beta": {Offers: 1, Stale: true}}
	if diff := cmp.Diff(wantRetailers, snap.Manifest.Retailers); diff != "" {
		t.Errorf("manifest retailers mismatch (-want +got):\n%s", diff)
	}
	if rep.Retailers[1].OutOfScope != 3 || snap.Manifest.Rejected["bad_price"] != 2 || snap.Manifest.Offers != 3 {
		t.Errorf("report %+v manifest %+v", rep.Retailers, snap.Manifest)
	}
	if diff := cmp.Diff(map[string]int{"Laptops": 1, "Phones": 1}, snap.Manifest.Categories); diff != "" {
		t.Errorf("categories mismatch (-want +got):\n%s", diff)
	}
}

func TestGuard(t *testing.T) {
	prev := &catalog.Snapshot{Products: make([]catalog.Product, 10)}
	tests := []struct {
		name     string
		prev     *catalog.Snapshot
		products int
		force    bool
		wantErr  error // nil: published; ErrShrink; or any other error
		wantAny  bool
	}{
		{"first sync", nil, 5, false, nil, false},
		{"within max_shrink", prev, 7, false, nil, false},
		{"beyond max_shrink", prev, 6, false, ErrShrink, true},
		{"beyond max_shrink, forced", prev, 6, true, nil, false},
		{"empty", nil, 0, false, nil, true},
		{"empty, forced", prev, 0, true, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refusal, err := guard(tt.prev, tt.products, 0.3, tt.force)
			if (err != nil) != tt.wantAny || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
				t.Fatalf("err = %v, want %v (any: %v)", err, tt.wantErr, tt.wantAny)
			}
			if (refusal != "") != tt.wantAny {
				t.Errorf("refusal = %q", refusal)
			}
		})
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	snap := assemble(syncTime, []*built{{product: catalog.Product{ID: "p1", Category: "Laptops"}}})
	tests := []struct {
		name    string
		out     string
		wantErr bool
	}{
		{"published", filepath.Join(dir, "catalog.snapshot"), false},
		{"no such directory", filepath.Join(dir, "missing", "catalog.snapshot"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &Report{Products: 1}
			err := write(tt.out, snap, rep, true, time.Now(), nopProgress{})
			if (err != nil) != tt.wantErr || rep.Published == tt.wantErr {
				t.Fatalf("err = %v, published %v", err, rep.Published)
			}
			if tt.wantErr {
				return
			}
			got, err := catalog.ReadSnapshot(tt.out)
			if err != nil || len(got.Products) != 1 {
				t.Fatalf("snapshot: %v", err)
			}
			data, err := os.ReadFile(ReportPath(tt.out))
			if err != nil {
				t.Fatal(err)
			}
			var onDisk Report
			if err := json.Unmarshal(data, &onDisk); err != nil || !onDisk.Published || !onDisk.Forced || !strings.HasSuffix(onDisk.Duration, "s") {
				t.Errorf("report on disk: %v %+v", err, onDisk)
			}
		})
	}
}
