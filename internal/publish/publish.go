// Package publish puts a catalog snapshot into Elasticsearch for the
// cluster search engine (package elastic) without readers ever seeing a
// half-built index: it creates a new versioned index (<alias>-<sync time>)
// with the configured shards and no replicas, bulk-loads it with refresh
// disabled, refreshes (and merges) it, verifies that it holds every
// product and that the catalog does not shrink beyond the allowed
// fraction, raises its replicas to the configured count and waits until
// they are allocated, then moves the alias from the old index to the new
// one in one atomic _aliases call and deletes versions beyond the newest
// few. A publish that fails at any step deletes its new index and leaves
// the alias, hence every reader, on the previous one.
package publish

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"productsearch/internal/catalog"
	"productsearch/internal/search/elastic"
)

// Defaults of Options.
const (
	DefaultKeep        = 2
	DefaultBatchBytes  = 5 << 20
	DefaultRetries     = 5
	DefaultWorkers     = 2
	DefaultMaxShrink   = 0.30
	DefaultReplicaWait = 5 * time.Minute
	// DefaultMergeWait bounds the wait for the merge of a new index.
	DefaultMergeWait = 10 * time.Minute
)

// ErrShrink is returned when the new catalog is smaller than the published
// one by more than MaxShrink and Force is not set.
var ErrShrink = errors.New("catalog shrinks beyond the allowed fraction")

// Options configures a publish.
type Options struct {
	elastic.Connection
	// Alias is the name readers search; default "products". Versions are
	// named <alias>-<sync time>.
	Alias string
	// Keep is how many versions to keep, the new one included (default 2,
	// minimum 1). Older versions are deleted after the alias moves.
	Keep int
	// BatchBytes caps the size of one bulk request (default 5 MiB).
	BatchBytes int
	// Workers is how many bulk requests are in flight (default 2).
	Workers int
	// Retries is how many times a bulk request, or the documents of it that
	// were rejected with 429, are retried with exponential backoff
	// (default 5).
	Retries int
	// MaxShrink refuses a catalog with fewer than (1-MaxShrink) times the
	// products of the published one (default 0.30); negative disables the
	// check, as does Force.
	MaxShrink float64
	Force     bool
	// Settings are the shards, replicas and result window of the index.
	// The index is loaded without replicas; they are added before the
	// alias moves.
	Settings elastic.IndexSettings
	// ReplicaWait bounds the wait for the replicas to be allocated
	// (default 5 minutes): green health of the index, or yellow when the
	// cluster has too few data nodes to hold every copy.
	ReplicaWait time.Duration
	// ForceMerge merges the new index into one segment before it goes
	// live: the index is never written again, and one segment searches
	// fastest. A merge not done within MergeWait (default 10 minutes) goes
	// on in the background while the index is published.
	ForceMerge bool
	MergeWait  time.Duration
	// Log receives progress lines; nil logs nothing.
	Log func(format string, args ...any)

	// afterLoad, in tests, runs between the bulk load and the refresh;
	// beforeVerify between the refresh (and merge) and the checks.
	afterLoad, beforeVerify func(ctx context.Context, c *elastic.Client, index string) error
	// hashed, when set, receives the hash of every document's source as
	// the bulk load encodes it (sourceHash), from one goroutine.
	hashed func(id string, h uint64)
	// backoff, in tests, replaces the retry delay.
	backoff func(attempt int) time.Duration
}

// DefaultOptions returns the defaults for an alias and connection.
func DefaultOptions(conn elastic.Connection, alias string) Options {
	return Options{Connection: conn, Alias: alias, Keep: DefaultKeep, BatchBytes: DefaultBatchBytes,
		Workers: DefaultWorkers, Retries: DefaultRetries, MaxShrink: DefaultMaxShrink, ForceMerge: true}
}

