package explorer

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzHeaderLists checks the Accept-Encoding and If-None-Match readers
// never panic and that "gzip" alone is always accepted.
func FuzzHeaderLists(f *testing.F) {
	for _, s := range []string{"gzip", "gzip;q=0", "*;q=0.1, br", `W/"abc", "def"`, ";;,,=q", "gzip;q="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		acceptsGzip([]string{v})
		etagMatches([]string{v}, `"abc"`, `"abc-gz"`)
		if !acceptsGzip([]string{v, "gzip"}) {
			t.Fatalf("acceptsGzip(%q, gzip) = false", v)
		}
	})
}

// FuzzSearchParity sends the same raw query string to GET /api/search and
// GET /api/explorer/search and requires the same status and body.
func FuzzSearchParity(f *testing.F) {
	for _, c := range parityCases {
		if c.kind == "search" {
			f.Add(c.arg)
		}
	}
	base := startServer(f, fixtureEngine(f), 1<<30, nil)
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > 2000 || strings.ContainsFunc(q, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '#' || r >= utf8.RuneSelf }) {
			t.Skip("not a query string a client sends as is")
		}
		if _, err := url.Parse(base + PathSearch + "?" + q); err != nil {
			t.Skip("not a URL")
		}
		want := fetch(t, http.MethodGet, base+"/api/search?"+q, "Authorization", "Bearer "+testKey)
		got := fetch(t, http.MethodGet, base+PathSearch+"?"+q)
		if got.status != want.status || !bytes.Equal(got.body, want.body) {
			t.Fatalf("query %q: explorer %d %s, REST %d %s", q, got.status, got.body, want.status, want.body)
		}
	})
}
