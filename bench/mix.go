package bench

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Query classes of the mix.
const (
	// ClassBroad: one or two common words, no filters ("laptop",
	// "samsung", "headphones"); thousands of candidates.
	ClassBroad = "broad"
	// ClassNarrow: model lines and numbers ("WH-1000XM5", "macbook air
	// m3", "rtx 4070"), sometimes with a brand or category.
	ClassNarrow = "narrow"
	// ClassFilters: category, brand and price range, no query words.
	ClassFilters = "filters"
	// ClassPriceSort: categories, words and model lines sorted by price,
	// some with a price cap or a later page.
	ClassPriceSort = "price_sort"
	// ClassConstraints: attribute constraints within a category (or
	// derived from labelled specs in the query), many judging 2,000
	// candidates.
	ClassConstraints = "constraints"
)

// Classes lists the query classes in report order.
func Classes() []string {
	return []string{ClassBroad, ClassNarrow, ClassFilters, ClassPriceSort, ClassConstraints}
}

// Query is one request of the mix.
type Query struct {
	Class string
	Req   search.Request
}

// String writes the request as the REST parameters that would send it.
func (q Query) String() string {
	r := q.Req
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set(search.ParamQuery, r.Query)
	set(search.ParamCategory, r.Category)
	set(search.ParamBrand, r.Brand)
	if r.MinPrice != nil {
		set(search.ParamMinPrice, strconv.FormatFloat(*r.MinPrice, 'f', -1, 64))
	}
	if r.MaxPrice != nil {
		set(search.ParamMaxPrice, strconv.FormatFloat(*r.MaxPrice, 'f', -1, 64))
	}
	if len(r.Constraints) > 0 {
		b, _ := json.Marshal(r.Constraints) // maps of plain bounds always marshal
		set(search.ParamConstraints, string(b))
	}
	set(search.ParamSort, string(r.Sort))
	if r.Offset > 0 {
		set(search.ParamOffset, strconv.Itoa(r.Offset))
	}
	if r.Limit > 0 {
		set(search.ParamLimit, strconv.Itoa(r.Limit))
	}
	if r.Lite {
		set(search.ParamLite, "true")
	}
	return v.Encode()
}

// Sizes of the generated classes; hand-written queries come on top.
const (
	mixBroad       = 200
	mixNarrow      = 300
	mixFilters     = 200
	mixPriceSort   = 150
	mixConstraints = 150
)

// handBroad, handNarrow and handConstraints are the hand-written queries
// of the mix: what shoppers and AI agents send.
func handBroad() []string {
	return []string{
		"laptop", "samsung", "headphones", "iphone", "galaxy", "wireless", "apple", "sony", "tv", "monitor",
		"charger", "case", "usb-c cable", "ssd", "gaming", "keyboard", "mouse", "camera", "speaker", "printer",
		"router", "tablet", "smartwatch", "earbuds", "bluetooth speaker", "gaming laptop", "phone case",
		"screen protector", "hdmi cable", "power bank", "noise cancelling headphones", "4k tv",
	}
}

func handNarrow() []string {
	return []string{
		"WH-1000XM5", "sony wh-1000xm5", "macbook air m3", "macbook pro m4", "rtx 4070", "iphone 15 pro",
		"iphone 16 pro max", "galaxy s24 ultra", "pixel 8a", "ipad air", "airpods pro", "xbox series x",
		"switch oled", "surface pro", "thinkpad x1 carbon", "rog strix", "legion 5", "dell xps 13",
		"galaxy tab s9", "apple watch ultra 2", "galaxy watch7", "dji mini 4 pro", "bose quietcomfort ultra",
		"sonos era 100", "logitech mx master 3s", "g502", "tp-link deco", "samsung 990 pro", "crucial p3",
		"canon eos r50", "gopro hero12", "lg oled c4", "usb-c charger 65w", "galaxy s24 case", "iphone 15 case",
		"magsafe charger", "mesh wifi 6", "iphone 15 pro 256gb", "rtx 4060 laptop", "playstation 5",
	}
}

