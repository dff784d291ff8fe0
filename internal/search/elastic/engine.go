// Package elastic is the cluster search engine: search.Engine over an
// Elasticsearch 8 index that the indexer publishes (package publish), with
// the same answers as the embedded engine (package memory); both pass the
// conformance suite in package searchtest.
//
// # Index
//
// One document per product (see IndexBody and Catalog.AppendSource): the
// title's terms exactly as search.TitleTerms gives them (a keyword array,
// so that required query words are term filters and match the same titles
// as the embedded engine), the pairs of adjacent title words, the brand
// (catalog.NormalizeBrand) and category as keywords, the price, the browse
// rank (products before accessories, offer_count descending, price
// ascending, id ascending; unique), the offer ids, the stated attribute
// values by name with their least and greatest, the product itself,
// stored and not indexed (the source), and its lite form (a stored field
// outside the source, so that lite results never read or parse the whole
// product). Readers use an alias (default "products") that
// the publisher moves atomically from one versioned index to the next.
//
// # Searching
//
// Filters (category, brand, price range, required title words) are one
// bool filter. price_asc and price_desc sort by price then id; relevance
// without query words follows the browse rank. Relevance with query words
// is ranked by the node with the embedded engine's score: each title's
// BM25 length norm (k1 1.2, b 0.75, over the catalog's mean title length)
// is stored with the document, and the search's query is a function_score
// that multiplies it with the sum of the weights the title holds:
// constant_score clauses for the required words (always held), each
// ranking-only word and each query word pair side by side or joined, the
// weights being IDF from the index's document frequencies, times 1.5 for
// words holding a digit, 0.5 for ranking-only words and 0.3 for pairs. The
// node sorts by tier, score and browse rank, so one search returns the
// page (or, constrained, the candidates with their verdicts). The node
// computes in float32 and the embedded engine rounds its score the same
// way, so both order alike, ties included. Titles naming a required word
// only after "for" rank in the accessories' tier: such a search counts
// them beside; when there are some, the two tiers are read in one
// _msearch. The document frequencies are read (with the title word total
// and the product count, in one search whose one hit names the concrete
// index) the first time a word is searched, and kept for the index last
// found behind the alias (a published index never changes): a search
// whose terms are all known skips that request and searches the alias,
// and one whose hits come from another index (the
// alias moved) runs again with fresh statistics. Elasticsearch scripts are not
// used, so the engine needs no module beyond the server itself.
//
// Candidate lists are read without stored fields (stored_fields _none_,
// the id from doc values): loading the stored _id of thousands of hits
// would decompress their stored documents, an order of magnitude slower.
//
// Constraints are judged by Elasticsearch with range queries over the
// stated attribute values, tolerances applied as ranges
// (search.Bound.Range): per constraint, "matched" is a value stated whose
// least and greatest are in range, "excluded" a value stated and none in
// range. They are named queries. A search known to have no more
// candidates than MaxCandidates returns no hits at all: its counts and
// page are aggregations (filters, top_hits) of one search. In an order of
// stored fields (browse, price, title length), a search with more first
// finds the MaxCandidates-th candidate's sort values and judges the
// candidates up to them the same way. Otherwise (an order by score, or a
// page deeper than 100) one request returns the first MaxCandidates
// candidates in sort order (paged with search_after beyond 10,000) with
// their verdicts, from which the counts and the matched-then-unverified
// page are taken; the page's products are then read with one _mget from
// the same concrete index. The candidate count of each set of filters is
// kept per index.
//
// A product by canonical id is one get of its document; only an id that is
// no document's is then searched for among the offer ids.
//
// # Health
//
// Health never queries the cluster: a goroutine, started by the first
// search or health call and stopped by Close, refreshes a view of the
// index behind the alias (its _meta and a count) every HealthInterval, and
// a view that no refresh has confirmed for HealthStale is reported as
// degraded. A new sync time under the same index (an incremental publish
// updated it in place) drops the statistics kept of it.
//
// Every request runs under the engine's timeout; a failure of the cluster
// (unreachable, an error answer, a timed-out or partial search) is returned
// wrapped in search.ErrUnavailable.
package elastic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/config"
	"productsearch/internal/search"
)

// Defaults of Options.
const (
	DefaultIndex   = "products"
	DefaultTimeout = 2 * time.Second
)

// Options configures an Engine.
type Options struct {
	Connection
	// Index is the alias (or index) searched; default "products".
	Index string
	// Timeout bounds each Search, Product and Health call, all requests
	// included; default 2s.
	Timeout time.Duration
	// MaxCandidates is how many candidates, in the chosen sort order, are
	// checked against constraints: the interface's 2,000 by default
	// (DefaultOptions), 0 for every candidate; negative is invalid.
	MaxCandidates int
	// Attributes are the attributes constraints name; nil means
	// catalog.DefaultAttributes.
	Attributes *catalog.AttributeTable
	// HealthInterval is how often the view of the cluster that Health
	// reports is refreshed, in the background (default 5s).
	HealthInterval time.Duration
	// HealthStale is how old that view may grow while refreshes fail
	// before Health reports degraded (default 15s).
	HealthStale time.Duration
}

