package search

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"productsearch/internal/catalog"
)

// Further limits of the request model.
const (
	// MaxOffset caps the offset extension; deeper pages are better reached
	// by narrowing the search.
	MaxOffset = 10000
	// MaxQueryLen caps the query length in characters.
	MaxQueryLen = 500
	// MaxBrandLen caps the brand length in characters.
	MaxBrandLen = 100
)

// Parameter names of the search operation.
const (
	ParamQuery       = "query"
	ParamMinPrice    = "min_price"
	ParamMaxPrice    = "max_price"
	ParamBrand       = "brand"
	ParamCategory    = "category"
	ParamConstraints = "constraints"
	ParamLimit       = "limit"
	ParamOffset      = "offset"
	ParamSort        = "sort"
	ParamLite        = "lite"
	// ParamProductType is an extension of the interface: product or
	// accessory.
	ParamProductType = "product_type"
)

func validCategories() string { return strings.Join(catalog.Categories(), ", ") }

func invalidf(format string, args ...any) error {
	return &InvalidError{Message: fmt.Sprintf(format, args...)}
}

// misnamedParam names the parameter a caller most likely meant by an
// unknown one: a parameter's name in another letter case or with hyphens
// ("Category", "max-price"), or one of the few spellings that clearly mean
// a search parameter.
func misnamedParam(name string) string {
	folded := strings.ToLower(strings.ReplaceAll(name, "-", "_"))
	switch folded {
	case ParamQuery, ParamMinPrice, ParamMaxPrice, ParamBrand, ParamCategory, ParamConstraints, ParamLimit,
		ParamOffset, ParamSort, ParamLite, ParamProductType:
		if folded != name {
			return folded
		}
		return ""
	}
	switch folded {
	case "q", "search", "keyword", "keywords", "text", "term", "terms", "search_query":
		return ParamQuery
	case "minprice", "price_min", "min", "pricemin", "min_price_gbp":
		return ParamMinPrice
	case "maxprice", "price_max", "max", "pricemax", "max_price_gbp", "budget":
		return ParamMaxPrice
	case "brands", "manufacturer", "make":
		return ParamBrand
	case "categories", "cat":
		return ParamCategory
	case "constraint", "filters", "specs", "attributes":
		return ParamConstraints
	case "page_size", "pagesize", "per_page", "perpage", "size", "count", "max_results", "top", "n":
		return ParamLimit
	case "page", "skip", "start", "from":
		return ParamOffset
	case "order", "order_by", "orderby", "sort_by", "sortby", "sort_order":
		return ParamSort
	case "type", "producttype", "kind", "accessory", "accessories", "products_only", "product_kind":
		return ParamProductType
	}
	return ""
}

