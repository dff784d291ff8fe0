package memory

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search/searchtest"
)

// copies returns the fixture catalog with every product copied n times
// under new ids, with titles that lose one word or gain filler words,
// other offer counts, prices and product types, so that scores, norms,
// tiers and browse ranks both tie and differ.
func copies(t *testing.T, n int) *catalog.Snapshot {
	t.Helper()
	return copiesOf(t, "catalog", n)
}

// copiesOf is copies of the named fixture.
func copiesOf(t *testing.T, fixture string, n int) *catalog.Snapshot {
	t.Helper()
	s, err := searchtest.Fixture(fixture)
	if err != nil {
		t.Fatal(err)
	}
	out := &catalog.Snapshot{Manifest: s.Manifest}
	for c := range n {
		for i, p := range s.Products {
			p.ID = fmt.Sprintf("%s-%d", p.ID, c)
			words := strings.Fields(p.Title)
			if c%4 == 3 && len(words) > 2 {
				words = slices.Delete(words, (c+i)%len(words), (c+i)%len(words)+1)
			}
			for range (c + i) % 5 {
				words = append(words, "Edition")
			}
			p.Title = strings.Join(words, " ")
			if (c+i)%7 == 6 {
				p.ProductType = catalog.TypeAccessory
			}
			p.OfferCount += c % 4
			p.Price *= 1 + float64(c%5)/100
			p.Offers = nil
			out.Products = append(out.Products, p)
		}
	}
	return out
}

// TestBestK checks that reading candidates by descending norm and stopping
// early keeps the same best documents, in the same order, as scoring every
// candidate, for pages of every size and queries with and without tiers,
// ranking-only words, pairs and products made for a query word.
func TestBestK(t *testing.T) {
	ix, err := build(copies(t, 30), catalog.DefaultAttributes())
	if err != nil {
		t.Fatal(err)
	}
	queries := append(searchtest.BenchQueries(),
		"query=case", "query=iphone+case", "query=charger+for+macbook", "query=usb-c+cable+65w",
		"query=apple", "query=sony+headphones", "query=laptop+16gb", "query=samsung+galaxy+s24+ultra",
		"query=apple+15&max_price=900", "query=samsung&category=Phones")
	checked := 0
	for _, raw := range queries {
		q, ok := prepared(t, ix, raw)
		if !ok {
			continue
		}
		// Every query is ranked by score here, also those a static order
		// serves, whose scores are just as defined.
		q.static, q.scoring = false, true
		var docs []uint32
		for i := range q.c.len() {
			docs = append(docs, q.c.at(i))
		}
		q.computeMasks()
		var all []ranked
		for _, doc := range docs {
			all = append(all, q.key(doc))
		}
		sortRanked(all)
		for _, k := range []int{1, 2, 5, 20, 100, 2000, len(docs) - 1, len(docs)} {
			if k <= 0 || k > len(docs) {
				continue
			}
			want := all[:k]
			got := slices.Clone(q.bestK(q.setOf(docs), k))
			sortRanked(got)
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(ranked{})); diff != "" {
				t.Errorf("%s, k=%d: best documents differ (-all scored +bestK):\n%s", raw, k, diff)
			}
			checked++
		}
		ix.putScratch(q.sc)
	}
	if checked < 50 {
		t.Errorf("only %d rankings checked", checked)
	}
}

// TestEarlyRankings checks that the rankings reading documents by norm
// bucket (bestK) answer every search as scoring every candidate does:
// relevance pages, constrained searches judging a cut of the best
// candidates, and sparse rankings whose unscored rest is browsed; and
// that browses walking the static order answer as marking every
// candidate does.
func TestEarlyRankings(t *testing.T) {
	ix, err := build(copies(t, 40), catalog.DefaultAttributes())
	if err != nil {
		t.Fatal(err)
	}
	queries := append(searchtest.BenchQueries(),
		"query=case", "query=iphone+case&limit=50", "query=charger+for+macbook", "query=usb-c+cable+65w",
		"query=apple&limit=3", "query=sony+headphones", "query=laptop+16gb", "query=samsung+galaxy+s24+ultra",
		"query=wireless+black", "query=pro+max&offset=20", "query=edition&limit=40", "query=galaxy+case+for",
		"category=Laptops&query=16gb+ram+512gb+ssd", "category=Laptops&query=gaming+16gb+ram&lite=true",
		"query=4k+tv", "category=TVs&query=55+inch+oled&limit=30", "query=gaming", "query=gaming&limit=50",
		"query=gaming+ssd&limit=20", "query=65w&category=Cables+%26+Chargers&limit=50", "query=128gb&category=Phones&limit=100", "query=15&limit=100",
		"query=2&offset=30", "query=black+ultra&offset=10")
	checked := 0
	for _, raw := range queries {
		req := searchtest.MustParse(t, raw)
		plan, err := req.Plan()
		if err != nil {
			t.Fatal(err)
		}
		for _, maxCand := range []int{0, 40, 300} {
			ix.earlyMode = -1
			want := ix.search(&plan, maxCand)
			ix.earlyMode = 1
			got := ix.search(&plan, maxCand)
			if diff := cmp.Diff(string(want.AppendJSON(nil)), string(got.AppendJSON(nil))); diff != "" {
				t.Errorf("%s, %d candidates: results differ (-all scored +by bucket):\n%s", raw, maxCand, diff)
			}
			checked++
		}
	}
	ix.earlyMode = 0
	if checked < 100 {
		t.Errorf("only %d searches checked", checked)
	}
}