// DefaultOptions returns the options of the interface with the default
// index and timeout; Addresses still need setting.
func DefaultOptions() Options {
	return Options{Index: DefaultIndex, Timeout: DefaultTimeout, MaxCandidates: search.DefaultMaxCandidates}
}

// OptionsFromConfig returns DefaultOptions with the cluster settings of the
// process configuration applied, validated. MaxCandidates keeps its default;
// the caller sets it from its own configuration.
func OptionsFromConfig(c config.Elasticsearch) (Options, error) {
	o := DefaultOptions()
	o.Addresses = slices.Clone(c.Addresses)
	if c.Index != "" {
		o.Index = c.Index
	}
	o.APIKey = c.APIKey
	o.Username = c.Username
	o.Password = c.Password
	o.CACertFile = c.CAFile
	if c.Timeout > 0 {
		o.Timeout = c.Timeout
	}
	o.HealthInterval = c.HealthInterval
	o.HealthStale = c.HealthStale
	return o, o.validate()
}

func (o Options) validate() error {
	if err := o.Connection.Validate(); err != nil {
		return err
	}
	if o.MaxCandidates < 0 {
		return fmt.Errorf("elastic engine: MaxCandidates %d is negative; use %d (the interface's limit) or 0 to check every candidate",
			o.MaxCandidates, search.DefaultMaxCandidates)
	}
	if o.Timeout < 0 {
		return fmt.Errorf("elastic engine: negative timeout %s", o.Timeout)
	}
	if o.HealthInterval < 0 || o.HealthStale < 0 {
		return fmt.Errorf("elastic engine: negative health interval %s or staleness %s", o.HealthInterval, o.HealthStale)
	}
	if o.HealthStale > 0 && o.HealthStale <= o.HealthInterval {
		return fmt.Errorf("elasticsearch health staleness %s is not longer than the refresh interval %s: health would be degraded between refreshes; make it a few intervals",
			o.HealthStale, o.HealthInterval)
	}
	if o.Index != "" && !validIndexName(o.Index) {
		return fmt.Errorf("elasticsearch index %q is not a valid index or alias name (lowercase letters, digits, '-', '_', '.')", o.Index)
	}
	return nil
}

