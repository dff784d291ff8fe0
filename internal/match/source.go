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

// A partRead is one partition's listings and their profiles, ready to be
// matched.
type partRead struct {
	part  []int
	items []Item
	prof  []profile
}

// readPart reads the listings of part and their profiles, in parallel, into
// r's buffers (grown as needed), and learns the partition's shop variants.
func (g *groups) readPart(part []int, r *partRead) error {
	r.part = part
	if cap(r.prof) < len(part) {
		r.prof = make([]profile, len(part))
		r.items = make([]Item, len(part))
	}
	r.prof, r.items = r.prof[:len(part)], r.items[:len(part)]
	workers := min(runtime.GOMAXPROCS(0), max(1, len(part)/minWorkerListings))
	err := g.readBlocks(part, workers, func(_, k int, it *Item) {
		r.items[k] = *it
		r.prof[k] = profileOf(*it, g.opt)
		if boiler := g.boiler[it.Retailer]; boiler != nil {
			r.prof[k].dropBoilerplateEditions(boiler)
		}
	})
	if err != nil {
		return err
	}
	g.learnShopVariants(r.items, r.prof)
	return nil
}

// minWorkerListings is the fewest listings worth a worker of their own
// when a partition is read: below it, starting one costs more than it
// saves.
const minWorkerListings = 100

// use makes r the partition being matched, in place of the previous one,
// and returns the previous one's buffers, emptied, for reuse.
func (g *groups) use(r partRead) partRead {
	old := g.release()
	g.part, g.items, g.prof = r.part, r.items, r.prof
	for k, i := range r.part {
		g.local[i] = int32(k)
	}
	g.specs, g.colours = map[int]map[string][]float64{}, map[int]map[string]bool{}
	return old
}

// readProfiles reads one partition's listings and their profiles and
// matches it next, in place of the previous partition.
func (g *groups) readProfiles(part []int) error {
	r := g.release()
	if err := g.readPart(part, &r); err != nil {
		return err
	}
	g.use(r)
	return nil
}

// readAhead reads parts in order on a goroutine of its own, one partition
// ahead of its caller: while a partition is matched, the next is read. The
// caller takes each from the channel and hands it to use, and returns the
// buffers use gives back on free; at most two partitions are held at
// once. A partition of more than most listings is sent unread, for the
// caller to read (readProfiles) once it has let go of the one before: so
// what reading ahead adds to memory is bounded by most listings, not by
// the largest brand. A failed read is the last sent; closing done stops
// the reading early.
func (g *groups) readAhead(parts [][]int, most int, done <-chan struct{}) (next <-chan partReadResult, free chan<- partRead) {
	out := make(chan partReadResult)
	// One buffer to start with; use gives back a second, the one it
	// replaces, the first time it is called.
	bufs := make(chan partRead, 2)
	bufs <- partRead{}
	send := func(r partReadResult) bool {
		select {
		case out <- r:
			return r.err == nil
		case <-done:
			return false
		}
	}
	go func() {
		defer close(out)
		for _, part := range parts {
			if len(part) > most {
				if !send(partReadResult{partRead: partRead{part: part}, unread: true}) {
					return
				}
				continue
			}
			var r partRead
			select {
			case r = <-bufs:
			case <-done:
				return
			}
			err := g.readPart(part, &r)
			if !send(partReadResult{partRead: r, err: err}) {
				return
			}
		}
	}()
	return out, bufs
}

// maxReadAhead is the most listings a partition read ahead may hold.
const maxReadAhead = 8192

// A partReadResult is what readAhead sends: a partition read, one left
// unread, or why it could not be read.
type partReadResult struct {
	partRead
	unread bool
	err    error
}

// release lets go of the partition read last and returns its buffers,
// emptied.
func (g *groups) release() partRead {
	for _, i := range g.part {
		g.local[i] = -1
	}
	clear(g.prof)
	clear(g.items)
	r := partRead{items: g.items[:0], prof: g.prof[:0]}
	g.part, g.items, g.prof, g.specs, g.colours = nil, nil, nil, nil, nil
	return r
}

// item returns listing i; its partition's must have been read.
func (g *groups) item(i int) *Item {
	return &g.items[g.local[i]]
}

// profile returns listing i's profile; its partition's must have been read.
func (g *groups) profile(i int) *profile {
	return &g.prof[g.local[i]]
}
