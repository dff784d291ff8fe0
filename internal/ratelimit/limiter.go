// Package ratelimit enforces hourly request budgets: a fixed window of one
// hour aligned to the hour, counted per budget key (a client IP or a
// production API key) in a Store. The in-process Memory store serves one
// replica; the Redis store shares exact counts between replicas, and
// Fallback keeps limiting in-process while Redis is unreachable. ClientIP
// finds the address a request is charged to behind trusted proxies.
package ratelimit

import (
	"context"
	"fmt"
	"time"
)

// Window is the length of one rate-limit window. Windows are aligned to
// multiples of Window since the Unix epoch, so every replica agrees on them.
const Window = time.Hour

// Store counts requests per key and window.
type Store interface {
	// Incr adds n (at least one) to the counter of key in the window that
	// starts at start and returns the new count. The counter may be
	// forgotten once the window is over.
	Incr(ctx context.Context, key string, start time.Time, n int64) (int64, error)
}

// Decision is the outcome of charging one request to a budget.
type Decision struct {
	Allowed   bool
	Limit     int
	Remaining int
	// Reset is when the window ends and the budget is refilled.
	Reset time.Time
}

// Limiter charges requests to budgets kept in a Store.
type Limiter struct {
	store Store
	now   func() time.Time
}

// New returns a Limiter over store; now defaults to time.Now.
func New(store Store, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{store: store, now: now}
}

// Allow charges one request to the budget of key, which allows limit
// requests per window. The request is allowed while the count, including
// this request, does not exceed limit; rejected requests are counted too.
func (l *Limiter) Allow(ctx context.Context, key string, limit int) (Decision, error) {
	return l.AllowN(ctx, key, limit, 1)
}

// AllowN charges n requests (at least one) at once to the budget of key,
// as a JSON-RPC batch of n calls costs: they are allowed together while
// the count, including them, does not exceed limit, and counted also when
// they are rejected.
func (l *Limiter) AllowN(ctx context.Context, key string, limit, n int) (Decision, error) {
	now := l.now()
	start := now.Truncate(Window)
	d := Decision{Limit: limit, Reset: start.Add(Window)}
	count, err := l.store.Incr(ctx, key, start, int64(max(1, n)))
	if err != nil {
		return d, fmt.Errorf("rate limit %s: %w", key, err)
	}
	d.Allowed = count <= int64(limit)
	d.Remaining = int(max(0, int64(limit)-count))
	return d, nil
}
