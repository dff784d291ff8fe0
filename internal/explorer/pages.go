package explorer

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"productsearch/internal/catalog"
	"productsearch/internal/mcp"
	"productsearch/internal/restclient"
	"productsearch/internal/search"
)

// templateFiles holds the two page templates.
//
//go:embed templates/*.html
var templateFiles embed.FS

// contentSecurityPolicy allows same-origin scripts, styles, fonts and
// connections only, images from the page and retailers' https hosts (and
// data: URIs used by the swagger-ui stylesheet), and no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; " +
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// setSecurityHeaders sets the headers every page and asset carries. Names
// are spelled as net/http canonicalises them, as the explorer has always
// sent them.
func setSecurityHeaders(c *fiber.Ctx) {
	h := &c.Response().Header
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
	h.Set("X-Dns-Prefetch-Control", "off")
}

// page is one rendered HTML page.
type page struct {
	body encoded
}

// serve answers GET /, GET /docs and HEAD with the page, revalidated on
// every load (ETag).
func (p *page) serve(c *fiber.Ctx) error {
	setSecurityHeaders(c)
	p.body.serve(c, "text/html; charset=utf-8", cacheRevalidate)
	return nil
}

// attrField describes one spec requirement input of the explorer form.
type attrField struct {
	Name        string
	Label       string
	Unit        string // shown after the value; empty for Wi-Fi
	Hint        string
	Suggestions []suggestion
	// Display is how the page writes values, as JSON: prefix, suffix,
	// named values and a larger unit (see catalog.Display).
	Display string
}

// displayJSON is the form of catalog.Display the page reads.
type displayJSON struct {
	Prefix string            `json:"prefix,omitempty"`
	Suffix string            `json:"suffix,omitempty"`
	Named  map[string]string `json:"named,omitempty"`
	Larger *largerJSON       `json:"larger,omitempty"`
}

