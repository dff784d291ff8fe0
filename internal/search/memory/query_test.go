package memory

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/searchtest"
)

// TestTopK checks the heap, quickselect and sort paths of topK against a
// full sort.
func TestTopK(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{0, 1, 2, 3, 10, 100, 1000} {
		for _, k := range []int{0, 1, 5, n / 4, n/4 + 1, n / 2, n - 1, n, n + 3} {
			if k < 0 {
				continue
			}
			rs := make([]ranked, n)
			for i := range rs {
				// Few distinct scores and tiers, so ties fall to the rank.
				rs[i] = ranked{score: float64(r.IntN(5)), tier: uint8(r.IntN(2)), rank: uint32(i), doc: uint32(n - i)}
			}
			r.Shuffle(n, func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
			want := slices.Clone(rs)
			sortRanked(want)
			want = want[:min(k, n)]
			got := topK(slices.Clone(rs), k)
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(ranked{})); diff != "" {
				t.Fatalf("topK(n=%d, k=%d) mismatch (-want +got):\n%s", n, k, diff)
			}
			if k > 0 && k <= n {
				sel := slices.Clone(rs)
				selectTop(sel, k)
				sel = sel[:k]
				sortRanked(sel)
				if diff := cmp.Diff(want, sel, cmp.AllowUnexported(ranked{})); diff != "" {
					t.Fatalf("selectTop(n=%d, k=%d) mismatch (-want +got):\n%s", n, k, diff)
				}
			}
		}
	}
}

// TestStaticOrders checks that the precomputed orders give the same pages
// as scoring every candidate, for browsing and for required words alone.
func TestStaticOrders(t *testing.T) {
	s, err := searchtest.Fixture("catalog")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := build(s, catalog.DefaultAttributes())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		req    search.Request
		static bool
	}{
		{search.Request{Category: "Laptops"}, true},
		{search.Request{Query: "apple"}, true},
		{search.Request{Query: "sony"}, true},
		{search.Request{Query: "samsung", Offset: 3}, true},
		{search.Request{Query: "galaxy s24"}, false}, // "galaxy" and "s24" side by side score
		{search.Request{Query: "case"}, false},       // an accessory query ranks no tier first
		{search.Request{Query: "apple 15", MaxPrice: ptr(900)}, false},
	} {
		r := tt.req
		plan, err := r.Plan()
		if err != nil {
			t.Fatal(err)
		}
		run := func(forceScoring bool) []uint32 {
			sc := ix.getScratch()
			defer ix.putScratch(sc)
			q := &query{ix: ix, plan: &plan, sc: sc}
			if !q.candidates() {
				t.Fatalf("%+v: no candidates", tt.req)
			}
			q.prepare()
			if forceScoring {
				if q.static != tt.static {
					t.Fatalf("%+v: static = %t, want %t", tt.req, q.static, tt.static)
				}
				q.static, q.scoring = false, true
				q.order, q.rank = ix.browseOrder, ix.browseRank
				var docs []uint32
				for i := range q.c.len() {
					docs = append(docs, q.c.at(i))
				}
				return q.rankDocs(docs, plan.Request.Limit, nil)
			}
			return q.relevance(plan.Request.Limit, nil)
		}
		if diff := cmp.Diff(run(true), run(false)); diff != "" {
			t.Errorf("%+v: static order mismatch (-scored +static):\n%s", tt.req, diff)
		}
	}
}

func ptr(f float64) *float64 { return &f }

func TestCountIn(t *testing.T) {
	bm := roaring.BitmapOf(0, 5, 6, 64, 1000)
	tests := []struct {
		lo, hi uint32
		want   uint64
	}{
		{0, 1, 1}, {0, 5, 1}, {0, 6, 2}, {1, 5, 0}, {5, 7, 2}, {6, 64, 1}, {7, 64, 0}, {7, 65, 1}, {0, 2000, 5}, {1001, 2000, 0},
	}
	for _, tt := range tests {
		if got := countIn(bm, tt.lo, tt.hi); got != tt.want {
			t.Errorf("countIn(%d, %d) = %d, want %d", tt.lo, tt.hi, got, tt.want)
		}
	}
}

// TestScratchResets checks that a query's scratch goes back to the pool
// clean: the next query must not see the marks, masks or products made for
// a query word of the last.
func TestScratchResets(t *testing.T) {
	ix, err := build(copiesOf(t, "words", 3), catalog.DefaultAttributes())
	if err != nil {
		t.Fatal(err)
	}
	fitted := 0
	for _, raw := range []string{"query=ps5", "query=xbox+series", "query=ps5+slim", "query=sony+console"} {
		q, ok := prepared(t, ix, raw)
		if !ok {
			t.Fatalf("%s: no candidates", raw)
		}
		if q.fit {
			fitted++
		}
		q.computeMasks()
		sc := q.sc
		ix.putScratch(sc)
		for name, dirty := range map[string]bool{
			"qmark": slices.ContainsFunc(sc.qmark, func(m uint8) bool { return m != 0 }),
			"masks": slices.ContainsFunc(sc.masks, func(m uint64) bool { return m != 0 }),
			"fit":   slices.ContainsFunc(sc.fit, func(w uint64) bool { return w != 0 }),
		} {
			if dirty {
				t.Errorf("%s: %s not reset", raw, name)
			}
		}
	}
	if fitted == 0 {
		t.Error("no query moved a product made for its word to the accessories' tier")
	}
}
