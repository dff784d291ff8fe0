package elastic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
	"productsearch/internal/search/relevance"
	"productsearch/internal/search/searchtest"
)

// TestConformance runs the shared conformance suite against the engine,
// each fixture published into a fresh alias on the node.
func TestConformance(t *testing.T) {
	nodeURL(t)
	n := 0
	top := t
	searchtest.Run(t, func(t *testing.T, s *catalog.Snapshot) search.Engine {
		n++
		// The engine serves later case files too: its indices live as
		// long as the whole suite.
		alias := uniqueAlias(top, fmt.Sprintf("conf%d", n))
		publishSnapshot(t, alias, s)
		return newEngine(t, alias, search.DefaultMaxCandidates)
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

// TestMaxCandidates is the embedded engine's candidate-limit table.
func TestMaxCandidates(t *testing.T) {
	nodeURL(t)
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
	aliases := map[string]string{}
	for _, name := range []string{"catalog", "bulk"} {
		aliases[name] = uniqueAlias(t, "maxcand-"+name)
		publishSnapshot(t, aliases[name], fixture(t, name))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			alias := aliases[tt.fixture]
			e := newEngine(t, alias, tt.maxCand)
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

// outcome is everything a search answers, for comparing engines.
type outcome struct {
	IDs                        []string
	Statuses                   []map[string]string
	Total, Unverified, Exclude int
	Truncated                  bool
	JSON                       string
}

func outcomeOf(t testing.TB, res *search.Result) outcome {
	t.Helper()
	body, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	o := outcome{IDs: searchtest.IDs(res), Total: res.Total, Unverified: res.UnverifiedTotal, Exclude: res.ExcludedByConstraints,
		Truncated: res.CandidatesTruncated, JSON: string(body)}
	for _, h := range res.Products {
		o.Statuses = append(o.Statuses, h.ConstraintStatus)
	}
	return o
}

// caseQueries returns the request parameters of every successful case of
// the conformance suite for a fixture, as query strings.
func caseQueries(t *testing.T, fixtureName string) []string {
	t.Helper()
	files, err := filepath.Glob("../searchtest/testdata/cases/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files: %v", err)
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cf struct {
			Fixture string `json:"fixture"`
			Cases   []struct {
				Params map[string]json.RawMessage `json:"params"`
				Want   struct {
					Error string `json:"error"`
				} `json:"want"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(data, &cf); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if cf.Fixture != fixtureName {
			continue
		}
		for _, c := range cf.Cases {
			if c.Want.Error != "" {
				continue
			}
			v := url.Values{}
			for k, raw := range c.Params {
				var s string
				if json.Unmarshal(raw, &s) == nil {
					v.Set(k, s)
					continue
				}
				var ss []string
				if err := json.Unmarshal(raw, &ss); err != nil {
					t.Fatalf("%s: param %s: %v", f, k, err)
				}
				v[k] = ss
			}
			out = append(out, v.Encode())
		}
	}
	return out
}

// variants adds every sort order, lite and a second page to queries.
func variants(queries []string) []string {
	var out []string
	for _, q := range queries {
		v, _ := url.ParseQuery(q)
		for _, sort := range []string{"relevance", "price_asc", "price_desc"} {
			for _, page := range []string{"", "offset=3&limit=4"} {
				w := url.Values{}
				for k, vals := range v {
					if k != "sort" && k != "offset" && k != "limit" {
						w[k] = vals
					}
				}
				w.Set("sort", sort)
				s := w.Encode()
				if page != "" {
					s += "&" + page
				}
				out = append(out, s)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestSameAnswersAsMemory compares complete answers (ids in order, counts,
// statuses and the response JSON) of the two engines on the conformance
// fixtures, for every successful case of the suite in every sort order,
// a second page, and three candidate limits.
func TestSameAnswersAsMemory(t *testing.T) {
	nodeURL(t)
	for _, name := range []string{"catalog", "bulk"} {
		t.Run(name, func(t *testing.T) {
			s := fixture(t, name)
			alias := uniqueAlias(t, "same-"+fixtureAlias(name))
			publishSnapshot(t, alias, s)
			queries := variants(caseQueries(t, name))
			compareEngines(t, s, alias, queries, []int{search.DefaultMaxCandidates, 0, 7})
		})
	}
}

// TestSameAnswersOnDemoCatalog compares the engines on the demo catalog
// (build/catalog.snapshot, made by `make catalog`) with the benchmark's
// query mix in every sort order, and their relevance reports over the
// judged queries of package relevance.
func TestSameAnswersOnDemoCatalog(t *testing.T) {
	nodeURL(t)
	if testing.Short() {
		t.Skip("publishes the demo catalog")
	}
	s := demoCatalog(t)
	alias := uniqueAlias(t, "same-demo")
	publishSnapshot(t, alias, s)
	compareEngines(t, s, alias, variants(searchtest.BenchQueries()), []int{search.DefaultMaxCandidates, 150})

	data, err := os.ReadFile(filepath.Join("..", "relevance", "testdata", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []relevance.Case
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	mem, err := memory.New(s, memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := relevance.Report("relevance", relevance.Evaluate(ctx, mem, s, cases))
	got := relevance.Report("relevance", relevance.Evaluate(ctx, newEngine(t, alias, search.DefaultMaxCandidates), s, cases))
	if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("relevance reports differ (-memory +elastic):\n%s", diff)
	}
}

// demoCatalog reads build/catalog.snapshot or skips.
func demoCatalog(t testing.TB) *catalog.Snapshot {
	t.Helper()
	path := filepath.Join("..", "..", "..", "build", "catalog.snapshot")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not found: run `make catalog` first", path)
	}
	s, err := catalog.ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func compareEngines(t *testing.T, s *catalog.Snapshot, alias string, queries []string, limits []int) {
	t.Helper()
	ctx := context.Background()
	for _, maxCand := range limits {
		mem, err := memory.New(s, memory.Options{MaxCandidates: maxCand})
		if err != nil {
			t.Fatal(err)
		}
		es := newEngine(t, alias, maxCand)
		for _, q := range queries {
			req := searchtest.MustParse(t, q)
			if maxCand != search.DefaultMaxCandidates && len(req.Constraints) == 0 && !strings.Contains(q, "query=") {
				continue // the limit changes nothing without constraints
			}
			sameAnswers(t, ctx, mem, es, req, fmt.Sprintf("max candidates %d, %s", maxCand, q))
		}
	}
}

// sameAnswers checks that the Elasticsearch engine answers req as the
// embedded engine does; what names the case in a failure.
func sameAnswers(t *testing.T, ctx context.Context, mem, es search.Engine, req search.Request, what string) {
	t.Helper()
	want, err := mem.Search(ctx, req)
	if err != nil {
		t.Fatalf("memory, %s: %v", what, err)
	}
	got, err := es.Search(ctx, req)
	if err != nil {
		t.Errorf("elastic, %s: %v", what, err)
		return
	}
	if diff := cmp.Diff(outcomeOf(t, want), outcomeOf(t, got)); diff != "" {
		t.Errorf("%s: answers differ (-memory +elastic):\n%s", what, diff)
	}
}
