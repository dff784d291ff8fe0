// Package bench compares the embedded search engine (internal/search/memory)
// with two embedded search libraries on the demo catalog: Bleve (a Go
// full-text engine, scorch index held in memory) and SQLite FTS5 (through
// the pure-Go modernc.org/sqlite driver, database in memory). It lives in
// a module of its own so that neither peer enters the service's go.mod.
//
// Each peer indexes the same catalog the way its users would: title terms
// in a full-text field, brand and category as exact keywords, price as a
// number, every attribute as a numeric field or column. A request is
// planned once by package search (validation, query analysis, constraints)
// and translated: required title words become a conjunction of terms,
// ranking-only words optional scored terms, category and brand term
// filters, the price range a numeric range, and the sort order a sort on
// the engine's score and fields. Titles are fed to the peers already split
// into search.TitleTerms, so every engine matches exactly the same
// candidates and only the work of the engines is compared. Constraints are
// judged the way the interface defines and our engine does: the first
// 2,000 candidates in the sort order are fetched and judged with
// search.Judge, then matched products come before unverified ones.
//
// Each peer is set up as its users would tune it for this workload: one
// Bleve segment held in memory, BM25 scoring, scoring switched off when the
// order does not use it, sort keys as keyword doc values (numeric doc
// values cost a decode of every precision term); SQLite with composite
// indexes, an optimised FTS index and a separate count query. Peers return
// products from an in-memory table by document number, as our engine does,
// and nothing is encoded, so lite and full requests cost the same.
//
// Mix builds the query mix from a catalog, Measure times engines over it,
// Agreement checks that two engines give the same answers, and Report
// prints the comparison (see cmd/searchbench and scripts/bench-search.sh).
// The scaling check runs our engine over the same mix on a 10x demo
// catalog (indexer demo --scale 10, then sync): ten times the distinct
// products, the nine new editions of every line under names of their own,
// so a query that names a line keeps its candidates while broad words,
// categories and constraints find about ten times as many; an Oracle
// counts them independently of the engines.
package bench

import (
	"context"
	"fmt"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Searcher is what the benchmark needs of an engine: search.Engine's
// Search.
type Searcher interface {
	Search(ctx context.Context, req search.Request) (*search.Result, error)
}

// backend is a peer's index: it returns the candidates of a planned
// request in the request's order, positions from to from+size, with the
// number of candidates.
type backend interface {
	fetch(ctx context.Context, p *search.Plan, from, size int) (docs []int32, total int, err error)
	close() error
}

// Peer is a search engine built on a peer library. It answers requests
// with the semantics of package search, except that relevance ranks by
// the library's own scoring (BM25 over the title terms; no phrase bonus).
type Peer struct {
	name     string
	products []catalog.Product // by document number: the snapshot's order
	be       backend
	maxCand  int
	attrs    *catalog.AttributeTable
}

var _ Searcher = (*Peer)(nil)

// Name names the peer library.
func (p *Peer) Name() string { return p.name }

// Close releases the peer's index.
func (p *Peer) Close() error {
	if err := p.be.close(); err != nil {
		return fmt.Errorf("close %s: %w", p.name, err)
	}
	return nil
}

// Search plans and runs a request.
func (p *Peer) Search(ctx context.Context, req search.Request) (*search.Result, error) {
	plan, err := req.PlanWith(p.attrs)
	if err != nil {
		return nil, err
	}
	r := &plan.Request
	res := &search.Result{Lite: r.Lite, Constraints: plan.Constraints, Products: []search.Hit{}}
	if len(plan.Constraints) == 0 {
		docs, total, err := p.be.fetch(ctx, &plan, r.Offset, r.Limit)
		if err != nil {
			return nil, fmt.Errorf("%s search: %w", p.name, err)
		}
		res.Total = total
		res.Products = make([]search.Hit, len(docs))
		for i, doc := range docs {
			res.Products[i] = search.Hit{Product: &p.products[doc]}
		}
		return res, nil
	}
	// Fetch the first maxCand candidates in order and judge them.
	docs, total, err := p.be.fetch(ctx, &plan, 0, p.maxCand)
	if err != nil {
		return nil, fmt.Errorf("%s search: %w", p.name, err)
	}
	res.CandidatesTruncated = total > p.maxCand
	need := r.Offset + r.Limit
	var matched, unverified []int32
	for _, doc := range docs {
		switch search.Judge(p.attrs, p.products[doc].Attributes, plan.Constraints, nil) {
		case search.Matched:
			res.Total++
			if len(matched) < need {
				matched = append(matched, doc)
			}
		case search.Excluded:
			res.ExcludedByConstraints++
		default:
			res.UnverifiedTotal++
			if len(unverified) < need {
				unverified = append(unverified, doc)
			}
		}
	}
	for i := r.Offset; i < need; i++ {
		var doc int32
		switch {
		case i < len(matched):
			doc = matched[i]
		case i-len(matched) < len(unverified):
			doc = unverified[i-len(matched)]
		default:
			return res, nil
		}
		status := make(map[string]string, len(plan.Constraints))
		search.Judge(p.attrs, p.products[doc].Attributes, plan.Constraints, status)
		res.Products = append(res.Products, search.Hit{Product: &p.products[doc], ConstraintStatus: status})
	}
	return res, nil
}

// shape is what a translation needs to know of a planned request.
type shape struct {
	required, rankOnly []search.Term
	scored             bool // relevance order with query words: sort by score
	tier               bool // products before accessories
}

func shapeOf(p *search.Plan) shape {
	a := &p.Analysis
	s := shape{required: a.Required, rankOnly: a.RankOnly}
	if p.Request.Sort == search.SortRelevance {
		s.scored = len(a.Required)+len(a.RankOnly) > 0
		s.tier = !a.Accessory
	}
	return s
}

// tier is a product's rank class in relevance order: products 0,
// accessories 1.
func tier(p *catalog.Product) int {
	if p.ProductType == catalog.TypeAccessory {
		return 1
	}
	return 0
}

// titleText is the text a peer indexes for a title: its search terms
// separated by spaces.
func titleText(title string) string {
	_, terms := search.TitleTerms(title)
	n := 0
	for _, t := range terms {
		n += len(t) + 1
	}
	b := make([]byte, 0, n)
	for i, t := range terms {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, t...)
	}
	return string(b)
}
