package explorer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// maxPageWeight is the budget of the explorer page: HTML, scripts, styles
// and icon as transferred with gzip.
const maxPageWeight = 200 << 10

func newExplorer(t *testing.T, opt Options) *Explorer {
	t.Helper()
	if opt.Engine == nil {
		opt.Engine = fixtureEngine(t)
	}
	e, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// pageRefs lists the URLs a page loads: scripts, stylesheets and icons.
func pageRefs(t *testing.T, page []byte) []string {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script":
			refs = append(refs, attr(n, "src"))
		case "link":
			refs = append(refs, attr(n, "href"))
		}
	}
	return refs
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestPageMarkup checks both pages for what the Content-Security-Policy
// forbids and for the accessibility basics: no inline scripts, event
// handlers or style attributes; every script and stylesheet a same-origin
// asset; every form control labelled.
func TestPageMarkup(t *testing.T) {
	e := newExplorer(t, Options{PublicKey: testKey})
	for name, p := range map[string]*page{"index": e.index, "docs": e.docs} {
		t.Run(name, func(t *testing.T) {
			doc, err := html.Parse(bytes.NewReader(p.body.raw))
			if err != nil {
				t.Fatal(err)
			}
			labels := map[string]bool{}
			var controls []*html.Node
			for n := range doc.Descendants() {
				if n.Type != html.ElementNode {
					continue
				}
				for _, a := range n.Attr {
					if strings.HasPrefix(a.Key, "on") {
						t.Errorf("<%s %s=%q>: inline event handler", n.Data, a.Key, a.Val)
					}
					if a.Key == "style" {
						t.Errorf("<%s style=%q>: inline style", n.Data, a.Val)
					}
					if (a.Key == "href" || a.Key == "src") && strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Val)), "javascript:") {
						t.Errorf("<%s %s=%q>: javascript URL", n.Data, a.Key, a.Val)
					}
				}
				switch n.Data {
				case "script":
					src := attr(n, "src")
					if src == "" || n.FirstChild != nil {
						t.Errorf("inline script %v", n.FirstChild)
					}
					if _, ok := e.assets.byURL[src]; !ok {
						t.Errorf("script %q is not an embedded asset", src)
					}
				case "style":
					t.Error("inline <style> element")
				case "link":
					if href := attr(n, "href"); href != "" {
						if _, ok := e.assets.byURL[href]; !ok {
							t.Errorf("link %q is not an embedded asset", href)
						}
					}
				case "label":
					labels[attr(n, "for")] = true
				case "input", "select", "textarea":
					controls = append(controls, n)
				}
			}
			for _, c := range controls {
				id := attr(c, "id")
				if !labels[id] && attr(c, "aria-label") == "" && attr(c, "aria-labelledby") == "" {
					t.Errorf("<%s id=%q> has no label", c.Data, id)
				}
			}
		})
	}
}

