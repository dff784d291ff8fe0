package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkHandler measures one plain JSON-RPC POST through the HTTP
// handler (stateless session set-up, argument decoding, engine call and
// JSON response) over the fixture catalog.
func BenchmarkHandler(b *testing.B) {
	h := NewHandler(fixtureEngine(b), Options{})
	for _, bm := range []struct{ name, body string }{
		{"tools_list", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"search_constraints", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_products","arguments":{"category":"Laptops","constraints":{"memory_gb":{"gte":16}}}}}`},
		{"get_product", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_product","arguments":{"product_id":"argos-4471234"}}}`},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/api/mcp", strings.NewReader(bm.body))
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
