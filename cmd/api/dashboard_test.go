package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/search/elastic"
	"productsearch/internal/telemetry"
)

// The Grafana dashboard and the chart's PrometheusRule, whose queries must
// name only metrics the service exports.
const (
	dashboardPath = "../../charts/product-search/dashboards/product-search.json"
	alertsPath    = "../../charts/product-search/templates/monitoring.yaml"
)

// TestDashboardMetricsExist runs the API with the embedded engine and a
// Redis that does not answer (so the rate limiter's fallback metrics
// exist), sends a little REST and MCP traffic, some of it over the
// client's budget, scrapes its Prometheus
// listener, and checks that every metric named by a query of the
// dashboard or an alert is there. The Elasticsearch client's metrics come
// from the engine's own client, on telemetry of its own, after one request
// to a stand-in node: the process above does not talk to Elasticsearch.
func TestDashboardMetricsExist(t *testing.T) {
	rs := startRun(t, map[string]string{"REDIS_URL": "redis://127.0.0.1:1/0", "RATE_LIMIT_PER_HOUR": "5"},
		withEngine(fixtureEngine(t)))
	auth := []string{"Authorization", "Bearer " + benchKey}
	send(t, http.MethodGet, rs.URL+"/api/search?query=laptop", "", auth...)
	send(t, http.MethodGet, rs.URL+"/api/product/no-such-product", "", auth...)
	send(t, http.MethodGet, rs.URL+"/no/such/path", "")
	send(t, http.MethodPost, rs.URL+"/api/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call",`+
		`"params":{"name":"search_products","arguments":{"query":"laptop"}}}`, "Content-Type", "application/json")
	for range 6 { // past the client IP's budget: rejections too
		send(t, http.MethodGet, rs.URL+"/openapi.json", "")
	}
	exported := scrapeNames(t, rs.MetricsURL+"/metrics")
	for name := range elasticMetricNames(t) {
		exported[name] = true
	}

	queries := append(dashboardQueries(t, dashboardPath), alertQueries(t, alertsPath)...)
	if len(queries) < 20 {
		t.Fatalf("found only %d queries in the dashboard and the alerts", len(queries))
	}
	used := map[string]bool{}
	for _, q := range queries {
		names := promqlMetrics(q)
		if len(names) == 0 {
			t.Errorf("query names no metric: %s", q)
		}
		for _, n := range names {
			used[n] = true
			if !exported[n] {
				t.Errorf("%s is not exported; query: %s", n, q)
			}
		}
	}
	t.Logf("%d queries name %d metrics", len(queries), len(used))
}

// scrapeNames returns the names of the samples served at url.
func scrapeNames(t *testing.T, url string) map[string]bool {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return sampleNames(t, resp.Body)
}

// sampleNames returns the names of the samples of a Prometheus text
// exposition (histograms as their _bucket, _sum and _count series).
func sampleNames(t *testing.T, r io.Reader) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.IndexAny(line, "{ "); i > 0 {
			names[line[:i]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// elasticMetricNames returns the metric names the Elasticsearch client
// exports once it has sent a request.
func elasticMetricNames(t *testing.T) map[string]bool {
	t.Helper()
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Elastic-Product", "Elasticsearch")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer node.Close()
	tel, err := telemetry.New(context.Background(), telemetry.Options{ServiceName: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	c, err := elastic.NewClient(elastic.Connection{Addresses: []string{node.URL}, Meter: tel.Meter("test")})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Do(context.Background(), http.MethodPost, "/products/_search", nil, []byte(`{}`), nil); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	tel.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	return sampleNames(t, rec.Body)
}

// dashboardQueries returns the PromQL of every panel target and query
// variable of a Grafana dashboard.
func dashboardQueries(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Type  string `json:"type"`
				Query any    `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var qs []string
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			qs = append(qs, tg.Expr)
		}
	}
	labelValues := regexp.MustCompile(`^label_values\((.*),\s*\w+\)$`)
	for _, v := range d.Templating.List {
		if q, ok := v.Query.(map[string]any); ok && v.Type == "query" {
			s, _ := q["query"].(string)
			if m := labelValues.FindStringSubmatch(s); m != nil {
				qs = append(qs, m[1]) // the series selector
			}
		}
	}
	return qs
}

