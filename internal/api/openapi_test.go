package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
)

// loadDoc loads and validates the embedded OpenAPI document.
func loadDoc(t *testing.T) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(OpenAPI())
	if err != nil {
		t.Fatalf("load openapi.yaml: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("openapi.yaml is not a valid OpenAPI document: %v", err)
	}
	return doc
}

func TestOpenAPIDocument(t *testing.T) {
	doc := loadDoc(t)
	if !doc.IsOpenAPI31OrLater() || doc.OpenAPI != "3.1.1" {
		t.Errorf("openapi = %q, want 3.1.1", doc.OpenAPI)
	}
	if doc.Info.Version != Version {
		t.Errorf("info.version = %q, want %q", doc.Info.Version, Version)
	}
	var ops []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ops = append(ops, method+" "+path+" "+op.OperationID)
		}
	}
	slices.Sort(ops)
	want := []string{
		"GET /api/health getHealth",
		"GET /api/product/{id} getProduct",
		"GET /api/search searchProducts",
		"GET /openapi.json getOpenAPIJSON",
		"GET /openapi.yaml getOpenAPIYAML",
		"POST /api/mcp mcp",
	}
	if !slices.Equal(want, ops) {
		t.Errorf("operations = %v, want %v", ops, want)
	}
	// The search parameters carry the interface's constraints.
	limit := doc.Paths.Find("/api/search").Get.Parameters.GetByInAndName("query", "limit").Schema.Value
	if *limit.Min != 1 || *limit.Max != 100 || limit.Default != float64(50) {
		t.Errorf("limit schema: min %v max %v default %v", *limit.Min, *limit.Max, limit.Default)
	}
	// The documented lengths are those the server enforces.
	lengths := []struct {
		param string
		want  int
	}{
		{"query", search.MaxQueryLen},
		{"brand", search.MaxBrandLen},
		{"constraints", search.MaxConstraintsLen},
	}
	for _, l := range lengths {
		schema := doc.Paths.Find("/api/search").Get.Parameters.GetByInAndName("query", l.param).Schema.Value
		if schema.MaxLength == nil || *schema.MaxLength != uint64(l.want) {
			t.Errorf("%s maxLength %v, want %d as the server enforces", l.param, schema.MaxLength, l.want)
		}
	}
	cats := doc.Components.Schemas["Category"].Value.Enum
	if len(cats) != len(catalog.Categories()) {
		t.Errorf("Category enum has %d values, want %d", len(cats), len(catalog.Categories()))
	}
	for _, c := range catalog.Categories() {
		if !slices.Contains(cats, any(c)) {
			t.Errorf("Category enum lacks %q", c)
		}
	}
	names := doc.Components.Schemas["AttributeName"].Value.Enum
	for _, n := range catalog.AttributeNames() {
		if !slices.Contains(names, any(n)) {
			t.Errorf("AttributeName enum lacks %q", n)
		}
	}
}

// conformance validates real responses against the document.
type conformance struct {
	t      *testing.T
	router routers.Router
	ts     *testServer
	seen   map[string]bool // "METHOD path status"
}