// TestIndexContent checks what the explorer form offers: the 19
// categories, the requirements with their units, value formats and operators, and
// no swagger-ui.
func TestIndexContent(t *testing.T) {
	e := newExplorer(t, Options{})
	doc, err := html.Parse(bytes.NewReader(e.index.body.raw))
	if err != nil {
		t.Fatal(err)
	}
	var categories, reqs, ops []string
	units, displays := map[string]string{}, map[string]string{}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if n.Data == "select" && attr(n, "id") == "category" {
			for o := range n.Descendants() {
				if o.Type == html.ElementNode && o.Data == "option" && attr(o, "value") != "" {
					categories = append(categories, attr(o, "value"))
				}
			}
		}
		if n.Data == "div" && attr(n, "class") == "req" {
			reqs = append(reqs, attr(n, "data-name"))
			units[attr(n, "data-name")] = attr(n, "data-unit")
			displays[attr(n, "data-name")] = attr(n, "data-display")
		}
		if n.Data == "select" && attr(n, "id") == "op-memory_gb" {
			for o := range n.Descendants() {
				if o.Type == html.ElementNode && o.Data == "option" {
					ops = append(ops, attr(o, "value"))
				}
			}
		}
	}
	if diff := cmp.Diff(catalog.Categories(), categories); diff != "" {
		t.Errorf("categories mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(catalog.AttributeNames(), reqs); diff != "" {
		t.Errorf("requirements mismatch (-want +got):\n%s", diff)
	}
	wantUnits := map[string]string{"memory_gb": "GB", "storage_gb": "GB", "screen_in": "inches", "resolution_p": "pixels high",
		"refresh_hz": "Hz", "power_w": "W", "wifi_gen": ""}
	if diff := cmp.Diff(wantUnits, units); diff != "" {
		t.Errorf("units mismatch (-want +got):\n%s", diff)
	}
	wantDisplays := map[string]string{
		"memory_gb": `{"suffix":" GB"}`, "storage_gb": `{"suffix":" GB","larger":{"suffix":" TB","factor":1000,"step":250}}`,
		"screen_in": `{"suffix":" in"}`,
		"resolution_p": `{"suffix":"p","named":{"1080":"1080p (Full HD)","1440":"1440p (QHD)","2160":"2160p (4K)",` +
			`"4320":"4320p (8K)","720":"720p (HD)"}}`,
		"refresh_hz": `{"suffix":" Hz"}`, "power_w": `{"suffix":" W"}`, "wifi_gen": `{"prefix":"Wi-Fi ","named":{"6.5":"Wi-Fi 6E"}}`,
	}
	if diff := cmp.Diff(wantDisplays, displays); diff != "" {
		t.Errorf("value formats mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", "gte", "lte", "eq", "range"}, ops); diff != "" {
		t.Errorf("operators mismatch (-want +got):\n%s", diff)
	}
	for _, hint := range []string{"1 TB = 1000", "2160 for 4K", "6.5 for Wi-Fi 6E"} {
		if !bytes.Contains(e.index.body.raw, []byte(hint)) {
			t.Errorf("the form does not explain %q", hint)
		}
	}
	for _, ref := range pageRefs(t, e.index.body.raw) {
		if strings.Contains(ref, "swagger") {
			t.Errorf("the explorer page loads %s", ref)
		}
	}
}

// TestShortcuts checks that the ready-made searches of the start screen
// are valid searches that find products in the fixture.
func TestShortcuts(t *testing.T) {
	eng := fixtureEngine(t)
	for _, sc := range pageData(Options{Engine: eng}).Shortcuts {
		t.Run(sc.Label, func(t *testing.T) {
			raw, ok := strings.CutPrefix(sc.Hash, "#/search?")
			if !ok {
				t.Fatalf("hash %q is not a search route", sc.Hash)
			}
			vals, err := url.ParseQuery(raw)
			if err != nil {
				t.Fatal(err)
			}
			req, err := search.ParseQuery(vals)
			if err != nil {
				t.Fatalf("%s: %v", sc.Hash, err)
			}
			res, err := eng.Search(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Products) == 0 {
				t.Errorf("%s finds nothing in the fixture", sc.Hash)
			}
		})
	}
}

// TestDocsContent checks the examples and the prefilled key of /docs.
func TestDocsContent(t *testing.T) {
	e := newExplorer(t, Options{PublicKey: testKey})
	body := string(e.docs.body.raw)
	for _, want := range []string{
		`data-public-key="` + testKey + `"`,
		`data-spec-url="/openapi.json"`,
		`curl -sS -G &#34;{base_url}/api/search&#34;`,
		`Authorization: Bearer ` + testKey,
		`{base_url}/api/product/lenovo-thinkpad-e14`,
		`&#34;method&#34;: &#34;tools/call&#34;`,
		`&#34;mcpServers&#34;: {`,
		`&#34;command&#34;: &#34;mcp-stdio&#34;`,
		`&#34;PRODUCT_SEARCH_BASE_URL&#34;: &#34;{base_url}&#34;`,
		`&#34;PRODUCT_SEARCH_API_KEY&#34;: &#34;` + testKey + `&#34;`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/docs lacks %s", want)
		}
	}
	refs := strings.Join(pageRefs(t, e.docs.body.raw), " ")
	for _, want := range []string{"swagger-ui-bundle.", "swagger-ui.", "docs."} {
		if !strings.Contains(refs, "/assets/vendor/swagger-ui/"+want) && !strings.Contains(refs, "/assets/"+want) {
			t.Errorf("/docs does not load %s*: %s", want, refs)
		}
	}
}

