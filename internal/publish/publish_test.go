package publish

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/config"
	"productsearch/internal/search"
	"productsearch/internal/search/elastic"
)

// node returns the connection to ELASTICSEARCH_URL, or skips the test.
func node(t *testing.T) elastic.Connection {
	t.Helper()
	if os.Getenv(config.EnvESURL) == "" {
		t.Skip("ELASTICSEARCH_URL is not set: start a node with scripts/elasticsearch.sh start and export the URL it prints")
	}
	o, err := optionsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	return o.Connection
}

// testAlias returns a fresh alias and deletes its versions after the test.
func testAlias(t *testing.T, conn elastic.Connection) string {
	t.Helper()
	b := make([]byte, 4)
	rand.Read(b)
	alias := "test-publish-" + hex.EncodeToString(b)
	t.Cleanup(func() {
		for _, v := range versions(t, conn, alias) {
			c, _ := elastic.NewClient(conn)
			if err := c.Do(context.Background(), http.MethodDelete, "/"+v, nil, nil, nil); err != nil && !elastic.IsNotFound(err) {
				t.Errorf("delete %s: %v", v, err)
			}
		}
	})
	return alias
}

// versions lists the indices of an alias, sorted.
func versions(t *testing.T, conn elastic.Connection, alias string) []string {
	t.Helper()
	c, err := elastic.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Index string `json:"index"`
	}
	q := url.Values{"format": {"json"}, "h": {"index"}}
	if err := c.Do(context.Background(), http.MethodGet, "/_cat/indices/"+alias+"-*", q, nil, &rows); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.Index)
	}
	slices.Sort(out)
	return out
}

func targets(t *testing.T, conn elastic.Connection, alias string) []string {
	t.Helper()
	c, err := elastic.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	got, err := aliasTargets(context.Background(), c, alias)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// version returns snapshot(n) synced at the given hour, titles marked with
// the hour so that searches tell versions apart.
func version(n, hour int) *catalog.Snapshot {
	s := snapshot(n)
	s.Manifest.SyncTime = time.Date(2025, 6, 1, hour, 0, 0, 0, time.UTC)
	for i := range s.Products {
		s.Products[i].Title += fmt.Sprintf(" v%d", hour)
	}
	return s
}

func testOptions(conn elastic.Connection, alias string) Options {
	opt := DefaultOptions(conn, alias)
	opt.ForceMerge = false
	opt.BatchBytes = 16 << 10 // several batches even for small snapshots
	return opt
}

func engine(t *testing.T, conn elastic.Connection, alias string) *elastic.Engine {
	t.Helper()
	opt := elastic.DefaultOptions()
	opt.Connection, opt.Index, opt.Timeout = conn, alias, 30*time.Second
	// The health view refreshes often, so that it shows a publish soon.
	opt.HealthInterval, opt.HealthStale = 50*time.Millisecond, 30*time.Second
	e, err := elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestPublishUnderLoad publishes three versions while searches and
// look-ups run: no request fails, every answer comes from one complete
// version, and the oldest version is deleted (two are kept).
func TestPublishUnderLoad(t *testing.T) {
	conn := node(t)
	alias := testAlias(t, conn)
	ctx := context.Background()
	sizes := map[int]int{8: 300, 9: 320, 10: 310}
	if _, err := Publish(ctx, version(sizes[8], 8), testOptions(conn, alias)); err != nil {
		t.Fatal(err)
	}
	e := engine(t, conn, alias)
	var (
		stop     atomic.Bool
		wg       sync.WaitGroup
		requests atomic.Int64
		mu       sync.Mutex
		failures []string
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	queries := []string{"category=Laptops&sort=price_asc&limit=5", "query=laptop&limit=3", "query=product+7"}
	for w := range 4 {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				requests.Add(1)
				if (i+w)%4 == 3 {
					p, err := e.Product(ctx, "o042")
					if err != nil || p.ID != "p042" {
						fail("Product(o042) = %v, %v", p, err)
					}
					continue
				}
				v, _ := url.ParseQuery(queries[(i+w)%len(queries)])
				req, err := search.ParseQuery(v)
				if err != nil {
					fail("%v", err)
					return
				}
				res, err := e.Search(ctx, req)
				if err != nil {
					fail("Search(%s): %v", v.Encode(), err)
					continue
				}
				// Every answer is one version: its total is a version's
				// size and its titles carry one version mark.
				if req.Query == "" && res.Total != sizes[8] && res.Total != sizes[9] && res.Total != sizes[10] {
					fail("Search(%s) total %d is no version's size", v.Encode(), res.Total)
				}
				marks := map[string]bool{}
				for _, h := range res.Products {
					marks[h.Product.Title[strings.LastIndexByte(h.Product.Title, ' ')+1:]] = true
				}
				if len(marks) > 1 {
					fail("Search(%s) mixes versions %v", v.Encode(), marks)
				}
			}
		})
	}
	for _, hour := range []int{9, 10} {
		time.Sleep(200 * time.Millisecond)
		rep, err := Publish(ctx, version(sizes[hour], hour), testOptions(conn, alias))
		if err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("publish v%d: %v", hour, err)
		}
		if rep.Indexed != sizes[hour] || !rep.Published || rep.Batches < 2 {
			t.Errorf("publish v%d report: %+v", hour, rep)
		}
	}
	time.Sleep(200 * time.Millisecond)
	stop.Store(true)
	wg.Wait()
	if len(failures) > 0 {
		t.Errorf("%d requests, failures:\n%s", requests.Load(), strings.Join(failures, "\n"))
	}
	if requests.Load() < 20 {
		t.Errorf("only %d requests ran during the publishes", requests.Load())
	}
	want := []string{alias + "-20250601t090000z", alias + "-20250601t100000z"}
	if diff := cmp.Diff(want, versions(t, conn, alias)); diff != "" {
		t.Errorf("versions kept mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[1:], targets(t, conn, alias)); diff != "" {
		t.Errorf("alias target mismatch (-want +got):\n%s", diff)
	}
	// The health view shows the last version within a refresh or two.
	wantHealth := search.Health{Status: "ok", Items: sizes[10], LastUpdate: time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)}
	var h search.Health
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if h, err = e.Health(ctx); err == nil && h.Items == wantHealth.Items && h.LastUpdate.Equal(wantHealth.LastUpdate) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantHealth, h); diff != "" {
		t.Errorf("health mismatch (-want +got):\n%s", diff)
	}
}