func (o *Options) fill() error {
	if o.Alias == "" {
		o.Alias = elastic.DefaultIndex
	}
	if o.Keep <= 0 {
		o.Keep = DefaultKeep
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = DefaultBatchBytes
	}
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.Retries < 0 {
		o.Retries = 0
	} else if o.Retries == 0 {
		o.Retries = DefaultRetries
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if o.ReplicaWait <= 0 {
		o.ReplicaWait = DefaultReplicaWait
	}
	if o.MergeWait <= 0 {
		o.MergeWait = DefaultMergeWait
	}
	if o.Settings.Shards < 0 || o.Settings.Replicas < 0 {
		return fmt.Errorf("publish: %d shards and %d replicas: neither may be negative", o.Settings.Shards, o.Settings.Replicas)
	}
	if o.backoff == nil {
		o.backoff = func(attempt int) time.Duration {
			return min(100*time.Millisecond<<attempt, 10*time.Second)
		}
	}
	return o.Connection.Validate()
}

// Failure is one document Elasticsearch did not index.
type Failure struct {
	ID     string `json:"id"`
	Status int    `json:"status"`
	Reason string `json:"reason"`
}

// maxFailures caps the failures a report lists; FailedCount counts all.
const maxFailures = 100

// Report is the outcome of a publish.
type Report struct {
	Alias     string `json:"alias"`
	Index     string `json:"index"`
	Previous  string `json:"previous,omitempty"`
	Published bool   `json:"published"`
	// Error says why the publish failed, when it did.
	Error    string    `json:"error,omitempty"`
	Products int       `json:"products"`
	Indexed  int       `json:"indexed"`
	Batches  int       `json:"batches"`
	Retries  int       `json:"retries"`
	Bytes    int64     `json:"bytes"`
	Failures []Failure `json:"failures,omitempty"`
	Failed   int       `json:"failed"`
	Deleted  []string  `json:"deleted,omitempty"`
	// Incremental: the live index was updated in place (State); Indexed
	// then counts the changed products and Removed those deleted.
	Incremental bool `json:"incremental,omitempty"`
	Removed     int  `json:"removed,omitempty"`
	// Durations of the whole publish and of the bulk load alone.
	Duration     time.Duration `json:"duration_ns"`
	BulkDuration time.Duration `json:"bulk_duration_ns"`
}

// DocsPerSecond is the bulk load throughput.
func (r *Report) DocsPerSecond() float64 {
	if r.BulkDuration <= 0 {
		return 0
	}
	return float64(r.Indexed) / r.BulkDuration.Seconds()
}

// Publish loads s into a new index and moves the alias to it. The report
// is returned also when the publish fails; the error then says why, and
// the alias still names the previous index. With Connection.Tracing the
// publish is a span ("publish <alias>") over the spans of its requests.
func Publish(ctx context.Context, s *catalog.Snapshot, opt Options) (*Report, error) {
	cat, err := elastic.Prepare(s)
	if err != nil {
		return &Report{Alias: opt.Alias, Error: err.Error()}, err
	}
	return publishPrepared(ctx, cat, opt)
}

// publishPrepared is Publish of a prepared catalog.
func publishPrepared(ctx context.Context, cat *elastic.Catalog, opt Options) (*Report, error) {
	start := time.Now()
	if err := opt.fill(); err != nil {
		return nil, err
	}
	var tp trace.TracerProvider = tracenoop.NewTracerProvider()
	if opt.Connection.Tracing != nil {
		tp = opt.Connection.Tracing
	}
	ctx, span := tp.Tracer("productsearch/internal/publish").Start(ctx, "publish "+opt.Alias)
	defer span.End()
	rep := &Report{Alias: opt.Alias}
	err := publish(ctx, cat, &opt, rep)
	rep.Duration = time.Since(start)
	span.SetAttributes(attribute.String("productsearch.publish.index", rep.Index),
		attribute.Int("productsearch.publish.indexed", rep.Indexed), attribute.Bool("productsearch.publish.published", rep.Published))
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, "publish failed")
		rep.Error = err.Error()
		return rep, err
	}
	return rep, nil
}

func publish(ctx context.Context, cat *elastic.Catalog, opt *Options, rep *Report) error {
	rep.Products = cat.Len()
	c, err := newClient(opt.Connection)
	if err != nil {
		return err
	}
	current, err := aliasTargets(ctx, c, opt.Alias)
	if err != nil {
		return err
	}
	if len(current) > 0 {
		rep.Previous = strings.Join(current, ",")
		if err := checkShrink(ctx, c, opt, cat.Len()); err != nil {
			return err
		}
	}
	name, err := newIndexName(ctx, c, opt.Alias, cat.Meta().SyncTime)
	if err != nil {
		return err
	}
	rep.Index = name
	loading := opt.Settings
	loading.Replicas = 0
	body, err := cat.IndexBody(loading)
	if err != nil {
		return err
	}
	opt.Log("creating index %s", name)
	if err := c.Do(ctx, http.MethodPut, "/"+name, url.Values{"wait_for_active_shards": {"1"}}, body, nil); err != nil {
		return fmt.Errorf("create index %s: %w", name, err)
	}
	// From here on a failure deletes the new index.
	if err := load(ctx, c, cat, name, opt, rep); err != nil {
		drop(c, name, opt)
		return err
	}
	return goLive(ctx, c, current, name, opt, rep)
}

