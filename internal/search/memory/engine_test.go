package memory_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
	"productsearch/internal/search/searchtest"
)

func TestConformance(t *testing.T) {
	searchtest.Run(t, func(t *testing.T, s *catalog.Snapshot) search.Engine {
		e, err := memory.New(s, memory.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return e
	})
}

func fixture(t *testing.T, name string) *catalog.Snapshot {
	t.Helper()
	s, err := searchtest.Fixture(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewErrors(t *testing.T) {
	good := fixture(t, "catalog")
	dup := &catalog.Snapshot{Products: []catalog.Product{{ID: "a", Title: "A"}, {ID: "a", Title: "B"}}}
	noID := &catalog.Snapshot{Products: []catalog.Product{{Title: "A"}}}
	tests := []struct {
		name string
		s    *catalog.Snapshot
		opt  memory.Options
		want string
	}{
		{"negative MaxCandidates", good, memory.Options{MaxCandidates: -1}, "MaxCandidates -1 is negative"},
		{"nil snapshot", nil, memory.DefaultOptions(), "nil snapshot"},
		{"duplicate id", dup, memory.DefaultOptions(), `duplicate product id "a"`},
		{"empty id", noID, memory.DefaultOptions(), "has no id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := memory.New(tt.s, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestMaxCandidates(t *testing.T) {
	tests := []struct {
		name, fixture, query    string
		maxCand                 int
		want                    []string
		total, unverified, excl int
		truncated               bool
	}{
		{"price order", "catalog", `category=Laptops&constraints={"memory_gb":{"gte":16}}&sort=price_asc`, 3,
			[]string{"lap-sleeve"}, 0, 1, 2, true},
		{"browse order", "catalog", `category=Laptops&constraints={"memory_gb":{"gte":16}}`, 3,
			[]string{"lap-lenovo-legion", "lap-asus-rog-4070"}, 2, 0, 1, true},
		{"price_desc order", "catalog", `category=Laptops&constraints={"memory_gb":{"gte":16}}&sort=price_desc`, 4,
			[]string{"lap-macbook-pro-14", "lap-asus-rog-4070", "lap-lenovo-legion", "lap-asus-rog-4060"}, 4, 0, 0, true},
		{"exactly the limit", "catalog", `category=Laptops&constraints={"memory_gb":{"gte":16}}&max_price=449.99&sort=price_asc`, 3,
			[]string{"lap-sleeve"}, 0, 1, 2, false},
		{"zero checks every candidate", "bulk", `category=Cables %26 Chargers&constraints={"power_w":{"gte":60}}&sort=price_asc&limit=2`, 0,
			[]string{"bulk-0000", "bulk-0003"}, 684, 683, 683, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := memory.New(fixture(t, tt.fixture), memory.Options{MaxCandidates: tt.maxCand})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Search(context.Background(), searchtest.MustParse(t, tt.query))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, searchtest.IDs(res)); diff != "" {
				t.Errorf("ids mismatch (-want +got):\n%s", diff)
			}
			got := []any{res.Total, res.UnverifiedTotal, res.ExcludedByConstraints, res.CandidatesTruncated}
			want := []any{tt.total, tt.unverified, tt.excl, tt.truncated}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("total, unverified, excluded, truncated mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHealthAndProductJSON(t *testing.T) {
	s := fixture(t, "catalog")
	e, err := memory.New(s, memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	h, err := e.Health(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := search.Health{Status: "ok", Items: len(s.Products), LastUpdate: s.Manifest.SyncTime}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Errorf("Health mismatch (-want +got):\n%s", diff)
	}
	p, body, err := e.ProductJSON(context.Background(), "argos-9263123")
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "ph-iphone15-128" || string(body) != string(search.AppendProduct(nil, p)) {
		t.Errorf("ProductJSON = %s, %s", p.ID, body)
	}
	if _, _, err := e.ProductJSON(context.Background(), "nope"); !errors.Is(err, search.ErrNotFound) {
		t.Errorf("ProductJSON(nope) error = %v, want ErrNotFound", err)
	}
}

func TestSearchValidatesAndHonoursContext(t *testing.T) {
	e, err := memory.New(fixture(t, "catalog"), memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var inv *search.InvalidError
	if _, err := e.Search(context.Background(), search.Request{Limit: 500}); !errors.As(err, &inv) {
		t.Errorf("Search(limit 500) error = %v, want *search.InvalidError", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Search(ctx, search.Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search(canceled) error = %v, want context.Canceled", err)
	}
	if _, err := e.Product(ctx, "lap-hp-15"); !errors.Is(err, context.Canceled) {
		t.Errorf("Product(canceled) error = %v, want context.Canceled", err)
	}
	res, err := e.Search(context.Background(), search.Request{Category: "Laptops", Sort: search.SortPriceAsc, Limit: 1})
	if err != nil || len(res.Products) != 1 || res.Products[0].Product.ID != "lap-sleeve" {
		t.Errorf("Search with an unvalidated request = %v, %v", searchtest.IDs(res), err)
	}
}

// TestResultsDoNotShareBuffers checks that a result stays intact after
// later searches reuse the engine's buffers.
func TestResultsDoNotShareBuffers(t *testing.T) {
	e, err := memory.New(fixture(t, "catalog"), memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	first, err := e.Search(context.Background(), searchtest.MustParse(t, "category=Laptops&sort=price_asc&limit=5"))
	if err != nil {
		t.Fatal(err)
	}
	want := searchtest.IDs(first)
	for _, q := range []string{"category=Phones", `category=TVs&query=4K`, "query=sony&sort=price_desc", "brand=apple&offset=3"} {
		if _, err := e.Search(context.Background(), searchtest.MustParse(t, q)); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want, searchtest.IDs(first)); diff != "" {
		t.Errorf("an earlier result changed (-want +got):\n%s", diff)
	}
}

// TestLoadSwapsWhileSearching searches from several goroutines while new
// snapshots are loaded; every search sees one whole catalog.
func TestLoadSwapsWhileSearching(t *testing.T) {
	small, bulk := fixture(t, "catalog"), fixture(t, "bulk")
	e, err := memory.New(small, memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Load(nil); err == nil {
		t.Fatal("Load(nil) succeeded")
	}
	req := searchtest.MustParse(t, "sort=price_asc&limit=1")
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			for range 200 {
				res, err := e.Search(context.Background(), req)
				if err != nil {
					errs <- err
					return
				}
				if res.Total != len(small.Products) && res.Total != len(bulk.Products) {
					errs <- fmt.Errorf("total %d matches neither catalog", res.Total)
					return
				}
			}
		})
	}
	for i := range 6 {
		s := small
		if i%2 == 0 {
			s = bulk
		}
		if err := e.Load(s); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	h, _ := e.Health(context.Background())
	if h.Items != len(small.Products) {
		t.Errorf("after the last Load, Health items = %d, want %d", h.Items, len(small.Products))
	}
}
