package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Descriptions of the tools: how to call them well and how to read the
// answers (interface specification §4.1 GET /api/search, §4.2 GET /api/product/{id}).
const (
	searchDescription = `Search UK electronics products (prices in GBP) gathered from 7 retailers and deduplicated: each product is one canonical record that may carry several retailer offers. Returns the cheapest price and purchase link per product.

How to build the arguments from a request:
- brand -> brand ("Samsung"); product kind -> category (one of the exact values, e.g. "Laptops", "Phones", "TVs"); price -> min_price / max_price in pounds.
- RAM, storage, screen size, resolution, refresh rate, wattage and Wi-Fi generation -> constraints, e.g. {"memory_gb": {"gte": 16}, "storage_gb": {"gte": 1000}}. Constraints need a category or brand to search within.
- Only what remains goes into query: model lines, series, variants and model numbers, each model number with its prefix ("RTX 4070", not "4070"). Spellings and common names are understood alike ("grey"/"gray", "ear buds"/"earbuds", "PS5"/"PlayStation 5").
- Asking for the device itself (a phone, not its cases) -> product_type "product"; for cases, chargers, straps and the like -> "accessory". Use it above all with sort price_asc, which otherwise lists a model line's cheapest accessories first.
- Leave out use-case words (gaming, cheap, best, good); never put a category, brand or price in query; omit query when browsing a category or brand. Leave an ambiguous spec (a bare "16GB": RAM or storage?) out of constraints.
Example: "gaming laptop with an RTX 4070, 32GB RAM, under £1500 from ASUS" -> {"category": "Laptops", "brand": "ASUS", "query": "RTX 4070", "max_price": 1500, "constraints": {"memory_gb": {"gte": 32}}}.
Example: "the cheapest iPhone 15" -> {"category": "Phones", "query": "iPhone 15", "product_type": "product", "sort": "price_asc"}.

How to read the result:
- With constraints, every product has constraint_status per constraint: "matched" means a retailer's title states a value that meets it; "unverified" means it is not known to meet it and is never a match: do not present it as meeting the requirement. For an unverified name, attributes[name].status "conflicting" means retailers disagree (check offers[].title via get_product); an absent attribute means the value is unknown.
- total counts the products known to meet every constraint (they come first, whatever the sort); unverified_total counts unverified ones; excluded_by_constraints counts products whose stated value fails.
- total 0: no product is known to meet the requirement. Say so, then broaden: relax or drop a constraint, widen the price range, drop query words or the brand.
- candidates_truncated true: only the first 2,000 candidates were checked; add a brand, a category or a narrower query and search again.
- offer_count > 1: several retailers sell the product; get_product lists every offer's price. A saving is meaningful only between offers of the same configuration.
- For ports, weight, battery and other details not in attributes, call get_product; do not guess them from titles.`

	productDescription = `Get one product in full by its id from search_products (or by a retailer offer id): attributes with the retailers that state each value, the retailer's description (processor, GPU, ports, battery, weight and the like), model number, dimensions, stock, delivery time, and every retailer offer with its price and purchase link, cheapest first.

- Use it for details that attributes do not cover (ports, weight, battery) instead of guessing them from titles. specs.description is the retailer's prose: it may describe another configuration or a maximum, and it never overrides attributes.
- Compare prices or state a saving only between offers of the same configuration: when an attribute is conflicting, read offers[].title to see which listing states which value.
- An unknown id gives "Product not found": search again with search_products and use an id from its results.`

	serverInstructions = `Product search over deduplicated UK electronics products from 7 retailers (GBP). Use search_products to find products (decompose the request into category, brand, price range, spec constraints and only model words in query), then get_product for one product's full details and every retailer's price. A constraint is met only when constraint_status is "matched"; "unverified" is never a match.`
)

// maxProductIDLen bounds product ids looked up; longer ids cannot exist.
const maxProductIDLen = 512

// tools holds the two tool handlers over one backend.
type tools struct {
	backend Backend
	log     *slog.Logger
}

func searchTool(attrs *catalog.AttributeTable) *sdk.Tool {
	return &sdk.Tool{
		Name:         ToolSearchProducts,
		Title:        "Search products",
		Description:  searchDescription,
		InputSchema:  mustMarshal(searchInputSchema(attrs)),
		OutputSchema: mustMarshal(searchOutputSchema(attrs)),
		Annotations:  readOnlyAnnotations("Search products"),
	}
}

func productTool() *sdk.Tool {
	return &sdk.Tool{
		Name:         ToolGetProduct,
		Title:        "Get product details",
		Description:  productDescription,
		InputSchema:  mustMarshal(productInputSchema()),
		OutputSchema: mustMarshal(productSchema()),
		Annotations:  readOnlyAnnotations("Get product details"),
	}
}

