package memory_test

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"productsearch/internal/search"
	"productsearch/internal/search/memory"
	"productsearch/internal/search/searchtest"
)

// FuzzSearch runs arbitrary requests against the fixture catalog with a
// small candidate limit: a request either fails validation or yields a
// response that keeps every invariant.
func FuzzSearch(f *testing.F) {
	s, err := searchtest.Fixture("catalog")
	if err != nil {
		f.Fatal(err)
	}
	e, err := memory.New(s, memory.Options{MaxCandidates: 5})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("rtx 4070 24GB RAM", "Laptops", "", `{"storage_gb":{"gte":512}}`, "relevance", "3", "1", "", "", false)
	f.Add("WH-1000XM5", "", "sony", "", "price_desc", "", "", "100", "300", true)
	f.Add(`55" 4K`, "TVs", "", "", "price_asc", "2", "2", "", "", true)
	f.Add("galaxy s24 case", "Phones", "samsung", `{"storage_gb":{"eq":128}}`, "", "", "", "", "", false)
	f.Fuzz(func(t *testing.T, query, category, brand, constraints, sort, limit, offset, minPrice, maxPrice string, lite bool) {
		v := url.Values{"query": {query}, "category": {category}, "brand": {brand}, "constraints": {constraints},
			"sort": {sort}, "limit": {limit}, "offset": {offset}, "min_price": {minPrice}, "max_price": {maxPrice}}
		if lite {
			v.Set("lite", "true")
		}
		req, err := search.ParseQuery(v)
		if err != nil {
			var inv *search.InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("ParseQuery error %v is not an *InvalidError", err)
			}
			return
		}
		res, err := e.Search(context.Background(), req)
		if err != nil {
			t.Fatalf("Search(%s): %v", v.Encode(), err)
		}
		searchtest.CheckInvariants(t, req, res)
		if len(res.Constraints) > 0 && res.Total+res.UnverifiedTotal+res.ExcludedByConstraints > len(s.Products) {
			t.Fatalf("counts %d+%d+%d exceed the catalog", res.Total, res.UnverifiedTotal, res.ExcludedByConstraints)
		}
		if res.CandidatesTruncated && res.Total+res.UnverifiedTotal+res.ExcludedByConstraints != 5 {
			t.Fatalf("truncated, yet %d candidates were checked, not 5", res.Total+res.UnverifiedTotal+res.ExcludedByConstraints)
		}
	})
}
