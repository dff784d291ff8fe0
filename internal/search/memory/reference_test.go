package memory_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
)

// reference answers a request by brute force, straight from the rules:
// filter every product, order the candidates, judge the first maxCand.
// scored reports whether query words rank the candidates; the reference
// does not reproduce the title score, so its relevance order is only
// meaningful when scored is false.
func reference(s *catalog.Snapshot, titleTerms map[string][]string, p search.Plan, maxCand int) (res *search.Result, scored bool) {
	req := p.Request
	var cands []*catalog.Product
	for i := range s.Products {
		pr := &s.Products[i]
		if req.Category != "" && pr.Category != req.Category ||
			req.Brand != "" && catalog.NormalizeBrand(pr.Brand) != catalog.NormalizeBrand(req.Brand) ||
			req.MinPrice != nil && pr.Price < *req.MinPrice || req.MaxPrice != nil && pr.Price > *req.MaxPrice {
			continue
		}
		terms := titleTerms[pr.ID]
		ok := true
		for _, t := range p.Analysis.Required {
			hit := slices.Contains(terms, t.Text)
			if !hit && len(t.Parts) > 0 {
				hit = true
				for _, part := range t.Parts {
					hit = hit && slices.Contains(terms, part)
				}
			}
			ok = ok && hit
		}
		if ok {
			cands = append(cands, pr)
		}
	}
	scored = len(p.Analysis.Required) > 0 || len(p.Analysis.RankOnly) > 0
	byPrice := func(a, b *catalog.Product) int { return cmp.Or(cmp.Compare(a.Price, b.Price), cmp.Compare(a.ID, b.ID)) }
	switch req.Sort {
	case search.SortPriceAsc:
		slices.SortFunc(cands, byPrice)
	case search.SortPriceDesc:
		slices.SortFunc(cands, func(a, b *catalog.Product) int {
			return cmp.Or(cmp.Compare(b.Price, a.Price), cmp.Compare(a.ID, b.ID))
		})
	default:
		slices.SortFunc(cands, func(a, b *catalog.Product) int {
			tier := func(p *catalog.Product) int {
				if p.ProductType == catalog.TypeAccessory {
					return 1
				}
				return 0
			}
			return cmp.Or(cmp.Compare(tier(a), tier(b)), cmp.Compare(b.OfferCount, a.OfferCount), byPrice(a, b))
		})
	}
	res = &search.Result{Constraints: p.Constraints, Lite: req.Lite}
	var page []*catalog.Product
	if len(p.Constraints) == 0 {
		res.Total = len(cands)
		page = cands
	} else {
		if maxCand > 0 && len(cands) > maxCand {
			res.CandidatesTruncated = true
			cands = cands[:maxCand]
		}
		var matched, unverified []*catalog.Product
		for _, pr := range cands {
			switch search.Judge(catalog.DefaultAttributes(), pr.Attributes, p.Constraints, nil) {
			case search.Matched:
				res.Total++
				matched = append(matched, pr)
			case search.Excluded:
				res.ExcludedByConstraints++
			default:
				res.UnverifiedTotal++
				unverified = append(unverified, pr)
			}
		}
		page = append(matched, unverified...)
	}
	for i := req.Offset; i < req.Offset+req.Limit && i < len(page); i++ {
		st := map[string]string{}
		if len(p.Constraints) > 0 {
			search.Judge(catalog.DefaultAttributes(), page[i].Attributes, p.Constraints, st)
		} else {
			st = nil
		}
		res.Products = append(res.Products, search.Hit{Product: page[i], ConstraintStatus: st})
	}
	return res, scored
}

