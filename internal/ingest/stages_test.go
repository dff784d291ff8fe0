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
	"productsearch/internal/classify"
	"productsearch/internal/extract"
	"productsearch/internal/match"
)

// Tests of the stages of a sync, one function each, in the order Sync runs
// them.

// testSpill is a spill beside a snapshot in a fresh directory, removed
// when the test ends.
func testSpill(t *testing.T) *spill {
	t.Helper()
	sp, err := newSpill(filepath.Join(t.TempDir(), "catalog.snapshot"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sp.remove)
	return sp
}

// testOffers holds the listings given, each with its side, their rest in sp.
func testOffers(t *testing.T, sp *spill, ls []catalog.Listing, from ...origin) *offers {
	t.Helper()
	o := newOffers(newStore(sp))
	var buf []byte
	var err error
	for i := range ls {
		l := &ls[i]
		cls := classify.Listing(classify.Input{Title: l.Title, Brand: l.Brand})
		specs := extract.Title(l.Title, extract.Context{Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory})
		var s origin
		if i < len(from) {
			s = from[i]
		}
		if buf, err = o.add(l, cls, specs, s, buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := sp.flush(); err != nil {
		t.Fatal(err)
	}
	return o
}

func offerIDsOf(o *offers) []string {
	var ids []string
	for i := range o.sides {
		ids = append(ids, o.offerID(i))
	}
	return ids
}

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
			res := readRetailer(context.Background(), tt.retailer, cfg.Threshold(), syncTime, newStore(testSpill(t)))
			if res.failed != tt.wantFailed || res.report.Rows != tt.wantRows {
				t.Errorf("failed %v rows %d, want %v %d (report %+v)", res.failed, res.report.Rows, tt.wantFailed, tt.wantRows, res.report)
			}
			if tt.wantFailed && res.report.Error == "" {
				t.Error("failed feed reports no error")
			}
			if diff := cmp.Diff(tt.wantOffers, offerIDsOf(res.offers)); diff != "" {
				t.Errorf("offers mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// previousSnapshot is a snapshot of two products, p1 with an Alpha and a
// Beta offer and p2 with a Beta offer.
func previousSnapshot() *catalog.Snapshot {
	return &catalog.Snapshot{Products: []catalog.Product{
		{ID: "p1", Category: "Laptops", Offers: []catalog.Offer{{ID: "alpha-1", Source: "Alpha", Title: "Lenovo IdeaPad Slim 5"}, {ID: "beta-1", Source: "Beta", Title: "Lenovo IdeaPad Slim 5 14"}}},
		{ID: "p2", Category: "Phones", Offers: []catalog.Offer{{ID: "beta-2", Source: "Beta", Title: "Apple iPhone 15 128GB", LastUpdated: syncTime}}},
	}}
}

// writePrevious writes previousSnapshot and reads it back as a sync does.
func writePrevious(t *testing.T, incremental bool) *previous {
	t.Helper()
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	if err := catalog.WriteSnapshot(path, previousSnapshot()); err != nil {
		t.Fatal(err)
	}
	prev, err := readPrevious(path, incremental)
	if err != nil {
		t.Fatal(err)
	}
	return prev
}

func TestReadPrevious(t *testing.T) {
	prev := writePrevious(t, true)
	if prev.products != 2 {
		t.Errorf("products = %d, want 2", prev.products)
	}
	if diff := cmp.Diff(map[string]string{"alpha-1": "p1", "beta-1": "p1", "beta-2": "p2"}, prev.pid); diff != "" {
		t.Errorf("offer products mismatch (-want +got):\n%s", diff)
	}
	if !prev.updated["beta-2"].Equal(syncTime) {
		t.Errorf("beta-2 updated %v, want %v", prev.updated["beta-2"], syncTime)
	}
	if none, err := readPrevious(filepath.Join(t.TempDir(), "none.snapshot"), false); none != nil || err != nil {
		t.Errorf("no snapshot: %v, %v", none, err)
	}

	data, err := os.ReadFile(prev.path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	tests := []struct {
		name    string
		content string
		want    error // nil: any error
	}{
		{"damaged", strings.Replace(string(data), "Lenovo", "Lenovx", 1), catalog.ErrChecksum},
		{"truncated", lines[0] + lines[1], catalog.ErrChecksum},
		{"not a snapshot", "{}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "catalog.snapshot")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := readPrevious(path, false)
			if err == nil || got != nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Errorf("readPrevious = %v, %v; want an error wrapping %v", got, err, tt.want)
			}
		})
	}
}

func TestCarryOver(t *testing.T) {
	tests := []struct {
		name       string
		prev       bool
		wantOffers []string
		wantStale  int
	}{
		{"failed feed keeps its previous offers", true, []string{"alpha-1", "beta-1", "beta-2"}, 2},
		{"no previous snapshot to keep", false, []string{"alpha-1"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := testSpill(t)
			results := []retailerResult{
				{report: RetailerReport{Name: "Alpha"}, offers: testOffers(t, sp, []catalog.Listing{{Retailer: "Alpha", OfferID: "alpha-1"}})},
				{report: RetailerReport{Name: "Beta"}, offers: newOffers(newStore(sp)), failed: true},
			}
			var prev *previous
			if tt.prev {
				prev = writePrevious(t, false)
			}
			o, failed, err := carryOver(results, prev, results[0].offers.store)
			if err != nil || failed != 1 {
				t.Fatalf("failed = %d, %v; want 1", failed, err)
			}
			if diff := cmp.Diff(tt.wantOffers, offerIDsOf(o)); diff != "" {
				t.Errorf("offers mismatch (-want +got):\n%s", diff)
			}
			for i, s := range o.sides {
				if s.stale != (o.name(s.retailer) == "Beta") || (s.stale && o.prevPID(i) == "") {
					t.Errorf("%s: stale = %v, previous product %q", o.offerID(i), s.stale, o.prevPID(i))
				}
			}
			if b := results[1].report; b.StaleOffer != tt.wantStale || b.Stale != (tt.wantStale > 0) {
				t.Errorf("Beta report stale %v with %d offers, want %d", b.Stale, b.StaleOffer, tt.wantStale)
			}
			if results[0].offers != nil {
				t.Error("results still hold their offers")
			}
		})
	}
}

func TestMatchItems(t *testing.T) {
	sp := testSpill(t)
	o := testOffers(t, sp, []catalog.Listing{
		{Retailer: "Alpha", OfferID: "alpha-1", Title: "Lenovo IdeaPad Slim 5"},
		{Retailer: "Beta", OfferID: "beta-1"},
		{Retailer: "Alpha", OfferID: "alpha-9"},
		{Retailer: "Gamma", OfferID: "gamma-2"},
	}, origin{}, origin{prevPID: "p1", stale: true})
	prev := &previous{pid: map[string]string{"alpha-1": "p1", "beta-1": "p1", "beta-2": "p2"}}
	matchItems(o, prev, nil)
	type got struct{ PrevPID, Link, Title string }
	want := []got{{"p1", "p1", "Lenovo IdeaPad Slim 5"}, {"p1", "p1", ""}, {"", "", ""}, {"", "", ""}}
	have := make([]got, len(o.sides))
	err := o.Read([]int{0, 1, 2, 3}, func(k int, it *match.Item) {
		have[k] = got{o.prevPID(k), it.Link, it.Title}
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("previous products and links mismatch (-want +got):\n%s", diff)
	}
}

// builtProducts decodes the products c built into the spill.
func builtProducts(t *testing.T, c *catalogue, sp *spill) []*catalog.Product {
	t.Helper()
	if err := sp.flush(); err != nil {
		t.Fatal(err)
	}
	var out []*catalog.Product
	for _, pl := range c.products {
		line, err := sp.read(pl.line, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := catalog.DecodeRecord(line)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func TestGroup(t *testing.T) {
	listing := func(retailer, id, title, gtin string) catalog.Listing {
		return catalog.Listing{Retailer: retailer, OfferID: id, Title: title, GTIN: gtin, Brand: "Apple", Price: 699, Availability: catalog.InStock, LastUpdated: syncTime}
	}
	sp := testSpill(t)
	o := testOffers(t, sp, []catalog.Listing{
		listing("Alpha", "alpha-1", "Apple iPhone 15 128GB Black", "0194253401230"),
		listing("Beta", "beta-1", "Apple iPhone 15 (128 GB) - Black", "0194253401230"),
		listing("Beta", "beta-2", "Russell Hobbs Kettle 1.7L", ""),
	})
	c, err := group(o, nil, nil, sp, nopProgress{})
	if err != nil {
		t.Fatal(err)
	}
	products := builtProducts(t, c, sp)
	if len(products) != 1 || len(products[0].Offers) != 2 || products[0].Category != "Phones" || products[0].ID != newID("gtin:0194253401230", 0) {
		t.Fatalf("products = %d, want the two iPhone listings as one phone", len(products))
	}
	if diff := cmp.Diff(map[string]int{"Beta": 1}, c.outOfScope); diff != "" {
		t.Errorf("out of scope mismatch (-want +got):\n%s", diff)
	}
	if c.tally.products != 1 || c.tally.offers != 2 || c.tally.offersBy["Beta"] != 1 {
		t.Errorf("tally %+v, want one product of two offers", c.tally)
	}
}

func TestAssignIDs(t *testing.T) {
	product := func(anchor string, prev ...string) *placed {
		b := &placed{anchor: anchor}
		for _, pid := range prev {
			if pid != "" {
				b.prevPIDs = append(b.prevPIDs, pid)
			}
		}
		return b
	}
	tests := []struct {
		name        string
		products    []*placed
		want        map[string]string // anchor: id; "new" for a derived id
		wantCarried int
	}{
		{"new ids from anchors", []*placed{product("a"), product("b")}, map[string]string{"a": newID("a", 0), "b": newID("b", 0)}, 0},
		{"ids carried over", []*placed{product("a", "p1"), product("b", "p2", "")}, map[string]string{"a": "p1", "b": "p2"}, 2},
		{"an old id goes to the product with most of its offers", []*placed{product("a", "p1"), product("b", "p1", "p1")}, map[string]string{"a": newID("a", 0), "b": "p1"}, 1},
		{"the majority of a product's offers decide", []*placed{product("a", "p1", "p2", "p2")}, map[string]string{"a": "p2"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			carried := assignIDs(tt.products)
			got := map[string]string{}
			for _, b := range tt.products {
				got[b.anchor] = b.id
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || carried != tt.wantCarried {
				t.Errorf("carried %d, want %d; ids mismatch (-want +got):\n%s", carried, tt.wantCarried, diff)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	tl := newTally()
	tl.add(&catalog.Product{ID: "p1", Category: "Laptops", Offers: []catalog.Offer{{Source: "Alpha"}, {Source: "Beta"}},
		Attributes: map[string]catalog.Attribute{catalog.MemoryGB: {Status: catalog.Confirmed}}})
	other := newTally()
	other.add(&catalog.Product{ID: "p2", Category: "Phones", ProductType: catalog.TypeAccessory, Offers: []catalog.Offer{{Source: "Alpha"}},
		Attributes: map[string]catalog.Attribute{catalog.MemoryGB: {Status: catalog.Conflicting}}})
	tl.merge(&other)
	results := []retailerResult{
		{report: RetailerReport{Name: "Alpha", Rejected: map[string]int{"bad_price": 2}}},
		{report: RetailerReport{Name: "Beta", Stale: true}},
	}
	rep := &Report{}
	m := summarize(rep, syncTime, &tl, results, map[string]int{"Beta": 3})
	if rep.Products != 2 || rep.Offers != 3 || rep.Accessories != 1 {
		t.Errorf("products %d offers %d accessories %d, want 2 3 1", rep.Products, rep.Offers, rep.Accessories)
	}
	if diff := cmp.Diff(map[string]Statuses{catalog.MemoryGB: {Confirmed: 1, Conflicting: 1}}, rep.Attributes); diff != "" {
		t.Errorf("attributes mismatch (-want +got):\n%s", diff)
	}
	wantRetailers := map[string]catalog.RetailerStats{"Alpha": {Offers: 2, Rejected: 2}, "Beta": {Offers: 1, Stale: true}}
	if diff := cmp.Diff(wantRetailers, m.Retailers); diff != "" {
		t.Errorf("manifest retailers mismatch (-want +got):\n%s", diff)
	}
	if rep.Retailers[1].OutOfScope != 3 || m.Rejected["bad_price"] != 2 || m.Offers != 3 || !m.SyncTime.Equal(syncTime) {
		t.Errorf("report %+v manifest %+v", rep.Retailers, m)
	}
	if diff := cmp.Diff(map[string]int{"Laptops": 1, "Phones": 1}, m.Categories); diff != "" {
		t.Errorf("categories mismatch (-want +got):\n%s", diff)
	}
}

func TestGuard(t *testing.T) {
	prev := &previous{products: 10}
	tests := []struct {
		name     string
		prev     *previous
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

// TestWrite writes products whose lines wait in the spill out of id order
// and checks that the snapshot lists them in id order, with the report.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
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
			sp := testSpill(t)
			enc := catalog.NewRecordEncoder()
			var products []*placed
			for _, id := range []string{"pc", "pa", "pb"} {
				line, err := enc.Line(&catalog.Product{ID: id, Category: "Laptops", Title: "Lenovo & Co <" + id + ">"})
				if err != nil {
					t.Fatal(err)
				}
				pl := &placed{id: id}
				if pl.line, err = sp.append(line); err != nil {
					t.Fatal(err)
				}
				products = append(products, pl)
			}
			rep := &Report{Products: 3}
			err := write(tt.out, products, sp, catalog.Manifest{SyncTime: syncTime}, rep, true, time.Now(), nopProgress{})
			if (err != nil) != tt.wantErr || rep.Published == tt.wantErr {
				t.Fatalf("err = %v, published %v", err, rep.Published)
			}
			if tt.wantErr {
				return
			}
			got, err := catalog.ReadSnapshot(tt.out)
			if err != nil || len(got.Products) != 3 || got.Manifest.Products != 3 {
				t.Fatalf("snapshot: %v", err)
			}
			var ids []string
			for _, p := range got.Products {
				ids = append(ids, p.ID)
			}
			if diff := cmp.Diff([]string{"pa", "pb", "pc"}, ids); diff != "" || got.Products[0].Title != "Lenovo & Co <pa>" {
				t.Errorf("products not in id order (-want +got):\n%s (first title %q)", diff, got.Products[0].Title)
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
