package mcp

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/search"
)

// TestSearchArgsMatchREST checks that tool arguments give the request, or
// the error message, that the equivalent GET /api/search parameters give.
func TestSearchArgsMatchREST(t *testing.T) {
	tests := []struct {
		name string
		args string
		rest url.Values
	}{
		{"empty", `{}`, url.Values{}},
		{"absent", ``, url.Values{}},
		{"full", `{"query":"RTX 4070","category":"laptops","brand":" ASUS ","min_price":500,"max_price":1999.99,"sort":"price_asc","limit":20,"offset":40,"lite":false,"constraints":{"memory_gb":{"gte":16},"screen_in":{"gte":15,"lte":16}}}`,
			url.Values{"query": {"RTX 4070"}, "category": {"laptops"}, "brand": {" ASUS "}, "min_price": {"500"}, "max_price": {"1999.99"}, "sort": {"price_asc"}, "limit": {"20"}, "offset": {"40"}, "lite": {"false"}, "constraints": {`{"memory_gb":{"gte":16},"screen_in":{"gte":15,"lte":16}}`}}},
		{"number as query", `{"query":4070}`, url.Values{"query": {"4070"}}},
		{"product_type", `{"category":"Phones","product_type":"product","sort":"price_asc"}`, url.Values{"category": {"Phones"}, "product_type": {"product"}, "sort": {"price_asc"}}},
		{"product_type in capitals", `{"product_type":"Accessory"}`, url.Values{"product_type": {"Accessory"}}},
		{"integral float limit", `{"category":"TVs","limit":20.0}`, url.Values{"category": {"TVs"}, "limit": {"20"}}},
		{"fractional limit", `{"category":"TVs","limit":2.5}`, url.Values{"category": {"TVs"}, "limit": {"2.5"}}},
		{"limit 0", `{"limit":0}`, url.Values{"limit": {"0"}}},
		{"huge limit", `{"limit":1e300}`, url.Values{"limit": {"1e300"}}},
		{"negative offset", `{"offset":-1}`, url.Values{"offset": {"-1"}}},
		{"negative price", `{"min_price":-5}`, url.Values{"min_price": {"-5"}}},
		{"price string", `{"max_price":"£800"}`, url.Values{"max_price": {"£800"}}},
		{"lite string", `{"lite":"yes"}`, url.Values{"lite": {"yes"}}},
		{"constraints string", `{"category":"TVs","constraints":"{\"screen_in\":{\"eq\":55}}"}`, url.Values{"category": {"TVs"}, "constraints": {`{"screen_in":{"eq":55}}`}}},
		{"constraints array", `{"category":"TVs","constraints":[1]}`, url.Values{"category": {"TVs"}, "constraints": {`[1]`}}},
		{"constraints number", `{"category":"TVs","constraints":5}`, url.Values{"category": {"TVs"}, "constraints": {`5`}}},
		{"bad operator", `{"category":"TVs","constraints":{"screen_in":{"between":[50,60]}}}`, url.Values{"category": {"TVs"}, "constraints": {`{"screen_in":{"between":[50,60]}}`}}},
		{"gte above lte", `{"category":"TVs","constraints":{"screen_in":{"gte":60,"lte":50}}}`, url.Values{"category": {"TVs"}, "constraints": {`{"screen_in":{"gte":60,"lte":50}}`}}},
		{"unnarrowed", `{"query":"16GB RAM"}`, url.Values{"query": {"16GB RAM"}}},
		{"bad category", `{"category":"Televisions"}`, url.Values{"category": {"Televisions"}}},
		{"bad sort", `{"sort":"newest"}`, url.Values{"sort": {"newest"}}},
		{"long query", `{"query":"` + strings.Repeat("a ", 300) + `"}`, url.Values{"query": {strings.Repeat("a ", 300)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := tt.rest[search.ParamLite]; !ok {
				tt.rest.Set(search.ParamLite, "true") // the tool's default
			}
			want, wantErr := search.ParseQuery(tt.rest)
			got, err := decodeSearchArgs(json.RawMessage(tt.args))
			if diff := cmp.Diff(errString(wantErr), errString(err)); diff != "" {
				t.Fatalf("error mismatch (-rest +tool):\n%s", diff)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("request mismatch (-rest +tool):\n%s", diff)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	var invalid *search.InvalidError
	if !errors.As(err, &invalid) {
		return "not an InvalidError: " + err.Error()
	}
	return invalid.Message
}

func TestSearchArgErrors(t *testing.T) {
	tests := []struct{ args, want string }{
		{`[]`, `arguments must be a JSON object, e.g. {"category": "Laptops", "query": "RTX 4070", "max_price": 1500}`},
		{`"x"`, `arguments must be a JSON object, e.g. {"category": "Laptops", "query": "RTX 4070", "max_price": 1500}`},
		{`{"query":{"text":"x"}}`, `query must be a string, e.g. "RTX 4070"; got an object`},
		{`{"category":true}`, `category must be a string, e.g. "Laptops"; got a boolean`},
		{`{"min_price":true}`, `min_price must be a number, e.g. 200; got a boolean`},
		{`{"lite":[true]}`, `lite must be true or false; got an array`},
		{`{"keywords":"rtx"}`, `unknown argument "keywords": use query instead. The arguments are query, category, brand, min_price, max_price, constraints, product_type, sort, limit, offset, lite`},
		{`{"colour":"black"}`, `unknown argument "colour"; the arguments are query, category, brand, min_price, max_price, constraints, product_type, sort, limit, offset, lite`},
		{`{"type":"product"}`, `unknown argument "type": use product_type instead. The arguments are query, category, brand, min_price, max_price, constraints, product_type, sort, limit, offset, lite`},
		{`{"product_type":"phone"}`, `product_type must be product (devices only) or accessory (cases, chargers, straps and the like only), or left out for both; got "phone"`},
		{`{"wifi_gen":{"gte":6}}`, `wifi_gen is a constraint, not an argument of its own: pass it inside constraints, e.g. {"category": "Laptops", "constraints": {"wifi_gen": {"gte": 6}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			_, err := decodeSearchArgs(json.RawMessage(tt.args))
			if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProductArgs(t *testing.T) {
	tests := []struct{ args, id, err string }{
		{`{"product_id":"lap-hp-15s"}`, "lap-hp-15s", ""},
		{`{"product_id":"  argos-4471234 "}`, "argos-4471234", ""},
		{`{"product_id":4471234}`, "4471234", ""},
		{`{}`, "", `product_id is required: pass the id of a product from search_products results (or a retailer offer id), e.g. {"product_id": "pk4t2mq7xvbza"}`},
		{`{"product_id":null}`, "", `product_id is required: pass the id of a product from search_products results (or a retailer offer id), e.g. {"product_id": "pk4t2mq7xvbza"}`},
		{`{"product_id":" "}`, "", `product_id is empty: pass the id of a product from search_products results (or a retailer offer id), e.g. {"product_id": "pk4t2mq7xvbza"}`},
		{`{"product_id":["a"]}`, "", `product_id must be a string, e.g. {"product_id": "pk4t2mq7xvbza"}; got an array`},
		{`{"product_id":"a","lite":true}`, "", `unknown argument "lite"; get_product takes only product_id, e.g. {"product_id": "pk4t2mq7xvbza"}`},
		{`{"sku":"a"}`, "", `unknown argument "sku": pass the id as product_id, e.g. {"product_id": "pk4t2mq7xvbza"}`},
		{`7`, "", `arguments must be a JSON object, e.g. {"product_id": "pk4t2mq7xvbza"}`},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			id, err := decodeProductArgs(json.RawMessage(tt.args))
			if diff := cmp.Diff(tt.err, errString(err)); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if id != tt.id {
				t.Errorf("id %q, want %q", id, tt.id)
			}
		})
	}
}

// FuzzDecodeSearchArgs checks that any arguments give either a request
// that passes validation or an InvalidError, and never a panic.
func FuzzDecodeSearchArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"category":"Laptops","constraints":{"memory_gb":{"gte":16}}}`, `{"limit":"1e3"}`,
		`{"min_price":-0,"max_price":1e-400}`, `{"constraints":"{\"x\":1}"}`, `{"query":"\u0000"}`, `null`, `{"lite":"1"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := decodeSearchArgs(data)
		if err != nil {
			if msg := errString(err); msg == "" || strings.HasPrefix(msg, "not an InvalidError") {
				t.Fatalf("error %v is not an InvalidError with a message", err)
			}
			return
		}
		if req.Limit < 1 || req.Limit > search.MaxLimit || req.Offset < 0 {
			t.Fatalf("limit %d offset %d out of range", req.Limit, req.Offset)
		}
		if err := req.Validate(); err != nil {
			t.Fatalf("decoded request fails validation: %v", err)
		}
	})
}

// FuzzDecodeProductArgs checks that get_product arguments never panic and
// give a non-empty id or an InvalidError.
func FuzzDecodeProductArgs(f *testing.F) {
	for _, s := range []string{`{"product_id":"x"}`, `{}`, `{"product_id":1e999}`, `[`, `{"product_id":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		id, err := decodeProductArgs(data)
		if err != nil {
			if msg := errString(err); msg == "" || strings.HasPrefix(msg, "not an InvalidError") {
				t.Fatalf("error %v is not an InvalidError with a message", err)
			}
			return
		}
		if id == "" {
			t.Fatal("empty id without an error")
		}
	})
}
