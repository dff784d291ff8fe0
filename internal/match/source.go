package match

import (
	"errors"
	"runtime"
	"sync"
)

// Source gives GroupSource the listings it partitions, by index. Grouping
// reads every listing once for what the whole set shares (barcodes, word
// frequencies, brands) and again, whole, only while the listings of its
// brand are matched, so a caller may keep its listings out of memory.
//
// Read calls fn with each listing of idx (ascending, a block of at most
// readBlock) and its place k in idx; fn may keep the item. Read is called
// from several goroutines at once. An item's GTIN and Link are kept for the
// whole grouping: they should not share their bytes with the rest of the
// item.
type Source interface {
	Len() int
	Read(idx []int, fn func(k int, it *Item)) error
}

// readBlock is the most listings Group asks a Source for at once: a block
// of listings near each other can be read together.
const readBlock = 1024

// Items is a Source over listings held in memory.
type Items []Item

// Len is the number of listings.
func (s Items) Len() int { return len(s) }

// Read calls fn with a copy of each listing of idx.
func (s Items) Read(idx []int, fn func(k int, it *Item)) error {
	for k, i := range idx {
		it := s[i]
		fn(k, &it)
	}
	return nil
}

// readBlocks reads the listings of idx (all of them when idx is nil) in
// blocks of at most readBlock, the blocks shared among workers, and calls
// fn with each listing, its position in idx and its worker, from the
// worker's goroutine.
func (g *groups) readBlocks(idx []int, workers int, fn func(w, pos int, it *Item)) error {
	n := len(idx)
	if idx == nil {
		n = g.n
	}
	// Blocks no larger than an even share, so that the workers of a
	// partition of a few blocks are as busy.
	size := min(readBlock, (n+workers-1)/workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var seq []int
			for lo := w * size; lo < n; lo += workers * size {
				hi := min(n, lo+size)
				block := seq[:0]
				if idx != nil {
					block = idx[lo:hi]
				} else {
					for i := lo; i < hi; i++ {
						block = append(block, i)
					}
					seq = block
				}
				if err := g.src.Read(block, func(k int, it *Item) { fn(w, lo+k, it) }); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// readProfiles reads one partition's listings and their profiles, in
// parallel, in place of the previous partition's.
func (g *groups) readProfiles(part []int) error {
	g.release()
	g.part = part
	if cap(g.prof) < len(part) {
		g.prof = make([]profile, len(part))
		g.items = make([]Item, len(part))
	}
	g.prof, g.items = g.prof[:len(part)], g.items[:len(part)]
	workers := min(runtime.GOMAXPROCS(0), max(1, len(part)/1000))
	err := g.readBlocks(part, workers, func(_, k int, it *Item) {
		g.items[k] = *it
		g.prof[k] = profileOf(*it, g.opt)
		if boiler := g.boiler[it.Retailer]; boiler != nil {
			g.prof[k].dropBoilerplateEditions(boiler)
		}
	})
	if err != nil {
		return err
	}
	for k, i := range part {
		g.local[i] = int32(k)
	}
	g.learnShopVariants()
	g.specs, g.colours = map[int]map[string][]float64{}, map[int]map[string]bool{}
	return nil
}

// release lets go of the partition read last.
func (g *groups) release() {
	for _, i := range g.part {
		g.local[i] = -1
	}
	clear(g.prof)
	clear(g.items)
	g.part, g.specs, g.colours = nil, nil, nil
}

// item returns listing i; its partition's must have been read.
func (g *groups) item(i int) *Item {
	return &g.items[g.local[i]]
}

// profile returns listing i's profile; its partition's must have been read.
func (g *groups) profile(i int) *profile {
	return &g.prof[g.local[i]]
}
