package ingest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/match"
)

var syncTime = time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)

// fixtureConfig loads testdata/retailers.yaml, keeping only the named
// retailers when any are given.
func fixtureConfig(t *testing.T, only ...string) Config {
	t.Helper()
	cfg, err := LoadConfig("testdata/retailers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(only) > 0 {
		cfg.Retailers = slices.DeleteFunc(cfg.Retailers, func(r Retailer) bool { return !slices.Contains(only, r.Name) })
	}
	return cfg
}

func syncOnce(t *testing.T, cfg Config, out string, force bool) (*Report, *catalog.Snapshot, error) {
	t.Helper()
	rep, err := Sync(context.Background(), Options{Config: cfg, Out: out, Force: force, Now: syncTime})
	if err != nil {
		return rep, nil, err
	}
	snap, rerr := catalog.ReadSnapshot(out)
	if rerr != nil {
		t.Fatal(rerr)
	}
	return rep, snap, nil
}

func byTitle(t *testing.T, s *catalog.Snapshot, prefix string) catalog.Product {
	t.Helper()
	for _, p := range s.Products {
		for _, o := range p.Offers {
			if strings.HasPrefix(o.Title, prefix) {
				return p
			}
		}
	}
	t.Fatalf("no product with an offer titled %q", prefix)
	return catalog.Product{}
}

func offerIDs(p catalog.Product) []string {
	ids := make([]string, len(p.Offers))
	for i, o := range p.Offers {
		ids[i] = o.ID
	}
	return ids
}

