package ratelimit

import (
	"container/heap"
	"context"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxKeys bounds the keys a Memory store holds by default: about
// 120 bytes each, so roughly 30 MB when full.
const DefaultMaxKeys = 1 << 18

const shardCount = 64

// Memory is an in-process Store: a sharded map of counters for the current
// window. Counters of a finished window are dropped when the first request
// of the next window reaches their shard, so memory holds at most one
// window's keys, and at most maxKeys of them.
//
// When a shard is full, a new key evicts the counter with the lowest count
// in that shard (any one of them when several tie). Every counter of a
// window resets at the same moment, so the lowest count is the fairest
// victim: its client gets back the fewest requests, and a flood of
// distinct addresses, each sending a request or two, only ever evicts
// counters as low as its own. To push out a client that has spent n
// requests, a flood must spend more than n requests on every address it
// keeps in the shard. The evicted client's next request starts again from
// one.
type Memory struct {
	seed     maphash.Seed
	perShard int
	evicted  atomic.Int64
	shards   [shardCount]memShard
}

// memShard holds its counters in a min-heap ordered by count, indexed by
// key, so that the lowest counter is found in constant time and an
// increment costs a sift of O(log n).
type memShard struct {
	mu    sync.Mutex
	start int64 // window start (Unix seconds) the counters belong to
	heap  counterHeap
	_     [32]byte // keep neighbouring shards' locks off one cache line
}

type counter struct {
	key string
	n   int64
}

// counterHeap is a min-heap of counters that keeps index (key to position)
// up to date as entries move.
type counterHeap struct {
	items []counter
	index map[string]int
}

func (h *counterHeap) Len() int           { return len(h.items) }
func (h *counterHeap) Less(i, j int) bool { return h.items[i].n < h.items[j].n }
func (h *counterHeap) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.index[h.items[i].key] = i
	h.index[h.items[j].key] = j
}
func (h *counterHeap) Push(x any) {
	c := x.(counter)
	h.index[c.key] = len(h.items)
	h.items = append(h.items, c)
}
func (h *counterHeap) Pop() any {
	last := len(h.items) - 1
	c := h.items[last]
	h.items[last] = counter{}
	h.items = h.items[:last]
	delete(h.index, c.key)
	return c
}

// NewMemory returns an empty store holding at most maxKeys keys
// (DefaultMaxKeys when maxKeys <= 0).
func NewMemory(maxKeys int) *Memory {
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	m := &Memory{seed: maphash.MakeSeed(), perShard: max(1, maxKeys/shardCount)}
	for i := range m.shards {
		m.shards[i].heap.index = make(map[string]int)
	}
	return m
}

// Incr implements Store. It never fails.
func (m *Memory) Incr(_ context.Context, key string, start time.Time, n int64) (int64, error) {
	sh := &m.shards[maphash.String(m.seed, key)%shardCount]
	w := start.Unix()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if w > sh.start {
		clear(sh.heap.index)
		clear(sh.heap.items)
		sh.heap.items = sh.heap.items[:0]
		sh.start = w
	}
	// A request that computed the previous window just before the boundary
	// is counted in the current one.
	if i, ok := sh.heap.index[key]; ok {
		sh.heap.items[i].n += n
		total := sh.heap.items[i].n
		heap.Fix(&sh.heap, i)
		return total, nil
	}
	if len(sh.heap.items) >= m.perShard {
		heap.Pop(&sh.heap)
		m.evicted.Add(1)
	}
	heap.Push(&sh.heap, counter{key: key, n: n})
	return n, nil
}

// Len returns the number of keys held.
func (m *Memory) Len() int {
	n := 0
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		n += len(sh.heap.items)
		sh.mu.Unlock()
	}
	return n
}

// Evicted returns how many keys were evicted because the store was full.
func (m *Memory) Evicted() int64 { return m.evicted.Load() }
