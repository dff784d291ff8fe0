package ingest

import (
	"runtime"
	"sync"

	"productsearch/internal/catalog"
)

// tally counts the products of a catalog as they are built, for the
// report and the manifest.
type tally struct {
	products    int
	offers      int
	accessories int
	categories  map[string]int
	offersBy    map[string]int // offers per retailer
	attributes  map[string]Statuses
}

func newTally() tally {
	return tally{categories: map[string]int{}, offersBy: map[string]int{}, attributes: map[string]Statuses{}}
}

// add counts p.
func (t *tally) add(p *catalog.Product) {
	t.products++
	t.categories[p.Category]++
	if p.ProductType == catalog.TypeAccessory {
		t.accessories++
	}
	for _, o := range p.Offers {
		t.offersBy[o.Source]++
	}
	t.offers += len(p.Offers)
	for name, a := range p.Attributes {
		s := t.attributes[name]
		switch a.Status {
		case catalog.Confirmed:
			s.Confirmed++
		case catalog.Inferred:
			s.Inferred++
		case catalog.Conflicting:
			s.Conflicting++
		}
		t.attributes[name] = s
	}
}

// merge adds the counts of u.
func (t *tally) merge(u *tally) {
	t.products += u.products
	t.offers += u.offers
	t.accessories += u.accessories
	for k, n := range u.categories {
		t.categories[k] += n
	}
	for k, n := range u.offersBy {
		t.offersBy[k] += n
	}
	for k, s := range u.attributes {
		a := t.attributes[k]
		a.Confirmed += s.Confirmed
		a.Inferred += s.Inferred
		a.Conflicting += s.Conflicting
		t.attributes[k] = a
	}
}

// buildAll builds the product of every placed group, in parallel, and
// appends its snapshot line to the spill as soon as it is built, so that
// products are never held together; it counts them into c.tally.
func buildAll(o *offers, c *catalogue, sp *spill, progress Progress) error {
	workers := runtime.GOMAXPROCS(0)
	progress.Update("building products", 0, len(c.products))
	tallies := make([]tally, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		tallies[w] = newTally()
		wg.Go(func() {
			errs[w] = buildSome(o, c, sp, w, workers, &tallies[w])
		})
	}
	wg.Wait()
	c.tally = newTally()
	for w := range tallies {
		if errs[w] != nil {
			return errs[w]
		}
		c.tally.merge(&tallies[w])
	}
	progress.Update("building products", len(c.products), len(c.products))
	return nil
}

// buildSome is one worker of buildAll: it builds every workers-th product
// from the first-th.
func buildSome(o *offers, c *catalogue, sp *spill, first, workers int, t *tally) error {
	enc := catalog.NewRecordEncoder()
	var buf []byte
	var es []*entry
	for k := first; k < len(c.products); k += workers {
		pl := c.products[k]
		es = es[:0]
		for _, i := range c.groups[pl.group] {
			var e *entry
			var err error
			if e, buf, err = o.entry(i, buf); err != nil {
				return err
			}
			es = append(es, e)
		}
		p := build(es)
		p.ID = pl.id
		line, err := enc.Line(p)
		if err != nil {
			return err
		}
		if pl.line, err = sp.append(line); err != nil {
			return err
		}
		t.add(p)
	}
	return nil
}
