package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
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

// readAll reads every retailer's feed, a few at a time, the largest
// first (largestFirst), so that no large feed is left to be read alone at
// the end while the other workers wait.
func readAll(ctx context.Context, cfg Config, now time.Time, st *store, progress Progress) []retailerResult {
	results := make([]retailerResult, len(cfg.Retailers))
	queue := make(chan int, len(cfg.Retailers))
	for _, i := range largestFirst(cfg.Retailers) {
		queue <- i
	}
	close(queue)
	var mu sync.Mutex
	done := 0
	progress.Update("reading feeds", 0, len(cfg.Retailers))
	var wg sync.WaitGroup
	for range min(len(cfg.Retailers), max(2, runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			for i := range queue {
				results[i] = readRetailer(ctx, cfg.Retailers[i], cfg.Threshold(), now, st)
				mu.Lock()
				done++
				progress.Update("reading feeds", done, len(cfg.Retailers))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return results
}

// largestFirst returns the places of rs in the order their feeds are read:
// those fetched over http(s) first, whose size is not known and whose
// transfer waits on the network, then the files from the largest down.
func largestFirst(rs []Retailer) []int {
	size := make([]int64, len(rs))
	for i, r := range rs {
		size[i] = math.MaxInt64
		if !r.Source.IsURL() {
			if fi, err := os.Stat(r.Source.Location); err == nil {
				size[i] = fi.Size()
			}
		}
	}
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	return order
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
