package relevance

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/demo"
	"productsearch/internal/ingest"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
)

var update = flag.Bool("update", false, "rewrite testdata/rank_stats.txt from the current ranking")

const (
	queriesFile = "testdata/queries.json"
	goldenFile  = "testdata/rank_stats.txt"
	// minCases is the least number of judged queries the report holds.
	minCases = 60
)

// The demo catalog the report is computed over.
var (
	demoOptions = demo.Options{Seed: 1, Scale: 1}
	syncTime    = time.Date(2026, 11, 21, 6, 0, 0, 0, time.UTC)
)

func loadCases(t *testing.T) []Case {
	t.Helper()
	data, err := os.ReadFile(queriesFile)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var cases []Case
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("%s: %v", queriesFile, err)
	}
	return cases
}

// TestCases checks that every judged query is a valid request with a
// sound predicate, and that no query appears twice.
func TestCases(t *testing.T) {
	cases := loadCases(t)
	if len(cases) < minCases {
		t.Errorf("%d queries, want at least %d", len(cases), minCases)
	}
	seen := map[string]bool{}
	for i := range cases {
		c := &cases[i]
		t.Run(c.Label(), func(t *testing.T) {
			if seen[c.Label()] {
				t.Errorf("query %d repeats an earlier one", i+1)
			}
			seen[c.Label()] = true
			req := c.Request()
			if err := req.Validate(); err != nil {
				t.Errorf("request is invalid: %v", err)
			}
			if err := c.Relevant.Validate(); err != nil {
				t.Errorf("relevant: %v", err)
			}
		})
	}
}

// demoSnapshot generates the demo feeds and syncs them into a catalog.
func demoSnapshot(t *testing.T) *catalog.Snapshot {
	t.Helper()
	dir := t.TempDir()
	if _, err := demo.Generate(dir, demoOptions); err != nil {
		t.Fatal(err)
	}
	cfg, err := ingest.LoadConfig(filepath.Join(dir, demo.ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "catalog.snapshot")
	if _, err := ingest.Sync(context.Background(), ingest.Options{Config: cfg, Out: out, Now: syncTime}); err != nil {
		t.Fatal(err)
	}
	s, err := catalog.ReadSnapshot(out)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRankStats computes the relevance report over the demo catalog and
// compares it with testdata/rank_stats.txt; -update rewrites the file.
func TestRankStats(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and indexes the demo catalog; skipped in -short mode")
	}
	cases := loadCases(t)
	s := demoSnapshot(t)
	e, err := memory.New(s, memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	out := Evaluate(context.Background(), e, s, cases)
	for _, o := range out {
		if o.Err != nil {
			t.Errorf("%s: %v", o.Case.Label(), o.Err)
		}
		if o.Relevant == 0 {
			t.Errorf("%s: no product of the demo catalog is relevant; revise the judgement", o.Case.Label())
		}
	}
	title := fmt.Sprintf("relevance of the memory engine over the demo catalog (seed %d, scale %d): %d products",
		demoOptions.Seed, demoOptions.Scale, len(s.Products))
	got := Report(title, out)
	if *update {
		if err := os.WriteFile(goldenFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/search/relevance -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("relevance report mismatch (-want +got); review, then rewrite with -update:\n%s", diff)
	}
}

// stubEngine answers every search with fixed products.
type stubEngine struct {
	search.Engine
	hits []*catalog.Product
}

func (s stubEngine) Search(context.Context, search.Request) (*search.Result, error) {
	res := &search.Result{Total: len(s.hits)}
	for _, p := range s.hits {
		res.Products = append(res.Products, search.Hit{Product: p})
	}
	return res, nil
}

// TestEvaluate checks the judgement and the metrics on a small catalog.
func TestEvaluate(t *testing.T) {
	s := &catalog.Snapshot{Products: []catalog.Product{
		{ID: "a", Title: "Sony WH-1000XM5 Wireless Headphones", Category: "Headphones", ProductType: catalog.TypeProduct},
		{ID: "b", Title: "Sony WH1000XM5 Headphones Black", Category: "Headphones", ProductType: catalog.TypeProduct},
		{ID: "c", Title: "Case for Sony WH-1000XM5", Category: "Headphones", ProductType: catalog.TypeAccessory},
		{ID: "d", Title: "Sony WH-1000XM4 Headphones", Category: "Headphones", ProductType: catalog.TypeProduct},
		{ID: "e", Title: "Lenovo Laptop 16GB RAM", Category: "Laptops", ProductType: catalog.TypeProduct,
			Attributes: map[string]catalog.Attribute{catalog.MemoryGB: {Status: catalog.Confirmed, Value: 16}}},
		{ID: "f", Title: "Lenovo Laptop 8GB RAM", Category: "Laptops", ProductType: catalog.TypeProduct,
			Attributes: map[string]catalog.Attribute{catalog.MemoryGB: {Status: catalog.Inferred, Value: 8}}},
	}}
	p := func(i int) *catalog.Product { return &s.Products[i] }
	sixteen := 16.0
	xm5 := Predicate{Words: []string{"WH-1000XM5"}, Type: "product"}
	tests := []struct {
		name     string
		pred     Predicate
		hits     []*catalog.Product
		relevant int
		ranks    []int
		r1, r5   float64
		rr       float64
	}{
		{"first is relevant", xm5, []*catalog.Product{p(0), p(2), p(1)}, 2, []int{1, 3}, 1, 1, 1},
		{"second is relevant", xm5, []*catalog.Product{p(3), p(1), p(2), p(0)}, 2, []int{2, 4}, 0, 1, 0.5},
		{"none found", xm5, []*catalog.Product{p(3), p(2)}, 2, nil, 0, 0, 0},
		{"accessory", Predicate{Words: []string{"wh1000xm5"}, AnyWords: []string{"case", "pouch"}, Type: "accessory"},
			[]*catalog.Product{p(0), p(2)}, 1, []int{2}, 0, 1, 0.5},
		{"not words", Predicate{Words: []string{"sony"}, NotWords: []string{"case", "wh-1000xm4"}},
			[]*catalog.Product{p(3), p(2), p(1), p(0)}, 2, []int{3, 4}, 0, 1, 1.0 / 3},
		{"attributes", Predicate{Category: "Laptops", Attributes: search.Constraints{catalog.MemoryGB: {Gte: &sixteen}}},
			[]*catalog.Product{p(5), p(4)}, 1, []int{2}, 0, 1, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.pred.Validate(); err != nil {
				t.Fatal(err)
			}
			c := Case{Query: "q", Relevant: tt.pred}
			out := Evaluate(context.Background(), stubEngine{hits: tt.hits}, s, []Case{c})
			o := out[0]
			type got struct {
				Relevant   int
				Ranks      []int
				R1, R5, RR float64
			}
			want := got{tt.relevant, tt.ranks, tt.r1, tt.r5, tt.rr}
			if diff := cmp.Diff(want, got{o.Relevant, o.Ranks, o.RecallAt(1), o.RecallAt(5), o.ReciprocalRank()}); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPredicateValidate rejects judgements that cannot work.
func TestPredicateValidate(t *testing.T) {
	for _, p := range []Predicate{
		{},
		{Type: "product"},
		{Words: []string{"--"}},
		{Category: "Laptop"},
		{Words: []string{"x"}, Type: "device"},
		{Category: "Laptops", Attributes: search.Constraints{"ram": {}}},
	} {
		t.Run(fmt.Sprintf("%+v", p), func(t *testing.T) {
			if err := p.Validate(); err == nil {
				t.Error("Validate accepted it")
			}
		})
	}
}
