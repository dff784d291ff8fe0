package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/config"
	"productsearch/internal/ingest"
	"productsearch/internal/publish"
	"productsearch/internal/search/elastic"
)

func TestPublishFlags(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		want    publishFlags
		wantErr string
	}{
		{name: "off by default", want: publishFlags{keep: 2, shards: 1, wait: 2 * time.Minute}},
		{name: "environment read when publishing", env: map[string]string{config.EnvESURL: "http://es:9200", config.EnvESIndex: "catalog"},
			args: []string{"--publish", "elasticsearch"},
			want: publishFlags{target: "elasticsearch", keep: 2, shards: 1, wait: 2 * time.Minute}},
		{name: "flags win", env: map[string]string{config.EnvESURL: "http://es:9200", config.EnvESIndex: "catalog"},
			args: []string{"--publish=elasticsearch", "--es-url", "http://a:9200,http://b:9200", "--es-index", "p", "--es-keep", "3",
				"--es-shards", "3", "--es-replicas", "1", "--es-wait", "30s"},
			want: publishFlags{target: "elasticsearch", url: "http://a:9200,http://b:9200", index: "p", keep: 3, shards: 3, replicas: 1,
				wait: 30 * time.Second}},
		{name: "unknown backend", args: []string{"--publish", "solr"}, wantErr: `unknown backend "solr"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			fs := flag.NewFlagSet("sync", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			pf := addPublishFlags(fs)
			err := fs.Parse(tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, *pf, cmp.AllowUnexported(publishFlags{})); diff != "" {
				t.Errorf("flags mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPublishRunErrors(t *testing.T) {
	for _, k := range []string{config.EnvESURL, "ELASTICSEARCH_API_KEY", "ELASTICSEARCH_USERNAME", "ELASTICSEARCH_PASSWORD", "ELASTICSEARCH_CA_FILE"} {
		t.Setenv(k, "")
	}
	tests := []struct {
		name string
		pf   publishFlags
		want string
	}{
		{"no address", publishFlags{target: "elasticsearch", index: "products", keep: 2}, "ELASTICSEARCH_URL: set the cluster's node URLs"},
		{"bad keep", publishFlags{target: "elasticsearch", url: "http://127.0.0.1:1", index: "products", keep: 0}, "--es-keep must be at least 1"},
		{"no snapshot", publishFlags{target: "elasticsearch", url: "http://127.0.0.1:1", index: "products", keep: 2}, "read snapshot"},
		{"partition without run", publishFlags{target: "elasticsearch", url: "http://127.0.0.1:1", keep: 2, partition: "0/2"}, "needs --run"},
		{"bad partition", publishFlags{target: "elasticsearch", url: "http://127.0.0.1:1", keep: 2, partition: "2/2", runID: "r"}, "counts from 0 to 1"},
		{"both partition flags", publishFlags{target: "elasticsearch", keep: 2, partition: "0/2", partitions: 2}, "not both"},
		{"partitions outside a Job", publishFlags{target: "elasticsearch", keep: 2, partitions: 2, runID: "r"}, "JOB_COMPLETION_INDEX, which is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "missing.snapshot")
			_, err := tt.pf.run(context.Background(), path, 0.3, false, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("run error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	var none publishFlags
	if rep, err := none.run(context.Background(), "/nonexistent", 0.3, false, io.Discard, io.Discard); err != nil || rep != nil {
		t.Errorf("run without --publish = %v, %v; want nil, nil", rep, err)
	}
}

// TestPublishCommandArgs checks what `indexer publish` asks of its
// arguments before it contacts a cluster.
func TestPublishCommandArgs(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing to publish", []string{"--es-url", "http://127.0.0.1:1"}, "needs one snapshot to publish, or --finish"},
		{"two snapshots", []string{"a.snapshot", "b.snapshot"}, "needs one snapshot to publish, or --finish"},
		{"finish with a snapshot", []string{"--finish", "--partitions", "2", "--run", "r", "a.snapshot"}, "takes no snapshot"},
		{"missing snapshot", []string{"--es-url", "http://127.0.0.1:1", "--es-wait", "0", "/nonexistent/catalog.snapshot"}, "read snapshot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := runPublish(context.Background(), tt.args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("publish %q = %v, want an error containing %q", tt.args, err, tt.want)
			}
		})
	}
}

// TestPublishRun publishes a written snapshot to the node with `indexer
// publish SNAPSHOT`, as `indexer sync --publish elasticsearch` does after a
// sync: the alias goes live, the report is written beside the snapshot and
// summarised.
func TestPublishRun(t *testing.T) {
	addr := os.Getenv(config.EnvESURL)
	if addr == "" {
		t.Skip("ELASTICSEARCH_URL is not set: start a node with scripts/elasticsearch.sh start and export the URL it prints")
	}
	b := make([]byte, 4)
	rand.Read(b)
	alias := "test-indexer-" + hex.EncodeToString(b)
	sync := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	s := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: sync}}
	for i := range 30 {
		s.Products = append(s.Products, catalog.Product{ID: fmt.Sprintf("p%02d", i), Title: fmt.Sprintf("Laptop %d", i),
			Price: 100, Currency: catalog.Currency, Availability: catalog.InStock, Category: "Laptops",
			ProductType: catalog.TypeProduct, Provenance: catalog.Provenance{Source: "Currys", LastUpdated: sync}})
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.snapshot")
	if err := catalog.WriteSnapshot(path, s); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := runPublish(context.Background(), []string{"--es-url", addr, "--es-index", alias, "--es-keep", "2", path}, &stdout, &stderr)
	name := alias + "-20250601t080000z"
	t.Cleanup(func() {
		c, err := elastic.NewClient(elastic.Connection{Addresses: strings.Split(addr, ",")})
		if err == nil {
			c.Do(context.Background(), http.MethodDelete, "/"+url.PathEscape(name), nil, nil, nil)
		}
	})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "published 30 products to "+name+" (alias "+alias+")") {
		t.Errorf("summary = %q", stdout.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "catalog.publish.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep publish.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Published || rep.Index != name || rep.Indexed != 30 {
		t.Errorf("report = %+v", rep)
	}
}

// TestWaitForCluster checks that a publish waits for a node that is still
// starting and gives up, saying why, on one that never comes up.
func TestWaitForCluster(t *testing.T) {
	tests := []struct {
		name    string
		answers []string // the health answers in turn; "" is a 503
		wait    time.Duration
		wantErr string
	}{
		{name: "up at once", answers: []string{`{"status":"green"}`}, wait: time.Second},
		{name: "starting", answers: []string{"", "", `{"status":"yellow"}`}, wait: 5 * time.Second},
		{name: "red until the deadline", answers: []string{`{"status":"red","timed_out":true}`}, wait: 50 * time.Millisecond,
			wantErr: "did not become available within 50ms"},
		{name: "never up", answers: []string{""}, wait: 50 * time.Millisecond, wantErr: "did not become available"},
		{name: "no wait", answers: []string{""}, wait: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/_cluster/health" || r.URL.Query().Get("wait_for_status") != "yellow" {
					t.Errorf("unexpected request %s", r.URL)
				}
				w.Header().Set("X-Elastic-Product", "Elasticsearch")
				i := min(int(calls.Add(1))-1, len(tt.answers)-1)
				if tt.answers[i] == "" {
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tt.answers[i])
			}))
			defer srv.Close()
			err := waitForCluster(context.Background(), elastic.Connection{Addresses: []string{srv.URL}}, tt.wait,
				10*time.Millisecond, func(string, ...any) {})
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("waitForCluster = %v, want error containing %q", err, tt.wantErr)
			}
			if tt.wait == 0 && calls.Load() != 0 {
				t.Errorf("asked the cluster %d times with no wait", calls.Load())
			}
		})
	}
}

