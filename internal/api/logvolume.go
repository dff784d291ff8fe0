package api

import (
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Access-log lines of requests that match no route (404) or no method
// (405) are limited to noiseRate a second, in bursts of noiseBurst: a
// scanner walking paths would otherwise write one line per probe. The
// request metric still counts every one.
const (
	noiseRate  = 5
	noiseBurst = 20
)

// noiseLog decides which access-log lines of unrouted requests are
// written, and counts those left out.
type noiseLog struct {
	lim     *rate.Limiter
	dropped atomic.Int64
}

func newNoiseLog() *noiseLog {
	return &noiseLog{lim: rate.NewLimiter(rate.Every(time.Second/noiseRate), noiseBurst)}
}

// allow reports whether the line is written and, if so, how many were left
// out since the last one written.
func (n *noiseLog) allow() (ok bool, suppressed int64) {
	if !n.lim.Allow() {
		n.dropped.Add(1)
		return false, 0
	}
	return true, n.dropped.Swap(0)
}