// TestFailedPublishKeepsPrevious makes publishes fail in several ways and
// checks that each leaves the previous index serving and no new index
// behind.
func TestFailedPublishKeepsPrevious(t *testing.T) {
	conn := node(t)
	alias := testAlias(t, conn)
	ctx := context.Background()
	if _, err := Publish(ctx, version(100, 8), testOptions(conn, alias)); err != nil {
		t.Fatal(err)
	}
	live := alias + "-20250601t080000z"
	immense := version(100, 9)
	immense.Products[17].Title = "Laptop " + strings.Repeat("x", 40000)
	tests := []struct {
		name    string
		s       *catalog.Snapshot
		opt     func(*Options)
		wantErr string
		failed  int
	}{
		{
			name: "count mismatch",
			s:    version(100, 9),
			opt: func(o *Options) {
				o.beforeVerify = func(ctx context.Context, c *elastic.Client, index string) error {
					q := url.Values{"refresh": {"true"}}
					return c.Do(ctx, http.MethodDelete, "/"+index+"/_doc/p003", q, nil, nil)
				}
			},
			wantErr: "holds 99 documents, the snapshot 100 products",
		},
		{
			name:    "a document Elasticsearch rejects",
			s:       immense,
			wantErr: "1 of 100 products were not indexed (first: p017",
			failed:  1,
		},
		{
			name:    "catalog shrinks",
			s:       version(60, 9),
			wantErr: "60 products against 100 published",
		},
		{
			name: "cancelled",
			s:    version(100, 9),
			opt: func(o *Options) {
				o.beforeVerify = func(context.Context, *elastic.Client, string) error { return context.Canceled }
			},
			wantErr: "context canceled",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := testOptions(conn, alias)
			if tt.opt != nil {
				tt.opt(&opt)
			}
			rep, err := Publish(ctx, tt.s, opt)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Publish error = %v, want it to contain %q", err, tt.wantErr)
			}
			if rep == nil || rep.Published || rep.Failed != tt.failed || rep.Error == "" {
				t.Errorf("report = %+v, want unpublished with %d failures and the error", rep, tt.failed)
			}
			if diff := cmp.Diff([]string{live}, targets(t, conn, alias)); diff != "" {
				t.Errorf("alias target mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{live}, versions(t, conn, alias)); diff != "" {
				t.Errorf("indices mismatch (-want +got):\n%s", diff)
			}
			res, err := engine(t, conn, alias).Search(ctx, search.Request{Category: "Laptops", Limit: 1})
			if err != nil || res.Total != 100 {
				t.Errorf("search after the failed publish: %v, %v; want the previous 100 products", res, err)
			}
		})
	}
	// Forced, the smaller catalog goes live.
	opt := testOptions(conn, alias)
	opt.Force = true
	if _, err := Publish(ctx, version(60, 9), opt); err != nil {
		t.Fatalf("forced publish: %v", err)
	}
	if diff := cmp.Diff([]string{alias + "-20250601t090000z"}, targets(t, conn, alias)); diff != "" {
		t.Errorf("alias target after the forced publish mismatch (-want +got):\n%s", diff)
	}
}

