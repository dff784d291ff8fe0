package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
	"productsearch/internal/feed"
	"productsearch/internal/match"
	"productsearch/internal/normalize"
)

// Options control one sync.
type Options struct {
	Config Config
	Out    string    // snapshot path; the previous snapshot is read from here
	Force  bool      // publish even if the catalog shrinks beyond the limit
	Now    time.Time // sync time; zero means time.Now()
	// Progress receives stage updates; nil reports nothing.
	Progress Progress
}

// ErrShrink is returned when a new catalog would shrink beyond the
// configured fraction and Force is not set.
var ErrShrink = errors.New("catalog shrinks beyond max_shrink")

// entry is one listing on its way into a product.
type entry struct {
	listing catalog.Listing
	class   classify.Result
	specs   extract.Values
	prevPID string // the product this offer belonged to in the previous snapshot
	stale   bool   // carried over from the previous snapshot
}

// Sync reads every feed of opt.Config and publishes a new snapshot at opt.Out
// with its report beside it. It returns the report also when it refuses to
// publish; the error then says why.
func Sync(ctx context.Context, opt Options) (*Report, error) {
	start := time.Now()
	now := opt.Now
	if now.IsZero() {
		now = start
	}
	now = now.UTC()
	progress := opt.Progress
	if progress == nil {
		progress = nopProgress{}
	}
	rep := &Report{SyncTime: now, Snapshot: opt.Out}

	prev, err := readPrevious(opt.Out)
	if err != nil && !opt.Force {
		return nil, fmt.Errorf("%w (use --force to replace it)", err)
	}
	if prev != nil {
		rep.PreviousProducts = len(prev.Products)
	}

	results := readAll(ctx, opt.Config, now, progress)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var entries []*entry
	failed := 0
	for i := range results {
		res := &results[i]
		if res.failed {
			failed++
			if prev != nil {
				res.entries = staleEntries(prev, opt.Config.Retailers[i].Name)
				res.report.Stale = true
				res.report.StaleOffer = len(res.entries)
			}
		}
		entries = append(entries, res.entries...)
		res.entries = nil
	}
	if failed == len(results) && prev == nil {
		rep.Retailers = reports(results)
		return rep, errors.New("no retailer feed could be read and there is no previous snapshot to keep")
	}

	progress.Update("grouping", 0, len(entries))
	prevPID := map[string]string{}
	if prev != nil {
		for _, p := range prev.Products {
			for _, o := range p.Offers {
				prevPID[o.ID] = p.ID
			}
		}
	}
	stalePIDs := map[string]bool{}
	for _, e := range entries {
		if !e.stale {
			e.prevPID = prevPID[e.listing.OfferID]
		} else {
			stalePIDs[e.prevPID] = true
		}
	}
	items := make([]match.Item, len(entries))
	for i, e := range entries {
		l := e.listing
		items[i] = match.Item{
			Retailer: l.Retailer, GTIN: l.GTIN, Brand: l.Brand, MPN: l.MPN, ModelNumber: l.ModelNumber,
			Colour: l.Colour, Title: l.Title, Specs: e.specs,
			Category: e.class.Category, Accessory: e.class.Type == catalog.TypeAccessory,
		}
		if stalePIDs[e.prevPID] {
			items[i].Link = e.prevPID
		}
	}
	groups := match.Group(items)
	items = nil // the matcher's view is no longer needed; let it go before building
	progress.Update("grouping", len(entries), len(entries))

	all := buildAll(entries, groups, progress)
	outOfScope := map[string]int{}
	products := make([]*built, 0, len(all))
	for _, b := range all {
		if b == nil {
			continue
		}
		if b.product.Category == "" {
			for _, e := range b.entries {
				outOfScope[e.listing.Retailer]++
			}
			continue
		}
		products = append(products, b)
	}
	rep.IDsCarried = assignIDs(products)
	entries, groups = nil, nil

	snap := &catalog.Snapshot{Manifest: catalog.Manifest{
		SyncTime:   now,
		Retailers:  map[string]catalog.RetailerStats{},
		Categories: map[string]int{},
		Rejected:   map[string]int{},
	}}
	snap.Products = make([]catalog.Product, len(products))
	for i, b := range products {
		snap.Products[i] = b.product
		products[i] = nil // the listings behind the product are done with
	}
	slices.SortFunc(snap.Products, func(a, b catalog.Product) int { return strings.Compare(a.ID, b.ID) })

	offersBy := map[string]int{}
	rep.Categories = map[string]int{}
	rep.Attributes = map[string]Statuses{}
	for _, p := range snap.Products {
		rep.Categories[p.Category]++
		if p.ProductType == catalog.TypeAccessory {
			rep.Accessories++
		}
		for _, o := range p.Offers {
			offersBy[o.Source]++
		}
		rep.Offers += len(p.Offers)
		for name, a := range p.Attributes {
			s := rep.Attributes[name]
			switch a.Status {
			case catalog.Confirmed:
				s.Confirmed++
			case catalog.Inferred:
				s.Inferred++
			case catalog.Conflicting:
				s.Conflicting++
			}
			rep.Attributes[name] = s
		}
	}
	rep.Products = len(snap.Products)
	for i := range results {
		rr := &results[i].report
		rr.Offers = offersBy[rr.Name]
		rr.OutOfScope = outOfScope[rr.Name]
		rejected := 0
		for reason, n := range rr.Rejected {
			snap.Manifest.Rejected[reason] += n
			rejected += n
		}
		snap.Manifest.Retailers[rr.Name] = catalog.RetailerStats{Offers: rr.Offers, Rejected: rejected, Stale: rr.Stale}
	}
	rep.Retailers = reports(results)
	snap.Manifest.Categories = rep.Categories
	snap.Manifest.Offers = rep.Offers

	if prev != nil && !opt.Force {
		floor := float64(len(prev.Products)) * (1 - opt.Config.Shrink())
		if float64(rep.Products) < floor {
			rep.Refusal = fmt.Sprintf("the catalog would shrink from %d to %d products, more than max_shrink %.0f%%; the previous snapshot stays; rerun with --force to publish anyway",
				len(prev.Products), rep.Products, opt.Config.Shrink()*100)
			rep.Duration = time.Since(start).Round(time.Millisecond).String()
			if err := writeReport(ReportPath(opt.Out), rep); err != nil {
				return rep, err
			}
			return rep, fmt.Errorf("%w: %s", ErrShrink, rep.Refusal)
		}
	}
	if rep.Products == 0 {
		rep.Refusal = "the new catalog is empty"
		return rep, errors.New("refusing to publish an empty catalog")
	}
	progress.Update("writing", 0, 1)
	if err := catalog.WriteSnapshot(opt.Out, snap); err != nil {
		return rep, err
	}
	progress.Update("writing", 1, 1)
	rep.Published, rep.Forced = true, opt.Force
	rep.Duration = time.Since(start).Round(time.Millisecond).String()
	if err := writeReport(ReportPath(opt.Out), rep); err != nil {
		return rep, err
	}
	return rep, nil
}

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
		seen[l.OfferID] = true
		compact(&l)
		if l.LastUpdated.IsZero() || l.LastUpdated.After(now) {
			l.LastUpdated = now
		}
		res.entries = append(res.entries, newEntry(l))
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
	fields := [...]*string{
		&l.OfferID, &l.MerchantID, &l.Title, &l.Description, &l.DeliveryTime, &l.URL, &l.ImageURL,
		&l.GTIN, &l.MPN, &l.ModelNumber, &l.Brand, &l.Colour, &l.CategoryPath, &l.TaxonomyID, &l.Dimensions,
	}
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
