package publish

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

func TestInPlace(t *testing.T) {
	next := &State{Alias: "products", Mapping: mappingKey(), Shards: 1}
	prev := func(mod func(*State)) *State {
		s := &State{Alias: "products", Index: "products-a", Mapping: mappingKey(), Shards: 1}
		if mod != nil {
			mod(s)
		}
		return s
	}
	tests := []struct {
		name    string
		prev    *State
		current []string
		full    bool
		want    string
	}{
		{"updatable", prev(nil), []string{"products-a"}, false, ""},
		{"full", prev(nil), []string{"products-a"}, true, "a full publish"},
		{"no state", nil, []string{"products-a"}, false, "no state"},
		{"alias moved", prev(nil), []string{"products-b"}, false, "names products-b, not the state's products-a"},
		{"no alias", prev(nil), nil, false, "names no index"},
		{"other alias", prev(func(s *State) { s.Alias = "x" }), []string{"products-a"}, false, "of alias x"},
		{"mapping", prev(func(s *State) { s.Mapping = "1:x" }), []string{"products-a"}, false, "mapping changed"},
		{"shards", prev(func(s *State) { s.Shards = 3 }), []string{"products-a"}, false, "shards changed from 3 to 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := inPlace(tt.prev, next, tt.current, tt.full)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("inPlace = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestIncrementalPublish: after a first publish into a new index, a
// catalog with one product changed sends that product alone into the live
// index, a product that left is deleted, and a changed mapping makes a new
// index again. Searches see the changes.
func TestIncrementalPublish(t *testing.T) {
	conn := node(t)
	alias := testAlias(t, conn)
	ctx := context.Background()
	s := snapshot(100)
	rep, st, err := PublishIncremental(ctx, s, nil, false, testOptions(conn, alias))
	if err != nil || rep.Incremental || rep.Indexed != 100 {
		t.Fatalf("first publish = %+v, %v; want a new index of 100", rep, err)
	}
	first := rep.Index

	tests := []struct {
		name        string
		change      func(*catalog.Snapshot) *catalog.Snapshot
		prev        func(*State) *State
		wantInPlace bool
		wantIndexed int
		wantRemoved int
		wantTotal   int
	}{
		{name: "nothing changed", change: func(s *catalog.Snapshot) *catalog.Snapshot { return s },
			wantInPlace: true, wantIndexed: 0, wantTotal: 100},
		{name: "one product out of stock", change: func(s *catalog.Snapshot) *catalog.Snapshot {
			s.Products[10].Availability = catalog.OutOfStock
			return s
		}, wantInPlace: true, wantIndexed: 1, wantTotal: 100},
		{name: "the last product in browse order leaves", change: func(s *catalog.Snapshot) *catalog.Snapshot {
			s.Products = s.Products[:99]
			return s
		}, wantInPlace: true, wantIndexed: 0, wantRemoved: 1, wantTotal: 99},
		{name: "mapping changed", change: func(s *catalog.Snapshot) *catalog.Snapshot { return s },
			prev: func(p *State) *State { q := *p; q.Mapping = "0:old"; return &q }, wantIndexed: 99, wantTotal: 99},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s = tt.change(s)
			prev := st
			if tt.prev != nil {
				prev = tt.prev(st)
			}
			rep, next, err := PublishIncremental(ctx, s, prev, false, testOptions(conn, alias))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Incremental != tt.wantInPlace || rep.Indexed != tt.wantIndexed || rep.Removed != tt.wantRemoved || !rep.Published {
				t.Errorf("report = %+v; want in place %v, %d indexed, %d removed", rep, tt.wantInPlace, tt.wantIndexed, tt.wantRemoved)
			}
			if tt.wantInPlace && rep.Index != first || !tt.wantInPlace && rep.Index == first {
				t.Errorf("index %s (first %s), in place %v", rep.Index, first, tt.wantInPlace)
			}
			if diff := cmp.Diff([]string{rep.Index}, targets(t, conn, alias)); diff != "" {
				t.Errorf("alias target mismatch (-want +got):\n%s", diff)
			}
			res, err := engine(t, conn, alias).Search(ctx, search.Request{Category: "Laptops", Limit: 1})
			if err != nil || res.Total != tt.wantTotal {
				t.Errorf("search: %d products, %v; want %d", res.Total, err, tt.wantTotal)
			}
			st = next
		})
	}
}
