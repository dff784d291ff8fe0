package searchtest

import (
	"fmt"
	"net/url"
	"testing"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// BenchQueries is the mix of realistic requests, as REST query strings, that
// the engines' benchmarks run and the engines' differential tests compare:
// category browsing, brand filters, product names and model codes, specs in
// the query, constraints, price bounds, sorts and deep pages.
func BenchQueries() []string {
	return []string{
		"category=Laptops",
		"category=Laptops&sort=price_asc",
		"category=Phones&sort=price_desc&lite=true",
		"brand=Samsung",
		"brand=apple&category=Tablets&sort=price_asc",
		"query=rog+strix&category=Laptops",
		"query=rtx+4070&category=Laptops&lite=true",
		"query=gaming+laptop&category=Laptops&min_price=800&max_price=1500",
		"query=iphone+15+pro&category=Phones",
		"query=iphone+15+case&category=Phones",
		"query=galaxy+s24&lite=true",
		"query=WH-1000XM5",
		"query=noise+cancelling&category=Headphones",
		"query=wireless",
		"query=samsung",
		"query=4070",
		"query=macbook+air&sort=price_asc",
		"category=Laptops&constraints=%7B%22memory_gb%22%3A%7B%22gte%22%3A16%7D%7D&lite=true",
		"category=Laptops&query=16GB+RAM+1TB&sort=price_asc",
		"category=TVs&query=55+inch+4K&lite=true",
		"category=Monitors&query=27%22+144Hz",
		"category=Networking&query=wifi+6e+router",
		"category=Storage&query=2TB+ssd&sort=price_asc",
		"category=Cables+%26+Chargers&query=65W",
		"brand=Sony&constraints=%7B%22storage_gb%22%3A%7B%22gte%22%3A256%7D%7D",
		"category=Laptops&constraints=%7B%22screen_in%22%3A%7B%22eq%22%3A14%7D%7D&sort=price_desc",
		"category=Phones&offset=200&limit=20&sort=price_asc",
		"max_price=50&sort=price_asc&lite=true",
		"query=playstation+5&category=Gaming",
		"query=pixel+8&brand=google",
	}
}

// MustParse parses a REST query string into a request, failing the test on
// an error.
func MustParse(t testing.TB, query string) search.Request {
	t.Helper()
	v, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	req, err := search.ParseQuery(v)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return req
}

// IDs returns the ids of a result's products in order.
func IDs(res *search.Result) []string {
	out := make([]string, len(res.Products))
	for i, h := range res.Products {
		out[i] = Item(h).ID
	}
	return out
}

// Item returns a hit's product, decoding its record when the engine keeps
// only that; a record that does not decode panics, failing the test.
func Item(h search.Hit) *catalog.Product {
	p, err := h.Item()
	if err != nil || p == nil {
		panic(fmt.Sprintf("hit without a product: %v", err))
	}
	return p
}