// validIndexName reports whether s is a plain index or alias name.
func validIndexName(s string) bool {
	if s == "" || len(s) > 255 || s[0] == '-' || s[0] == '_' || s[0] == '+' || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// Engine is the Elasticsearch search engine. It is safe for concurrent use
// and holds no catalog state: every call reads the index behind the alias.
type Engine struct {
	client  *Client
	index   string
	timeout time.Duration
	maxCand int
	attrs   *catalog.AttributeTable
	health  *monitor
	stats   statsCache
}

var _ search.Engine = (*Engine)(nil)

// New builds an engine; it does not contact the cluster (Health does).
func New(opts Options) (*Engine, error) {
	if opts.Index == "" {
		opts.Index = DefaultIndex
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.HealthInterval == 0 {
		opts.HealthInterval = DefaultHealthInterval
	}
	if opts.HealthStale == 0 {
		opts.HealthStale = max(DefaultHealthStale, 3*opts.HealthInterval)
	}
	if err := opts.validate(); err != nil {
		return nil, err
	}
	c, err := NewClient(opts.Connection)
	if err != nil {
		return nil, err
	}
	if opts.Attributes == nil {
		opts.Attributes = catalog.DefaultAttributes()
	}
	e := &Engine{client: c, index: opts.Index, timeout: opts.Timeout, maxCand: opts.MaxCandidates,
		attrs: opts.Attributes}
	e.health = newMonitor(e, opts.HealthInterval, opts.HealthStale)
	return e, nil
}

// Close stops the background refresh of the health view. The engine still
// searches; Health then reports the last view until it is stale.
func (e *Engine) Close() error {
	e.health.close()
	return nil
}

// Index returns the alias the engine searches.
func (e *Engine) Index() string { return e.index }

// Search validates and runs a request. Invalid requests yield a
// *search.InvalidError; cluster failures wrap search.ErrUnavailable.
func (e *Engine) Search(ctx context.Context, req search.Request) (*search.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	plan, err := req.PlanWith(e.attrs)
	if err != nil {
		return nil, err
	}
	// The health view, refreshed in the background from the first
	// search or health call, also tells the statistics an index was
	// updated in place.
	e.health.start()
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	res, err := e.search(ctx, &plan)
	if err != nil {
		return nil, unavailable("elasticsearch search", err)
	}
	return res, nil
}

// Product finds a product by canonical id or by retailer offer id. A
// canonical id wins over an equal offer id; an offer id held by several
// products resolves to the cheapest (then lowest id), as in the embedded
// engine. A canonical id, the document's id, is one get; an offer id is
// looked up with a search when the get finds nothing.
func (e *Engine) Product(ctx context.Context, id string) (*catalog.Product, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("product %q: %w", id, err)
	}
	if id == "" {
		return nil, fmt.Errorf("product %q: %w", id, search.ErrNotFound)
	}
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	p, err := e.get(ctx, id)
	if err == nil && p == nil {
		p, err = e.byOffer(ctx, id)
	}
	switch {
	case err != nil:
		return nil, unavailable(fmt.Sprintf("product %q", id), err)
	case p == nil:
		return nil, fmt.Errorf("product %q: %w", id, search.ErrNotFound)
	}
	return p, nil
}

// get reads the product whose document id is id; nil when there is none.
func (e *Engine) get(ctx context.Context, id string) (*catalog.Product, error) {
	status, data, err := e.client.Raw(ctx, http.MethodGet, "/"+url.PathEscape(e.index)+"/_doc/"+url.PathEscape(id), nil, nil)
	if err != nil {
		return nil, err
	}
	var ans struct {
		Found  bool            `json:"found"`
		Source json.RawMessage `json:"_source"`
		Error  json.RawMessage `json:"error"`
	}
	if status != http.StatusOK && status != http.StatusNotFound {
		return nil, parseError(status, data)
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, fmt.Errorf("decode get answer: %w", err)
	}
	switch {
	case len(ans.Error) > 0: // no index under the alias
		return nil, parseError(status, data)
	case !ans.Found:
		return nil, nil
	}
	return decodeProduct(ans.Source)
}

// byOffer finds the cheapest product holding an offer id; nil when there
// is none.
func (e *Engine) byOffer(ctx context.Context, id string) (*catalog.Product, error) {
	body := obj{
		"size":    1,
		"timeout": esDuration(ctx),
		"_source": true,
		"query":   obj{"bool": obj{"filter": []any{term(fieldOfferIDs, id)}}},
		"sort":    []any{obj{fieldPrice: "asc"}, obj{fieldID: "asc"}},
	}
	var res searchResponse
	if err := e.searchOnce(ctx, e.index, body, &res); err != nil {
		return nil, err
	}
	if len(res.Hits.Hits) == 0 {
		return nil, nil
	}
	return decodeProduct(res.Hits.Hits[0].Source)
}

// mappingAnswer is the answer of GET <index>/_mapping.
type mappingAnswer map[string]struct {
	Mappings struct {
		Meta *Meta `json:"_meta"`
	} `json:"mappings"`
}

// Health reports the product count and sync time recorded in the _meta of
// the index behind the alias, from a view of the cluster that a background
// goroutine refreshes every HealthInterval (started by the first search or
// health call; a health call waits for the first refresh); a call never
// queries the cluster.
// The status is "degraded" (with a nil error, so that the health endpoint
// shows it) when no index is published under the alias, when its layout
// is of another schema version, when its shards do not answer a count of
// its products, or when the cluster has not answered a refresh for longer
// than HealthStale.
func (e *Engine) Health(ctx context.Context) (search.Health, error) {
	if err := ctx.Err(); err != nil {
		return search.Health{}, fmt.Errorf("health: %w", err)
	}
	return e.health.health(ctx), nil
}

// Check returns why the engine cannot serve, or nil: the cluster is
// reachable and the alias names an index of this schema version.
func (e *Engine) Check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	meta, index, err := e.meta(ctx)
	if err != nil {
		return unavailable("elasticsearch", err)
	}
	if meta.Schema != SchemaVersion {
		return fmt.Errorf("elasticsearch index %s has schema version %d, this build reads version %d: publish the catalog again with this build's indexer",
			index, meta.Schema, SchemaVersion)
	}
	return nil
}

// errNoMeta is an alias that does not name one index with a _meta block.
var errNoMeta = errors.New("no published index")

// meta reads the _meta of the index behind the alias and the index name.
func (e *Engine) meta(ctx context.Context) (Meta, string, error) {
	var ans mappingAnswer
	if err := e.client.Do(ctx, http.MethodGet, "/"+url.PathEscape(e.index)+"/_mapping", nil, nil, &ans); err != nil {
		return Meta{}, "", err
	}
	if len(ans) != 1 {
		return Meta{}, "", fmt.Errorf("%w: alias %s names %d indices, want 1", errNoMeta, e.index, len(ans))
	}
	for name, m := range ans {
		if m.Mappings.Meta == nil {
			return Meta{}, name, fmt.Errorf("%w: index %s has no _meta block", errNoMeta, name)
		}
		return *m.Mappings.Meta, name, nil
	}
	return Meta{}, "", errors.New("unreachable")
}

// esDuration is the time left before ctx's deadline in Elasticsearch's
// duration syntax, for the search timeout parameter (at least 1ms).
func esDuration(ctx context.Context) string {
	d, ok := ctx.Deadline()
	if !ok {
		return "30s"
	}
	ms := max(time.Until(d).Milliseconds(), 1)
	return strconv.FormatInt(ms, 10) + "ms"
}