func newConformance(t *testing.T, ts *testServer) *conformance {
	doc := loadDoc(t)
	doc.Servers = openapi3.Servers{{URL: ts.URL}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &conformance{t: t, router: router, ts: ts, seen: map[string]bool{}}
}

// check sends a request and validates the response; it returns it.
func (cf *conformance) check(name, method, path string, body io.Reader, wantStatus int, header ...string) response {
	t := cf.t
	t.Helper()
	r := cf.ts.do(t, method, path, body, header...)
	if r.status != wantStatus {
		t.Fatalf("%s: %s %s: status %d, want %d (body %.300s)", name, method, path, r.status, wantStatus, r.body)
	}
	vpath := path
	if _, err := url.Parse(path); err != nil {
		vpath = strings.ReplaceAll(path, "%", "%25") // sent verbatim; routed the same
	}
	req, err := http.NewRequest(method, cf.ts.URL+vpath, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	route, params, err := cf.router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s: no documented operation for %s %s: %v", name, method, path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 r.status,
		Header:                 r.header,
		Body:                   io.NopCloser(bytes.NewReader(r.body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s: %s %s -> %d does not conform to openapi.yaml: %v\nbody: %.1000s", name, method, path, r.status, err, r.body)
	}
	cf.seen[fmt.Sprintf("%s %s %d", method, route.Path, r.status)] = true
	return r
}

func memoryEngine(t testing.TB) *memory.Engine {
	t.Helper()
	eng, err := memory.New(fixtureSnapshot(), memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func mcpStub() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg map[string]any
		if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%v,"result":{"tools":[]}}`, msg["id"])
	})
}

// TestResponsesConformToOpenAPI sends real requests to a server over the
// memory engine and validates every response, success and error, against
// openapi.yaml, so the code and the document cannot drift apart.
func TestResponsesConformToOpenAPI(t *testing.T) {
	const prodKey = "prod-key-conformance-1"
	ts := startServer(t, Options{Engine: memoryEngine(t), RateLimitPerHour: 1000, Keys: map[string]int{prodKey: 1}},
		func(s *Server) {
			if err := s.Mount("/api/mcp", mcpStub(), Methods(http.MethodPost)); err != nil {
				t.Fatal(err)
			}
		})
	cf := newConformance(t, ts)
	auth := []string{"Authorization", "Bearer " + testPublicKey}
	q := func(v url.Values) string { return "/api/search?" + v.Encode() }
	constraints := `{"memory_gb":{"gte":16}}`

	searches := []struct {
		name   string
		params url.Values
		check  func(t *testing.T, body map[string]any)
	}{
		{"full search", url.Values{"query": {"laptop"}, "limit": {"5"}}, nil},
		{"lite search", url.Values{"category": {"Laptops"}, "lite": {"true"}, "limit": {"20"}}, nil},
		{"browse all", url.Values{}, nil},
		{"sorted by price", url.Values{"category": {"Phones"}, "sort": {"price_asc"}, "max_price": {"800"}}, nil},
		{"constraints full", url.Values{"category": {"Laptops"}, "constraints": {constraints}}, func(t *testing.T, body map[string]any) {
			if _, ok := body["constraints"]; !ok {
				t.Error("constraints search response has no constraints")
			}
		}},
		{"constraints lite", url.Values{"category": {"Laptops"}, "constraints": {constraints}, "lite": {"true"}}, nil},
		{"constraints from the query", url.Values{"query": {"55 inch 4K"}, "category": {"TVs"}}, nil},
		{"conflicting attribute", url.Values{"brand": {"hp"}, "constraints": {`{"memory_gb":{"eq":16}}`}}, nil},
		{"wifi and power", url.Values{"category": {"Networking"}, "constraints": {`{"wifi_gen":{"gte":6.5}}`}}, nil},
		{"nothing found", url.Values{"query": {"zzzzqqq"}}, nil},
	}
	for _, s := range searches {
		r := cf.check(s.name, "GET", q(s.params), nil, 200, auth...)
		var body map[string]any
		if err := json.Unmarshal(r.body, &body); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if s.check != nil {
			s.check(t, body)
		}
	}

	bad := []url.Values{
		{"limit": {"0"}},
		{"limit": {"abc"}},
		{"min_price": {"-5"}},
		{"sort": {"cheapest"}},
		{"category": {"Smartphones"}},
		{"constraints": {`{"ram":{"gte":16}}`}, "category": {"Laptops"}},
		{"constraints": {`{"memory_gb":{"gte":16}}`}},
		{"q": {"laptop"}},
	}
	for _, v := range bad {
		cf.check("invalid "+v.Encode(), "GET", q(v), nil, 400, auth...)
	}
	cf.check("no key", "GET", "/api/search", nil, 401)
	cf.check("wrong key", "GET", "/api/product/dell-xps-13", nil, 401, "Authorization", "Bearer wrong-key-123")
	cf.check("product", "GET", "/api/product/samsung-qe55-4k", nil, 200, auth...)
	cf.check("product by offer id", "GET", "/api/product/argos-lenovo-ideapad-slim5-14", nil, 200, auth...)
	cf.check("conflicting product", "GET", "/api/product/hp-pavilion-15", nil, 200, auth...)
	cf.check("unknown product", "GET", "/api/product/nope", nil, 404, auth...)
	cf.check("bad id encoding", "GET", "/api/product/a%zz", nil, 400, auth...)
	cf.check("body on GET", "GET", "/api/search", strings.NewReader("x"), 413, auth...)
	cf.check("long URI", "GET", "/api/search?query="+strings.Repeat("a", maxURILen), nil, 414, auth...)
	cf.check("health", "GET", "/api/health", nil, 200)
	cf.check("openapi json", "GET", "/openapi.json", nil, 200)
	cf.check("openapi yaml", "GET", "/openapi.yaml", nil, 200)
	cf.check("mcp", "POST", "/api/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), 200, "Content-Type", "application/json")
	cf.check("mcp parse error", "POST", "/api/mcp", strings.NewReader(`{`), 400, "Content-Type", "application/json")
	prod := []string{"Authorization", "Bearer " + prodKey}
	cf.check("production key", "GET", "/api/search?limit=1", nil, 200, prod...)
	cf.check("production key spent", "GET", "/api/search?limit=1", nil, 429, prod...)
	cf.check("production key spent on product", "GET", "/api/product/nope", nil, 429, prod...)

	// A second server with a budget of one shows 429 on the IP-limited
	// endpoints.
	ts2 := startServer(t, Options{Engine: memoryEngine(t), RateLimitPerHour: 1}, func(s *Server) {
		if err := s.Mount("/api/mcp", mcpStub(), Methods(http.MethodPost)); err != nil {
			t.Fatal(err)
		}
	})
	cf2 := newConformance(t, ts2)
	cf2.check("first", "GET", "/api/search", nil, 200, auth...)
	cf2.check("mcp over the limit", "POST", "/api/mcp", strings.NewReader(`{}`), 429, "Content-Type", "application/json")
	cf2.check("unauthenticated over the limit", "GET", "/api/search", nil, 429)
	cf2.check("openapi json over the limit", "GET", "/openapi.json", nil, 429)
	cf2.check("openapi yaml over the limit", "GET", "/openapi.yaml", nil, 429)
	for k := range cf2.seen {
		cf.seen[k] = true
	}

	for _, want := range []string{
		"GET /api/search 200", "GET /api/search 400", "GET /api/search 401", "GET /api/search 413",
		"GET /api/search 414", "GET /api/search 429",
		"GET /api/product/{id} 200", "GET /api/product/{id} 400", "GET /api/product/{id} 401",
		"GET /api/product/{id} 404", "GET /api/product/{id} 429",
		"GET /api/health 200", "GET /openapi.json 200", "GET /openapi.yaml 200",
		"GET /openapi.json 429", "GET /openapi.yaml 429",
		"POST /api/mcp 200", "POST /api/mcp 400", "POST /api/mcp 429",
	} {
		if !cf.seen[want] {
			t.Errorf("no response validated for %s", want)
		}
	}
}

// TestConstraintsLength checks the documented maxLength of constraints
// against the server: a value of exactly that many bytes is read as
// constraints, one byte more is refused for its length.
func TestConstraintsLength(t *testing.T) {
	ts := startServer(t, Options{Engine: memoryEngine(t)})
	maxLen := int(*loadDoc(t).Paths.Find("/api/search").Get.Parameters.GetByInAndName("query", "constraints").Schema.Value.MaxLength)
	value := func(n int) string {
		const c = `{"memory_gb":{"gte":16}}`
		return c[:len(c)-1] + strings.Repeat(" ", n-len(c)) + "}" // JSON whitespace inside the object
	}
	send := func(n int) response {
		v := value(n)
		if len(v) != n {
			t.Fatalf("constraints value is %d bytes, want %d", len(v), n)
		}
		return ts.get(t, "/api/search?"+url.Values{"category": {"Laptops"}, "constraints": {v}}.Encode())
	}
	if r := send(maxLen); r.status != http.StatusOK {
		t.Errorf("constraints of %d bytes: status %d, want 200 (body %.300s)", maxLen, r.status, r.body)
	}
	r := send(maxLen + 1)
	if r.status != http.StatusBadRequest {
		t.Fatalf("constraints of %d bytes: status %d, want 400", maxLen+1, r.status)
	}
	if msg, want := r.errorMessage(t), fmt.Sprintf("at most %d are accepted", maxLen); !strings.Contains(msg, want) {
		t.Errorf("message %q does not say %q", msg, want)
	}
}

// TestValidationMessagesThroughHTTP checks that every kind of invalid
// search reaches the client as 400 with the parser's own message.
func TestValidationMessagesThroughHTTP(t *testing.T) {
	ts := startServer(t, Options{Engine: memoryEngine(t)})
	cases := []string{
		"limit=0", "limit=101", "limit=abc", "limit=1.5", "limit=5&limit=6",
		"offset=-1", "offset=x",
		"min_price=abc", "min_price=-1", "max_price=NaN", "max_price=Inf", "min_price=500&max_price=100",
		"sort=cheapest", "lite=maybe",
		"category=Smartphones", "category=Televisions", "category=Mobile Phones",
		"query=" + strings.Repeat("x", 600), "brand=" + strings.Repeat("b", 200),
		"constraints=not-json", "constraints=[1]", `constraints={"ram":{"gte":16}}&category=Laptops`,
		`constraints={"memory_gb":{"between":16}}&category=Laptops`, `constraints={"memory_gb":{"gte":"16"}}&category=Laptops`,
		`constraints={"memory_gb":{"gte":-1}}&category=Laptops`, `constraints={"memory_gb":16}&category=Laptops`,
		`constraints={"memory_gb":{"gte":32,"lte":16}}&category=Laptops`,
		`constraints={"memory_gb":{"gte":16}}`, "query=16GB RAM",
		"q=laptop", "page=2", "order_by=price",
	}
	for _, raw := range cases {
		t.Run(raw, func(t *testing.T) {
			v, err := url.ParseQuery(raw)
			if err != nil {
				t.Fatal(err)
			}
			r := ts.get(t, "/api/search?"+v.Encode())
			if r.status != http.StatusBadRequest {
				t.Fatalf("status %d, want 400 (body %.300s)", r.status, r.body)
			}
			got := r.errorMessage(t)
			req, perr := search.ParseQuery(v)
			if perr == nil {
				t.Fatalf("the parser accepts %q (%+v) but the server refused it: %s", raw, req, got)
			}
			if diff := cmp.Diff(perr.Error(), got); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
		})
	}
	r := ts.get(t, "/api/search?"+url.Values{"constraints": {`{"ram":{"gte":16}}`}, "category": {"Laptops"}}.Encode())
	msg := r.errorMessage(t)
	for _, name := range catalog.AttributeNames() {
		if !strings.Contains(msg, name) {
			t.Errorf("unknown-constraint message %q does not list %s", msg, name)
		}
	}
}
