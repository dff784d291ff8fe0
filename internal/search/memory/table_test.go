package memory

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// extendedTable is the default table with a battery capacity and extra
// hypothetical attributes, so that it holds more attributes than a 64-bit
// mask has bits.
func extendedTable(t *testing.T, extra int) *catalog.AttributeTable {
	t.Helper()
	defs := append(catalog.DefaultAttributes().Defs(), catalog.AttributeDef{
		Name: "battery_mah", Label: "Battery", Unit: "mAh", Example: 5000, ExampleOp: catalog.OpGte,
		Aliases: []string{"batt"},
		Query:   catalog.QueryForms{Op: catalog.OpGte, Units: []catalog.Unit{{Suffix: "mah", Factor: 1}}},
	})
	for i := range extra {
		defs = append(defs, catalog.AttributeDef{Name: fmt.Sprintf("extra_%02d", i), Example: 1, ExampleOp: catalog.OpGte})
	}
	table, err := catalog.NewAttributeTable(defs...)
	if err != nil {
		t.Fatal(err)
	}
	return table
}

// extendedSnapshot holds phones stating every attribute of the table:
// product i states value 1000*(i+1) for battery_mah and i+1 for the rest;
// the last product states two values for every attribute.
func extendedSnapshot(table *catalog.AttributeTable, n int) *catalog.Snapshot {
	s := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}
	for i := range n {
		p := catalog.Product{
			ID: fmt.Sprintf("p%d", i), Title: fmt.Sprintf("Phone %d", i), Category: string(catalog.Phones),
			Price: float64(100 + i), Currency: catalog.Currency, Availability: catalog.InStock,
			ProductType: catalog.TypeProduct, Attributes: map[string]catalog.Attribute{},
		}
		for _, name := range table.Names() {
			v := float64(i + 1)
			if name == "battery_mah" {
				v *= 1000
			}
			obs := []catalog.Observation{{Retailer: "A", Value: v}}
			if i == n-1 {
				obs = append(obs, catalog.Observation{Retailer: "B", Value: 1})
			}
			p.Attributes[name], _ = catalog.BuildAttribute(obs)
		}
		s.Products = append(s.Products, p)
	}
	return s
}

// TestExtendedTable runs validation, query analysis, judgement and the
// constraint statuses of the memory engine over a table with more
// attributes than the default one, against search.Judge.
func TestExtendedTable(t *testing.T) {
	for _, extra := range []int{0, 70} {
		t.Run(fmt.Sprintf("%d extra attributes", extra), func(t *testing.T) {
			table := extendedTable(t, extra)
			snap := extendedSnapshot(table, 5)
			e, err := New(snap, Options{Attributes: table})
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, name := range table.Names() {
				if name != "battery_mah" {
					parts = append(parts, fmt.Sprintf(`"%s":{"gte":2}`, name))
				}
			}
			cons, err := search.ParseConstraintsWith(table, "{"+strings.Join(parts, ",")+"}")
			if err != nil {
				t.Fatal(err)
			}
			req := search.Request{Category: string(catalog.Phones), Query: "3000mAh", Constraints: cons, Sort: search.SortPriceAsc}
			res, err := e.Search(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Constraints["battery_mah"]; got.Gte == nil || *got.Gte != 3000 {
				t.Errorf("battery_mah from the query = %+v, want gte 3000", got)
			}
			want := struct{ Total, Unverified, Excluded int }{}
			wantStatus := map[string]map[string]string{}
			for _, p := range snap.Products {
				status := map[string]string{}
				switch search.Judge(table, p.Attributes, res.Constraints, status) {
				case search.Matched:
					want.Total++
				case search.Unverified:
					want.Unverified++
				default:
					want.Excluded++
					continue
				}
				wantStatus[p.ID] = status
			}
			if want != (struct{ Total, Unverified, Excluded int }{2, 1, 2}) {
				t.Fatalf("search.Judge counts %+v; the snapshot should give 2 matched, 1 unverified, 2 excluded", want)
			}
			got := struct{ Total, Unverified, Excluded int }{res.Total, res.UnverifiedTotal, res.ExcludedByConstraints}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("counts mismatch (-want +got):\n%s", diff)
			}
			gotStatus := map[string]map[string]string{}
			for _, h := range res.Products {
				gotStatus[h.Product.ID] = h.ConstraintStatus
			}
			if diff := cmp.Diff(wantStatus, gotStatus); diff != "" {
				t.Errorf("constraint_status mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtendedTableMessages checks that validation names and suggests an
// attribute the default table lacks.
func TestExtendedTableMessages(t *testing.T) {
	table := extendedTable(t, 0)
	tests := []struct {
		in, wantErr string
	}{
		{`{"battery":{"gte":4000}}`, `(did you mean battery_mah?); example: {"battery_mah":{"gte":5000}}`},
		{`{"weight":{"lte":2}}`, "power_w, wifi_gen, battery_mah;"},
		{`{"battery_mah":{"gte":-1}}`, "constraints.battery_mah.gte must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := search.ParseConstraintsWith(table, tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseConstraintsWith(%s) = %v, want an error containing %q", tt.in, err, tt.wantErr)
			}
		})
	}
	if _, err := search.ParseConstraints(`{"battery_mah":{"gte":4000}}`); err == nil {
		t.Error("the default table accepts battery_mah")
	}
}