// handConstraints are queries with labelled specs, within a category.
func handConstraints() [][2]string {
	return [][2]string{
		{"16gb ram", "Laptops"}, {"gaming laptop 32gb ram rtx 4070", "Laptops"}, {"1tb ssd", "Storage"},
		{"55 inch 4k", "TVs"}, {`27" 144hz`, "Monitors"}, {"65w charger", "Cables & Chargers"},
		{"wifi 6e router", "Networking"}, {"256gb storage", "Phones"}, {"16gb ram 1tb ssd", "Desktops"},
		{"oled 65 inch", "TVs"}, {"512gb ssd 16gb ram", "Laptops"}, {"wifi 7 mesh", "Networking"},
	}
}

// specChoices are the constraints the mix draws per category.
func specChoices(category string) []search.Constraints {
	gte := func(name string, v float64) search.Constraints { return search.Constraints{name: {Gte: &v}} }
	eq := func(name string, v float64) search.Constraints { return search.Constraints{name: {Eq: &v}} }
	switch category {
	case "Laptops":
		return []search.Constraints{gte(catalog.MemoryGB, 8), gte(catalog.MemoryGB, 16), gte(catalog.MemoryGB, 32),
			gte(catalog.StorageGB, 512), gte(catalog.StorageGB, 1000), eq(catalog.ScreenIn, 14), eq(catalog.ScreenIn, 15.6),
			eq(catalog.ScreenIn, 16), gte(catalog.RefreshHz, 144)}
	case "Desktops":
		return []search.Constraints{gte(catalog.MemoryGB, 16), gte(catalog.MemoryGB, 32), gte(catalog.StorageGB, 1000)}
	case "Phones":
		return []search.Constraints{gte(catalog.StorageGB, 128), gte(catalog.StorageGB, 256), gte(catalog.StorageGB, 512),
			gte(catalog.MemoryGB, 8)}
	case "Tablets":
		return []search.Constraints{gte(catalog.StorageGB, 128), gte(catalog.StorageGB, 256), eq(catalog.ScreenIn, 11)}
	case "TVs":
		return []search.Constraints{eq(catalog.ScreenIn, 55), eq(catalog.ScreenIn, 65), gte(catalog.ResolutionP, 2160),
			gte(catalog.RefreshHz, 120)}
	case "Monitors":
		return []search.Constraints{gte(catalog.RefreshHz, 144), gte(catalog.ResolutionP, 1440), eq(catalog.ScreenIn, 27)}
	case "Storage":
		return []search.Constraints{gte(catalog.StorageGB, 1000), gte(catalog.StorageGB, 2000)}
	case "Cables & Chargers":
		return []search.Constraints{gte(catalog.PowerW, 65), gte(catalog.PowerW, 100)}
	case "Networking":
		return []search.Constraints{gte(catalog.WifiGen, 6), gte(catalog.WifiGen, 6.5)}
	}
	return nil
}

// constraintCategories weights the categories of constraint queries: the
// big ones, which judge 2,000 candidates, most.
func constraintCategories() []string {
	return []string{
		"Laptops", "Laptops", "Laptops", "Phones", "Phones", "Desktops", "Desktops", "Tablets", "TVs", "Monitors",
		"Storage", "Cables & Chargers", "Networking",
	}
}

// Mix builds the query mix from a catalog, deterministically: the
// hand-written queries above, then each class filled from the catalog's
// brands, frequent title words, model lines (the words after the brand in
// titles), categories and prices. Every query is valid; one in two asks
// for lite results.
func Mix(s *catalog.Snapshot) []Query {
	m := &mixer{r: rand.New(rand.NewPCG(20261121, 1)), seen: map[string]bool{}}
	products := make([]*catalog.Product, len(s.Products))
	for i := range s.Products {
		products[i] = &s.Products[i]
	}
	slices.SortFunc(products, func(a, b *catalog.Product) int { return cmp.Compare(a.ID, b.ID) })
	m.products = products
	// The classes are drawn in this order from one random sequence.
	broad := m.addBroad()
	lines := m.addNarrow()
	m.addFilters()
	m.addPriceSorts(broad, lines)
	m.addConstraints()
	for i := range m.out {
		m.out[i].Req.Lite = i%2 == 1
	}
	return m.out
}

// pick draws a product.
func (m *mixer) pick() *catalog.Product { return m.products[m.r.IntN(len(m.products))] }