// goLive moves the alias from the current indices to the loaded index
// name and prunes old versions. When the move fails the new index is
// deleted, unless the alias names it after all.
func goLive(ctx context.Context, c *elastic.Client, current []string, name string, opt *Options, rep *Report) error {
	if err := swap(ctx, c, opt.Alias, current, name); err != nil {
		// The answer may have been lost after the swap was applied: the
		// new index is deleted only when the alias surely does not name it.
		fresh, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if now, terr := aliasTargets(fresh, c, opt.Alias); terr == nil && !slices.Contains(now, name) {
			drop(c, name, opt)
		} else if terr == nil {
			rep.Published = true
			opt.Log("alias %s now names %s (the answer to the move was lost: %v)", opt.Alias, name, err)
			return nil
		}
		return err
	}
	rep.Published = true
	opt.Log("alias %s now names %s", opt.Alias, name)
	var err error
	rep.Deleted, err = prune(ctx, c, opt.Alias, name, opt.Keep)
	if err != nil {
		// The catalog is live; old versions stay until the next publish.
		opt.Log("deleting old versions: %v", err)
	}
	forgetRuns(ctx, c, opt.Alias, rep.Deleted, opt)
	return nil
}

// newClient returns the publisher's client. A full write queue (429) is
// the bulk loader's to retry, with its own backoff and count; the client
// retries on the next node only answers of nodes that cannot serve.
func newClient(conn elastic.Connection) (*elastic.Client, error) {
	conn.RetryStatuses = []int{http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}
	return elastic.NewClient(conn)
}

// load fills the new index and checks it.
func load(ctx context.Context, c *elastic.Client, cat *elastic.Catalog, name string, opt *Options, rep *Report) error {
	if err := loadDocs(ctx, c, cat, name, nil, opt, rep); err != nil {
		return err
	}
	opt.Log("indexed %d products in %s (%.0f/s); refreshing", rep.Indexed, rep.BulkDuration.Round(time.Millisecond), rep.DocsPerSecond())
	return seal(ctx, c, name, cat.Len(), opt)
}

// loadDocs bulk-loads the products at positions docs (every one when nil)
// into index, timed in rep, and fails when any was not indexed.
func loadDocs(ctx context.Context, c *elastic.Client, cat *elastic.Catalog, index string, docs []int, opt *Options, rep *Report) error {
	bulkStart := time.Now()
	if err := bulkLoad(ctx, c, cat, index, docs, opt, rep); err != nil {
		return err
	}
	rep.BulkDuration = time.Since(bulkStart)
	if rep.Failed > 0 {
		n := len(docs)
		if docs == nil {
			n = cat.Len()
		}
		return fmt.Errorf("%d of %d products were not indexed (first: %s: %s)",
			rep.Failed, n, rep.Failures[0].ID, rep.Failures[0].Reason)
	}
	return nil
}

// seal makes a loaded index ready to serve: it restores the refresh
// interval, refreshes (and merges), verifies that the index holds want
// documents and raises its replicas.
func seal(ctx context.Context, c *elastic.Client, name string, want int, opt *Options) error {
	if opt.afterLoad != nil {
		if err := opt.afterLoad(ctx, c, name); err != nil {
			return err
		}
	}
	settings := []byte(`{"index":{"refresh_interval":null}}`)
	if err := c.Do(ctx, http.MethodPut, "/"+name+"/_settings", nil, settings, nil); err != nil {
		return fmt.Errorf("restore refresh interval of %s: %w", name, err)
	}
	if err := c.Do(ctx, http.MethodPost, "/"+name+"/_refresh", nil, nil, nil); err != nil {
		return fmt.Errorf("refresh %s: %w", name, err)
	}
	if opt.ForceMerge {
		if err := forceMerge(ctx, c, name, opt); err != nil {
			return err
		}
	}
	if opt.beforeVerify != nil {
		if err := opt.beforeVerify(ctx, c, name); err != nil {
			return err
		}
	}
	n, err := count(ctx, c, name)
	if err != nil {
		return err
	}
	if n != want {
		return fmt.Errorf("index %s holds %d documents, the snapshot %d products: not published", name, n, want)
	}
	return replicate(ctx, c, name, opt)
}

