package ratelimit

import (
	"context"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxKeys bounds the keys a Memory store holds by default: about
// 100 bytes each, so roughly 25 MB when full.
const DefaultMaxKeys = 1 << 18

const shardCount = 64

// Memory is an in-process Store: a sharded map of counters for the current
// window. Counters of a finished window are dropped when the first request
// of the next window reaches their shard, so memory holds at most one
// window's keys, and at most maxKeys of them: when a shard is full an
// arbitrary key is evicted (its client gets a fresh budget), which bounds
// memory under a flood of distinct addresses.
type Memory struct {
	seed     maphash.Seed
	perShard int
	evicted  atomic.Int64
	shards   [shardCount]memShard
}

type memShard struct {
	mu     sync.Mutex
	start  int64 // window start (Unix seconds) the counters belong to
	counts map[string]int64
	_      [32]byte // keep neighbouring shards' locks off one cache line
}

// NewMemory returns an empty store holding at most maxKeys keys
// (DefaultMaxKeys when maxKeys <= 0).
func NewMemory(maxKeys int) *Memory {
	if maxKeys <= 0 {
		maxKeys = DefaultMaxKeys
	}
	m := &Memory{seed: maphash.MakeSeed(), perShard: max(1, maxKeys/shardCount)}
	for i := range m.shards {
		m.shards[i].counts = make(map[string]int64)
	}
	return m
}

// Incr implements Store. It never fails.
func (m *Memory) Incr(_ context.Context, key string, start time.Time) (int64, error) {
	sh := &m.shards[maphash.String(m.seed, key)%shardCount]
	w := start.Unix()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if w > sh.start {
		clear(sh.counts)
		sh.start = w
	}
	// A request that computed the previous window just before the boundary
	// is counted in the current one.
	n, ok := sh.counts[key]
	if !ok && len(sh.counts) >= m.perShard {
		for k := range sh.counts {
			delete(sh.counts, k)
			m.evicted.Add(1)
			break
		}
	}
	n++
	sh.counts[key] = n
	return n, nil
}

// Len returns the number of keys held.
func (m *Memory) Len() int {
	n := 0
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		n += len(sh.counts)
		sh.mu.Unlock()
	}
	return n
}

// Evicted returns how many keys were evicted because the store was full.
func (m *Memory) Evicted() int64 { return m.evicted.Load() }
