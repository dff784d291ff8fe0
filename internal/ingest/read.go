package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
	"productsearch/internal/feed"
	"productsearch/internal/normalize"
)

type retailerResult struct {
	report RetailerReport
	offers *offers
	failed bool
}

func reports(rs []retailerResult) []RetailerReport {
	out := make([]RetailerReport, len(rs))
	for i, r := range rs {
		out[i] = r.report
	}
	return out
}

// readAll reads every retailer's feed, a few at a time.
func readAll(ctx context.Context, cfg Config, now time.Time, st *store, progress Progress) []retailerResult {
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
			results[i] = readRetailer(ctx, r, cfg.Threshold(), now, st)
			mu.Lock()
			done++
			progress.Update("reading feeds", done, len(cfg.Retailers))
			mu.Unlock()
		})
	}
	wg.Wait()
	return results
}

// readRetailer reads one feed to the end, its listings kept in st. Malformed and rejected rows are counted; a
// feed that cannot be opened or breaks off fails as a whole, so that a
// truncated file never replaces a retailer's complete listing.
func readRetailer(ctx context.Context, r Retailer, threshold int, now time.Time, st *store) retailerResult {
	res := retailerResult{report: RetailerReport{Name: r.Name, Slug: r.Slug, Format: r.Format, Location: redact(r.Location)}, offers: newOffers(st)}
	rr := &res.report
	fail := func(err error) retailerResult {
		rr.Error = err.Error()
		res.failed, res.offers = true, newOffers(st)
		return res
	}
	rd, err := feed.Open(ctx, r.Source)
	if err != nil {
		return fail(err)
	}
	defer rd.Close()
	seen := map[string]bool{}
	var buf []byte
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
		cls := classify.Listing(classify.Input{Title: l.Title, CategoryPath: l.CategoryPath, TaxonomyID: l.TaxonomyID, Brand: l.Brand})
		specs := extract.Title(l.Title, extract.Context{Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory})
		if buf, err = res.offers.add(&l, cls, specs, origin{hash: hash}, buf); err != nil {
			return fail(err)
		}
		seen[res.offers.offerID(res.offers.Len()-1)] = true // the kept copy: the row's buffer is not pinned
		rr.Accepted++
	}
	return res
}
