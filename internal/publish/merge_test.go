package publish

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"productsearch/internal/search/elastic"
)

// TestForceMerge publishes with the merge on: the index goes live merged
// into one segment; then, with merges stopped as a node stops them when
// its free disk is below the merge watermark, a publish waits MergeWait,
// says why and publishes the index unmerged instead of waiting forever.
func TestForceMerge(t *testing.T) {
	conn := node(t)
	alias := testAlias(t, conn)
	c, err := elastic.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var mu sync.Mutex
	var logs []string
	opt := testOptions(conn, alias)
	opt.ForceMerge, opt.MergeWait = true, time.Minute
	opt.Log = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, fmt.Sprintf(format, args...))
	}
	unmerged := func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, l := range logs {
			if strings.Contains(l, "publishing it unmerged") {
				return true
			}
		}
		return false
	}

	rep, err := Publish(ctx, version(40, 8), opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := segments(t, c, rep.Index); n != 1 {
		t.Errorf("%s has %d segments after the merge, want 1", rep.Index, n)
	}
	if unmerged() {
		t.Errorf("a merge that finished was reported unfinished: %q", logs)
	}

	// Segments beyond the bulk load's: a document added and deleted, each
	// step made searchable, so that the index has something to merge.
	opt.afterLoad = func(ctx context.Context, c *elastic.Client, index string) error {
		for _, step := range []struct{ method, path string }{
			{http.MethodPut, "/" + index + "/_doc/extra"},
			{http.MethodPost, "/" + index + "/_refresh"},
			{http.MethodDelete, "/" + index + "/_doc/extra"},
			{http.MethodPost, "/" + index + "/_refresh"},
		} {
			var body []byte
			if step.method == http.MethodPut {
				body = []byte(`{"id":"extra"}`)
			}
			if err := c.Do(ctx, step.method, step.path, nil, body, nil); err != nil {
				return err
			}
		}
		return nil
	}
	// The nodes read their free disk against the watermark every check
	// interval (default 5s).
	clusterSetting(t, c, "indices.merge.disk.check_interval", `"100ms"`)
	clusterSetting(t, c, "indices.merge.disk.watermark.high", `"10000gb"`) // no node has that much free disk
	t.Cleanup(func() {
		clusterSetting(t, c, "indices.merge.disk.watermark.high", "null")
		clusterSetting(t, c, "indices.merge.disk.check_interval", "null")
	})
	time.Sleep(time.Second)
	opt.MergeWait = 2 * time.Second
	start := time.Now()
	rep, err = Publish(ctx, version(40, 9), opt)
	if err != nil {
		t.Fatalf("publish with merges stopped: %v", err)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("publish with merges stopped took %s", d)
	}
	if !unmerged() {
		t.Errorf("the unfinished merge was not reported: %q", logs)
	}
	if got := targets(t, conn, alias); len(got) != 1 || got[0] != rep.Index {
		t.Errorf("alias names %v, want %s", got, rep.Index)
	}
	if n := engineCount(t, conn, alias); n != 40 {
		t.Errorf("the unmerged index serves %d products, want 40", n)
	}
}

// clusterSetting sets a transient cluster setting to v, a JSON value
// (null restores the default).
func clusterSetting(t *testing.T, c *elastic.Client, name, v string) {
	t.Helper()
	body := []byte(`{"transient":{"` + name + `":` + v + `}}`)
	if err := c.Do(context.Background(), http.MethodPut, "/_cluster/settings", nil, body, nil); err != nil {
		t.Fatal(err)
	}
}

// segments counts the searchable segments of index's primary shards.
func segments(t *testing.T, c *elastic.Client, index string) int {
	t.Helper()
	var rows []struct {
		Primary string `json:"prirep"`
	}
	q := map[string][]string{"format": {"json"}, "h": {"prirep"}}
	if err := c.Do(context.Background(), http.MethodGet, "/_cat/segments/"+index, q, nil, &rows); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		if r.Primary == "p" {
			n++
		}
	}
	return n
}