// addBroad adds the broad queries: hand-written, brands by size, then the
// commonest title words. It returns the hand-written ones.
func (m *mixer) addBroad() []string {
	broad := handBroad()
	for _, q := range broad {
		m.add(ClassBroad, search.Request{Query: q})
	}
	brands := brandsBySize(m.products)
	for _, b := range brands[:min(60, len(brands))] {
		m.add(ClassBroad, search.Request{Query: strings.ToLower(b)})
	}
	for _, w := range commonWords(m.products) {
		if m.count[ClassBroad] >= mixBroad {
			break
		}
		m.add(ClassBroad, search.Request{Query: w})
	}
	return broad
}

// addNarrow adds the narrow queries: hand-written, then model lines from
// titles, which it returns.
func (m *mixer) addNarrow() []string {
	for _, q := range handNarrow() {
		m.add(ClassNarrow, search.Request{Query: q})
	}
	var lines []string
	for tries := 0; m.count[ClassNarrow] < mixNarrow && tries < 100*mixNarrow; tries++ {
		p := m.pick()
		line := modelLine(p, 2+m.r.IntN(2))
		if line == "" {
			continue
		}
		req := search.Request{Query: line}
		switch m.r.IntN(10) {
		case 0, 1, 2:
			req.Query = strings.ToLower(p.Brand) + " " + line
		case 3, 4:
			req.Category = p.Category
		case 5:
			req.Brand = p.Brand
		}
		if m.r.IntN(2) == 0 {
			req.Query = strings.ToLower(req.Query)
		}
		if m.add(ClassNarrow, req) {
			lines = append(lines, line)
		}
	}
	return lines
}

// addFilters adds searches by filters only: category, brand and a price
// range around a product.
func (m *mixer) addFilters() {
	for i := 0; m.count[ClassFilters] < mixFilters && i < 100*mixFilters; i++ {
		p := m.pick()
		lo, hi := math.Floor(p.Price*0.5/10)*10, math.Ceil(p.Price*1.5/10)*10
		req := search.Request{MinPrice: &lo, MaxPrice: &hi}
		switch i % 4 {
		case 0:
			req.Category, req.Brand = p.Category, p.Brand
		case 1:
			req.Category = p.Category
		case 2:
			req.Brand = p.Brand
		case 3:
			req.Category, req.Brand, req.MinPrice, req.MaxPrice = p.Category, p.Brand, nil, nil
		}
		m.add(ClassFilters, req)
	}
}

// addPriceSorts adds price sorts over categories, broad words and model
// lines.
func (m *mixer) addPriceSorts(broad, lines []string) {
	categories := catalog.Categories()
	for i := 0; m.count[ClassPriceSort] < mixPriceSort && i < 100*mixPriceSort; i++ {
		req := search.Request{Sort: search.SortPriceAsc}
		if i%2 == 1 {
			req.Sort = search.SortPriceDesc
		}
		switch m.r.IntN(3) {
		case 0:
			req.Category = categories[m.r.IntN(len(categories))]
		case 1:
			req.Query = broad[m.r.IntN(len(broad))]
		default:
			if len(lines) == 0 {
				continue
			}
			req.Query = lines[m.r.IntN(len(lines))]
		}
		switch m.r.IntN(6) {
		case 0, 1:
			p := m.pick().Price
			req.MaxPrice = &p
		case 2:
			req.Offset, req.Limit = 50*(1+m.r.IntN(3)), 20
		}
		m.add(ClassPriceSort, req)
	}
}

// addConstraints adds labelled specs in queries, then constraints drawn
// per category, some with a brand or model-line word.
func (m *mixer) addConstraints() {
	for _, hc := range handConstraints() {
		m.add(ClassConstraints, search.Request{Query: hc[0], Category: hc[1]})
	}
	sixteen := 16.0
	m.add(ClassConstraints, search.Request{Category: "Laptops", Constraints: search.Constraints{catalog.MemoryGB: {Gte: &sixteen}}})
	byCategory := map[string][]*catalog.Product{}
	for _, p := range m.products {
		byCategory[p.Category] = append(byCategory[p.Category], p)
	}
	consCategories := constraintCategories()
	sorts := []search.Sort{search.SortRelevance, search.SortRelevance, search.SortPriceAsc, search.SortPriceDesc}
	for i := 0; m.count[ClassConstraints] < mixConstraints && i < 100*mixConstraints; i++ {
		c := consCategories[m.r.IntN(len(consCategories))]
		choices := specChoices(c)
		cons := search.Constraints{}
		for range 1 + m.r.IntN(2) {
			for name, b := range choices[m.r.IntN(len(choices))] {
				cons[name] = b
			}
		}
		req := search.Request{Category: c, Constraints: cons, Sort: sorts[m.r.IntN(len(sorts))]}
		if ps := byCategory[c]; len(ps) > 0 {
			switch p := ps[m.r.IntN(len(ps))]; m.r.IntN(4) {
			case 0:
				req.Brand = p.Brand
			case 1:
				req.Query = modelLine(p, 1)
			}
		}
		m.add(ClassConstraints, req)
	}
}