// ParseQuery turns the query string of GET /api/search into a validated
// Request. Every parameter is optional; a blank value counts as absent.
// Unknown parameters are ignored, except a parameter's name in another
// letter case and common misspellings of search parameters ("q", "page",
// "order_by", "Max-Price", "type", ...), which are rejected with the right
// name so that a caller does not silently lose a filter. A parameter
// given twice with different values is rejected. lite accepts true/false
// and 1/0 in any letter case. Errors are *InvalidError.
func ParseQuery(v url.Values) (Request, error) {
	names := make([]string, 0, len(v))
	for name := range v {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if right := misnamedParam(name); right != "" {
			return Request{}, invalidf("unknown parameter %q: use %s instead, e.g. %s", name, right, paramExample(right))
		}
	}
	p := params(v)
	var r Request
	var err error
	r.Query, _, err = p.get(ParamQuery)
	if err != nil {
		return Request{}, err
	}
	if r.Brand, _, err = p.get(ParamBrand); err != nil {
		return Request{}, err
	}
	if r.Category, _, err = p.get(ParamCategory); err != nil {
		return Request{}, err
	}
	if r.MinPrice, err = p.price(ParamMinPrice); err != nil {
		return Request{}, err
	}
	if r.MaxPrice, err = p.price(ParamMaxPrice); err != nil {
		return Request{}, err
	}
	if s, ok, err := p.get(ParamLimit); err != nil {
		return Request{}, err
	} else if ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			return Request{}, invalidf("limit must be a whole number from 1 to %d (default %d), e.g. limit=20; got %q",
				MaxLimit, DefaultLimit, s)
		}
		if n < 1 || n > MaxLimit {
			return Request{}, limitError(n)
		}
		r.Limit = n
	}
	if s, ok, err := p.get(ParamOffset); err != nil {
		return Request{}, err
	} else if ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			return Request{}, invalidf("offset must be a whole number from 0 to %d, e.g. offset=50 for the second page of 50; got %q",
				MaxOffset, s)
		}
		if err := checkOffset(n); err != nil {
			return Request{}, err
		}
		r.Offset = n
	}
	s, _, err := p.get(ParamSort)
	if err != nil {
		return Request{}, err
	}
	r.Sort = Sort(s)
	if s, ok, err := p.get(ParamLite); err != nil {
		return Request{}, err
	} else if ok {
		switch strings.ToLower(s) {
		case "true", "1":
			r.Lite = true
		case "false", "0":
		default:
			return Request{}, invalidf("lite must be true or false, e.g. lite=true; got %q", s)
		}
	}
	productType, _, err := p.get(ParamProductType)
	if err != nil {
		return Request{}, err
	}
	r.ProductType = catalog.ProductType(productType)
	if s, ok, err := p.get(ParamConstraints); err != nil {
		return Request{}, err
	} else if ok {
		if r.Constraints, err = ParseConstraints(s); err != nil {
			return Request{}, err
		}
	}
	if err := r.Validate(); err != nil {
		return Request{}, err
	}
	return r, nil
}

// params reads parameters from a query string.
type params url.Values

// get returns a parameter's value trimmed, and whether it is set: blank
// values count as absent, repeats must agree.
func (p params) get(name string) (string, bool, error) {
	val := ""
	for _, s := range p[name] {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if val != "" && s != val {
			return "", false, invalidf("%s is given more than once (%q and %q); give it once, e.g. %s",
				name, val, s, paramExample(name))
		}
		val = s
	}
	return val, val != "", nil
}

// price returns a price parameter, nil when absent.
func (p params) price(name string) (*float64, error) {
	s, ok, err := p.get(name)
	if err != nil || !ok {
		return nil, err
	}
	f, err := parsePrice(name, s)
	if err != nil {
		return nil, err
	}
	return &f, nil
}

func paramExample(name string) string {
	switch name {
	case ParamQuery:
		return "query=rtx 4070"
	case ParamMinPrice:
		return "min_price=200"
	case ParamMaxPrice:
		return "max_price=800"
	case ParamBrand:
		return "brand=Samsung"
	case ParamCategory:
		return "category=Laptops"
	case ParamConstraints:
		return `constraints={"memory_gb":{"gte":16}}`
	case ParamLimit:
		return "limit=20"
	case ParamOffset:
		return "offset=50"
	case ParamSort:
		return "sort=price_asc"
	case ParamProductType:
		return "product_type=product"
	case ParamLite:
		return "lite=true"
	}
	return name + "=..."
}

func limitError(n int) error {
	if n > MaxLimit {
		return invalidf("limit %d is above the maximum of %d; use limit=%d and offset to page through more results",
			n, MaxLimit, MaxLimit)
	}
	return invalidf("limit must be from 1 to %d (default %d), e.g. limit=20; got %d", MaxLimit, DefaultLimit, n)
}

func checkOffset(n int) error {
	if n < 0 {
		return invalidf("offset must be 0 or more, e.g. offset=50; got %d", n)
	}
	if n > MaxOffset {
		return invalidf("offset %d is above the maximum of %d; narrow the search with category, brand, a price range or query words instead of paging deeper",
			n, MaxOffset)
	}
	return nil
}