// randomRequest draws a request from words and values the catalog holds.
func randomRequest(r *rand.Rand, s *catalog.Snapshot) url.Values {
	v := url.Values{}
	p := &s.Products[r.IntN(len(s.Products))]
	if r.IntN(2) == 0 {
		v.Set("category", p.Category)
	}
	if r.IntN(4) == 0 {
		v.Set("brand", p.Brand)
	}
	words, _ := search.TitleTerms(p.Title)
	var q []string
	for range r.IntN(4) {
		q = append(q, words[r.IntN(len(words))])
	}
	extra := []string{"16GB RAM", "1TB", "4K", `55"`, "144Hz", "65W", "wifi 6", "gaming", "cheap", "case", "4070", "16GB"}
	if r.IntN(3) == 0 {
		q = append(q, extra[r.IntN(len(extra))])
	}
	v.Set("query", fmt.Sprint(q))
	v.Set("query", v.Get("query")[1:len(v.Get("query"))-1])
	if r.IntN(3) == 0 {
		names := catalog.AttributeNames()
		name := names[r.IntN(len(names))]
		ops := []string{"eq", "gte", "lte"}
		vals := []float64{4, 8, 15, 16, 27, 55, 128, 512, 1000, 2160, 144, 65, 6, 6.5}
		v.Set("constraints", fmt.Sprintf(`{%q:{%q:%g}}`, name, ops[r.IntN(3)], vals[r.IntN(len(vals))]))
	}
	if r.IntN(4) == 0 {
		v.Set("min_price", fmt.Sprint(r.IntN(300)))
	}
	if r.IntN(4) == 0 {
		v.Set("max_price", fmt.Sprint(100+r.IntN(2000)))
	}
	v.Set("sort", []string{"relevance", "price_asc", "price_desc"}[r.IntN(3)])
	v.Set("limit", fmt.Sprint(1+r.IntN(30)))
	v.Set("offset", fmt.Sprint([]int{0, 0, 0, 5, 40}[r.IntN(5)]))
	return v
}

// TestAgainstReference compares the engine with the brute-force reference
// on random requests, for several candidate limits: counts and
// truncation always; the page exactly for price sorts and for browsing;
// the set of ids when query words rank a page that holds every result.
func TestAgainstReference(t *testing.T) {
	s := syntheticSnapshot(2000)
	titleTerms := map[string][]string{}
	for _, p := range s.Products {
		_, titleTerms[p.ID] = search.TitleTerms(p.Title)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, maxCand := range []int{0, 7, 100, search.DefaultMaxCandidates} {
		e, err := memory.New(s, memory.Options{MaxCandidates: maxCand})
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for range 800 {
			v := randomRequest(r, s)
			req, err := search.ParseQuery(v)
			if err != nil {
				continue
			}
			plan, err := req.Plan()
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Search(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			want, scored := reference(s, titleTerms, plan, maxCand)
			if scored && got.CandidatesTruncated && req.Sort == search.SortRelevance {
				continue // which candidates are checked depends on the title score
			}
			checked++
			counts := func(r *search.Result) []any {
				return []any{r.Total, r.UnverifiedTotal, r.ExcludedByConstraints, r.CandidatesTruncated}
			}
			if diff := gocmp.Diff(counts(want), counts(got)); diff != "" {
				t.Fatalf("max %d, %s: total, unverified, excluded, truncated mismatch (-want +got):\n%s", maxCand, v.Encode(), diff)
			}
			wantIDs, gotIDs := hitIDs(want), hitIDs(got)
			switch {
			case !scored || req.Sort != search.SortRelevance:
				if diff := gocmp.Diff(wantIDs, gotIDs); diff != "" {
					t.Fatalf("max %d, %s: ids mismatch (-want +got):\n%s", maxCand, v.Encode(), diff)
				}
				for i := range want.Products {
					if diff := gocmp.Diff(want.Products[i].ConstraintStatus, got.Products[i].ConstraintStatus); diff != "" {
						t.Fatalf("%s: statuses of %s mismatch (-want +got):\n%s", v.Encode(), wantIDs[i], diff)
					}
				}
			case req.Offset == 0 && want.Total+want.UnverifiedTotal <= req.Limit && len(want.Constraints) > 0,
				req.Offset == 0 && want.Total <= req.Limit && len(want.Constraints) == 0:
				slices.Sort(wantIDs)
				slices.Sort(gotIDs)
				if diff := gocmp.Diff(wantIDs, gotIDs); diff != "" {
					t.Fatalf("max %d, %s: id set mismatch (-want +got):\n%s", maxCand, v.Encode(), diff)
				}
			}
		}
		if checked < 300 {
			t.Errorf("max %d: only %d requests compared", maxCand, checked)
		}
	}
}

func hitIDs(r *search.Result) []string {
	out := []string{}
	for _, h := range r.Products {
		out = append(out, h.Product.ID)
	}
	return out
}
