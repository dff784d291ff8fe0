package main

import (
	"errors"
	"fmt"
	"testing"

	"productsearch/internal/ingest"
	"productsearch/internal/publish"
	"productsearch/internal/syncstatus"
)

func TestSyncSummary(t *testing.T) {
	rep := &ingest.Report{Products: 120, Offers: 300, Published: true, Retailers: []ingest.RetailerReport{
		{Slug: "voltline", Rows: 10, Accepted: 8, Offers: 8, Rejected: map[string]int{"no_price": 1, "bad_gtin": 1}},
	}}
	unpublished := &ingest.Report{Retailers: []ingest.RetailerReport{{Slug: "voltline", Error: "404"}}}
	refused := &ingest.Report{Refusal: "the new catalog is empty"}
	pub := &publish.Report{Alias: "products", Index: "products-2", Previous: "products-1", Published: true}
	failedPub := &publish.Report{Alias: "products", Index: "products-2", Previous: "products-1"}
	tests := []struct {
		name       string
		rep        *ingest.Report
		pub        *publish.Report
		err        error
		wantResult string
		wantReason string
		wantIndex  string
	}{
		{"published", rep, pub, nil, syncstatus.Succeeded, "", "products-2"},
		{"snapshot only", rep, nil, nil, syncstatus.Succeeded, "", ""},
		{"shrink in sync", rep, nil, fmt.Errorf("%w: too small", ingest.ErrShrink), syncstatus.Refused, syncstatus.ReasonShrinkGuard, ""},
		{"shrink in publish", rep, failedPub, fmt.Errorf("publish: %w", publish.ErrShrink), syncstatus.Refused, syncstatus.ReasonShrinkGuard, "products-1"},
		{"empty", refused, nil, errors.New("refusing to publish an empty catalog"), syncstatus.Refused, syncstatus.ReasonEmptyCatalog, ""},
		{"publish failed", rep, failedPub, errors.New("bulk failed"), syncstatus.Failed, syncstatus.ReasonPublishFailed, "products-1"},
		{"feeds failed", unpublished, nil, errors.New("no retailer feed could be read"), syncstatus.Failed, syncstatus.ReasonFeedsFailed, ""},
		{"config", nil, nil, errors.New("read config"), syncstatus.Failed, syncstatus.ReasonSyncFailed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := syncSummary(tt.rep, tt.pub, tt.err)
			if s.Result != tt.wantResult || s.Reason != tt.wantReason || s.Index != tt.wantIndex {
				t.Errorf("got result %q reason %q index %q, want %q %q %q", s.Result, s.Reason, s.Index, tt.wantResult, tt.wantReason, tt.wantIndex)
			}
			if tt.rep == rep && (len(s.Retailers) != 1 || s.Retailers[0].Rejected != 2) {
				t.Errorf("retailers = %+v, want voltline with 2 rejected", s.Retailers)
			}
		})
	}
}