// TestPartitionedRun publishes a snapshot as two partitions, as the pods of
// an Indexed Job do, and finishes the run with `indexer publish --finish`:
// the alias moves only then, and a finish with a partition missing fails.
func TestPartitionedRun(t *testing.T) {
	addr, alias := testNode(t)
	s := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)}}
	for i := range 40 {
		s.Products = append(s.Products, catalog.Product{ID: fmt.Sprintf("p%02d", i), Title: fmt.Sprintf("Item %d", i),
			Price: 100, Currency: catalog.Currency, Availability: catalog.InStock, Category: []string{"Laptops", "Phones", "Mice"}[i%3],
			ProductType: catalog.TypeProduct})
	}
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	if err := catalog.WriteSnapshot(path, s); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	finish := func() error {
		return run(ctx, []string{"publish", "--finish", "--partitions", "2", "--run", "job-1", "--es-url", addr, "--es-index", alias},
			io.Discard, io.Discard)
	}
	t.Setenv(envCompletionIndex, "1")
	t.Setenv(envRun, "job-1")
	pf := publishFlags{target: "elasticsearch", url: addr, index: alias, keep: 2, partitions: 2}
	var stdout bytes.Buffer
	if _, err := pf.run(ctx, path, 0.3, false, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "the alias "+alias+" stays on no index") {
		t.Errorf("summary = %q", stdout.String())
	}
	if err := finish(); err == nil || !strings.Contains(err.Error(), "partitions 0 of 2 are not done") {
		t.Fatalf("finish with partition 0 missing: %v", err)
	}
	pf = publishFlags{target: "elasticsearch", url: addr, index: alias, keep: 2, partition: "0/2"}
	if _, err := pf.run(ctx, path, 0.3, false, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	c, err := elastic.NewClient(elastic.Connection{Addresses: strings.Split(addr, ",")})
	if err != nil {
		t.Fatal(err)
	}
	var ans struct {
		Count int `json:"count"`
	}
	if err := c.Do(ctx, http.MethodGet, "/"+alias+"/_count", nil, nil, &ans); err != nil || ans.Count != 40 {
		t.Errorf("alias %s counts %d, %v; want 40", alias, ans.Count, err)
	}
}

