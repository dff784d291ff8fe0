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

	prev, err := readPrevious(opt.Out, opt.Incremental)
	if err != nil && !opt.Force {
		return nil, fmt.Errorf("%w (use --force to replace it)", err)
	}
	if prev != nil {
		rep.PreviousProducts = prev.products
	}
	sp, err := newSpill(opt.Out)
	if err != nil {
		return nil, err
	}
	defer sp.remove()
	st := newStore(sp)

	results := readAll(ctx, opt.Config, now, st, progress)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o, failed, err := carryOver(results, prev, st)
	if err != nil {
		return nil, err
	}
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
	c, err := group(o, prev, kept, sp, progress)
	if err != nil {
		return nil, err
	}
	rep.OffersUnchanged, rep.IDsCarried = c.unchanged, c.carried
	m := summarize(rep, now, &c.tally, results, c.outOfScope)

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
	if err := write(opt.Out, c.products, sp, m, rep, opt.Force, start, progress); err != nil {
		return rep, err
	}
	if opt.Incremental {
		if err := writeState(StatePath(opt.Out), o, c); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// carryOver gathers the listings every feed gave. A retailer whose feed
// failed keeps the offers it had in the previous snapshot, marked stale. It
// returns the listings and how many feeds failed.
func carryOver(results []retailerResult, prev *previous, st *store) (*offers, int, error) {
	failed := map[string]bool{}
	for i := range results {
		if results[i].failed {
			failed[results[i].report.Name] = true
		}
	}
	if prev != nil && len(failed) > 0 {
		stale, err := staleOffers(prev, failed, st)
		if err != nil {
			return nil, 0, err
		}
		for i := range results {
			if res := &results[i]; res.failed {
				res.offers = stale[res.report.Name]
				res.report.Stale = true
				res.report.StaleOffer = res.offers.Len()
			}
		}
	}
	parts := make([]*offers, len(results))
	for i := range results {
		parts[i] = results[i].offers
		results[i].offers = nil
	}
	return concat(st, parts), len(failed), nil
}

// catalogue is the new catalog as grouping leaves it: its products, placed
// and built into the spill, and what the report says of them.
type catalogue struct {
	products   []*placed
	groups     [][]int
	outOfScope map[string]int // listings outside the 19 categories, per retailer
	unchanged  int            // offers an incremental sync kept with their product
	carried    int            // ids carried over from the previous snapshot
	tally      tally
}

// group matches the listings into groups, gives each group in the 19
// categories its id, then builds its product into the spill. Products
// outside the 19 categories are left out and counted per retailer.
//
// kept is the state of the previous incremental sync (nil in a full
// one): an offer whose hash it records unchanged stays with the product it
// had.
func group(o *offers, prev *previous, kept map[string]offerState, sp *spill, progress Progress) (*catalogue, error) {
	c := &catalogue{outOfScope: map[string]int{}}
	progress.Update("grouping", 0, o.Len())
	c.unchanged = matchItems(o, prev, kept)
	if prev != nil {
		// Grouping is the sync's largest moment; what it read of the
		// previous snapshot is used.
		prev.pid, prev.updated = nil, nil
	}
	if err := sp.flush(); err != nil {
		return nil, err
	}
	groups, err := match.GroupSource(o, match.Options{})
	if err != nil {
		return nil, err
	}
	c.groups = groups
	progress.Update("grouping", o.Len(), o.Len())

	classes := []classify.Result{}
	for g, members := range c.groups {
		classes = classes[:0]
		for _, i := range members {
			classes = append(classes, o.class(i))
		}
		if classify.Combine(classes).Category == "" {
			for _, i := range members {
				c.outOfScope[o.name(o.sides[i].retailer)]++
			}
			continue
		}
		p := &placed{group: g, anchor: anchorOf(o, members)}
		for _, i := range members {
			if pid := o.prevPID(i); pid != "" {
				p.prevPIDs = append(p.prevPIDs, pid)
			}
		}
		c.products = append(c.products, p)
	}
	c.carried = assignIDs(c.products)
	if err := sp.flush(); err != nil {
		return nil, err
	}
	if err := buildAll(o, c, sp, progress); err != nil {
		return nil, err
	}
	return c, nil
}

// matchItems prepares the matcher's view of the listings. It records for
// each listing the product its offer belonged to in the previous snapshot;
// the listings of a stale retailer, and those kept records unchanged, are
// linked to that product, so they stay with it. It returns how many were
// unchanged.
func matchItems(o *offers, prev *previous, kept map[string]offerState) int {
	stalePIDs := map[string]bool{}
	var same []bool // same[i]: listing i is unchanged since the state
	if kept != nil {
		same = make([]bool, o.Len())
	}
	unchanged := 0
	for i := range o.sides {
		s := &o.sides[i]
		if s.stale {
			stalePIDs[o.prevPID(i)] = true
			continue
		}
		if prev == nil {
			continue
		}
		id := o.offerID(i)
		pid := prev.pid[id]
		s.prevPID = o.texts.put(pid)
		if k, ok := kept[id]; ok && k.Hash == s.hash && k.Product == pid && pid != "" {
			same[i] = true
			unchanged++
			// An offer whose feed gives no time was stamped with this
			// sync's; unchanged, it keeps the time it had.
			if t := prev.updated[id]; !t.IsZero() {
				o.setUpdated(i, t)
			}
		}
	}
	for i := range o.sides {
		if stalePIDs[o.prevPID(i)] || (same != nil && same[i]) {
			o.sides[i].linked = true
		}
	}
	return unchanged
}

// summarize counts the catalog into the report (products, offers,
// categories, attribute statuses, each retailer's offers and rejections)
// and returns the snapshot's manifest.
func summarize(rep *Report, now time.Time, t *tally, results []retailerResult, outOfScope map[string]int) catalog.Manifest {
	m := catalog.Manifest{
		SyncTime:  now,
		Retailers: map[string]catalog.RetailerStats{},
		Rejected:  map[string]int{},
	}
	rep.Categories, rep.Attributes = t.categories, t.attributes
	rep.Accessories, rep.Offers, rep.Products = t.accessories, t.offers, t.products
	for i := range results {
		rr := &results[i].report
		rr.Offers = t.offersBy[rr.Name]
		rr.OutOfScope = outOfScope[rr.Name]
		rejected := 0
		for reason, n := range rr.Rejected {
			m.Rejected[reason] += n
			rejected += n
		}
		m.Retailers[rr.Name] = catalog.RetailerStats{Offers: rr.Offers, Rejected: rejected, Stale: rr.Stale}
	}
	rep.Retailers = reports(results)
	m.Categories = rep.Categories
	m.Offers = rep.Offers
	return m
}

// guard refuses a catalog of products products when, without force, it
// would shrink the previous one by more than the fraction shrink, and always
// when it is empty. It returns the refusal for the report and the error;
// a shrink refusal wraps ErrShrink.
func guard(prev *previous, products int, shrink float64, force bool) (string, error) {
	if prev != nil && !force {
		floor := float64(prev.products) * (1 - shrink)
		if float64(products) < floor {
			refusal := fmt.Sprintf("the catalog would shrink from %d to %d products, more than max_shrink %.0f%%; the previous snapshot stays; rerun with --force to publish anyway",
				prev.products, products, shrink*100)
			return refusal, fmt.Errorf("%w: %s", ErrShrink, refusal)
		}
	}
	if products == 0 {
		return "the new catalog is empty", errors.New("refusing to publish an empty catalog")
	}
	return "", nil
}

// write publishes the snapshot at out, its products' lines copied from
// the spill in id order under manifest m, and then the report beside it,
// marked published and timed from start.
func write(out string, products []*placed, sp *spill, m catalog.Manifest, rep *Report, force bool, start time.Time, progress Progress) error {
	progress.Update("writing", 0, len(products))
	if err := sp.flush(); err != nil {
		return err
	}
	slices.SortFunc(products, func(a, b *placed) int { return strings.Compare(a.id, b.id) })
	w, err := catalog.NewSnapshotWriter(out)
	if err != nil {
		return err
	}
	var buf []byte
	for _, p := range products {
		if buf, err = sp.read(p.line, buf); err == nil {
			err = w.AddLine(buf)
		}
		if err != nil {
			w.Abort()
			return err
		}
	}
	if err := w.Commit(m); err != nil {
		return err
	}
	progress.Update("writing", len(products), len(products))
	rep.Published, rep.Forced = true, force
	rep.Duration = time.Since(start).Round(time.Millisecond).String()
	return writeReport(ReportPath(out), rep)
}
