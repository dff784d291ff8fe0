package elastic_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
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
	"productsearch/internal/search/searchtest"
)

func TestOptionsFromConfig(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    elastic.Options
		wantErr string
	}{
		{
			name: "defaults",
			env:  map[string]string{"ELASTICSEARCH_URL": "http://127.0.0.1:9200"},
			want: elastic.Options{Connection: elastic.Connection{Addresses: []string{"http://127.0.0.1:9200"}},
				Index: "products", Timeout: 2 * time.Second, MaxCandidates: search.DefaultMaxCandidates},
		},
		{
			name: "everything",
			env: map[string]string{
				"ELASTICSEARCH_URL": " https://a:9200/ , https://b:9200", "ELASTICSEARCH_INDEX": "catalog",
				"ELASTICSEARCH_API_KEY": "a2V5", "ELASTICSEARCH_USERNAME": "u", "ELASTICSEARCH_PASSWORD": "p",
				"ELASTICSEARCH_CA_FILE": "/etc/ca.pem", "ELASTICSEARCH_TIMEOUT": "750ms",
				"ELASTICSEARCH_HEALTH_INTERVAL": "1s", "ELASTICSEARCH_HEALTH_STALE": "4s",
			},
			want: elastic.Options{
				Connection: elastic.Connection{Addresses: []string{"https://a:9200", "https://b:9200"}, APIKey: "a2V5",
					Username: "u", Password: "p", CACertFile: "/etc/ca.pem"},
				Index: "catalog", Timeout: 750 * time.Millisecond, MaxCandidates: search.DefaultMaxCandidates,
				HealthInterval: time.Second, HealthStale: 4 * time.Second,
			},
		},
		{name: "no url", env: map[string]string{}, wantErr: "ELASTICSEARCH_URL: set the cluster's node URLs"},
		{name: "not a url", env: map[string]string{"ELASTICSEARCH_URL": "localhost:9200"}, wantErr: "is not an http or https URL"},
		{name: "bad timeout", env: map[string]string{"ELASTICSEARCH_URL": "http://x:9200", "ELASTICSEARCH_TIMEOUT": "2"},
			wantErr: "ELASTICSEARCH_TIMEOUT"},
		{name: "bad index", env: map[string]string{"ELASTICSEARCH_URL": "http://x:9200", "ELASTICSEARCH_INDEX": "Products"},
			wantErr: "not a valid index or alias name"},
		{name: "username without password", env: map[string]string{"ELASTICSEARCH_URL": "http://x:9200", "ELASTICSEARCH_USERNAME": "u"},
			wantErr: "both a username and a password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := optionsFrom(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("options mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// optionsFrom reads the cluster settings through lookup as the processes do.
func optionsFrom(lookup func(string) (string, bool)) (elastic.Options, error) {
	es, err := config.LoadElasticsearch(lookup)
	if err != nil {
		return elastic.Options{}, err
	}
	return elastic.OptionsFromConfig(es)
}

func TestNewErrors(t *testing.T) {
	good := elastic.Connection{Addresses: []string{"http://127.0.0.1:9200"}}
	tests := []struct {
		name string
		opt  elastic.Options
		want string
	}{
		{"negative MaxCandidates", elastic.Options{Connection: good, MaxCandidates: -1}, "MaxCandidates -1 is negative"},
		{"no address", elastic.Options{}, "no Elasticsearch address"},
		{"missing CA file", elastic.Options{Connection: elastic.Connection{Addresses: good.Addresses, CACertFile: "/nonexistent/ca.pem"}}, "CA file"},
		{"index with a wildcard", elastic.Options{Connection: good, Index: "products*"}, "not a valid index"},
		{"negative health interval", elastic.Options{Connection: good, HealthInterval: -time.Second}, "negative health interval"},
		{"staleness within one interval", elastic.Options{Connection: good, HealthInterval: 10 * time.Second, HealthStale: 10 * time.Second},
			"not longer than the refresh interval"},
		{"staleness within the default interval", elastic.Options{Connection: good, HealthStale: time.Second}, "not longer than the refresh interval"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := elastic.New(tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// fakeNode is an HTTP server that answers like Elasticsearch with the
// given handler.
func fakeNode(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Elastic-Product", "Elasticsearch")
		w.Header().Set("Content-Type", "application/json")
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func engineAt(t *testing.T, addr string, timeout time.Duration) *elastic.Engine {
	t.Helper()
	opt := elastic.DefaultOptions()
	opt.Addresses = []string{addr}
	opt.Timeout = timeout
	e, err := elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestFailuresAreUnavailable checks that every way the cluster can fail
// comes back as search.ErrUnavailable, within the engine's timeout, from
// Search and Product, and as a degraded Health.
func TestFailuresAreUnavailable(t *testing.T) {
	hang := make(chan struct{})
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	tests := []struct {
		name string
		addr string
	}{
		{"hanging node", fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		})},
		{"error answer", fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":{"type":"cluster_block_exception","reason":"blocked"},"status":503}`))
		})},
		{"missing alias", fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":{"type":"index_not_found_exception","reason":"no such index [products]"},"status":404}`))
		})},
		{"timed-out search", fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"timed_out":true,"_shards":{"total":1,"failed":0},"hits":{"total":{"value":0},"hits":[]}}`))
		})},
		{"failed shard", fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"timed_out":false,"_shards":{"total":2,"failed":1},"hits":{"total":{"value":0},"hits":[]}}`))
		})},
		{"not json", fakeNode(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`<html>`)) })},
		{"connection refused", closed.URL},
	}
	// Registered after the servers, so run before their Close.
	t.Cleanup(func() { close(hang) })
	queries := []string{"category=Laptops", "query=rog+strix&category=Laptops",
		`category=Laptops&constraints={"memory_gb":{"gte":16}}`, "sort=price_asc&brand=Sony"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const timeout = 200 * time.Millisecond
			e := engineAt(t, tt.addr, timeout)
			ctx := context.Background()
			for _, q := range queries {
				start := time.Now()
				_, err := e.Search(ctx, searchtest.MustParse(t, q))
				if !errors.Is(err, search.ErrUnavailable) {
					t.Errorf("Search(%s) error = %v, want ErrUnavailable", q, err)
				}
				// Generous: the bound is the timeout, the slack is for a
				// loaded machine, the point is that nothing hangs.
				if d := time.Since(start); d > timeout+5*time.Second {
					t.Errorf("Search(%s) took %s with a %s timeout", q, d, timeout)
				}
			}
			if _, err := e.Product(ctx, "p1"); !errors.Is(err, search.ErrUnavailable) {
				t.Errorf("Product error = %v, want ErrUnavailable", err)
			}
			h, err := e.Health(ctx)
			if err != nil || h.Status != "degraded" {
				t.Errorf("Health = %+v, %v; want degraded, nil", h, err)
			}
		})
	}
}