// TestIncrementalSync runs `indexer sync --incremental --publish` twice
// over the same feeds but one offer's delivery time: the second sync keeps
// every other offer with its product and sends one product into the live
// index, in place.
func TestIncrementalSync(t *testing.T) {
	addr, alias := testNode(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../internal/ingest/testdata")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "catalog.snapshot")
	sync := func() *publish.Report {
		t.Helper()
		args := []string{"sync", "--config", filepath.Join(dir, "retailers.yaml"), "--out", out, "--quiet", "--incremental",
			"--publish", "elasticsearch", "--es-url", addr, "--es-index", alias}
		var stderr bytes.Buffer
		if err := run(context.Background(), args, io.Discard, &stderr); err != nil {
			t.Fatalf("sync: %v\n%s", err, stderr.String())
		}
		data, err := os.ReadFile(filepath.Join(dir, "catalog.publish.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep publish.Report
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		return &rep
	}
	first := sync()
	if first.Incremental || first.Indexed == 0 {
		t.Fatalf("first sync: %+v; want a new index", first)
	}
	feed := filepath.Join(dir, "feeds", "alpha.csv")
	data, err := os.ReadFile(feed)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(data), ",Next day,", ",2-3 days,", 1)
	if changed == string(data) {
		t.Fatal("the fixture has no offer delivered next day")
	}
	if err := os.WriteFile(feed, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	second := sync()
	if !second.Incremental || second.Index != first.Index || second.Indexed != 1 || second.Removed != 0 {
		t.Errorf("second sync: %+v; want one product sent in place into %s", second, first.Index)
	}
	var rep ingest.Report
	data, err = os.ReadFile(filepath.Join(dir, "catalog.report.json"))
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil || rep.OffersUnchanged != rep.Offers-1 {
		t.Errorf("sync report: %d of %d offers unchanged, %v; want all but one", rep.OffersUnchanged, rep.Offers, err)
	}
}

// testNode returns the node's address and a fresh alias whose indices are
// deleted after the test, or skips the test without a node.
func testNode(t *testing.T) (addr, alias string) {
	t.Helper()
	addr = os.Getenv(config.EnvESURL)
	if addr == "" {
		t.Skip("ELASTICSEARCH_URL is not set: start a node with scripts/elasticsearch.sh start and export the URL it prints")
	}
	b := make([]byte, 4)
	rand.Read(b)
	alias = "test-indexer-" + hex.EncodeToString(b)
	t.Cleanup(func() {
		c, err := elastic.NewClient(elastic.Connection{Addresses: strings.Split(addr, ",")})
		if err != nil {
			t.Error(err)
			return
		}
		// Deletes name indices one by one: the cluster refuses wildcards.
		var rows []struct {
			Index string `json:"index"`
		}
		q := url.Values{"format": {"json"}, "h": {"index"}, "expand_wildcards": {"all"}}
		if err := c.Do(context.Background(), http.MethodGet, "/_cat/indices/"+alias+"-*", q, nil, &rows); err != nil {
			t.Error(err)
		}
		for _, r := range rows {
			if err := c.Do(context.Background(), http.MethodDelete, "/"+url.PathEscape(r.Index), nil, nil, nil); err != nil {
				t.Errorf("delete %s: %v", r.Index, err)
			}
		}
	})
	return addr, alias
}