// mustMarshal encodes a schema once, so that tools/list does not encode it
// again on every request. The schemas are fixed values that the tests
// encode, so a failure is a programming error.
func mustMarshal(s *jsonschema.Schema) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("mcp: encode tool schema: %v", err))
	}
	return b
}

// readOnlyAnnotations marks a tool as a read-only look-up in a closed
// catalog.
func readOnlyAnnotations(title string) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{
		Title:           title,
		ReadOnlyHint:    true,
		IdempotentHint:  true,
		DestructiveHint: ptr(false),
		OpenWorldHint:   ptr(false),
	}
}

func (t *tools) searchProducts(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	r, err := decodeSearchArgs(req.Params.Arguments)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	body, err := t.backend.Search(ctx, r)
	if err != nil {
		return t.failure(ctx, ToolSearchProducts, err), nil
	}
	return jsonResult(body), nil
}

func (t *tools) getProduct(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	id, err := decodeProductArgs(req.Params.Arguments)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	if len(id) > maxProductIDLen || !utf8.ValidString(id) {
		return errorResult(notFoundMessage(id)), nil
	}
	body, err := t.backend.Product(ctx, id)
	switch {
	case errors.Is(err, search.ErrNotFound):
		return errorResult(notFoundMessage(id)), nil
	case err != nil:
		return t.failure(ctx, ToolGetProduct, err), nil
	}
	return jsonResult(body), nil
}

// failure turns a backend error into the tool result the model sees.
func (t *tools) failure(ctx context.Context, tool string, err error) *sdk.CallToolResult {
	var invalid *search.InvalidError
	if !errors.As(err, &invalid) {
		t.log.InfoContext(ctx, "mcp tool call failed", slog.String("tool", tool), slog.Any("err", err))
		return errorResult(err.Error())
	}
	return errorResult(invalid.Message)
}

func notFoundMessage(id string) string {
	if len(id) > 120 {
		id = strings.ToValidUTF8(id[:120], "") + "…"
	}
	return fmt.Sprintf("Product not found: %s. Find the product with search_products and pass the id from its results "+
		"(or one of its offers' ids) to get_product.", id)
}

// jsonResult carries a response object both as text, for clients that only
// read content, and as structured content conforming to the output schema.
func jsonResult(body []byte) *sdk.CallToolResult {
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: string(body)}},
		StructuredContent: json.RawMessage(body),
	}
}

func errorResult(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{
		Content: []sdk.Content{&sdk.TextContent{Text: msg}},
		IsError: true,
	}
}

func invalidf(format string, args ...any) error {
	return &search.InvalidError{Message: fmt.Sprintf(format, args...)}
}

// decodeArgs reads tool arguments as a JSON object; absent or null
// arguments are an empty object. Keys are returned sorted.
func decodeArgs(raw json.RawMessage, example string) (map[string]json.RawMessage, []string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil, nil
	}
	var args map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &args) != nil {
		return nil, nil, invalidf("arguments must be a JSON object, e.g. %s", example)
	}
	keys := make([]string, 0, len(args))
	for k, v := range args {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			continue // null means "not given"
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return args, keys, nil
}

const searchExample = `{"category": "Laptops", "query": "RTX 4070", "max_price": 1500}`

// decodeSearchArgs turns search_products arguments into a validated
// request. The arguments are written as the query parameters of GET
// /api/search and parsed by search.ParseQuery, so every check and every
// message is the REST API's; on top of that, unknown arguments and
// arguments of the wrong JSON type are rejected. Every error is a
// *search.InvalidError whose message says what to change.
func decodeSearchArgs(raw json.RawMessage) (search.Request, error) {
	args, keys, err := decodeArgs(raw, searchExample)
	if err != nil {
		return search.Request{}, err
	}
	q := url.Values{}
	for _, k := range keys {
		v := bytes.TrimSpace(args[k])
		switch k {
		case search.ParamQuery, search.ParamBrand, search.ParamCategory, search.ParamSort, search.ParamProductType:
			s, ok := scalarText(v)
			if !ok || v[0] == 't' || v[0] == 'f' {
				return search.Request{}, invalidf("%s must be a string, e.g. %s; got %s", k, exampleArg(k), jsonKind(v))
			}
			q.Set(k, s)
		case search.ParamMinPrice, search.ParamMaxPrice, search.ParamLimit, search.ParamOffset:
			s, ok := scalarText(v)
			if !ok || v[0] == 't' || v[0] == 'f' {
				return search.Request{}, invalidf("%s must be a number, e.g. %s; got %s", k, exampleArg(k), jsonKind(v))
			}
			q.Set(k, s)
		case search.ParamLite:
			s, ok := scalarText(v)
			if !ok {
				return search.Request{}, invalidf("lite must be true or false; got %s", jsonKind(v))
			}
			q.Set(k, s)
		case search.ParamConstraints:
			// An object is passed as its JSON text; a string (the REST
			// form) as it is; anything else lets ParseConstraints explain.
			s := string(v)
			if v[0] == '"' {
				s, _ = scalarText(v)
			}
			q.Set(k, s)
		default:
			return search.Request{}, unknownSearchArg(k)
		}
	}
	if _, ok := args[search.ParamLite]; !ok || isNull(args[search.ParamLite]) {
		q.Set(search.ParamLite, strconv.FormatBool(defaultLite))
	}
	return search.ParseQuery(q)
}

