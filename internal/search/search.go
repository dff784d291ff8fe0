// Package search defines the query semantics shared by every engine: the
// request model and its validation, query analysis, constraint judgement and
// the shape of search responses. Engines (the embedded in-memory index and
// Elasticsearch) implement Engine; REST and MCP build a Request, validate it
// once, and hand it to an Engine.
package search

import (
	"context"
	"errors"
	"time"

	"productsearch/internal/catalog"
)

// Sort orders of a search.
type Sort string

// The three sort orders of the interface. relevance puts products before
// accessories (unless the query asks for an accessory), then orders by
// title score (see package memory for the formula), then offer_count
// descending, price ascending and id ascending; without query words it is
// that tie-break alone. price_asc and price_desc order by price, ties by id
// ascending. Under constraints, matched products come before unverified
// ones in every order.
const (
	SortRelevance Sort = "relevance"
	SortPriceAsc  Sort = "price_asc"
	SortPriceDesc Sort = "price_desc"
)

// Limits of the request model.
const (
	DefaultLimit         = 50
	MaxLimit             = 100
	DefaultMaxCandidates = 2000
)

// Bound is one constrained attribute: any of eq, gte and lte.
type Bound struct {
	Eq  *float64 `json:"eq,omitempty"`
	Gte *float64 `json:"gte,omitempty"`
	Lte *float64 `json:"lte,omitempty"`
}

// Constraints maps attribute names (catalog.AttributeNames) to bounds.
type Constraints map[string]Bound

// Request is a validated search request. Zero values mean "not set", except
// that Limit and Sort are filled with their defaults by validation.
type Request struct {
	Query       string
	MinPrice    *float64
	MaxPrice    *float64
	Brand       string
	Category    string
	Constraints Constraints
	Limit       int
	Offset      int
	Sort        Sort
	Lite        bool
	// ProductType, an extension of the interface, keeps only products
	// ("product") or only accessories ("accessory"); empty keeps both.
	ProductType catalog.ProductType
}

// Hit is one product in a search result with its per-constraint status
// (matched or unverified); ConstraintStatus is nil when no constraint applied.
// JSON optionally carries the product's precomputed encodings (see
// ProductJSON); when nil, the product is encoded when the result is written.
// A hit is read-only: engines may share its product, encodings and status
// map with other hits and searches.
//
// An engine that keeps its products only in stored form leaves Product nil
// and sets JSON with its Stored part, which holds the product's snapshot
// record: Item decodes it for the callers that need the product itself.
// Then JSON's bytes are valid while the request that searched is served,
// not after.
type Hit struct {
	Product          *catalog.Product
	ConstraintStatus map[string]string
	JSON             *ProductJSON
}

// Item returns the hit's product: Product, or else its stored record
// decoded.
func (h *Hit) Item() (*catalog.Product, error) {
	if h.Product != nil || h.JSON == nil || h.JSON.Stored == nil {
		return h.Product, nil
	}
	return catalog.DecodeRecord(h.JSON.Stored.Record)
}

// Result is the outcome of a search; it marshals to the search response of
// the interface (full or lite products per Lite).
type Result struct {
	Products              []Hit
	Total                 int
	Constraints           Constraints // applied constraints, nil when none
	ExcludedByConstraints int
	UnverifiedTotal       int
	CandidatesTruncated   bool
	Lite                  bool
	// LiteType, an extension of the interface, adds product_type to lite
	// products; engines set it when the request filters by product type.
	LiteType bool
}

// Health is the state of an engine's catalog.
type Health struct {
	Status     string // "ok", or "degraded" when the backend cannot answer
	Items      int
	LastUpdate time.Time
}

// Engine answers searches and product look-ups over one catalog.
type Engine interface {
	// Search runs a request that has passed validation.
	Search(ctx context.Context, req Request) (*Result, error)
	// Product finds a product by canonical id or retailer offer id; it
	// returns ErrNotFound when neither matches.
	Product(ctx context.Context, id string) (*catalog.Product, error)
	// Health reports the catalog size and sync time.
	Health(ctx context.Context) (Health, error)
}

// ErrNotFound is returned by Engine.Product for an unknown id.
var ErrNotFound = errors.New("product not found")

// ErrUnavailable wraps backend failures that a client may retry.
var ErrUnavailable = errors.New("search backend unavailable")

// InvalidError is a request that fails validation. Message says what to
// change and is safe to show to the caller.
type InvalidError struct {
	Message string
}

func (e *InvalidError) Error() string { return e.Message }