// TestDocsWithoutKey checks that a server without a public key shows a
// placeholder and prefills nothing, and that a key is HTML-escaped.
func TestDocsKeys(t *testing.T) {
	e := newExplorer(t, Options{})
	if !bytes.Contains(e.docs.body.raw, []byte("Bearer "+placeholderKey)) || !bytes.Contains(e.docs.body.raw, []byte(`data-public-key=""`)) {
		t.Error("/docs without a public key: want the placeholder in examples and no prefilled key")
	}
	e = newExplorer(t, Options{PublicKey: `k"><script>alert(1)</script>`})
	if bytes.Contains(e.docs.body.raw, []byte("<script>alert")) {
		t.Error("/docs shows the public key unescaped")
	}
}

// TestPageWeight keeps the explorer page (HTML, scripts, styles and icon,
// gzip as served) under its budget.
func TestPageWeight(t *testing.T) {
	e := newExplorer(t, Options{})
	total, raw := len(e.index.body.gz()), len(e.index.body.raw)
	for _, ref := range pageRefs(t, e.index.body.raw) {
		a, ok := e.assets.byURL[ref]
		if !ok {
			t.Fatalf("%s is not an asset", ref)
		}
		size := len(a.body.raw)
		if gz := a.body.gz(); gz != nil {
			size = len(gz)
		}
		total += size
		raw += len(a.body.raw)
	}
	t.Logf("explorer page weight: %d bytes gzip (%d raw)", total, raw)
	if total > maxPageWeight {
		t.Errorf("explorer page weighs %d bytes gzip, budget %d", total, maxPageWeight)
	}
}

