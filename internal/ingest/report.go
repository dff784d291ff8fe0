package ingest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// maxSamples is how many example row numbers a report keeps per reason.
const maxSamples = 5

// Report is the outcome of one sync, written as JSON next to the snapshot.
type Report struct {
	SyncTime         time.Time `json:"sync_time"`
	Duration         string    `json:"duration"`
	Snapshot         string    `json:"snapshot"`
	Published        bool      `json:"published"`
	Forced           bool      `json:"forced,omitempty"`
	Refusal          string    `json:"refusal,omitempty"`
	Products         int       `json:"products"`
	Offers           int       `json:"offers"`
	PreviousProducts int       `json:"previous_products"`
	IDsCarried       int       `json:"ids_carried_over"`
	// OffersUnchanged counts, in an incremental sync, the offers whose
	// content did not change and that stayed with their product.
	OffersUnchanged int                 `json:"offers_unchanged,omitempty"`
	Retailers       []RetailerReport    `json:"retailers"`
	Categories      map[string]int      `json:"categories"`
	Accessories     int                 `json:"accessories"`
	Attributes      map[string]Statuses `json:"attributes"`
	// TempFilesRemoved and TempBytesRemoved count the temporary snapshot
	// files that an interrupted earlier sync left beside the snapshot and
	// that this sync removed on start.
	TempFilesRemoved int   `json:"temp_files_removed"`
	TempBytesRemoved int64 `json:"temp_bytes_removed"`
}

// Statuses counts products per attribute status.
type Statuses struct {
	Confirmed   int `json:"confirmed"`
	Inferred    int `json:"inferred"`
	Conflicting int `json:"conflicting"`
}

// RetailerReport is what one retailer's feed contributed.
type RetailerReport struct {
	Name       string           `json:"name"`
	Slug       string           `json:"slug"`
	Format     string           `json:"format"`
	Location   string           `json:"location"`
	Rows       int              `json:"rows"`
	Accepted   int              `json:"accepted"`
	Offers     int              `json:"offers"` // offers in the published catalog
	Rejected   map[string]int   `json:"rejected,omitempty"`
	Samples    map[string][]int `json:"sample_rows,omitempty"`
	OutOfScope int              `json:"out_of_scope"` // listings outside the 19 categories
	Stale      bool             `json:"stale,omitempty"`
	StaleOffer int              `json:"stale_offers,omitempty"`
	Error      string           `json:"error,omitempty"`
}

func (r *RetailerReport) reject(reason string, row int) {
	if r.Rejected == nil {
		r.Rejected, r.Samples = map[string]int{}, map[string][]int{}
	}
	r.Rejected[reason]++
	if len(r.Samples[reason]) < maxSamples {
		r.Samples[reason] = append(r.Samples[reason], row)
	}
}

// ReportPath is where the report of a snapshot is written: beside it, with
// the extension replaced by ".report.json".
func ReportPath(snapshot string) string {
	return strings.TrimSuffix(snapshot, filepath.Ext(snapshot)) + ".report.json"
}

func writeReport(path string, r *Report) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return os.Rename(tmp, path)
}

// WriteSummary prints the report as a table for people.
func (r *Report) WriteSummary(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "retailer\tformat\trows\taccepted\trejected\tout of scope\toffers\tstatus\t")
	for _, rr := range r.Retailers {
		status := "ok"
		switch {
		case rr.Stale:
			status = "stale: " + rr.Error
		case rr.Error != "":
			status = "failed: " + rr.Error
		}
		rejected := 0
		for _, n := range rr.Rejected {
			rejected += n
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", rr.Name, rr.Format, rr.Rows, rr.Accepted, rejected, rr.OutOfScope, rr.Offers, status)
	}
	tw.Flush()
	fmt.Fprintln(w)
	cats := make([]string, 0, len(r.Categories))
	for c := range r.Categories {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	parts := make([]string, len(cats))
	for i, c := range cats {
		parts[i] = fmt.Sprintf("%s %d", c, r.Categories[c])
	}
	fmt.Fprintf(w, "categories: %s\n", strings.Join(parts, ", "))
	reasons := map[string]int{}
	for _, rr := range r.Retailers {
		for k, n := range rr.Rejected {
			reasons[k] += n
		}
	}
	if len(reasons) > 0 {
		keys := make([]string, 0, len(reasons))
		for k := range reasons {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts = parts[:0]
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, reasons[k]))
		}
		fmt.Fprintf(w, "rejected rows: %s\n", strings.Join(parts, ", "))
	}
	if r.TempFilesRemoved > 0 {
		fmt.Fprintf(w, "removed %d temporary snapshot files (%.1f MB) left by an interrupted sync\n",
			r.TempFilesRemoved, float64(r.TempBytesRemoved)/1e6)
	}
	if r.OffersUnchanged > 0 {
		fmt.Fprintf(w, "incremental: %d offers unchanged kept their product\n", r.OffersUnchanged)
	}
	state := "published"
	if !r.Published {
		state = "NOT published: " + r.Refusal
	}
	fmt.Fprintf(w, "%d products, %d offers (previously %d products, %d ids carried over) in %s; snapshot %s %s\n",
		r.Products, r.Offers, r.PreviousProducts, r.IDsCarried, r.Duration, r.Snapshot, state)
}