// parsePrice reads a price parameter: a plain decimal number of pounds.
func parsePrice(name, s string) (float64, error) {
	clean := strings.TrimPrefix(strings.TrimPrefix(s, "£"), "GBP")
	bad := func() error {
		return invalidf("%s must be a plain number of pounds without a currency sign, e.g. %s=250 or %s=99.99; got %q",
			name, name, name, s)
	}
	if clean != s {
		return 0, bad()
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, bad()
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, bad()
	}
	return f, checkPrice(name, f)
}

func checkPrice(name string, f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return invalidf("%s must be a finite number of pounds, e.g. %s=250", name, name)
	}
	if f < 0 {
		return invalidf("%s must not be negative; got %s. Leave it out for no %s limit, e.g. %s=250",
			name, formatNumber(f), strings.TrimSuffix(name, "_price"), name)
	}
	return nil
}

// Validate checks a request and fills its defaults: Limit 50 when zero,
// Sort relevance when empty. It trims Query and Brand, and corrects a
// category that differs from a valid one only in letter case ("laptops" ->
// "Laptops"); any other unknown category is rejected with the valid list and
// a suggestion ("Smartphones" -> Phones). MCP builds a Request from typed
// arguments and calls Validate; ParseQuery calls it too. Errors are
// *InvalidError.
func (r *Request) Validate() error {
	_, err := r.Plan()
	return err
}

// Plan is a validated request ready for an engine: the request with its
// defaults, the query analysis and the constraints in force.
type Plan struct {
	// Request is the request with its defaults filled.
	Request Request
	// Analysis is the query analysis for the request's category and brand.
	Analysis Analysis
	// Constraints holds the constraints applied: the query's derived ones
	// overridden per name by the request's explicit ones. Nil when none.
	Constraints Constraints
}

// Plan validates the request (as Validate does, filling its defaults) and
// analyses its query, with the default attribute table.
func (r *Request) Plan() (Plan, error) { return r.PlanWith(catalog.DefaultAttributes()) }

// PlanWith is Plan with the attributes of a table: constraint names,
// tolerances and the specs a query states. Engines call it with their table
// at the start of Search.
func (r *Request) PlanWith(attrs *catalog.AttributeTable) (Plan, error) {
	r.Query = strings.TrimSpace(r.Query)
	r.Brand = strings.TrimSpace(r.Brand)
	r.Category = strings.TrimSpace(r.Category)
	if n := utf8.RuneCountInString(r.Query); n > MaxQueryLen {
		return Plan{}, invalidf("query is %d characters long; at most %d are accepted. Keep query to model lines, series and model numbers, e.g. query=rtx 4070",
			n, MaxQueryLen)
	}
	if n := utf8.RuneCountInString(r.Brand); n > MaxBrandLen {
		return Plan{}, invalidf("brand is %d characters long; at most %d are accepted. Give one brand name, e.g. brand=Samsung",
			n, MaxBrandLen)
	}
	if r.Category != "" && !catalog.IsCategory(r.Category) {
		c, err := checkCategory(r.Category)
		if err != nil {
			return Plan{}, err
		}
		r.Category = c
	}
	if r.MinPrice != nil {
		if err := checkPrice(ParamMinPrice, *r.MinPrice); err != nil {
			return Plan{}, err
		}
	}
	if r.MaxPrice != nil {
		if err := checkPrice(ParamMaxPrice, *r.MaxPrice); err != nil {
			return Plan{}, err
		}
	}
	if r.MinPrice != nil && r.MaxPrice != nil && *r.MinPrice > *r.MaxPrice {
		return Plan{}, invalidf("min_price %s is above max_price %s; swap them or widen the range, e.g. min_price=%s&max_price=%s",
			formatNumber(*r.MinPrice), formatNumber(*r.MaxPrice), formatNumber(*r.MaxPrice), formatNumber(*r.MinPrice))
	}
	switch {
	case r.Limit == 0:
		r.Limit = DefaultLimit
	case r.Limit < 1 || r.Limit > MaxLimit:
		return Plan{}, limitError(r.Limit)
	}
	if err := checkOffset(r.Offset); err != nil {
		return Plan{}, err
	}
	if err := checkProductType(r); err != nil {
		return Plan{}, err
	}
	switch Sort(strings.ToLower(strings.TrimSpace(string(r.Sort)))) {
	case "":
		r.Sort = SortRelevance
	case SortRelevance, SortPriceAsc, SortPriceDesc:
		r.Sort = Sort(strings.ToLower(strings.TrimSpace(string(r.Sort))))
	default:
		return Plan{}, sortError(string(r.Sort))
	}
	if len(r.Constraints) == 0 {
		r.Constraints = nil
	}
	if err := r.Constraints.ValidateWith(attrs); err != nil {
		return Plan{}, err
	}
	p := Plan{Request: *r, Analysis: AnalyzeWith(attrs, r.Query, r.Category, r.Brand)}
	if len(p.Analysis.Derived)+len(r.Constraints) > 0 {
		p.Constraints = make(Constraints, len(p.Analysis.Derived)+len(r.Constraints))
		for name, b := range p.Analysis.Derived {
			p.Constraints[name] = b
		}
		for name, b := range r.Constraints {
			p.Constraints[name] = b
		}
	}
	if len(p.Constraints) > 0 && r.Category == "" && r.Brand == "" && len(p.Analysis.Required) == 0 {
		return Plan{}, unnarrowedError(p)
	}
	return p, nil
}

