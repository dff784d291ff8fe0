package elastic_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/config"
	"productsearch/internal/publish"
	"productsearch/internal/search"
	"productsearch/internal/search/elastic"
)

// nodeURL returns ELASTICSEARCH_URL, or skips the test when it is unset.
func nodeURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(config.EnvESURL)
	if u == "" {
		t.Skip("ELASTICSEARCH_URL is not set: start a node with scripts/elasticsearch.sh start and export the URL it prints")
	}
	return u
}

func connection(t testing.TB) elastic.Connection {
	t.Helper()
	o, err := optionsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	nodeURL(t)
	return o.Connection
}

// uniqueAlias returns an alias name no other test run uses, and deletes
// its indices when the test ends.
func uniqueAlias(t testing.TB, prefix string) string {
	t.Helper()
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	alias := "test-" + prefix + "-" + hex.EncodeToString(b)
	conn := connection(t)
	t.Cleanup(func() { deleteVersions(t, conn, alias) })
	return alias
}

// deleteVersions deletes every index of an alias.
func deleteVersions(t testing.TB, conn elastic.Connection, alias string) {
	c, err := elastic.NewClient(conn)
	if err != nil {
		t.Error(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var rows []struct {
		Index string `json:"index"`
	}
	q := url.Values{"format": {"json"}, "h": {"index"}}
	if err := c.Do(ctx, http.MethodGet, "/_cat/indices/"+alias+"-*", q, nil, &rows); err != nil {
		t.Errorf("list indices of %s: %v", alias, err)
		return
	}
	for _, r := range rows {
		if err := c.Do(ctx, http.MethodDelete, "/"+r.Index, nil, nil, nil); err != nil && !elastic.IsNotFound(err) {
			t.Errorf("delete %s: %v", r.Index, err)
		}
	}
}

// publishSnapshot publishes s under alias and fails the test on error.
// The index has the shards and replicas of ELASTICSEARCH_TEST_SHARDS and
// ELASTICSEARCH_TEST_REPLICAS (default 1 and 0; the cluster test sets
// them).
func publishSnapshot(t testing.TB, alias string, s *catalog.Snapshot) *publish.Report {
	t.Helper()
	opt := publish.DefaultOptions(connection(t), alias)
	opt.ForceMerge = false
	for _, v := range []struct {
		name string
		dst  *int
	}{{"ELASTICSEARCH_TEST_SHARDS", &opt.Settings.Shards}, {"ELASTICSEARCH_TEST_REPLICAS", &opt.Settings.Replicas}} {
		if s := os.Getenv(v.name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("%s=%q: %v", v.name, s, err)
			}
			*v.dst = n
		}
	}
	rep, err := publish.Publish(context.Background(), s, opt)
	if err != nil {
		t.Fatalf("publish %s: %v", alias, err)
	}
	return rep
}

// newEngine returns an engine over alias with the given candidate limit.
func newEngine(t testing.TB, alias string, maxCand int) *elastic.Engine {
	t.Helper()
	opt, err := optionsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	opt.Index = alias
	opt.MaxCandidates = maxCand
	opt.Timeout = 30 * time.Second // a loaded CI machine must not fail the suite
	e, err := elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// fixtureAlias turns a fixture name into part of an alias name.
func fixtureAlias(name string) string {
	return strings.ToLower(strings.NewReplacer(" ", "-", "&", "and").Replace(name))
}

// optionsFromEnv returns the engine options the ELASTICSEARCH_* variables
// of the test's environment give.
func optionsFromEnv() (elastic.Options, error) { return optionsFrom(os.LookupEnv) }

// waitHealth polls Health until its status is want, for up to a minute,
// and returns the last answer.
func waitHealth(t testing.TB, e *elastic.Engine, want string) search.Health {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		h, err := e.Health(context.Background())
		if err == nil && h.Status == want {
			return h
		}
		if time.Now().After(deadline) {
			t.Errorf("Health = %+v, %v for a minute; want %s", h, err, want)
			return h
		}
		time.Sleep(50 * time.Millisecond)
	}
}
