package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
	"productsearch/internal/feed"
	"productsearch/internal/normalize"
)

// readPrevious loads the snapshot at path, or returns nil when there is none.
func readPrevious(path string) (*catalog.Snapshot, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	s, err := catalog.ReadSnapshot(path)
	if err != nil {
		return nil, fmt.Errorf("previous snapshot unreadable: %w", err)
	}
	return s, nil
}

type retailerResult struct {
	report  RetailerReport
	entries []*entry
	failed  bool
}

func reports(rs []retailerResult) []RetailerReport {
	out := make([]RetailerReport, len(rs))
	for i, r := range rs {
		out[i] = r.report
	}
	return out
}

// readAll reads every retailer's feed, a few at a time.
func readAll(ctx context.Context, cfg Config, now time.Time, progress Progress) []retailerResult {
	results := make([]retailerResult, len(cfg.Retailers))
	sem := make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))
	var mu sync.Mutex
	done := 0
	progress.Update("reading feeds", 0, len(cfg.Retailers))
	var wg sync.WaitGroup
	for i, r := range cfg.Retailers {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = readRetailer(ctx, r, cfg.Threshold(), now)
			mu.Lock()
			done++
			progress.Update("reading feeds", done, len(cfg.Retailers))
			mu.Unlock()
		})
	}
	wg.Wait()
	return results
}

// readRetailer reads one feed to the end. Malformed and rejected rows are
// counted; a feed that cannot be opened or breaks off fails as a whole, so
// that a truncated file never replaces a retailer's complete listing.
func readRetailer(ctx context.Context, r Retailer, threshold int, now time.Time) retailerResult {
	res := retailerResult{report: RetailerReport{Name: r.Name, Slug: r.Slug, Format: r.Format, Location: redact(r.Location)}}
	rr := &res.report
	fail := func(err error) retailerResult {
		rr.Error = err.Error()
		res.failed, res.entries = true, nil
		return res
	}
	rd, err := feed.Open(ctx, r.Source)
	if err != nil {
		return fail(err)
	}
	defer rd.Close()
	seen := map[string]bool{}
	nr := normalize.Retailer{Name: r.Name, Slug: r.Slug}
	opt := normalize.Options{LowStockThreshold: threshold}
	for {
		if rr.Rows%1024 == 0 && ctx.Err() != nil {
			return fail(ctx.Err())
		}
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		var rowErr *feed.RowError
		if errors.As(err, &rowErr) {
			rr.Rows++
			rr.reject(rowErr.Reason, rowErr.Row)
			continue
		}
		if err != nil {
			return fail(fmt.Errorf("after %d rows: %w", rr.Rows, err))
		}
		rr.Rows++
		l, err := normalize.Listing(rec, nr, opt)
		if err != nil {
			var rej *normalize.Rejection
			reason := "invalid"
			if errors.As(err, &rej) {
				reason = rej.Reason
			}
			rr.reject(reason, rec.Row)
			continue
		}
		if seen[l.OfferID] {
			rr.reject("duplicate_id", rec.Row)
			continue
		}
		hash := listingHash(&l)
		if l.LastUpdated.IsZero() || l.LastUpdated.After(now) {
			l.LastUpdated = now
		}
		e := newEntry(l)
		e.hash = hash
		// The retailer's own id and category text have served
		// classification; nothing after it reads them.
		e.listing.MerchantID, e.listing.CategoryPath, e.listing.TaxonomyID = "", "", ""
		compact(&e.listing)
		seen[e.listing.OfferID] = true // the compacted id: the row's buffer is not pinned
		res.entries = append(res.entries, e)
		rr.Accepted++
	}
	return res
}

func newEntry(l catalog.Listing) *entry {
	cls := classify.Listing(classify.Input{Title: l.Title, CategoryPath: l.CategoryPath, TaxonomyID: l.TaxonomyID, Brand: l.Brand})
	return &entry{
		listing: l,
		class:   cls,
		specs:   extract.Title(l.Title, extract.Context{Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory}),
	}
}

// staleEntries rebuilds a retailer's listings from the previous snapshot, so
// that a feed that failed keeps its offers (with their product) until it can
// be read again.
func staleEntries(prev *catalog.Snapshot, retailer string) []*entry {
	var out []*entry
	for _, p := range prev.Products {
		for _, o := range p.Offers {
			if o.Source != retailer {
				continue
			}
			l := catalog.Listing{
				Retailer: o.Source, OfferID: o.ID, Title: o.Title, Price: o.Price, Availability: o.Availability,
				Stock: o.Stock, DeliveryTime: o.DeliveryTime, URL: o.PurchaseURL, ImageURL: o.ImageURL,
				Brand: p.Brand, LastUpdated: o.LastUpdated,
			}
			cls := classify.Result{Category: p.Category, Type: p.ProductType}
			out = append(out, &entry{
				listing: l,
				class:   cls,
				specs:   extract.Title(o.Title, extract.Context{Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory}),
				prevPID: p.ID,
				stale:   true,
			})
		}
	}
	return out
}

// compact copies a listing's strings into one allocation of exactly their
// size. Feed readers hand out substrings of larger buffers (the CSV reader
// one string per row), so without this a kept title would pin the whole
// row, and a large sync would hold every feed in memory.
func compact(l *catalog.Listing) {
	compactStrings(&l.OfferID, &l.MerchantID, &l.Title, &l.Description, &l.DeliveryTime, &l.URL, &l.ImageURL,
		&l.GTIN, &l.MPN, &l.ModelNumber, &l.Brand, &l.Colour, &l.CategoryPath, &l.TaxonomyID, &l.Dimensions)
}

// compactStrings copies the strings into one allocation of exactly their
// size and points each at its copy.
func compactStrings(fields ...*string) {
	n := 0
	for _, f := range fields {
		n += len(*f)
	}
	var b strings.Builder
	b.Grow(n)
	for _, f := range fields {
		b.WriteString(*f)
	}
	all := b.String()
	for _, f := range fields {
		k := len(*f)
		*f, all = all[:k], all[k:]
	}
}
