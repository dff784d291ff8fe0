// Package syncstatus is the short account of one indexer sync that the
// indexer leaves behind for the operator: whether the new catalog went live,
// how many products and offers it holds, what each retailer's feed gave and
// why a sync failed. In a Kubernetes Job it is the sync container's
// termination message, which the kubelet keeps to 4096 bytes, so Encode
// drops detail until it fits. The package has no dependencies beyond the
// standard library so that both the indexer and the operator can use it.
package syncstatus

import (
	"encoding/json"
	"fmt"
	"time"
)

// MaxSize is the largest termination message the kubelet keeps.
const MaxSize = 4096

// Results of a sync.
const (
	// Succeeded: the new catalog was written and, when a search cluster
	// is the target, published under its alias.
	Succeeded = "Succeeded"
	// Refused: a guard (shrink, empty catalog) kept the previous catalog.
	Refused = "Refused"
	// Failed: feeds, writing or publishing failed.
	Failed = "Failed"
)

// Reasons of a refused or failed sync, used as condition reasons.
const (
	ReasonShrinkGuard   = "ShrinkGuard"
	ReasonEmptyCatalog  = "EmptyCatalog"
	ReasonFeedsFailed   = "FeedsFailed"
	ReasonPublishFailed = "PublishFailed"
	ReasonSyncFailed    = "SyncFailed"
)

// Summary is one sync's outcome.
type Summary struct {
	Result   string    `json:"result"`
	Reason   string    `json:"reason,omitempty"`
	Message  string    `json:"message,omitempty"`
	SyncTime time.Time `json:"sync_time"`
	Products int       `json:"products"`
	Offers   int       `json:"offers"`
	// Index is the index the alias names after the sync (the new one
	// when it was published, else the previous one).
	Index     string     `json:"index,omitempty"`
	Alias     string     `json:"alias,omitempty"`
	Retailers []Retailer `json:"retailers,omitempty"`
	// Truncated is set when retailers or the message were cut to fit MaxSize.
	Truncated bool `json:"truncated,omitempty"`
}

// Retailer is what one retailer's feed gave.
type Retailer struct {
	Slug     string `json:"slug"`
	Rows     int    `json:"rows"`
	Accepted int    `json:"accepted"`
	Rejected int    `json:"rejected"`
	Offers   int    `json:"offers"`
	Stale    bool   `json:"stale,omitempty"`
	Error    string `json:"error,omitempty"`
}

// Encode returns the summary as JSON of at most MaxSize bytes: when it is
// longer, retailer errors, then the message, then retailers are shortened
// until it fits.
func (s Summary) Encode() []byte {
	data, _ := json.Marshal(s) // only strings, numbers and a time: cannot fail
	if len(data) <= MaxSize {
		return data
	}
	s.Truncated = true
	s.Retailers = append([]Retailer(nil), s.Retailers...)
	for i := range s.Retailers {
		s.Retailers[i].Error = clip(s.Retailers[i].Error, 80)
	}
	s.Message = clip(s.Message, 400)
	for {
		data, _ = json.Marshal(s)
		if len(data) <= MaxSize || len(s.Retailers) == 0 {
			return data
		}
		s.Retailers = s.Retailers[:len(s.Retailers)-1]
	}
}

// Parse reads a summary written by Encode.
func Parse(data []byte) (Summary, error) {
	var s Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return Summary{}, fmt.Errorf("sync summary: %w", err)
	}
	switch s.Result {
	case Succeeded, Refused, Failed:
	default:
		return Summary{}, fmt.Errorf("sync summary: unknown result %q", s.Result)
	}
	return s, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