type mixer struct {
	products []*catalog.Product // by id
	r        *rand.Rand
	seen     map[string]bool
	count    map[string]int
	out      []Query
}

// add appends a valid request not seen before; it reports whether it did.
func (m *mixer) add(class string, req search.Request) bool {
	if c := req; c.Validate() != nil {
		return false
	}
	key := Query{Req: req}.String()
	if m.seen[key] {
		return false
	}
	m.seen[key] = true
	if m.count == nil {
		m.count = map[string]int{}
	}
	m.count[class]++
	m.out = append(m.out, Query{Class: class, Req: req})
	return true
}

// brandsBySize lists brands by product count, largest first, in their
// commonest spelling.
func brandsBySize(products []*catalog.Product) []string {
	count := map[string]int{}
	spelling := map[string]map[string]int{}
	for _, p := range products {
		k := catalog.NormalizeBrand(p.Brand)
		if k == "" {
			continue
		}
		count[k]++
		if spelling[k] == nil {
			spelling[k] = map[string]int{}
		}
		spelling[k][p.Brand]++
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(a, b)) })
	out := make([]string, len(keys))
	for i, k := range keys {
		best := ""
		for s, n := range spelling[k] {
			if best == "" || n > spelling[k][best] || (n == spelling[k][best] && s < best) {
				best = s
			}
		}
		out[i] = best
	}
	return out
}

// commonWords lists alphabetic title words of at least three letters by
// the number of titles holding them, commonest first.
func commonWords(products []*catalog.Product) []string {
	df := map[string]int{}
	for _, p := range products {
		_, terms := search.TitleTerms(p.Title)
		for _, t := range terms {
			if len(t) >= 3 && strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
				df[t]++
			}
		}
	}
	words := make([]string, 0, len(df))
	for w := range df {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int { return cmp.Or(cmp.Compare(df[b], df[a]), cmp.Compare(a, b)) })
	return words
}

// modelLine returns up to n title words after the brand, stopping at the
// first word that is not a plain name or model number (a size, a
// separator, a bracket): "Sony WH-1000XM5 Wireless ..." gives
// "WH-1000XM5 Wireless" for n = 2. It returns "" when no word qualifies.
func modelLine(p *catalog.Product, n int) string {
	words := strings.Fields(p.Title)
	brand := strings.Fields(strings.ToLower(p.Brand))
	for len(words) > 0 && len(brand) > 0 && strings.ToLower(words[0]) == brand[0] {
		words, brand = words[1:], brand[1:]
	}
	var out []string
	for _, w := range words {
		if len(out) == n || !plainWord(w) {
			break
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// plainWord reports whether w is letters, digits and inner hyphens or
// dots, without a unit suffix that would make it a labelled spec.
func plainWord(w string) bool {
	if w == "" || strings.ContainsAny(w[:1], "-.") || strings.ContainsAny(w[len(w)-1:], "-.") {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '.' {
			return false
		}
	}
	lw := strings.ToLower(w)
	for _, unit := range []string{"gb", "tb", "hz", "w", "in", "inch", "mah"} {
		if num, ok := strings.CutSuffix(lw, unit); ok && num != "" && strings.Trim(num, "0123456789.") == "" {
			return false
		}
	}
	return true
}

// describe counts a mix's queries per class.
func describe(mix []Query) string {
	n := map[string]int{}
	for _, q := range mix {
		n[q.Class]++
	}
	parts := make([]string, 0, len(n))
	for _, c := range Classes() {
		parts = append(parts, fmt.Sprintf("%s %d", c, n[c]))
	}
	return fmt.Sprintf("%d queries (%s)", len(mix), strings.Join(parts, ", "))
}
