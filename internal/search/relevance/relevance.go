// Package relevance is the golden relevance report of the search engine:
// a fixed set of realistic queries (testdata/queries.json), each with a
// judgement of which products answer it, run against the demo catalog.
// The report (testdata/rank_stats.txt) gives recall@1, recall@5 and the
// reciprocal rank per query and overall, so that a ranking change shows up
// in review as a diff of the report; `go test ./internal/search/relevance
// -update` rewrites it.
//
// Judgements are predicates on products rather than product ids, so they
// survive catalog changes: words the title must hold (normalised as titles
// are indexed, so "WH-1000XM5" is "wh1000xm5"), words of which it must
// hold one, words it must not hold, the category, the product type and
// attribute bounds the product must be known to meet.
package relevance

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Depth is how many results are judged: the default page.
const Depth = search.DefaultLimit

// Case is one judged query: a request as a shopper or an AI agent sends
// it, and which products answer it.
type Case struct {
	Query       string             `json:"query"`
	Category    string             `json:"category,omitempty"`
	Brand       string             `json:"brand,omitempty"`
	MinPrice    *float64           `json:"min_price,omitempty"`
	MaxPrice    *float64           `json:"max_price,omitempty"`
	Constraints search.Constraints `json:"constraints,omitempty"`
	Sort        search.Sort        `json:"sort,omitempty"`
	ProductType string             `json:"product_type,omitempty"`
	Relevant    Predicate          `json:"relevant"`
	// Note says why the query is in the set, or what the engine gets
	// wrong about it.
	Note string `json:"note,omitempty"`
}

// Request returns the case's search request.
func (c *Case) Request() search.Request {
	return search.Request{Query: c.Query, Category: c.Category, Brand: c.Brand, MinPrice: c.MinPrice,
		MaxPrice: c.MaxPrice, Constraints: c.Constraints, Sort: c.Sort, ProductType: catalog.ProductType(c.ProductType),
		Limit: Depth}
}

// Label describes the request compactly: the query, then the filters.
func (c *Case) Label() string {
	parts := []string{fmt.Sprintf("%q", c.Query)}
	if c.Category != "" {
		parts = append(parts, "category="+c.Category)
	}
	if c.Brand != "" {
		parts = append(parts, "brand="+c.Brand)
	}
	if c.MinPrice != nil {
		parts = append(parts, fmt.Sprintf("min_price=%g", *c.MinPrice))
	}
	if c.MaxPrice != nil {
		parts = append(parts, fmt.Sprintf("max_price=%g", *c.MaxPrice))
	}
	if len(c.Constraints) > 0 {
		parts = append(parts, c.Constraints.String())
	}
	if c.Sort != "" {
		parts = append(parts, "sort="+string(c.Sort))
	}
	if c.ProductType != "" {
		parts = append(parts, "product_type="+c.ProductType)
	}
	return strings.Join(parts, " ")
}

// Predicate judges whether a product answers a query. Every set field must
// hold.
type Predicate struct {
	// Words must all be in the title.
	Words []string `json:"words,omitempty"`
	// AnyWords: at least one must be in the title.
	AnyWords []string `json:"any_words,omitempty"`
	// NotWords must not be in the title.
	NotWords []string `json:"not_words,omitempty"`
	Category string   `json:"category,omitempty"`
	Type     string   `json:"type,omitempty"` // "product" or "accessory"
	// Attributes must be matched: stated by retailers and meeting the
	// bound (search.Judge).
	Attributes search.Constraints `json:"attributes,omitempty"`
}

// Validate checks that the predicate can hold and uses known names.
func (p *Predicate) Validate() error {
	if len(p.Words)+len(p.AnyWords) == 0 && p.Category == "" && len(p.Attributes) == 0 {
		return fmt.Errorf("predicate names no words, category or attributes: it would judge every product relevant")
	}
	if p.Category != "" && !catalog.IsCategory(p.Category) {
		return fmt.Errorf("unknown category %q", p.Category)
	}
	if p.Type != "" && p.Type != string(catalog.TypeProduct) && p.Type != string(catalog.TypeAccessory) {
		return fmt.Errorf("type %q is neither product nor accessory", p.Type)
	}
	for _, ws := range [][]string{p.Words, p.AnyWords, p.NotWords} {
		for _, w := range ws {
			if len(terms(w)) == 0 {
				return fmt.Errorf("word %q holds no letters or digits", w)
			}
		}
	}
	return p.Attributes.Validate()
}

// terms returns how a predicate word is matched: the search term of each
// of its title words ("WH-1000XM5" -> "wh1000xm5"; "usb c" -> "usb", "c").
func terms(word string) []string {
	words, _ := search.TitleTerms(word)
	return words
}

// matcher is a compiled predicate.
type matcher struct {
	p                  *Predicate
	words, any, absent [][]string
	attrs              *catalog.AttributeTable
}

func compile(p *Predicate) *matcher {
	m := &matcher{p: p, attrs: catalog.DefaultAttributes()}
	for _, w := range p.Words {
		m.words = append(m.words, terms(w))
	}
	for _, w := range p.AnyWords {
		m.any = append(m.any, terms(w))
	}
	for _, w := range p.NotWords {
		m.absent = append(m.absent, terms(w))
	}
	return m
}