// replicate raises the replicas of the loaded index to the configured
// count and waits until they are allocated: green health, or yellow when
// the cluster has fewer data nodes than copies of a shard.
func replicate(ctx context.Context, c *elastic.Client, name string, opt *Options) error {
	n := opt.Settings.Replicas
	if n == 0 {
		return nil
	}
	var cluster struct {
		DataNodes int `json:"number_of_data_nodes"`
	}
	if err := c.Do(ctx, http.MethodGet, "/_cluster/health", nil, nil, &cluster); err != nil {
		return fmt.Errorf("cluster health: %w", err)
	}
	want := "green"
	if cluster.DataNodes < n+1 {
		want = "yellow"
		opt.Log("%d replicas of %s need %d data nodes, the cluster has %d: some stay unassigned", n, name, n+1, cluster.DataNodes)
	}
	settings := []byte(`{"index":{"number_of_replicas":` + strconv.Itoa(n) + `}}`)
	if err := c.Do(ctx, http.MethodPut, "/"+name+"/_settings", nil, settings, nil); err != nil {
		return fmt.Errorf("set %d replicas on %s: %w", n, name, err)
	}
	opt.Log("waiting for %d replicas of %s (%s)", n, name, want)
	var health struct {
		Status   string `json:"status"`
		TimedOut bool   `json:"timed_out"`
	}
	q := url.Values{"wait_for_status": {want}, "timeout": {strconv.FormatInt(opt.ReplicaWait.Milliseconds(), 10) + "ms"}}
	// The wait answers 408 when it times out; the body says so as well.
	status, data, err := c.Raw(ctx, http.MethodGet, "/_cluster/health/"+url.PathEscape(name), q, nil)
	if err != nil {
		return fmt.Errorf("wait for the replicas of %s: %w", name, err)
	}
	if status != http.StatusOK && status != http.StatusRequestTimeout {
		return fmt.Errorf("wait for the replicas of %s: %w", name, elastic.ParseError(status, data))
	}
	if err := json.Unmarshal(data, &health); err != nil {
		return fmt.Errorf("wait for the replicas of %s: decode answer: %w", name, err)
	}
	if health.TimedOut {
		return fmt.Errorf("the replicas of %s were not allocated within %s (health %s, want %s): not published",
			name, opt.ReplicaWait, health.Status, want)
	}
	return nil
}

// drop deletes a failed index, with a fresh context: the publish's own may
// be what failed.
func drop(c *elastic.Client, name string, opt *Options) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Do(ctx, http.MethodDelete, "/"+name, nil, nil, nil); err != nil && !elastic.IsNotFound(err) {
		opt.Log("deleting the failed index %s: %v", name, err)
	}
}