type largerJSON struct {
	Suffix string  `json:"suffix"`
	Factor float64 `json:"factor"`
	Step   float64 `json:"step"`
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// displayText encodes how values of the attribute are written.
func displayText(d catalog.Display) string {
	j := displayJSON{Prefix: d.Prefix, Suffix: d.Suffix}
	for _, nv := range d.Named {
		if j.Named == nil {
			j.Named = map[string]string{}
		}
		j.Named[formatFloat(nv.Value)] = nv.Name
	}
	if l := d.Larger; l != nil {
		j.Larger = &largerJSON{Suffix: l.Suffix, Factor: l.Factor, Step: l.Step}
	}
	b, err := json.Marshal(j)
	if err != nil { // strings, maps of strings and numbers always encode
		return "{}"
	}
	return string(b)
}

type suggestion struct {
	Value string
	Label string
}

// attrFields returns the requirement inputs of the table's attributes, in
// table order.
func attrFields(attrs *catalog.AttributeTable) []attrField {
	out := make([]attrField, 0, attrs.Len())
	for i := range attrs.Len() {
		d := attrs.At(i)
		f := attrField{Name: d.Name, Label: d.Label, Unit: d.Unit, Hint: d.Hint, Display: displayText(d.Display)}
		for _, s := range d.Suggestions {
			f.Suggestions = append(f.Suggestions, suggestion{Value: formatFloat(s.Value), Label: s.Name})
		}
		out = append(out, f)
	}
	return out
}

// example is one copy-paste snippet of the API reference page; {base_url}
// in Text is replaced by the page's origin in the browser.
type example struct {
	ID    string
	Title string
	Note  string
	Text  string
}

// shortcut is a ready-made search offered on the explorer's start screen.
type shortcut struct {
	Label string
	Hash  string
}

// view is the data of both page templates.
type view struct {
	Categories []string
	Attributes []attrField
	Sorts      []suggestion
	// ProductTypes are the choices of the product_type extension, both
	// types first.
	ProductTypes []suggestion
	PublicKey    string
	Limit        int
	Shortcuts    []shortcut
	Examples     []example
}

// placeholderKey stands in for a key in the examples when the server has
// no public key.
const placeholderKey = "YOUR_API_KEY"

// pageData gathers the template data; it asks the engine for one product
// id to use in the product examples.
func pageData(opt Options) view {
	key := opt.PublicKey
	if key == "" {
		key = placeholderKey
	}
	id := exampleProductID(opt.Engine)
	searchCurl := strings.Join([]string{
		`curl -sS -G "{base_url}/api/search" \`,
		`  -H "Authorization: Bearer ` + key + `" \`,
		`  --data-urlencode "category=Laptops" \`,
		`  --data-urlencode "brand=Lenovo" \`,
		`  --data-urlencode "max_price=1500" \`,
		`  --data-urlencode 'constraints={"memory_gb":{"gte":16},"storage_gb":{"gte":1000}}' \`,
		`  --data-urlencode "lite=true" \`,
		`  --data-urlencode "limit=5"`,
	}, "\n")
	productCurl := `curl -sS "{base_url}/api/product/` + url.PathEscape(id) + `" \` + "\n" +
		`  -H "Authorization: Bearer ` + key + `"`
	mcpCurl := strings.Join([]string{
		`curl -sS -X POST "{base_url}/api/mcp" \`,
		`  -H "Content-Type: application/json" \`,
		`  -d '{`,
		`    "jsonrpc": "2.0", "id": 1, "method": "tools/call",`,
		`    "params": {"name": "` + mcp.ToolSearchProducts + `", "arguments": {`,
		`      "category": "Laptops", "brand": "Lenovo",`,
		`      "constraints": {"memory_gb": {"gte": 16}}, "limit": 5}}}'`,
	}, "\n")
	stdio := strings.Join([]string{
		`{`,
		`  "mcpServers": {`,
		`    "product-search": {`,
		`      "command": "mcp-stdio",`,
		`      "env": {`,
		`        "` + restclient.EnvBaseURL + `": "{base_url}",`,
		`        "` + restclient.EnvAPIKey + `": "` + key + `"`,
		`      }`,
		`    }`,
		`  }`,
		`}`,
	}, "\n")
	return view{
		Categories: catalog.Categories(),
		Attributes: attrFields(catalog.DefaultAttributes()),
		Sorts: []suggestion{
			{string(search.SortRelevance), "Relevance"},
			{string(search.SortPriceAsc), "Price: low to high"},
			{string(search.SortPriceDesc), "Price: high to low"},
		},
		ProductTypes: []suggestion{
			{"", "Products and accessories"},
			{string(catalog.TypeProduct), "Products only"},
			{string(catalog.TypeAccessory), "Accessories only"},
		},
		PublicKey: opt.PublicKey,
		Limit:     pageSize,
		Shortcuts: []shortcut{
			{"Laptops with at least 16 GB RAM and 1 TB storage", searchHash(url.Values{"category": {"Laptops"},
				"constraints": {`{"memory_gb":{"gte":16},"storage_gb":{"gte":1000}}`}})},
			{"55-inch 4K TVs", searchHash(url.Values{"category": {"TVs"},
				"constraints": {`{"screen_in":{"eq":55},"resolution_p":{"gte":2160}}`}})},
			{"Monitors of 144 Hz or more under £300", searchHash(url.Values{"category": {"Monitors"}, "max_price": {"300"},
				"constraints": {`{"refresh_hz":{"gte":144}}`}, "sort": {"price_asc"}})},
			{"Wi-Fi 7 networking", searchHash(url.Values{"category": {"Networking"},
				"constraints": {`{"wifi_gen":{"gte":7}}`}})},
			{"Chargers of 65 W or more", searchHash(url.Values{"category": {"Cables & Chargers"},
				"constraints": {`{"power_w":{"gte":65}}`}})},
		},
		Examples: []example{
			{"search", "Search (REST)", "Brand, category, price and spec requirements as separate parameters; constraints is JSON, URL-encoded once.", searchCurl},
			{"product", "Product detail (REST)", "Every retailer's offer, the attributes with their sources, and the retailer description. Use a product id from a search (or an offer id).", productCurl},
			{"mcp", "MCP endpoint (JSON-RPC tools/call)", "No key needed; the tools are " + mcp.ToolSearchProducts + " and " + mcp.ToolGetProduct + ". Rate limited per IP like the REST API.", mcpCurl},
			{"stdio", "Local MCP server (stdio) registration", "For MCP hosts that launch a local server: build cmd/mcp-stdio from this repository, put it on your PATH and register it like this.", stdio},
		},
	}
}

// pageSize is the number of results the explorer asks for per page.
const pageSize = 20

// searchHash is the explorer route of a search.
func searchHash(v url.Values) string {
	return "#/search?" + strings.ReplaceAll(v.Encode(), "+", "%20")
}

// exampleIDFallback is used in the examples when the catalog is empty or
// the engine does not answer.
const exampleIDFallback = "PRODUCT_ID"

// exampleProductID returns the id of a laptop (or any product) in the
// catalog, for the product examples.
func exampleProductID(engine search.Engine) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, q := range []url.Values{{"category": {"Laptops"}, "limit": {"1"}}, {"limit": {"1"}}} {
		req, err := search.ParseQuery(q)
		if err != nil {
			continue
		}
		res, err := engine.Search(ctx, req)
		if err != nil || len(res.Products) == 0 {
			continue
		}
		if p, err := res.Products[0].Item(); err == nil && p != nil {
			return p.ID
		}
	}
	return exampleIDFallback
}

// renderPages renders the explorer and the API reference page.
func renderPages(assets *assetSet, v view) (index, docs *page, err error) {
	tmpl, err := template.New("").Funcs(template.FuncMap{"asset": assets.url}).ParseFS(templateFiles, "templates/*.html")
	if err != nil {
		return nil, nil, fmt.Errorf("explorer templates: %w", err)
	}
	render := func(name string) (*page, error) {
		var buf bytes.Buffer
		if err := tmpl.ExecuteTemplate(&buf, name, v); err != nil {
			return nil, fmt.Errorf("explorer page %s: %w", name, err)
		}
		return &page{body: newEncoded(buf.Bytes())}, nil
	}
	if index, err = render("index.html"); err != nil {
		return nil, nil, err
	}
	if docs, err = render("docs.html"); err != nil {
		return nil, nil, err
	}
	return index, docs, nil
}
