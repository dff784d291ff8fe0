package main

import (
	"errors"

	"productsearch/internal/ingest"
	"productsearch/internal/publish"
	"productsearch/internal/syncstatus"
)

// syncSummary condenses the sync report, the publish report (nil when the
// sync did not publish to a search cluster) and the sync's error into the
// short account the operator reads.
func syncSummary(rep *ingest.Report, pub *publish.Report, err error) syncstatus.Summary {
	s := syncstatus.Summary{Result: syncstatus.Succeeded}
	if rep != nil {
		s.SyncTime, s.Products, s.Offers = rep.SyncTime, rep.Products, rep.Offers
		for _, r := range rep.Retailers {
			rejected := 0
			for _, n := range r.Rejected {
				rejected += n
			}
			s.Retailers = append(s.Retailers, syncstatus.Retailer{Slug: r.Slug, Rows: r.Rows, Accepted: r.Accepted,
				Rejected: rejected, Offers: r.Offers, Stale: r.Stale, Error: r.Error})
		}
	}
	if pub != nil {
		if rep == nil { // a finish: the catalog was counted by its partitions
			s.Products = pub.Products
		}
		s.Alias, s.Index = pub.Alias, pub.Index
		if !pub.Published {
			s.Index = pub.Previous
		}
	}
	if err == nil {
		return s
	}
	s.Result, s.Reason, s.Message = syncstatus.Failed, syncstatus.ReasonSyncFailed, err.Error()
	switch {
	case errors.Is(err, ingest.ErrShrink), errors.Is(err, publish.ErrShrink):
		s.Result, s.Reason = syncstatus.Refused, syncstatus.ReasonShrinkGuard
	case rep != nil && rep.Refusal != "":
		s.Result, s.Reason = syncstatus.Refused, syncstatus.ReasonEmptyCatalog
	case pub != nil:
		s.Reason = syncstatus.ReasonPublishFailed
	case rep != nil && !rep.Published && len(rep.Retailers) > 0:
		s.Reason = syncstatus.ReasonFeedsFailed
	}
	return s
}