// aliasTargets returns the indices the alias names (none when it does not
// exist). A concrete index with the alias's name is an error: the alias
// could never be created.
func aliasTargets(ctx context.Context, c *elastic.Client, alias string) ([]string, error) {
	var ans map[string]any
	err := c.Do(ctx, http.MethodGet, "/_alias/"+url.PathEscape(alias), nil, nil, &ans)
	if elastic.IsNotFound(err) {
		exists, err := indexExists(ctx, c, alias)
		if err != nil {
			return nil, err
		}
		if exists {
			return nil, fmt.Errorf("%s is an index, not an alias: delete it or publish under another alias", alias)
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read alias %s: %w", alias, err)
	}
	names := make([]string, 0, len(ans))
	for name := range ans {
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}

func indexExists(ctx context.Context, c *elastic.Client, name string) (bool, error) {
	status, _, err := c.Raw(ctx, http.MethodHead, "/"+url.PathEscape(name), nil, nil)
	if err != nil {
		return false, fmt.Errorf("check index %s: %w", name, err)
	}
	return status == http.StatusOK, nil
}

// count returns the number of documents in an index or alias.
func count(ctx context.Context, c *elastic.Client, name string) (int, error) {
	var ans struct {
		Count int `json:"count"`
	}
	if err := c.Do(ctx, http.MethodGet, "/"+url.PathEscape(name)+"/_count", nil, nil, &ans); err != nil {
		return 0, fmt.Errorf("count %s: %w", name, err)
	}
	return ans.Count, nil
}

// checkShrink refuses a catalog much smaller than the published one.
func checkShrink(ctx context.Context, c *elastic.Client, opt *Options, n int) error {
	if opt.Force || opt.MaxShrink < 0 {
		return nil
	}
	cur, err := count(ctx, c, opt.Alias)
	if err != nil {
		return err
	}
	if float64(n) < (1-opt.MaxShrink)*float64(cur) {
		return fmt.Errorf("%w: %d products against %d published (more than %.0f%% fewer; use --force to publish anyway)",
			ErrShrink, n, cur, opt.MaxShrink*100)
	}
	return nil
}

// versionLayout formats the sync time in index names: lowercase, sortable.
const versionLayout = "20060102t150405z"

// newIndexName returns <alias>-<sync time>, with -2, -3, ... when a
// version of the same sync time exists.
func newIndexName(ctx context.Context, c *elastic.Client, alias string, sync time.Time) (string, error) {
	if sync.IsZero() {
		sync = time.Now()
	}
	base := alias + "-" + sync.UTC().Format(versionLayout)
	for i := 1; i < 100; i++ {
		name := base
		if i > 1 {
			name += "-" + strconv.Itoa(i)
		}
		exists, err := indexExists(ctx, c, name)
		if err != nil {
			return "", err
		}
		if !exists {
			return name, nil
		}
	}
	return "", fmt.Errorf("no free index name for %s: delete old versions", base)
}

// swap moves the alias from the current indices to the new one in one
// atomic request.
func swap(ctx context.Context, c *elastic.Client, alias string, current []string, name string) error {
	var actions []string
	for _, old := range current {
		actions = append(actions, fmt.Sprintf(`{"remove":{"index":%q,"alias":%q}}`, old, alias))
	}
	actions = append(actions, fmt.Sprintf(`{"add":{"index":%q,"alias":%q}}`, name, alias))
	body := []byte(`{"actions":[` + strings.Join(actions, ",") + `]}`)
	if err := c.Do(ctx, http.MethodPost, "/_aliases", nil, body, nil); err != nil {
		return fmt.Errorf("move alias %s to %s: %w", alias, name, err)
	}
	return nil
}

// prune deletes the versions of the alias beyond the newest keep (by
// creation time), never the live one.
func prune(ctx context.Context, c *elastic.Client, alias, live string, keep int) ([]string, error) {
	var rows []struct {
		Index    string `json:"index"`
		Creation string `json:"creation.date"`
	}
	q := url.Values{"format": {"json"}, "h": {"index,creation.date"}, "expand_wildcards": {"all"}}
	if err := c.Do(ctx, http.MethodGet, "/_cat/indices/"+url.PathEscape(alias)+"-*", q, nil, &rows); err != nil {
		return nil, fmt.Errorf("list versions of %s: %w", alias, err)
	}
	type version struct {
		name    string
		created int64
	}
	var vs []version
	for _, r := range rows {
		if !isVersion(alias, r.Index) {
			continue
		}
		created, _ := strconv.ParseInt(r.Creation, 10, 64)
		vs = append(vs, version{r.Index, created})
	}
	// Newest first.
	slices.SortFunc(vs, func(a, b version) int {
		return cmp.Or(cmp.Compare(b.created, a.created), strings.Compare(b.name, a.name))
	})
	var deleted []string
	kept := 0
	for _, v := range vs {
		if v.name == live || kept < keep-1 {
			if v.name != live {
				kept++
			}
			continue
		}
		if err := c.Do(ctx, http.MethodDelete, "/"+v.name, nil, nil, nil); err != nil && !elastic.IsNotFound(err) {
			return deleted, fmt.Errorf("delete %s: %w", v.name, err)
		}
		deleted = append(deleted, v.name)
	}
	return deleted, nil
}

// isVersion reports whether name is <alias>-<sync time>[-N] or the index
// of a partitioned run, <alias>-run-<run>.
func isVersion(alias, name string) bool {
	if run, ok := strings.CutPrefix(name, alias+"-"+runInfix); ok {
		return validRun(run) == nil
	}
	rest, ok := strings.CutPrefix(name, alias+"-")
	if !ok || len(rest) < len(versionLayout) {
		return false
	}
	if _, err := time.Parse(versionLayout, rest[:len(versionLayout)]); err != nil {
		return false
	}
	suffix := rest[len(versionLayout):]
	if suffix == "" {
		return true
	}
	n, err := strconv.Atoi(strings.TrimPrefix(suffix, "-"))
	return strings.HasPrefix(suffix, "-") && err == nil && n > 1
}