// TestRepublishSameSnapshot publishes one snapshot twice: the second
// version gets a suffix, and the alias moves to it.
func TestRepublishSameSnapshot(t *testing.T) {
	conn := node(t)
	alias := testAlias(t, conn)
	ctx := context.Background()
	for range 2 {
		if _, err := Publish(ctx, version(10, 8), testOptions(conn, alias)); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{alias + "-20250601t080000z-2"}, targets(t, conn, alias)); diff != "" {
		t.Errorf("alias target mismatch (-want +got):\n%s", diff)
	}
}

func TestAliasThatIsAnIndex(t *testing.T) {
	conn := node(t)
	alias := testAlias(t, conn)
	c, err := elastic.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	// An index named like the alias (as <alias>-x so that cleanup finds it
	// under the alias pattern, the alias is that name).
	name := alias + "-x"
	if err := c.Do(context.Background(), http.MethodPut, "/"+name, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	_, err = Publish(context.Background(), version(5, 8), testOptions(conn, name))
	if err == nil || !strings.Contains(err.Error(), "is an index, not an alias") {
		t.Fatalf("Publish error = %v, want it to say the alias is an index", err)
	}
	if errors.Is(err, ErrShrink) {
		t.Errorf("error %v is ErrShrink", err)
	}
}

// optionsFromEnv returns the engine options the ELASTICSEARCH_* variables
// of the test's environment give.
func optionsFromEnv() (elastic.Options, error) {
	es, err := config.LoadElasticsearch(os.LookupEnv)
	if err != nil {
		return elastic.Options{}, err
	}
	return elastic.OptionsFromConfig(es)
}

// TestShardsAndReplicas publishes with several shards and replicas: the
// index is loaded without replicas and gets them before the alias moves
// (the single test node holds no replica, so the wait is for yellow).
func TestShardsAndReplicas(t *testing.T) {
	conn := node(t)
	tests := []struct {
		name             string
		shards, replicas int
	}{
		{"defaults", 0, 0},
		{"two shards", 2, 0},
		{"two shards and a replica", 2, 1},
		{"two replicas", 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			alias := testAlias(t, conn)
			opt := testOptions(conn, alias)
			opt.Settings.Shards, opt.Settings.Replicas = tt.shards, tt.replicas
			var during string
			opt.beforeVerify = func(ctx context.Context, c *elastic.Client, index string) error {
				during = indexSetting(t, c, index, "number_of_replicas")
				return nil
			}
			rep, err := Publish(context.Background(), version(30, 8), opt)
			if err != nil {
				t.Fatal(err)
			}
			c, err := elastic.NewClient(conn)
			if err != nil {
				t.Fatal(err)
			}
			got := [3]string{during, indexSetting(t, c, rep.Index, "number_of_shards"), indexSetting(t, c, rep.Index, "number_of_replicas")}
			want := [3]string{"0", strconv.Itoa(max(tt.shards, 1)), strconv.Itoa(tt.replicas)}
			if got != want {
				t.Errorf("replicas while loading, shards, replicas = %q, want %q", got, want)
			}
			if n := engineCount(t, conn, alias); n != 30 {
				t.Errorf("alias holds %d products, want 30", n)
			}
		})
	}
}

// indexSetting reads one index.* setting of an index.
func indexSetting(t *testing.T, c *elastic.Client, index, name string) string {
	t.Helper()
	var ans map[string]struct {
		Settings struct {
			Index map[string]any `json:"index"`
		} `json:"settings"`
	}
	if err := c.Do(context.Background(), http.MethodGet, "/"+index+"/_settings", nil, nil, &ans); err != nil {
		t.Fatal(err)
	}
	v, _ := ans[index].Settings.Index[name].(string)
	return v
}

// engineCount counts the products an engine finds under alias.
func engineCount(t *testing.T, conn elastic.Connection, alias string) int {
	t.Helper()
	res, err := engine(t, conn, alias).Search(context.Background(), search.Request{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return res.Total
}