// alertQueries returns the expr of every rule in the chart's template,
// with the template actions left out (they fill in label values and
// thresholds, never metric names).
func alertQueries(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	action := regexp.MustCompile(`\{\{.*?\}\}`)
	lines := strings.Split(action.ReplaceAllString(string(b), ""), "\n")
	var qs []string
	for i := 0; i < len(lines); i++ {
		before, expr, ok := strings.Cut(lines[i], "expr:")
		if !ok {
			continue
		}
		expr = strings.TrimSpace(expr)
		if expr == ">-" || expr == ">" { // folded over the lines indented deeper
			indent := len(before) + 1
			expr = ""
			for i+1 < len(lines) && len(lines[i+1])-len(strings.TrimLeft(lines[i+1], " ")) > indent {
				i++
				expr += " " + strings.TrimSpace(lines[i])
			}
		}
		qs = append(qs, strings.TrimSpace(expr))
	}
	return qs
}

// promqlMetrics returns the metric names a PromQL expression selects: the
// identifiers left once strings, label matchers, ranges, function and
// aggregation names, keywords and the label lists of by, without, on,
// ignoring, group_left and group_right are taken out. (The Prometheus
// parser would do this exactly, but its module moves the Kubernetes
// libraries the operator is built on to other versions.)
func promqlMetrics(expr string) []string {
	s := stripStrings(expr)
	s = stripBetween(s, '{', '}')
	s = stripBetween(s, '[', ']')
	keywords := []string{"and", "or", "unless", "bool", "offset", "inf", "nan", // and aggregations, also written "sum by (l) (...)"
		"sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk", "quantile"}
	grouping := []string{"by", "without", "on", "ignoring", "group_left", "group_right"}
	var names []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isIdentStart(c):
			j := i
			for j < len(s) && isIdentChar(s[j]) {
				j++
			}
			word := s[i:j]
			k := j
			for k < len(s) && s[k] == ' ' {
				k++
			}
			called := k < len(s) && s[k] == '('
			switch lower := strings.ToLower(word); {
			case slices.Contains(grouping, lower):
				if called { // skip the label list
					if end := strings.IndexByte(s[k:], ')'); end >= 0 {
						j = k + end + 1
					}
				}
			case called, slices.Contains(keywords, lower):
			default:
				if !slices.Contains(names, word) {
					names = append(names, word)
				}
			}
			i = j
		case c >= '0' && c <= '9' || c == '.' || c == '$': // numbers, durations, dashboard variables
			i++
			for i < len(s) && (isIdentChar(s[i]) || s[i] == '.') {
				i++
			}
		default:
			i++
		}
	}
	return names
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// stripStrings removes quoted strings ("...", '...', `...`).
func stripStrings(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '"' && q != '\'' && q != '`' {
			b.WriteByte(q)
			continue
		}
		for i++; i < len(s) && s[i] != q; i++ {
			if s[i] == '\\' && q != '`' {
				i++
			}
		}
	}
	return b.String()
}

// stripBetween removes every open...close span (label matchers, ranges).
func stripBetween(s string, open, close byte) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == open:
			depth++
		case s[i] == close && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func TestPromQLMetrics(t *testing.T) {
	tests := []struct {
		expr string
		want []string
	}{
		{`up`, []string{"up"}},
		{`rate(http_requests_total{code=~"5..", path="/a{b}"}[5m])`, []string{"http_requests_total"}},
		{`histogram_quantile(0.95, sum by (le, http_route) (rate(x_seconds_bucket{job=~"$job"}[$__rate_interval])))`,
			[]string{"x_seconds_bucket"}},
		{`sum without(instance) (a) / ignoring(pod) group_left(version) b > bool 0.5`, []string{"a", "b"}},
		{`max(c offset 1h) > 3600 and on (pod) d unless e or f`, []string{"c", "d", "e", "f"}},
		{`count by (version) (productsearch_build_info{namespace=~"$namespace"})`, []string{"productsearch_build_info"}},
		{`min(m:recorded:rate5m) == 0`, []string{"m:recorded:rate5m"}},
		{`{__name__="x"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, promqlMetrics(tt.expr)); diff != "" {
				t.Errorf("metrics mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
