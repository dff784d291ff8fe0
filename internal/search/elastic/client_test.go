package elastic

import (
	"testing"
	"time"
)

func TestRetryBackoff(t *testing.T) {
	tests := []struct {
		nodes, attempt int
		lo, hi         time.Duration
	}{
		{1, 1, 25 * time.Millisecond, 50 * time.Millisecond},
		{1, 2, 50 * time.Millisecond, 100 * time.Millisecond},
		{1, 3, 100 * time.Millisecond, 200 * time.Millisecond},
		{1, 6, 500 * time.Millisecond, time.Second},
		{1, 60, 500 * time.Millisecond, time.Second},
		{3, 1, 0, 0},
		{3, 2, 25 * time.Millisecond, 50 * time.Millisecond},
		{3, 3, 50 * time.Millisecond, 100 * time.Millisecond},
	}
	for _, tt := range tests {
		b := retryBackoff(tt.nodes)
		for range 100 {
			if d := b(tt.attempt); d < tt.lo || d > tt.hi {
				t.Errorf("%d nodes, attempt %d: backoff %s, want within [%s, %s]", tt.nodes, tt.attempt, d, tt.lo, tt.hi)
				break
			}
		}
	}
}