// TestScriptsBuildDOMAsText scans the page scripts for ways of turning
// strings into markup or code; feed text must only reach the DOM as text.
func TestScriptsBuildDOMAsText(t *testing.T) {
	forbidden := regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\s*\(|new\s+Function|setAttribute\(\s*['"]on|\.on[a-z]+\s*=|createContextualFragment|DOMParser`)
	for _, name := range []string{"app.js", "docs.js"} {
		src, err := assetFiles.ReadFile("assets/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := forbidden.FindString(line); m != "" {
				t.Errorf("%s:%d uses %s: %s", name, i+1, m, strings.TrimSpace(line))
			}
		}
	}
}

// TestVendoredFiles checks the embedded swagger-ui files against the
// SHA-256 sums scripts/vendor-docs.sh recorded.
func TestVendoredFiles(t *testing.T) {
	f, err := os.Open("assets/vendor/swagger-ui/SOURCE")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 || fields[0] != "sha256" {
			continue
		}
		data, err := os.ReadFile("assets/vendor/swagger-ui/" + fields[2])
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != fields[1] {
			t.Errorf("%s: sha256 %s, SOURCE says %s; rerun scripts/vendor-docs.sh", fields[2], got, fields[1])
		}
		checked++
	}
	if checked != 4 {
		t.Errorf("SOURCE lists %d files, want 4", checked)
	}
}

// TestServedPages checks the headers of the pages and assets, gzip,
// revalidation and the 404s, through the real server.
func TestServedPages(t *testing.T) {
	base := startServer(t, fixtureEngine(t), 100000, nil)
	e := newExplorer(t, Options{PublicKey: testKey})
	appJS, _ := e.assets.url("app.js")
	appCSS, _ := e.assets.url("app.css")
	bundle, _ := e.assets.url("vendor/swagger-ui/swagger-ui-bundle.js")
	icon, _ := e.assets.url("favicon.svg")
	tests := []struct {
		path, ctype, cache string
		raw                []byte
	}{
		{"/", "text/html; charset=utf-8", cacheRevalidate, e.index.body.raw},
		{PathDocs, "text/html; charset=utf-8", cacheRevalidate, e.docs.body.raw},
		{appJS, "text/javascript; charset=utf-8", cacheImmutable, e.assets.byURL[appJS].body.raw},
		{appCSS, "text/css; charset=utf-8", cacheImmutable, e.assets.byURL[appCSS].body.raw},
		{bundle, "text/javascript; charset=utf-8", cacheImmutable, e.assets.byURL[bundle].body.raw},
		{icon, "image/svg+xml", cacheImmutable, e.assets.byURL[icon].body.raw},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			plain := fetch(t, http.MethodGet, base+tt.path)
			if plain.status != http.StatusOK {
				t.Fatalf("status %d", plain.status)
			}
			want := map[string]string{
				"Content-Type":            tt.ctype,
				"Cache-Control":           tt.cache,
				"Content-Security-Policy": contentSecurityPolicy,
				"X-Content-Type-Options":  "nosniff",
				"Referrer-Policy":         "no-referrer",
				"X-Frame-Options":         "DENY",
				"X-DNS-Prefetch-Control":  "off",
				"Vary":                    "Accept-Encoding",
				"Content-Encoding":        "",
			}
			got := map[string]string{}
			for k := range want {
				got[k] = plain.header.Get(k)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("headers mismatch (-want +got):\n%s", diff)
			}
			if !bytes.Equal(plain.body, tt.raw) {
				t.Errorf("body: %d bytes, want the %d embedded", len(plain.body), len(tt.raw))
			}
			for _, d := range []string{"script-src 'self'", "style-src 'self'", "img-src 'self' https: data:", "connect-src 'self'", "frame-ancestors 'none'"} {
				if !strings.Contains(plain.header.Get("Content-Security-Policy"), d) {
					t.Errorf("CSP lacks %s", d)
				}
			}

			zipped := fetch(t, http.MethodGet, base+tt.path, "Accept-Encoding", "gzip, deflate, br")
			if zipped.header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("Accept-Encoding gzip: Content-Encoding %q", zipped.header.Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(zipped.body))
			if err != nil {
				t.Fatal(err)
			}
			unzipped, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(unzipped, tt.raw) {
				t.Error("gzip body does not decompress to the embedded file")
			}
			if len(zipped.body) >= len(tt.raw) {
				t.Errorf("gzip body %d bytes is not smaller than %d", len(zipped.body), len(tt.raw))
			}

			for _, r := range []struct{ etag, enc string }{{plain.header.Get("ETag"), ""}, {zipped.header.Get("ETag"), "gzip"}} {
				again := fetch(t, http.MethodGet, base+tt.path, "If-None-Match", r.etag, "Accept-Encoding", r.enc)
				if again.status != http.StatusNotModified || len(again.body) != 0 {
					t.Errorf("If-None-Match %s: status %d with %d bytes, want 304 and none", r.etag, again.status, len(again.body))
				}
			}
			if plain.header.Get("ETag") == zipped.header.Get("ETag") {
				t.Error("the identity and gzip representations share an ETag")
			}
		})
	}

	for _, p := range []string{"/assets/app.js", "/assets/app.000000000000.js", "/assets/", "/assets/vendor/swagger-ui/SOURCE", "/index.html", "/docs/extra"} {
		r := fetch(t, http.MethodGet, base+p)
		if r.status != http.StatusNotFound || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Errorf("GET %s: status %d %s, want a JSON 404", p, r.status, r.header.Get("Content-Type"))
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	tests := []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZIP"}, true},
		{[]string{"deflate, gzip;q=0.5"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"br", "x-gzip"}, true},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"identity"}, false},
		{[]string{"gzipped"}, false},
		{[]string{"gzip;q=abc"}, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.values, "|"), func(t *testing.T) {
			if got := acceptsGzip(tt.values); got != tt.want {
				t.Errorf("acceptsGzip(%q) = %v, want %v", tt.values, got, tt.want)
			}
		})
	}
}

func TestEtagMatches(t *testing.T) {
	tests := []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{`"abc"`}, true},
		{[]string{`W/"abc"`}, true},
		{[]string{`"x", "abc-gz"`}, true},
		{[]string{`*`}, true},
		{[]string{`abc`}, false},
		{[]string{`"abcd"`}, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.values, "|"), func(t *testing.T) {
			if got := etagMatches(tt.values, `"abc"`, `"abc-gz"`); got != tt.want {
				t.Errorf("etagMatches(%q) = %v, want %v", tt.values, got, tt.want)
			}
		})
	}
}