// scalarText renders a JSON string, number or boolean as a query parameter
// value: a string as it is, an integral number without exponent or
// fraction, any other number as written. It reports false for objects,
// arrays and malformed values.
func scalarText(v json.RawMessage) (string, bool) {
	if len(v) == 0 {
		return "", false
	}
	switch v[0] {
	case '"':
		var s string
		if json.Unmarshal(v, &s) != nil {
			return "", false
		}
		return s, true
	case 't', 'f':
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return "", false
		}
		return strconv.FormatBool(b), true
	case '{', '[', 'n':
		return "", false
	}
	var n json.Number
	if json.Unmarshal(v, &n) != nil {
		return "", false
	}
	if f, err := n.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10), true
	}
	return n.String(), true
}

func isNull(v json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(v), []byte("null")) }

func exampleArg(name string) string {
	switch name {
	case search.ParamQuery:
		return `"RTX 4070"`
	case search.ParamBrand:
		return `"Samsung"`
	case search.ParamCategory:
		return `"Laptops"`
	case search.ParamSort:
		return `"price_asc"`
	case search.ParamProductType:
		return `"product"`
	case search.ParamMinPrice:
		return "200"
	case search.ParamMaxPrice:
		return "800"
	case search.ParamLimit:
		return "20"
	}
	return "50"
}

func unknownSearchArg(name string) error {
	if d := catalog.DefaultAttributes().Lookup(name); d != nil {
		return invalidf("%s is a constraint, not an argument of its own: pass it inside constraints, e.g. "+
			`{"category": "%s", "constraints": {"%s": {"%s": %s}}}`, name, catalog.Laptops, name, d.ExampleOp, d.ExampleText())
	}
	valid := strings.Join(searchArgNames(), ", ")
	if right := misnamedSearchArg(name); right != "" {
		return invalidf("unknown argument %q: use %s instead. The arguments are %s", name, right, valid)
	}
	return invalidf("unknown argument %q; the arguments are %s", name, valid)
}

// misnamedSearchArg names the argument most likely meant by a few common
// wrong names.
func misnamedSearchArg(name string) string {
	switch strings.ToLower(strings.NewReplacer("-", "_", " ", "_").Replace(name)) {
	case "q", "search", "keywords", "keyword", "text", "search_query", "model", "terms":
		return search.ParamQuery
	case "minprice", "price_min", "min", "min_price_gbp":
		return search.ParamMinPrice
	case "maxprice", "price_max", "max", "budget", "max_price_gbp":
		return search.ParamMaxPrice
	case "brands", "manufacturer", "make":
		return search.ParamBrand
	case "categories", "cat":
		return search.ParamCategory
	case "type", "kind", "producttype", "accessory", "accessories":
		return search.ParamProductType
	case "constraint", "filters", "specs", "attributes":
		return search.ParamConstraints
	case "page_size", "per_page", "size", "count", "max_results", "top", "n":
		return search.ParamLimit
	case "page", "skip", "start", "from":
		return search.ParamOffset
	case "order", "order_by", "sort_by", "sortby":
		return search.ParamSort
	}
	return ""
}

// jsonKind names the JSON type of a value for messages.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// decodeProductArgs reads the product_id argument of get_product.
func decodeProductArgs(raw json.RawMessage) (string, error) {
	const example = `{"product_id": "` + exampleProductID + `"}`
	args, keys, err := decodeArgs(raw, example)
	if err != nil {
		return "", err
	}
	for _, k := range keys {
		if k == argProductID {
			continue
		}
		switch strings.ToLower(k) {
		case "id", "productid", "product", "offer_id", "sku":
			return "", invalidf("unknown argument %q: pass the id as product_id, e.g. %s", k, example)
		}
		return "", invalidf("unknown argument %q; get_product takes only product_id, e.g. %s", k, example)
	}
	v, ok := args[argProductID]
	if !ok || isNull(v) {
		return "", invalidf("product_id is required: pass the id of a product from search_products results (or a retailer offer id), e.g. %s", example)
	}
	id, ok := scalarText(bytes.TrimSpace(v))
	if !ok || v[0] == 't' || v[0] == 'f' {
		return "", invalidf("product_id must be a string, e.g. %s; got %s", example, jsonKind(v))
	}
	if id = strings.TrimSpace(id); id == "" {
		return "", invalidf("product_id is empty: pass the id of a product from search_products results (or a retailer offer id), e.g. %s", example)
	}
	return id, nil
}