func TestSyncBuildsCanonicalProducts(t *testing.T) {
	out := filepath.Join(t.TempDir(), "catalog.snapshot")
	rep, snap, err := syncOnce(t, fixtureConfig(t), out, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(snap.Products), 5; got != want {
		for _, p := range snap.Products {
			t.Logf("%s %s %v", p.ID, p.Title, offerIDs(p))
		}
		t.Fatalf("%d products, want %d", got, want)
	}

	laptop := byTitle(t, snap, "Lenovo IdeaPad")
	if laptop.OfferCount != 3 || len(laptop.Offers) != 3 {
		t.Errorf("laptop offers = %d (%v), want 3 across retailers", laptop.OfferCount, offerIDs(laptop))
	}
	if laptop.Price != 629 || laptop.Provenance.Source != "Beta" || laptop.PurchaseURL != "https://www.beta.example/p/B1" {
		t.Errorf("laptop price/source/url = %v %q %q, want the cheapest offer (Beta's sale price 629)", laptop.Price, laptop.Provenance.Source, laptop.PurchaseURL)
	}
	if !slices.IsSortedFunc(laptop.Offers, func(a, b catalog.Offer) int { return int(a.Price*100 - b.Price*100) }) {
		t.Errorf("offers not sorted by price: %v", laptop.Offers)
	}
	if laptop.Availability != catalog.LowStock || laptop.Stock == nil || *laptop.Stock != 2 {
		t.Errorf("laptop availability = %q stock %v, want the cheapest offer's low_stock with 2", laptop.Availability, laptop.Stock)
	}
	if laptop.Brand != "Lenovo" || laptop.Category != "Laptops" || laptop.ProductType != catalog.TypeProduct {
		t.Errorf("laptop brand/category/type = %q %q %q", laptop.Brand, laptop.Category, laptop.ProductType)
	}
	// Beta's feed gives no update time, so its offer is dated at the sync.
	if got := laptop.Provenance.LastUpdated; !got.Equal(syncTime) {
		t.Errorf("provenance.last_updated = %v, want the newest offer update (the sync time of Beta's undated offer)", got)
	}
	if got := byTitle(t, snap, "TP-Link").Provenance.LastUpdated; !got.Equal(time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("router provenance.last_updated = %v, want its feed's update time", got)
	}
	wantAttrs := map[string]catalog.Attribute{
		catalog.MemoryGB: {Status: catalog.Confirmed, Value: 16, Sources: sources("Alpha", "Beta", "Gamma")},
		catalog.ScreenIn: {Status: catalog.Confirmed, Value: 14, Sources: sources("Alpha", "Beta", "Gamma")},
		catalog.StorageGB: {Status: catalog.Conflicting, Values: []catalog.StatedValue{
			{Value: 512, Sources: sources("Alpha", "Beta")}, {Value: 1000, Sources: sources("Gamma")},
		}},
	}
	if diff := cmp.Diff(wantAttrs, laptop.Attributes); diff != "" {
		t.Errorf("laptop attributes mismatch (-want +got):\n%s", diff)
	}
	if laptop.Specs.ModelNumber != "82XF001UUK" || laptop.Specs.Description == "" {
		t.Errorf("laptop specs = %+v, want model number and a description", laptop.Specs)
	}

	phone := byTitle(t, snap, "Apple iPhone 15")
	if diff := cmp.Diff([]string{"alpha-A-200", "beta-B2"}, offerIDs(phone)); diff != "" {
		t.Errorf("phone offers mismatch (-want +got):\n%s", diff)
	}
	if a := phone.Attributes[catalog.StorageGB]; a.Status != catalog.Confirmed || a.Value != 128 {
		t.Errorf("phone storage = %+v, want confirmed 128", a)
	}

	caseP := byTitle(t, snap, "Spigen")
	if caseP.Category != "Phones" || caseP.ProductType != catalog.TypeAccessory {
		t.Errorf("case category/type = %q %q, want Phones accessory", caseP.Category, caseP.ProductType)
	}
	if _, ok := caseP.Attributes[catalog.StorageGB]; ok {
		t.Errorf("case took the phone's storage from 'for iPhone 15 128GB': %+v", caseP.Attributes)
	}

	headphones := byTitle(t, snap, "Sony WH-1000XM5")
	if headphones.OfferCount != 2 || headphones.Price != 285 {
		t.Errorf("duplicate listings: offers %v price %v, want the retailer's two listings as one product from 285", offerIDs(headphones), headphones.Price)
	}

	router := byTitle(t, snap, "TP-Link")
	if router.Brand != "TP-Link" || router.Availability != catalog.OutOfStock {
		t.Errorf("router brand/availability = %q %q, want TP-Link out_of_stock", router.Brand, router.Availability)
	}
	if a := router.Attributes[catalog.WifiGen]; a.Value != 6 {
		t.Errorf("router wifi_gen = %+v, want 6", a)
	}

	checkFixtureReport(t, rep)

	if snap.Manifest.Products != 5 || snap.Manifest.Offers != 9 || !snap.Manifest.SyncTime.Equal(syncTime) {
		t.Errorf("manifest = %+v", snap.Manifest)
	}
	var onDisk Report
	data, err := os.ReadFile(ReportPath(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &onDisk); err != nil || !onDisk.Published || onDisk.Products != 5 {
		t.Errorf("report on disk: %v %+v", err, onDisk)
	}
	for _, p := range snap.Products {
		if !urlSafe(p.ID) {
			t.Errorf("product id %q is not URL-safe", p.ID)
		}
		for _, o := range p.Offers {
			if !urlSafe(o.ID) {
				t.Errorf("offer id %q is not URL-safe", o.ID)
			}
		}
	}
}

// checkFixtureReport checks the fixture feeds' rejected rows and counts
// in a sync's report.
func checkFixtureReport(t *testing.T, rep *Report) {
	t.Helper()
	wantRejected := map[string]map[string]int{
		"Alpha": {"not_new": 1, "non_gbp": 1, "bad_price": 1},
		"Beta":  {"bad_url": 1},
	}
	for _, rr := range rep.Retailers {
		for reason, n := range wantRejected[rr.Name] {
			if rr.Rejected[reason] != n {
				t.Errorf("%s rejected[%s] = %d, want %d (all: %v)", rr.Name, reason, rr.Rejected[reason], n, rr.Rejected)
			}
			if len(rr.Samples[reason]) == 0 {
				t.Errorf("%s: no sample rows for %s", rr.Name, reason)
			}
		}
	}
	alpha, gamma := rep.Retailers[0], rep.Retailers[2]
	if total(alpha.Rejected) != 4 || alpha.OutOfScope != 1 || alpha.Rows != 7 {
		t.Errorf("Alpha: rows %d rejected %v out of scope %d; want 7 rows, 4 rejected (incl. the short row), the kettle out of scope", alpha.Rows, alpha.Rejected, alpha.OutOfScope)
	}
	if total(gamma.Rejected) != 1 || gamma.Rows != 5 {
		t.Errorf("Gamma: rows %d rejected %v; want 5 rows with the non-JSON line rejected", gamma.Rows, gamma.Rejected)
	}
}

func TestSyncIDsAreStable(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "a.snapshot")
	_, s1, err := syncOnce(t, fixtureConfig(t), first, false)
	if err != nil {
		t.Fatal(err)
	}
	// The same feeds into a fresh location give the same ids.
	_, s2, err := syncOnce(t, fixtureConfig(t), filepath.Join(dir, "b.snapshot"), false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(idsByOffer(s1), idsByOffer(s2)); diff != "" {
		t.Errorf("ids differ between two syncs of the same feeds (-first +second):\n%s", diff)
	}
	// Re-syncing over the previous snapshot keeps the ids.
	rep, s3, err := syncOnce(t, fixtureConfig(t), first, false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(idsByOffer(s1), idsByOffer(s3)); diff != "" {
		t.Errorf("ids changed on re-sync (-before +after):\n%s", diff)
	}
	if rep.IDsCarried != len(s1.Products) {
		t.Errorf("ids carried over = %d, want %d", rep.IDsCarried, len(s1.Products))
	}
	// Without Beta, whose offer anchored nothing on its own, every product
	// that still has an offer keeps its id.
	_, s4, err := syncOnce(t, fixtureConfig(t, "Alpha", "Gamma"), first, true)
	if err != nil {
		t.Fatal(err)
	}
	before := idsByOffer(s1)
	for offer, id := range idsByOffer(s4) {
		if before[offer] != id {
			t.Errorf("offer %s: product id %s after removing a retailer, was %s", offer, id, before[offer])
		}
	}
}

func TestSyncKeepsStaleRetailer(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "catalog.snapshot")
	_, s1, err := syncOnce(t, fixtureConfig(t), out, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fixtureConfig(t)
	cfg.Retailers[1].Location = filepath.Join(dir, "missing.xml") // Beta's feed cannot be fetched
	rep, s2, err := syncOnce(t, cfg, out, false)
	if err != nil {
		t.Fatal(err)
	}
	beta := rep.Retailers[1]
	if !beta.Stale || beta.Error == "" || beta.StaleOffer != 3 {
		t.Errorf("Beta report = %+v, want stale with the fetch error and 3 offers kept", beta)
	}
	if diff := cmp.Diff(idsByOffer(s1), idsByOffer(s2)); diff != "" {
		t.Errorf("catalog changed although only a feed failed (-before +after):\n%s", diff)
	}
	if !s2.Manifest.Retailers["Beta"].Stale {
		t.Errorf("manifest does not mark Beta stale: %+v", s2.Manifest.Retailers)
	}
	laptop := byTitle(t, s2, "Lenovo IdeaPad")
	if laptop.Price != 629 || laptop.Offers[0].Title == "" {
		t.Errorf("stale offer not kept with its product: %+v", laptop.Offers)
	}

	// A truncated feed fails as a whole rather than replacing the listing.
	trunc := filepath.Join(dir, "truncated.xml")
	data, err := os.ReadFile("testdata/feeds/beta.xml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(trunc, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Retailers[1].Location = trunc
	rep, s3, err := syncOnce(t, cfg, out, false)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Retailers[1].Stale {
		t.Errorf("truncated feed not treated as failed: %+v", rep.Retailers[1])
	}
	if len(s3.Products) != len(s1.Products) {
		t.Errorf("%d products after a truncated feed, want %d", len(s3.Products), len(s1.Products))
	}
}

func TestSyncShrinkGuard(t *testing.T) {
	out := filepath.Join(t.TempDir(), "catalog.snapshot")
	if _, _, err := syncOnce(t, fixtureConfig(t), out, false); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Gamma alone holds 3 of 5 products' offers: 60% shrink.
	rep, _, err := syncOnce(t, fixtureConfig(t, "Gamma"), out, false)
	if err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("shrinking sync: err = %v, want a refusal that mentions --force", err)
	}
	if rep == nil || rep.Published || rep.Refusal == "" {
		t.Errorf("report = %+v, want unpublished with a refusal", rep)
	}
	after, _ := os.ReadFile(out)
	if string(before) != string(after) {
		t.Error("refused sync changed the snapshot")
	}
	if _, s, err := syncOnce(t, fixtureConfig(t, "Gamma"), out, true); err != nil || len(s.Products) != 3 {
		t.Errorf("forced sync: err %v, want it published", err)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"no retailers", "retailers: []\n", "no retailers"},
		{"unknown key", "retailer: []\n", "field retailer not found"},
		{"bad slug", "retailers:\n  - {name: A, slug: 'Bad Slug', format: awin_csv, location: a.csv}\n", "slug"},
		{"duplicate slug", "retailers:\n  - {name: A, slug: a, format: awin_csv, location: a.csv}\n  - {name: B, slug: a, format: awin_csv, location: b.csv}\n", "duplicate slug"},
		{"bad format", "retailers:\n  - {name: A, slug: a, format: excel, location: a.csv}\n", "excel"},
		{"bad shrink", "max_shrink: 2\nretailers:\n  - {name: A, slug: a, format: awin_csv, location: a.csv}\n", "max_shrink"},
		{"no location", "retailers:\n  - {name: A, slug: a, format: awin_csv}\n", "location is required"},
		{"prefix slugs", "retailers:\n  - {name: A, slug: shop, format: awin_csv, location: a.csv}\n  - {name: B, slug: shop-pc, format: awin_csv, location: b.csv}\n", "must not be another plus a hyphen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "r.yaml")
			if err := os.WriteFile(p, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfig(p)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadConfig error = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://user:secret@feeds.example/f.csv?token=abc", "https://feeds.example/f.csv?…"},
		{"/data/feed.csv", "/data/feed.csv"},
	}
	for _, tt := range tests {
		if got := redact(tt.in); got != tt.want {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func sources(names ...string) []catalog.Source {
	out := make([]catalog.Source, len(names))
	for i, n := range names {
		out[i] = catalog.Source{Retailer: n, Field: catalog.FieldTitle}
	}
	return out
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func idsByOffer(s *catalog.Snapshot) map[string]string {
	m := map[string]string{}
	for _, p := range s.Products {
		for _, o := range p.Offers {
			m[o.ID] = p.ID
		}
	}
	return m
}

func urlSafe(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~") == ""
}

func TestRepresentativeTitle(t *testing.T) {
	mk := func(retailer, title string, specs map[string]float64) *entry {
		return &entry{listing: catalog.Listing{Retailer: retailer, Title: title}, specs: specs}
	}
	tests := []struct {
		name, brand string
		es          []*entry
		want        string
	}{
		{
			name:  "a title stating the minority value loses",
			brand: "Lenovo",
			es: []*entry{
				mk("A", "Lenovo ThinkPad T14 Gen 4 14\" i5 8GB/1TB SSD", map[string]float64{catalog.MemoryGB: 8}),
				mk("B", "Lenovo ThinkPad T14 Gen 4 Laptop, Intel Core i5, 16GB RAM, 1TB SSD", map[string]float64{catalog.MemoryGB: 16}),
				mk("C", "LENOVO ThinkPad T14 Gen 4 - Intel Core i5, 16GB RAM, 1TB SSD", map[string]float64{catalog.MemoryGB: 16}),
			},
			want: "Lenovo ThinkPad T14 Gen 4 Laptop, Intel Core i5, 16GB RAM, 1TB SSD",
		},
		{
			name:  "shouting and decoration lose",
			brand: "Sony",
			es: []*entry{
				mk("A", "SONY WH-1000XM5 HEADPHONES | BLACK FRIDAY DEAL!", nil),
				mk("B", "Sony WH-1000XM5 Wireless Noise Cancelling Headphones - Black", nil),
			},
			want: "Sony WH-1000XM5 Wireless Noise Cancelling Headphones - Black",
		},
		{
			name:  "the title most retailers share wins",
			brand: "Apple",
			es: []*entry{
				mk("A", "Apple iPhone 15 128GB Black", nil),
				mk("B", "Apple iPhone 15 128GB Black", nil),
				mk("C", "Apple iPhone 15 (128GB) Black Smartphone", nil),
			},
			want: "Apple iPhone 15 128GB Black",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			attrs := map[string]catalog.Attribute{}
			obs := map[string][]catalog.Observation{}
			for _, e := range tt.es {
				for n, v := range e.specs {
					obs[n] = append(obs[n], catalog.Observation{Retailer: e.listing.Retailer, Value: v})
				}
			}
			for n, o := range obs {
				attrs[n], _ = catalog.BuildAttribute(o)
			}
			if got := representativeTitle(tt.es, tt.brand, mostStated(attrs)); got != tt.want {
				t.Errorf("representativeTitle = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestOffersKeepEveryField checks that a listing read back from the
// offers, its rest from the spill, is the listing that was added, but for
// the fields that serve classification only.
func TestOffersKeepEveryField(t *testing.T) {
	stock := 3
	tests := []struct {
		name string
		l    catalog.Listing
	}{
		{"every field", catalog.Listing{
			Retailer: "Alpha", OfferID: "alpha-id-1", Title: "Lenovo IdeaPad", Description: "desc ★ & <b>", Price: 499.99,
			Availability: catalog.LowStock, Stock: &stock, DeliveryTime: "next day", URL: "https://x.example/1",
			ImageURL: "https://img.example/1.jpg", GTIN: "05012345678900", MPN: "MPN1", ModelNumber: "M1", Brand: "Lenovo",
			Colour: "Grey", Dimensions: "30 cm", LastUpdated: syncTime.In(time.FixedZone("", 3600)),
		}},
		{"empty fields", catalog.Listing{Retailer: "Beta", OfferID: "beta-2", Title: "t", Availability: catalog.OutOfStock}},
		{"zero stock", catalog.Listing{Retailer: "Beta", OfferID: "beta-3", Title: "t", Stock: new(int)}},
	}
	sp := testSpill(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			given := tt.l
			given.MerchantID, given.CategoryPath, given.TaxonomyID = "m-1", "Computing > Laptops", "328"
			o := testOffers(t, sp, []catalog.Listing{given})
			e, _, err := o.entry(0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.l, e.listing); diff != "" {
				t.Errorf("listing read back mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadRestRejectsDamage checks that a spilled listing cut short or
// overlong is an error, not a listing.
func TestReadRestRejectsDamage(t *testing.T) {
	l := catalog.Listing{Description: "d", URL: "https://x.example/1", Price: 1, Title: "Acme X1", Brand: "Acme"}
	rest := string(appendRest(nil, &l))
	item := string(appendItem(nil, &l, map[string]float64{"ram_gb": 8}))
	for _, bad := range []string{rest[:len(rest)-1], rest[:3], rest + "\x00", "\xff"} {
		if err := readRest(bad, &catalog.Listing{}); err == nil {
			t.Errorf("readRest(%q) = nil, want an error", bad)
		}
	}
	for _, bad := range []string{item[:len(item)-1], item[:3], item + "\x00", "\xff", item[:len(item)-10] + "\x09"} {
		if err := readItem(bad, &match.Item{}); err == nil {
			t.Errorf("readItem(%q) = nil, want an error", bad)
		}
	}
}

// TestOffersCopyKeptStrings checks that the strings offers keep are copies,
// not views of the row a feed reader read them from, which can then be
// freed.
func TestOffersCopyKeptStrings(t *testing.T) {
	row := "alpha-1|Apple iPhone 15 128GB Black|00194253401230|MPN9|A3090|Apple|Black"
	f := strings.Split(row, "|")
	l := catalog.Listing{Retailer: "Alpha", OfferID: f[0], Title: f[1], GTIN: f[2], MPN: f[3], ModelNumber: f[4], Brand: f[5], Colour: f[6]}
	o := testOffers(t, testSpill(t), []catalog.Listing{l})
	start, end := uintptr(unsafe.Pointer(unsafe.StringData(row))), uintptr(unsafe.Pointer(unsafe.StringData(row)))+uintptr(len(row))
	for _, s := range []string{o.offerID(0), o.gtin(0)} {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); s == "" || (p >= start && p < end) {
			t.Errorf("%q is empty or shares its bytes with the row", s)
		}
	}
}

// TestSyncRemovesStaleTemps leaves beside the snapshot what a killed sync
// leaves (temporary snapshot files) with other files that must survive, and
// checks that the next sync removes exactly the stale temporary files and
// reports how much it removed.
func TestSyncRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "catalog.snapshot")
	old := time.Now().Add(-time.Hour)
	files := []struct {
		name  string
		size  int
		mtime time.Time
		stays bool
	}{
		{name: "catalog.snapshot.123456.tmp", size: 3000, mtime: old},
		{name: "catalog.snapshot.987.tmp", size: 500, mtime: old},
		{name: "catalog.snapshot.42.tmp", size: 70, mtime: time.Now(), stays: true}, // a write in progress
		{name: "catalog.snapshot.backup.tmp", size: 10, mtime: old, stays: true},    // not a name the writer makes
		{name: "other.snapshot.123.tmp", size: 10, mtime: old, stays: true},         // another snapshot's
		{name: "catalog.snapshot.123", size: 10, mtime: old, stays: true},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, make([]byte, f.size), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
			t.Fatal(err)
		}
	}
	rep, _, err := syncOnce(t, fixtureConfig(t), out, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.TempFilesRemoved != 2 || rep.TempBytesRemoved != 3500 {
		t.Errorf("report says %d files, %d bytes removed; want 2 files, 3500 bytes", rep.TempFilesRemoved, rep.TempBytesRemoved)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		if exists := err == nil; exists != f.stays {
			t.Errorf("%s: exists %v after the sync, want %v", f.name, exists, f.stays)
		}
	}
	var written Report
	data, err := os.ReadFile(ReportPath(out))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &written); err != nil {
		t.Fatal(err)
	}
	if written.TempFilesRemoved != 2 || written.TempBytesRemoved != 3500 {
		t.Errorf("report file says %d files, %d bytes removed; want 2, 3500", written.TempFilesRemoved, written.TempBytesRemoved)
	}
	var summary strings.Builder
	rep.WriteSummary(&summary)
	if !strings.Contains(summary.String(), "removed 2 temporary snapshot files") {
		t.Errorf("summary does not say what was removed:\n%s", summary.String())
	}
}