// holds reports whether a title whose search terms are in have holds
// every term of a word.
func holds(have map[string]bool, word []string) bool {
	for _, t := range word {
		if !have[t] {
			return false
		}
	}
	return true
}

func (m *matcher) match(p *catalog.Product, have map[string]bool) bool {
	if m.p.Category != "" && p.Category != m.p.Category {
		return false
	}
	if m.p.Type != "" && string(p.ProductType) != m.p.Type {
		return false
	}
	for _, w := range m.words {
		if !holds(have, w) {
			return false
		}
	}
	if len(m.any) > 0 && !slices.ContainsFunc(m.any, func(w []string) bool { return holds(have, w) }) {
		return false
	}
	if slices.ContainsFunc(m.absent, func(w []string) bool { return holds(have, w) }) {
		return false
	}
	return len(m.p.Attributes) == 0 || search.Judge(m.attrs, p.Attributes, m.p.Attributes, nil) == search.Matched
}

// Outcome is how the engine did on one case.
type Outcome struct {
	Case     *Case
	Relevant int // products in the catalog the predicate accepts
	Total    int // the search's total
	// Ranks of the relevant products among the first Depth results,
	// 1-based, ascending.
	Ranks []int
	Top   string // title of the first result, "" when none
	Err   error  // the search failed
}

// RecallAt is the share of the first k results that could be relevant and
// are: relevant products among them over min(k, Relevant). It is 0 when no
// product is relevant.
func (o *Outcome) RecallAt(k int) float64 {
	if o.Relevant == 0 {
		return 0
	}
	n := 0
	for _, r := range o.Ranks {
		if r <= k {
			n++
		}
	}
	return float64(n) / float64(min(k, o.Relevant))
}

// ReciprocalRank is 1 over the rank of the first relevant result, 0 when
// none is among the first Depth results.
func (o *Outcome) ReciprocalRank() float64 {
	if len(o.Ranks) == 0 {
		return 0
	}
	return 1 / float64(o.Ranks[0])
}

// Evaluate runs every case against the engine and judges the results by
// the case's predicate over the snapshot the engine serves.
func Evaluate(ctx context.Context, e search.Engine, s *catalog.Snapshot, cases []Case) []Outcome {
	have := make([]map[string]bool, len(s.Products))
	for i := range s.Products {
		_, ts := search.TitleTerms(s.Products[i].Title)
		have[i] = make(map[string]bool, len(ts))
		for _, t := range ts {
			have[i][t] = true
		}
	}
	byID := make(map[string]int, len(s.Products))
	for i := range s.Products {
		byID[s.Products[i].ID] = i
	}
	out := make([]Outcome, len(cases))
	for ci := range cases {
		c := &cases[ci]
		o := &out[ci]
		o.Case = c
		m := compile(&c.Relevant)
		for i := range s.Products {
			if m.match(&s.Products[i], have[i]) {
				o.Relevant++
			}
		}
		res, err := e.Search(ctx, c.Request())
		if err != nil {
			o.Err = err
			continue
		}
		o.Total = res.Total + res.UnverifiedTotal
		for r, h := range res.Products {
			p, err := h.Item()
			if err != nil {
				o.Err = err
				break
			}
			if r == 0 {
				o.Top = p.Title
			}
			if i, ok := byID[p.ID]; ok && m.match(&s.Products[i], have[i]) {
				o.Ranks = append(o.Ranks, r+1)
			}
		}
	}
	return out
}

// Report writes the outcomes as the golden report: one line per case, then
// the overall figures and the cases whose first result is not relevant,
// with that result's title.
func Report(title string, out []Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", title)
	b.WriteString("r@k: relevant products among the first k results / min(k, relevant products); rr: 1 / rank of the first relevant result in the first 50 (0: none)\n\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tquery\trelevant\tfound\tr@1\tr@5\trr")
	var r1, r5, mrr float64
	hit1, hit5 := 0, 0
	for i := range out {
		o := &out[i]
		if o.Err != nil {
			fmt.Fprintf(tw, "%d\t%s\terror: %v\t\t\t\t\n", i+1, o.Case.Label(), o.Err)
			continue
		}
		a, f, rr := o.RecallAt(1), o.RecallAt(5), o.ReciprocalRank()
		r1, r5, mrr = r1+a, r5+f, mrr+rr
		if a == 1 {
			hit1++
		}
		if len(o.Ranks) > 0 && o.Ranks[0] <= 5 {
			hit5++
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.2f\t%.2f\t%.3f\n", i+1, o.Case.Label(), o.Relevant, o.Total, a, f, rr)
	}
	tw.Flush()
	n := float64(max(len(out), 1))
	fmt.Fprintf(&b, "\nqueries: %d\n", len(out))
	fmt.Fprintf(&b, "recall@1: %.3f (first result relevant for %d)\n", r1/n, hit1)
	fmt.Fprintf(&b, "recall@5: %.3f (a relevant result in the first 5 for %d)\n", r5/n, hit5)
	fmt.Fprintf(&b, "mrr: %.3f\n", mrr/n)
	b.WriteString("\nfirst result not relevant:\n")
	for i := range out {
		o := &out[i]
		if o.Err == nil && o.RecallAt(1) < 1 {
			top := o.Top
			if top == "" {
				top = "(no results)"
			}
			fmt.Fprintf(&b, "%d %s: %s\n", i+1, o.Case.Label(), top)
		}
	}
	return b.String()
}
