package publish

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/elastic"
)

func TestParsePartition(t *testing.T) {
	tests := []struct {
		in      string
		want    Partition
		wantErr string
	}{
		{in: "0/1", want: Partition{0, 1}},
		{in: "3/4", want: Partition{3, 4}},
		{in: "4/4", wantErr: "counts from 0 to 3"},
		{in: "-1/4", wantErr: "counts from 0"},
		{in: "0/0", wantErr: "want 1 to 19"},
		{in: "0/20", wantErr: "want 1 to 19"},
		{in: "2", wantErr: "want i/N"},
		{in: "a/b", wantErr: "whole numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePartition(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParsePartition(%q) error = %v, want %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParsePartition(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func FuzzParsePartition(f *testing.F) {
	for _, s := range []string{"0/1", "3/4", "4/4", "x", "1/", "/2", "007/19"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePartition(s)
		if err != nil {
			return
		}
		if p.Validate() != nil {
			t.Fatalf("ParsePartition(%q) = %v, which does not validate", s, p)
		}
		if q, err := ParsePartition(p.String()); err != nil || q != p {
			t.Fatalf("round trip of %v: %v, %v", p, q, err)
		}
	})
}

// TestAssignCategories: every category goes to exactly one partition,
// every partition gets one at least, and the largest partition is no
// larger than it must be.
func TestAssignCategories(t *testing.T) {
	counts := map[string]int{"Laptops": 900, "Phones": 800, "TVs": 400, "Mice": 300, "Audio": 100, "Drones": 5}
	tests := []struct {
		count   int
		maxLoad int
	}{
		{1, 2505}, {2, 1300}, {3, 900}, {4, 900}, {19, 900},
	}
	for _, tt := range tests {
		parts := AssignCategories(counts, tt.count)
		if len(parts) != tt.count {
			t.Fatalf("%d partitions: got %d", tt.count, len(parts))
		}
		var all []string
		for i, p := range parts {
			if len(p) == 0 {
				t.Errorf("%d partitions: partition %d has no category", tt.count, i)
			}
			load := 0
			for _, c := range p {
				load += counts[c]
			}
			if load > tt.maxLoad {
				t.Errorf("%d partitions: partition %d holds %d products (%v), want at most %d", tt.count, i, load, p, tt.maxLoad)
			}
			all = append(all, p...)
		}
		slices.Sort(all)
		want := catalog.Categories()
		slices.Sort(want)
		if diff := cmp.Diff(want, all); diff != "" {
			t.Errorf("%d partitions: categories mismatch (-want +got):\n%s", tt.count, diff)
		}
		if diff := cmp.Diff(parts, AssignCategories(counts, tt.count)); diff != "" {
			t.Errorf("%d partitions: a second split differs:\n%s", tt.count, diff)
		}
	}
}

func TestCheckMarkers(t *testing.T) {
	m := func(i, n, products int, cat string) marker {
		return marker{Partition: i, Partitions: n, Products: products, Catalog: cat, Total: 30}
	}
	tests := []struct {
		name    string
		ms      []marker
		count   int
		wantErr string
	}{
		{name: "all done", ms: []marker{m(1, 2, 10, "a"), m(0, 2, 20, "a")}, count: 2},
		{name: "one missing", ms: []marker{m(0, 2, 20, "a")}, count: 2, wantErr: "partitions 1 of 2 are not done"},
		{name: "other count", ms: []marker{m(0, 3, 20, "a"), m(1, 2, 10, "a")}, count: 2, wantErr: "one of 3"},
		{name: "other catalogs", ms: []marker{m(0, 2, 20, "a"), m(1, 2, 10, "b")}, count: 2, wantErr: "different catalogs"},
		{name: "short", ms: []marker{m(0, 2, 20, "a"), m(1, 2, 9, "a")}, count: 2, wantErr: "29 products of a catalog of 30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := checkMarkers(tt.ms, tt.count)
			if tt.wantErr == "" {
				if err != nil || n != 30 {
					t.Fatalf("checkMarkers = %d, %v; want 30", n, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("checkMarkers error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// mixed is snapshot(n) spread over five categories.
func mixed(n int) *catalog.Snapshot {
	s := snapshot(n)
	cats := []string{"Laptops", "Phones", "TVs", "Mice", "Audio"}
	for i := range s.Products {
		s.Products[i].Category = cats[i%len(cats)]
	}
	return s
}

// documents returns every document of an index by id, and its _meta.
func documents(t *testing.T, conn elastic.Connection, index string) (map[string]map[string]any, map[string]any) {
	t.Helper()
	c, err := elastic.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	var ans struct {
		Hits struct {
			Hits []struct {
				ID     string         `json:"_id"`
				Source map[string]any `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	ctx := context.Background()
	if err := c.Do(ctx, http.MethodPost, "/"+index+"/_refresh", nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(ctx, http.MethodPost, "/"+index+"/_search", url.Values{"size": {"1000"}}, nil, &ans); err != nil {
		t.Fatal(err)
	}
	docs := map[string]map[string]any{}
	for _, h := range ans.Hits.Hits {
		docs[h.ID] = h.Source
	}
	var mapping map[string]struct {
		Mappings struct {
			Meta map[string]any `json:"_meta"`
		} `json:"mappings"`
	}
	if err := c.Do(ctx, http.MethodGet, "/"+index+"/_mapping", nil, nil, &mapping); err != nil {
		t.Fatal(err)
	}
	return docs, mapping[index].Mappings.Meta
}

// TestPartitionedPublish loads a catalog as two partitions and finishes the
// run: the index holds the same documents and _meta as one full publish.
// A run with a partition missing does not finish, and the alias stays.
func TestPartitionedPublish(t *testing.T) {
	conn := node(t)
	full, parted := testAlias(t, conn), testAlias(t, conn)
	ctx := context.Background()
	s := mixed(150)
	frep, err := Publish(ctx, s, testOptions(conn, full))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i := range 2 {
		rep, err := PublishPartition(ctx, s, Partition{i, 2}, "r1", testOptions(conn, parted))
		if err != nil {
			t.Fatalf("partition %d: %v", i, err)
		}
		total += rep.Indexed
		if rep.Published || len(targets(t, conn, parted)) != 0 {
			t.Fatalf("partition %d moved the alias", i)
		}
	}
	if total != 150 {
		t.Errorf("the partitions indexed %d products, want 150", total)
	}
	rep, err := Finish(ctx, "r1", 2, testOptions(conn, parted))
	if err != nil || !rep.Published {
		t.Fatalf("Finish = %+v, %v", rep, err)
	}
	live := RunIndex(parted, "r1")
	if diff := cmp.Diff([]string{live}, targets(t, conn, parted)); diff != "" {
		t.Fatalf("alias target mismatch (-want +got):\n%s", diff)
	}
	wantDocs, wantMeta := documents(t, conn, frep.Index)
	gotDocs, gotMeta := documents(t, conn, live)
	if diff := cmp.Diff(wantDocs, gotDocs); diff != "" {
		t.Errorf("documents differ from a full publish (-full +partitioned):\n%s", diff)
	}
	if diff := cmp.Diff(wantMeta, gotMeta); diff != "" {
		t.Errorf("_meta differs from a full publish (-full +partitioned):\n%s", diff)
	}

	// A second run whose partition 1 never finishes: nothing changes.
	next := mixed(160)
	if _, err := PublishPartition(ctx, next, Partition{0, 2}, "r2", testOptions(conn, parted)); err != nil {
		t.Fatal(err)
	}
	rep, err = Finish(ctx, "r2", 2, testOptions(conn, parted))
	if err == nil || !strings.Contains(err.Error(), "partitions 1 of 2 are not done") || rep.Published {
		t.Fatalf("Finish with a partition missing = %+v, %v; want it refused", rep, err)
	}
	if diff := cmp.Diff([]string{live}, targets(t, conn, parted)); diff != "" {
		t.Errorf("alias moved after a refused finish (-want +got):\n%s", diff)
	}
	res, err := engine(t, conn, parted).Search(ctx, search.Request{Category: "Laptops", Limit: 1})
	if err != nil || res.Total != 30 {
		t.Errorf("search after the refused finish: %v, %v; want the 30 laptops of the first run", res, err)
	}
}