func TestInvalidRequestsAreNotSent(t *testing.T) {
	e := engineAt(t, fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request sent for an invalid search: %s %s", r.Method, r.URL)
	}), time.Second)
	_, err := e.Search(context.Background(), search.Request{Constraints: search.Constraints{"memory_gb": {}}})
	var inv *search.InvalidError
	if !errors.As(err, &inv) {
		t.Fatalf("Search error = %v, want *search.InvalidError", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Search(ctx, search.Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Search on a cancelled context = %v, want context.Canceled", err)
	}
}

func TestHealthReadsMeta(t *testing.T) {
	sync := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	meta := fmt.Sprintf(`{"products-20250601t080000z":{"mappings":{"_meta":{"schema":%d,"sync_time":"2025-06-01T08:00:00Z","products":26000}}}}`,
		elastic.SchemaVersion)
	const counted = `{"count":26000,"_shards":{"total":1,"successful":1,"failed":0}}`
	tests := []struct {
		name        string
		body, count string
		want        search.Health
	}{
		{"ok", meta, counted, search.Health{Status: "ok", Items: 26000, LastUpdate: sync}},
		{"earlier schema", fmt.Sprintf(`{"products-20250601t080000z":{"mappings":{"_meta":{"schema":%d,"sync_time":"2025-06-01T08:00:00Z","products":26000}}}}`, elastic.SchemaVersion-1),
			counted, search.Health{Status: "degraded"}},
		{"other schema", `{"products-20250601t080000z":{"mappings":{"_meta":{"schema":99,"sync_time":"2025-06-01T08:00:00Z","products":5}}}}`,
			counted, search.Health{Status: "degraded"}},
		{"no meta", `{"products-20250601t080000z":{"mappings":{}}}`, counted, search.Health{Status: "degraded"}},
		{"two indices", fmt.Sprintf(`{"a":{"mappings":{"_meta":{"schema":%[1]d}}},"b":{"mappings":{"_meta":{"schema":%[1]d}}}}`, elastic.SchemaVersion), counted,
			search.Health{Status: "degraded"}},
		{"shard failed", meta, `{"count":0,"_shards":{"total":1,"successful":0,"failed":1}}`, search.Health{Status: "degraded"}},
		{"count differs", meta, `{"count":25999,"_shards":{"total":1,"successful":1,"failed":0}}`, search.Health{Status: "degraded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := engineAt(t, fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/products/_mapping":
					w.Write([]byte(tt.body))
				case "/products-20250601t080000z/_count":
					w.Write([]byte(tt.count))
				default:
					t.Errorf("health asked for %s", r.URL.Path)
					w.WriteHeader(http.StatusNotFound)
				}
			}), time.Second)
			got, err := e.Health(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("health mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPrepareErrors(t *testing.T) {
	tests := []struct {
		name string
		s    *catalog.Snapshot
		want string
	}{
		{"nil snapshot", nil, "nil snapshot"},
		{"duplicate id", &catalog.Snapshot{Products: []catalog.Product{{ID: "a", Title: "A"}, {ID: "a", Title: "B"}}}, `duplicate product id "a"`},
		{"empty id", &catalog.Snapshot{Products: []catalog.Product{{Title: "A"}}}, "has no id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := elastic.Prepare(tt.s)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Prepare error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func FuzzParseError(f *testing.F) {
	f.Add(503, []byte(`{"error":{"type":"t","reason":"r","caused_by":{"type":"c","reason":"d"}},"status":503}`))
	f.Add(404, []byte(`{"error":"alias [x] missing","status":404}`))
	f.Add(500, []byte(`<html>oops</html>`))
	f.Add(400, []byte(`{"error":null}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		err := elastic.ParseError(status, body)
		if err == nil || err.Error() == "" {
			t.Fatalf("ParseError(%d, %q) = %v, want a message", status, body, err)
		}
	})
}

// TestProductRequests counts the requests of a product look-up: a
// canonical id is one get, an offer id a get and a search.
func TestProductRequests(t *testing.T) {
	const source = `{"product":{"id":"p1","title":"Widget","price":10,"currency":"GBP","offers":[]}}`
	var paths []string
	var mu sync.Mutex
	e := engineAt(t, fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.EscapedPath())
		mu.Unlock()
		switch r.URL.EscapedPath() {
		case "/products/_doc/p1":
			w.Write([]byte(`{"_index":"products-1","_id":"p1","found":true,"_source":` + source + `}`))
		case "/products/_search":
			w.Write([]byte(`{"timed_out":false,"_shards":{"total":1,"failed":0},"hits":{"total":{"value":1},"hits":[{"_index":"products-1","_id":"p1","_source":` + source + `}]}}`))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"_index":"products-1","_id":"x","found":false}`))
		}
	}), time.Second)
	tests := []struct {
		id   string
		want []string
	}{
		{"p1", []string{"GET /products/_doc/p1"}},
		{"offer-1", []string{"GET /products/_doc/offer-1", "POST /products/_search"}},
		{"a/b", []string{"GET /products/_doc/a%2Fb", "POST /products/_search"}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			paths = nil
			p, err := e.Product(context.Background(), tt.id)
			if err != nil || p.ID != "p1" {
				t.Fatalf("Product(%q) = %v, %v; want p1", tt.id, p, err)
			}
			if diff := cmp.Diff(tt.want, paths); diff != "" {
				t.Errorf("requests mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRetriesOnAnotherNode gives the engine a failing node and a working
// one: every look-up succeeds, retried on the working node.
func TestRetriesOnAnotherNode(t *testing.T) {
	const doc = `{"_index":"products-1","_id":"p1","found":true,"_source":{"product":{"id":"p1","title":"Widget","price":10,"currency":"GBP","offers":[]}}}`
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	answer := func(status int, body string) string {
		return fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			w.Write([]byte(body))
		})
	}
	tests := []struct {
		name string
		bad  string
	}{
		{"connection refused", closed.URL},
		{"full queue", answer(http.StatusTooManyRequests, `{"error":{"type":"es_rejected_execution_exception","reason":"queue full"},"status":429}`)},
		{"unavailable", answer(http.StatusServiceUnavailable, `{"error":{"type":"no_shard_available_action_exception","reason":"no shard"},"status":503}`)},
		{"bad gateway", answer(http.StatusBadGateway, `bad gateway`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var good atomic.Int64
			opt := elastic.DefaultOptions()
			opt.Addresses = []string{tt.bad, fakeNode(t, func(w http.ResponseWriter, r *http.Request) {
				good.Add(1)
				w.Write([]byte(doc))
			})}
			e, err := elastic.New(opt)
			if err != nil {
				t.Fatal(err)
			}
			for i := range 6 {
				if _, err := e.Product(context.Background(), "p1"); err != nil {
					t.Fatalf("look-up %d: %v", i, err)
				}
			}
			if n := good.Load(); n != 6 {
				t.Errorf("the working node answered %d look-ups, want 6", n)
			}
		})
	}
}
