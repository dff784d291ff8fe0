// Package memory is the embedded search engine: an immutable in-process
// index over a catalog snapshot, swapped atomically when a new snapshot is
// loaded, so readers never lock.
//
// Documents are numbered in price-ascending order (ties by id), which makes
// price_asc the document order and a price range a range of documents.
// Title terms (search.TitleTerms), categories and brands map to compressed
// bitmaps; required query words, category and brand intersect them.
//
// Relevance ranking: products come before accessories unless the query asks
// for an accessory; then the title score, highest first; then offer_count
// descending, price ascending and id ascending. The title score of a
// document is
//
//	norm(len) * (sum of w(t) over the query terms t in the title
//	             + sum of 0.3 * (w(a) + w(b)) over query word pairs a b found side by side)
//
// where w(t) is the term's IDF, ln(1 + (N - df + 0.5) / (df + 0.5)), times
// 1.5 when the term holds a digit and 0.5 when it is ranking-only, and
// norm(len) is the BM25 length norm with k1 = 1.2 and b = 0.75 over the
// number of title words. Browsing without query words orders by the
// tie-break alone.
//
// A ranking of many candidates splits them with bitmap intersections into
// cells by the ranking-only words they hold and reads each cell bucket by
// bucket of length norm (a title's norm follows its number of words, so
// there are few), always the cell and bucket whose bound (the weights the
// cell's titles could hold times the bucket's norm) is highest, and stops
// once no bound left can reach the page: its cost follows the documents
// that could, not the catalog, and the answer is the one scoring every
// candidate gives. A browse of a candidate bitmap walks the static order
// while the page is expected early in it.
//
// An engine is built from a snapshot in memory (New, Load) or opened from
// the index file the indexer writes beside the snapshot (WriteIndex, Open,
// LoadFile): its structures are then read in place from the mapped file,
// and a hit carries its product's stored JSON and record (search.Hit.Item)
// instead of a decoded product. Both answer every request alike.
package memory

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Options configures an Engine.
type Options struct {
	// MaxCandidates is how many candidates, in the chosen sort order, are
	// checked against constraints; the interface's limit is
	// search.DefaultMaxCandidates (2,000), which DefaultOptions sets. 0
	// checks every candidate; negative is invalid.
	MaxCandidates int
	// Attributes are the attributes constraints name and the index holds;
	// nil means catalog.DefaultAttributes.
	Attributes *catalog.AttributeTable
	// Retire is how long an index file replaced by another stays mapped
	// once no search runs on it any more: the hits of its last searches
	// hold its bytes while their responses are written, so it should be
	// the server's write timeout or more. 0 means DefaultRetire.
	Retire time.Duration

	unmapped func() // called when a mapping is unmapped (tests)
}

// DefaultRetire is the Retire of Options that set none.
const DefaultRetire = 30 * time.Second

// DefaultOptions returns the options of the interface: 2,000 candidates
// checked against constraints.
func DefaultOptions() Options {
	return Options{MaxCandidates: search.DefaultMaxCandidates}
}

// Engine is the embedded search engine. It is safe for concurrent use.
type Engine struct {
	maxCand  int // 0 = judge all
	attrs    *catalog.AttributeTable
	retire   time.Duration
	unmapped func()
	cur      atomic.Pointer[index]
}

var _ search.Engine = (*Engine)(nil)

// New builds an index over s.
func New(s *catalog.Snapshot, opt Options) (*Engine, error) {
	e, err := newEngine(opt)
	if err != nil {
		return nil, err
	}
	if err := e.Load(s); err != nil {
		return nil, err
	}
	return e, nil
}

// Open makes an engine over the snapshot at path, as LoadFile loads it.
func Open(path string, opt Options) (*Engine, FileLoad, error) {
	e, err := newEngine(opt)
	if err != nil {
		return nil, FileLoad{}, err
	}
	fl, err := e.LoadFile(path)
	if err != nil {
		return nil, fl, err
	}
	return e, fl, nil
}