// TestBestOptBounds checks that the total of bestOpt bounds the score of
// every candidate at its own norm: the bound early stopping rests on.
func TestBestOptBounds(t *testing.T) {
	ix, err := build(copies(t, 3), catalog.DefaultAttributes())
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"query=galaxy+s24", "query=iphone+15+pro+case", "query=wh-1000xm5+sony", "query=rtx+4070+laptop"} {
		if q, ok := prepared(t, ix, raw); ok {
			q.computeMasks()
			best := q.bestOpt()
			for i := range q.c.len() {
				doc := q.c.at(i)
				norm := ix.info[doc].norm
				if s, bound := q.score(doc, norm), q.total(best, true, norm); s > bound {
					t.Errorf("%s: %s scores %g, above the bound %g", raw, ix.products[doc].ID, s, bound)
				}
			}
			ix.putScratch(q.sc)
		}
	}
}

// prepared plans a request given as REST parameters and prepares its query
// on ix; false when nothing matches. The caller puts back q.sc.
func prepared(t *testing.T, ix *index, raw string) (*query, bool) {
	t.Helper()
	req := searchtest.MustParse(t, raw)
	plan, err := req.Plan()
	if err != nil {
		t.Fatal(err)
	}
	q := &query{ix: ix, plan: &plan, sc: ix.getScratch()}
	if !q.candidates() {
		ix.putScratch(q.sc)
		return nil, false
	}
	q.prepare()
	return q, true
}

// inAccessories reports whether doc ranks in the accessories' tier.
func (q *query) inAccessories(doc uint32) bool { return q.ix.info[doc].tier == 1 || q.fits(doc) }

// TestTieredBrowse checks a browse that moves products made for a query
// word to the accessories' tier against sorting the candidates by tier,
// then by length norm (descending), then browse rank: pages of every size,
// with the products' tier full, short and empty.
func TestTieredBrowse(t *testing.T) {
	ix, err := build(copiesOf(t, "words", 30), catalog.DefaultAttributes())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, raw := range []string{"query=ps5", "query=xbox", "query=ps5&max_price=100", "query=ps5&category=Gaming",
		"query=ps5&brand=Sony", "query=playstation+5", "query=ps5&max_price=150", "query=xbox&max_price=150"} {
		q, ok := prepared(t, ix, raw)
		if !ok {
			continue
		}
		if !q.tiered {
			ix.putScratch(q.sc)
			continue
		}
		var all []uint32
		for i := range q.c.len() {
			all = append(all, q.c.at(i))
		}
		slices.SortFunc(all, func(a, b uint32) int {
			ta, tb := q.inAccessories(a), q.inAccessories(b)
			if ta != tb {
				if ta {
					return 1
				}
				return -1
			}
			if ix.normBefore(a, b) {
				return -1
			}
			return 1
		})
		products := 0
		for _, doc := range all {
			if !q.inAccessories(doc) {
				products++
			}
		}
		for _, k := range []int{1, 3, 20, products, products + 1, len(all) / 2, len(all)} {
			if k <= 0 || k > len(all) {
				continue
			}
			got := q.browse(k, false, nil)
			if diff := cmp.Diff(all[:k], got); diff != "" {
				t.Errorf("%s, k=%d: browse differs (-tier then rank +browse):\n%s", raw, k, diff)
			}
			checked++
		}
		ix.putScratch(q.sc)
	}
	if checked < 10 {
		t.Errorf("only %d tiered browses checked", checked)
	}
}
