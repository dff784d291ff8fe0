package explorer

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"productsearch/internal/search"
)

// FuzzProductID checks that any request path yields an id or a 400/404,
// never a panic, and that an id is one the REST API could look up.
func FuzzProductID(f *testing.F) {
	for _, s := range []string{PathProduct + "abc", PathProduct, PathProduct + "a/b", PathProduct + "%zz", PathProduct + "%FF%FE", "/x", PathProduct + "%2F/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		id, err := productID(path)
		if err != nil {
			var herr *httpError
			var invalid *search.InvalidError
			if !errors.As(err, &herr) && !errors.As(err, &invalid) {
				t.Fatalf("productID(%q): unexpected error type %T", path, err)
			}
			if herr != nil && herr.status != http.StatusNotFound {
				t.Fatalf("productID(%q): status %d", path, herr.status)
			}
			return
		}
		if id == "" || len(id) > maxIDLen || !utf8.ValidString(id) {
			t.Fatalf("productID(%q) = %q: not a valid id", path, id)
		}
	})
}

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
	data, err := os.ReadFile("testdata/parity.txt")
	if err != nil {
		f.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if q, ok := strings.CutPrefix(line, "search "); ok {
			f.Add(q)
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