func newEngine(opt Options) (*Engine, error) {
	if opt.MaxCandidates < 0 {
		return nil, fmt.Errorf("memory engine: MaxCandidates %d is negative; use %d (the interface's limit) or 0 to check every candidate",
			opt.MaxCandidates, search.DefaultMaxCandidates)
	}
	e := &Engine{maxCand: opt.MaxCandidates, attrs: opt.Attributes, retire: opt.Retire, unmapped: opt.unmapped}
	if e.attrs == nil {
		e.attrs = catalog.DefaultAttributes()
	}
	if e.retire <= 0 {
		e.retire = DefaultRetire
	}
	return e, nil
}

// FileLoad tells how LoadFile loaded a catalog.
type FileLoad struct {
	// Mapped is set when the index file was mapped; otherwise NotMapped
	// says why it was not, and the snapshot was read and indexed.
	Mapped    bool
	NotMapped error
	Products  int
	SyncTime  time.Time
}

// LoadFile loads the snapshot at path and swaps it in atomically. Its
// index file (IndexPath) is mapped and read in place when it is of this
// version, built from this very snapshot and intact; otherwise the
// snapshot is read and indexed in memory, as Load does. Both give the same
// answers. A replaced index file is unmapped Retire after its last search.
func (e *Engine) LoadFile(path string) (FileLoad, error) {
	ix, err := openMapped(path, e.attrs)
	if err == nil {
		st := ix.store
		st.onClose = e.unmapped
		retire := e.retire
		runtime.AddCleanup(ix, func(st *stored) { time.AfterFunc(retire, st.close) }, st)
		e.cur.Store(ix)
		return FileLoad{Mapped: true, Products: ix.n, SyncTime: ix.manifest.SyncTime}, nil
	}
	fl := FileLoad{NotMapped: err}
	s, err := catalog.ReadSnapshot(path)
	if err != nil {
		return fl, err
	}
	if err := e.Load(s); err != nil {
		return fl, err
	}
	fl.Products, fl.SyncTime = len(s.Products), s.Manifest.SyncTime
	return fl, nil
}

// Load builds a new index over s and swaps it in atomically; searches in
// flight finish on the old index. On error the current index stays.
func (e *Engine) Load(s *catalog.Snapshot) error {
	ix, err := build(s, e.attrs)
	if err != nil {
		return fmt.Errorf("memory engine: %w", err)
	}
	e.cur.Store(ix)
	return nil
}

// Search validates and runs a request. Invalid requests yield a
// *search.InvalidError.
func (e *Engine) Search(ctx context.Context, req search.Request) (*search.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	plan, err := req.PlanWith(e.attrs)
	if err != nil {
		return nil, err
	}
	return e.cur.Load().search(&plan, e.maxCand), nil
}

// Product finds a product by canonical id or by retailer offer id.
func (e *Engine) Product(ctx context.Context, id string) (*catalog.Product, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("product %q: %w", id, err)
	}
	ix := e.cur.Load()
	doc, ok := ix.docOf(id)
	if !ok {
		return nil, fmt.Errorf("product %q: %w", id, search.ErrNotFound)
	}
	p, err := ix.product(doc)
	if err != nil {
		return nil, fmt.Errorf("product %q: %w", id, err)
	}
	return p, nil
}

// ProductJSON is Product with the product's precomputed full JSON object,
// for serving the product-detail response without encoding it again.
func (e *Engine) ProductJSON(ctx context.Context, id string) (*catalog.Product, []byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("product %q: %w", id, err)
	}
	ix := e.cur.Load()
	doc, ok := ix.docOf(id)
	if !ok {
		return nil, nil, fmt.Errorf("product %q: %w", id, search.ErrNotFound)
	}
	p, err := ix.product(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("product %q: %w", id, err)
	}
	return p, ix.fullJSON(doc), nil
}

// Health reports the catalog size and its sync time.
func (e *Engine) Health(ctx context.Context) (search.Health, error) {
	if err := ctx.Err(); err != nil {
		return search.Health{}, fmt.Errorf("health: %w", err)
	}
	ix := e.cur.Load()
	if ix == nil {
		return search.Health{Status: "degraded"}, errors.New("health: no catalog loaded")
	}
	return search.Health{Status: "ok", Items: ix.n, LastUpdate: ix.manifest.SyncTime}, nil
}