// checkProductType accepts product and accessory in any letter case and
// writes them in lower case.
func checkProductType(r *Request) error {
	t := catalog.ProductType(strings.ToLower(strings.TrimSpace(string(r.ProductType))))
	switch t {
	case "", catalog.TypeProduct, catalog.TypeAccessory:
		r.ProductType = t
		return nil
	case "products", "device", "devices":
		return invalidf("product_type must be product or accessory; got %q (did you mean product?)", r.ProductType)
	case "accessories":
		return invalidf("product_type must be product or accessory; got %q (did you mean accessory?)", r.ProductType)
	}
	return invalidf("product_type must be product (devices only) or accessory (cases, chargers, straps and the like only), "+
		"or left out for both; got %q", r.ProductType)
}

// checkCategory corrects a category differing only in letter case, or
// explains which values are valid.
func checkCategory(c string) (string, error) {
	for _, valid := range catalog.Categories() {
		if strings.EqualFold(valid, c) {
			return valid, nil
		}
	}
	msg := fmt.Sprintf("unknown category %q: use one of the exact values %s", c, validCategories())
	if s := suggestCategory(c); s != "" {
		msg = fmt.Sprintf("unknown category %q: did you mean %s? Use one of the exact values %s (e.g. category=%s)",
			c, s, validCategories(), url.QueryEscape(s))
	} else {
		msg += ". Or leave category out and put the product kind in query"
	}
	return "", &InvalidError{Message: msg}
}

func sortError(s string) error {
	hint := ""
	switch strings.ToLower(strings.NewReplacer("-", "_", " ", "_").Replace(strings.TrimSpace(s))) {
	case "price", "asc", "price_ascending", "cheapest", "lowest_price", "price_low_to_high", "price_low":
		hint = " (did you mean price_asc?)"
	case "desc", "price_descending", "highest_price", "price_high_to_low", "price_high":
		hint = " (did you mean price_desc?)"
	case "best", "best_match", "relevant", "score", "default":
		hint = " (did you mean relevance?)"
	}
	return invalidf("sort must be one of relevance, price_asc, price_desc%s; got %q", hint, s)
}

// unnarrowedError explains that a constraints search needs something to
// narrow the candidates.
func unnarrowedError(p Plan) error {
	from := "constraints"
	if len(p.Analysis.Derived) > 0 {
		from = fmt.Sprintf("specs in query (read as %s)", p.Analysis.Derived.String())
	}
	return invalidf("%s need a category or brand to search within: add category (one of %s) or brand, "+
		"or add model words to query. Example: category=Laptops&constraints={\"memory_gb\":{\"gte\":16}}", from, validCategories())
}
