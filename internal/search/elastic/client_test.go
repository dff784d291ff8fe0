package elastic

import (
	"context"
	"fmt"
	"net/http"
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

// TestRetryPartial checks that a search the cluster answers in part, or a
// node answers 503, is sent again a bounded number of times, and that
// other failures and a cancelled request are not.
func TestRetryPartial(t *testing.T) {
	partial := fmt.Errorf("%w: 1 of 2 shards failed", errPartial)
	busy := &Error{Status: http.StatusServiceUnavailable}
	bad := &Error{Status: http.StatusBadRequest}
	tests := []struct {
		name      string
		failures  []error // the answers before success, in order
		wantCalls int
		wantErr   error
	}{
		{"success at once", nil, 1, nil},
		{"a shard lost once", []error{partial}, 2, nil},
		{"a shard lost, then a node busy", []error{partial, busy}, 3, nil},
		{"partial every time", []error{partial, partial, partial, partial}, 3, partial},
		{"a bad request is not sent again", []error{bad}, 1, bad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			err := retryPartial(context.Background(), func() error {
				calls++
				if calls <= len(tt.failures) {
					return tt.failures[calls-1]
				}
				return nil
			})
			if calls != tt.wantCalls || err != tt.wantErr {
				t.Errorf("retryPartial: %d calls, error %v; want %d calls, error %v", calls, err, tt.wantCalls, tt.wantErr)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	if err := retryPartial(ctx, func() error { calls++; return partial }); err != partial || calls != 1 {
		t.Errorf("retryPartial with a cancelled context: %d calls, error %v; want 1 call, the partial answer", calls, err)
	}
}
