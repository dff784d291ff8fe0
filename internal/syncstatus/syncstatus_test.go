package syncstatus

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestEncodeParse(t *testing.T) {
	many := make([]Retailer, 200)
	for i := range many {
		many[i] = Retailer{Slug: fmt.Sprintf("retailer-%03d", i), Rows: 1000, Accepted: 990, Rejected: 10, Offers: 980, Error: strings.Repeat("x", 300)}
	}
	tests := []struct {
		name          string
		in            Summary
		wantTruncated bool
	}{
		{"small", Summary{Result: Succeeded, SyncTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Products: 10, Offers: 20,
			Index: "products-1", Alias: "products", Retailers: []Retailer{{Slug: "voltline", Rows: 5, Accepted: 4, Rejected: 1, Offers: 4}}}, false},
		{"refused", Summary{Result: Refused, Reason: ReasonShrinkGuard, Message: "the catalog would shrink"}, false},
		{"too long", Summary{Result: Failed, Reason: ReasonFeedsFailed, Message: strings.Repeat("m", 5000), Retailers: many}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := tt.in.Encode()
			if len(data) > MaxSize {
				t.Fatalf("encoded %d bytes, more than %d", len(data), MaxSize)
			}
			got, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if got.Truncated != tt.wantTruncated {
				t.Errorf("truncated = %v, want %v", got.Truncated, tt.wantTruncated)
			}
			if !tt.wantTruncated {
				if diff := cmp.Diff(tt.in, got); diff != "" {
					t.Errorf("round trip mismatch (-want +got):\n%s", diff)
				}
			} else if got.Result != tt.in.Result || got.Reason != tt.in.Reason || len(got.Retailers) == 0 {
				t.Errorf("truncation lost the essentials: %+v", got)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{"", "{", `{"result":"Maybe"}`, "sync failed: exit 2"} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) accepted it", in)
		}
	}
}
