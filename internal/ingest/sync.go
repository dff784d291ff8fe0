package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
	"productsearch/internal/match"
)

// Options control one sync.
type Options struct {
	Config Config
	Out    string    // snapshot path; the previous snapshot is read from here
	Force  bool      // publish even if the catalog shrinks beyond the limit
	Now    time.Time // sync time; zero means time.Now()
	// Progress receives stage updates; nil reports nothing.
	Progress Progress
	// Incremental reads the state of the previous incremental sync beside
	// Out (StatePath) and keeps every offer whose content did not change
	// with the product it had; it writes the new state after the snapshot.
	Incremental bool
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
	hash    uint64 // listingHash of a listing read from a feed
}

// Sync reads every feed of opt.Config and publishes a new snapshot at opt.Out
// with its report beside it. It returns the report also when it refuses to
// publish; the error then says why.
//
// A sync runs as stages: remove the temporary files an interrupted sync
// left, read the feeds, carry over the listings of feeds
// that failed, group listings into products, assign ids, report, guard
// against a shrinking or empty catalog, and write.
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
	var err error
	if rep.TempFilesRemoved, rep.TempBytesRemoved, err = removeStaleTemps(opt.Out, start, staleTempAge); err != nil {
		return nil, err
	}

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
	entries, failed := carryOver(results, prev, opt.Config.Retailers)
	if failed == len(results) && prev == nil {
		rep.Retailers = reports(results)
		return rep, errors.New("no retailer feed could be read and there is no previous snapshot to keep")
	}
	var kept map[string]offerState
	if opt.Incremental {
		if kept, err = readState(StatePath(opt.Out)); err != nil {
			return nil, err
		}
	}
	hashes := offerHashes(entries, opt.Incremental)
	products, outOfScope, unchanged := group(entries, prev, kept, progress)
	rep.OffersUnchanged = unchanged
	rep.IDsCarried = assignIDs(products)
	snap := assemble(now, products)
	summarize(rep, snap, results, outOfScope)

	if refusal, err := guard(prev, rep.Products, opt.Config.Shrink(), opt.Force); err != nil {
		rep.Refusal = refusal
		if errors.Is(err, ErrShrink) {
			rep.Duration = time.Since(start).Round(time.Millisecond).String()
			if werr := writeReport(ReportPath(opt.Out), rep); werr != nil {
				return rep, werr
			}
		}
		return rep, err
	}
	if err := write(opt.Out, snap, rep, opt.Force, start, progress); err != nil {
		return rep, err
	}
	if opt.Incremental {
		if err := writeState(StatePath(opt.Out), snap, hashes); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// offerHashes maps the offers read from feeds to their content hashes
// when an incremental sync needs them, else it returns nil.
func offerHashes(entries []*entry, incremental bool) map[string]uint64 {
	if !incremental {
		return nil
	}
	out := make(map[string]uint64, len(entries))
	for _, e := range entries {
		if !e.stale {
			out[e.listing.OfferID] = e.hash
		}
	}
	return out
}

// carryOver gathers the listings every feed gave. A retailer whose feed
// failed keeps the offers it had in the previous snapshot, marked stale. It
// returns the listings and how many feeds failed.
func carryOver(results []retailerResult, prev *catalog.Snapshot, retailers []Retailer) ([]*entry, int) {
	var entries []*entry
	failed := 0
	for i := range results {
		res := &results[i]
		if res.failed {
			failed++
			if prev != nil {
				res.entries = staleEntries(prev, retailers[i].Name)
				res.report.Stale = true
				res.report.StaleOffer = len(res.entries)
			}
		}
		entries = append(entries, res.entries...)
		res.entries = nil
	}
	return entries, failed
}

// group matches the listings into groups and builds one product from each.
// Products outside the 19 categories are left out and counted per retailer
// in outOfScope.
//
// kept is the state of the previous incremental sync (nil in a full
// one): an offer whose hash it records unchanged stays with the product it
// had; unchanged counts them.
func group(entries []*entry, prev *catalog.Snapshot, kept map[string]offerState, progress Progress) (products []*built, outOfScope map[string]int, unchanged int) {
	progress.Update("grouping", 0, len(entries))
	items, unchanged := matchItems(entries, prev, kept)
	groups := match.Group(items)
	progress.Update("grouping", len(entries), len(entries))

	all := buildAll(entries, groups, progress)
	outOfScope = map[string]int{}
	products = make([]*built, 0, len(all))
	for _, b := range all {
		if b == nil {
			continue
		}
		if b.product.Category == "" {
			for _, r := range b.retailers {
				outOfScope[r]++
			}
			continue
		}
		products = append(products, b)
	}
	return products, outOfScope, unchanged
}

// matchItems is the matcher's view of the listings. It records on each entry
// the product its offer belonged to in the previous snapshot; the listings of
// a stale retailer, and those kept records unchanged, are linked to that
// product, so they stay with it. It returns how many were unchanged.
func matchItems(entries []*entry, prev *catalog.Snapshot, kept map[string]offerState) ([]match.Item, int) {
	prevPID := map[string]string{}
	prevTime := map[string]time.Time{} // in an incremental sync
	if prev != nil {
		for _, p := range prev.Products {
			for _, o := range p.Offers {
				prevPID[o.ID] = p.ID
				if kept != nil {
					prevTime[o.ID] = o.LastUpdated
				}
			}
		}
	}
	stalePIDs := map[string]bool{}
	var same []bool // same[i]: entries[i] is unchanged since the state
	if kept != nil {
		same = make([]bool, len(entries))
	}
	unchanged := 0
	for i, e := range entries {
		if e.stale {
			stalePIDs[e.prevPID] = true
			continue
		}
		e.prevPID = prevPID[e.listing.OfferID]
		if k, ok := kept[e.listing.OfferID]; ok && k.Hash == e.hash && k.Product == e.prevPID && e.prevPID != "" {
			same[i] = true
			unchanged++
			// An offer whose feed gives no time was stamped with this
			// sync's; unchanged, it keeps the time it had.
			if t := prevTime[e.listing.OfferID]; !t.IsZero() {
				e.listing.LastUpdated = t
			}
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
		if stalePIDs[e.prevPID] || (same != nil && same[i]) {
			items[i].Link = e.prevPID
		}
	}
	return items, unchanged
}

// assemble puts the products, which have their ids, into a snapshot sorted
// by id. It lets go of each built product's listings as it goes.
func assemble(now time.Time, products []*built) *catalog.Snapshot {
	snap := &catalog.Snapshot{Manifest: catalog.Manifest{
		SyncTime:   now,
		Retailers:  map[string]catalog.RetailerStats{},
		Categories: map[string]int{},
		Rejected:   map[string]int{},
	}}
	snap.Products = make([]catalog.Product, len(products))
	for i, b := range products {
		snap.Products[i] = b.product
		products[i] = nil
	}
	slices.SortFunc(snap.Products, func(a, b catalog.Product) int { return strings.Compare(a.ID, b.ID) })
	return snap
}

// summarize counts the catalog into the report (products, offers,
// categories, attribute statuses, each retailer's offers and rejections) and
// the snapshot's manifest.
func summarize(rep *Report, snap *catalog.Snapshot, results []retailerResult, outOfScope map[string]int) {
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
}

// guard refuses a catalog of products products when, without force, it
// would shrink the previous one by more than the fraction shrink, and always
// when it is empty. It returns the refusal for the report and the error;
// a shrink refusal wraps ErrShrink.
func guard(prev *catalog.Snapshot, products int, shrink float64, force bool) (string, error) {
	if prev != nil && !force {
		floor := float64(len(prev.Products)) * (1 - shrink)
		if float64(products) < floor {
			refusal := fmt.Sprintf("the catalog would shrink from %d to %d products, more than max_shrink %.0f%%; the previous snapshot stays; rerun with --force to publish anyway",
				len(prev.Products), products, shrink*100)
			return refusal, fmt.Errorf("%w: %s", ErrShrink, refusal)
		}
	}
	if products == 0 {
		return "the new catalog is empty", errors.New("refusing to publish an empty catalog")
	}
	return "", nil
}

// write publishes the snapshot at out and then the report beside it,
// marked published and timed from start.
func write(out string, snap *catalog.Snapshot, rep *Report, force bool, start time.Time, progress Progress) error {
	progress.Update("writing", 0, 1)
	if err := catalog.WriteSnapshot(out, snap); err != nil {
		return err
	}
	progress.Update("writing", 1, 1)
	rep.Published, rep.Forced = true, force
	rep.Duration = time.Since(start).Round(time.Millisecond).String()
	return writeReport(ReportPath(out), rep)
}
