package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/config"
	"productsearch/internal/publish"
	"productsearch/internal/search/elastic"
	"productsearch/internal/telemetry"
)

// publishFlags are the flags of `indexer sync` that also publish the new
// snapshot to a search cluster:
//
//	indexer sync --publish elasticsearch [--es-url URL] [--es-index ALIAS] [--es-keep N] [--es-shards N] [--es-replicas N] [--es-wait D]
//
// The URL and alias default to ELASTICSEARCH_URL and ELASTICSEARCH_INDEX;
// credentials come only from the environment (ELASTICSEARCH_API_KEY, or
// ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD; ELASTICSEARCH_CA_FILE).
//
// With --partition i/N (or --partitions N, the index taken from
// JOB_COMPLETION_INDEX as in a Kubernetes Indexed Job) and --run R (default
// $INDEXER_RUN) only the documents of that partition are loaded into the
// run's index and the alias stays; `indexer publish --finish` moves it.
type publishFlags struct {
	target     string
	url        string
	index      string
	keep       int
	shards     int
	replicas   int
	wait       time.Duration
	partition  string
	partitions int
	runID      string
	// incremental updates the live index in place from the state of the
	// previous publish (see publish.PublishIncremental), kept beside the
	// snapshot; set by sync's --incremental.
	incremental bool
}

// addPublishFlags defines the publish flags on fs.
func addPublishFlags(fs *flag.FlagSet) *publishFlags {
	pf := &publishFlags{}
	fs.Func("publish", "after writing the snapshot, publish it to `backend`: elasticsearch", func(v string) error {
		if v != "elasticsearch" {
			return fmt.Errorf("unknown backend %q: the only one is elasticsearch", v)
		}
		pf.target = v
		return nil
	})
	fs.StringVar(&pf.url, "es-url", "", "Elasticsearch node `URLs`, comma-separated (default $"+config.EnvESURL+")")
	fs.StringVar(&pf.index, "es-index", "", "`alias` the API searches (default $"+config.EnvESIndex+", else "+elastic.DefaultIndex+"); versions are named <alias>-<sync time>")
	fs.IntVar(&pf.keep, "es-keep", publish.DefaultKeep, "index versions to keep, the new one included")
	fs.IntVar(&pf.shards, "es-shards", 1, "primary shards of the new index")
	fs.IntVar(&pf.replicas, "es-replicas", 0, "replicas per shard of the new index, added after the bulk load and allocated before the alias moves")
	fs.DurationVar(&pf.wait, "es-wait", 2*time.Minute, "how long to wait for the cluster to answer (status yellow or green) before publishing; 0 does not wait")
	fs.StringVar(&pf.partition, "partition", "", "publish only partition `i/N` (i from 0) of the catalog's categories into the run's index, without moving the alias")
	fs.IntVar(&pf.partitions, "partitions", 0, "publish partition $"+envCompletionIndex+" of `N` (as --partition)")
	fs.StringVar(&pf.runID, "run", "", "`id` of a partitioned run, shared by its partitions and its finish (default $"+envRun+")")
	return pf
}

// Variables that name a partition and its run.
const (
	envCompletionIndex = "JOB_COMPLETION_INDEX"
	envRun             = "INDEXER_RUN"
)

// part returns the partition to publish and its run, or ok false for a
// whole publish.
func (pf *publishFlags) part() (p publish.Partition, run string, ok bool, err error) {
	spec := pf.partition
	if pf.partitions > 0 {
		if spec != "" {
			return p, "", false, errors.New("give --partition or --partitions, not both")
		}
		idx, set := os.LookupEnv(envCompletionIndex)
		if !set {
			return p, "", false, fmt.Errorf("--partitions takes the partition from $%s, which is not set", envCompletionIndex)
		}
		spec = idx + "/" + strconv.Itoa(pf.partitions)
	}
	run = cmp.Or(pf.runID, os.Getenv(envRun))
	if spec == "" {
		return p, run, false, nil
	}
	if p, err = publish.ParsePartition(spec); err != nil {
		return p, "", false, err
	}
	if run == "" {
		return p, "", false, fmt.Errorf("partition %s needs --run or $%s: every partition of a run loads the same index", spec, envRun)
	}
	return p, run, true, nil
}

// run publishes the snapshot at path when --publish was given. The
// publish report is written beside the snapshot (<name>.publish.json),
// summarised on stdout and returned, also when the publish fails (nil when
// there is nothing to publish); progress goes to stderr.
func (pf *publishFlags) run(ctx context.Context, path string, maxShrink float64, force bool, stdout, stderr io.Writer) (*publish.Report, error) {
	if pf.target == "" {
		return nil, nil
	}
	part, run, partitioned, err := pf.part()
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if partitioned && pf.incremental {
		return nil, errors.New("publish: a partition loads a new index: --incremental does not apply")
	}
	opt, done, err := pf.connect(ctx, stderr)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	defer done()
	s, err := catalog.ReadSnapshot(path)
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	opt.MaxShrink = maxShrink
	opt.Force = force
	var rep *publish.Report
	switch {
	case partitioned:
		rep, err = publish.PublishPartition(ctx, s, part, run, opt)
	case pf.incremental:
		rep, err = publishIncremental(ctx, s, publishStatePath(path), opt)
	default:
		rep, err = publish.Publish(ctx, s, opt)
	}
	if rep != nil {
		reportPath := strings.TrimSuffix(path, filepath.Ext(path)) + ".publish.json"
		if werr := writeJSON(reportPath, rep); werr != nil {
			fmt.Fprintf(stderr, "publish: %v\n", werr)
		}
		summarise(stdout, rep)
		fmt.Fprintf(stdout, "publish report: %s\n", reportPath)
	}
	if err != nil {
		return rep, fmt.Errorf("publish to Elasticsearch: %w", err)
	}
	return rep, nil
}

// connect returns the publish options of the flags and the environment
// once the cluster answers, with tracing started; done stops the tracing.
func (pf *publishFlags) connect(ctx context.Context, stderr io.Writer) (opt publish.Options, done func(), err error) {
	es, err := config.LoadElasticsearch(func(k string) (string, bool) {
		switch {
		case k == config.EnvESURL && pf.url != "":
			return pf.url, true
		case k == config.EnvESIndex && pf.index != "":
			return pf.index, true
		}
		return os.LookupEnv(k)
	})
	if err != nil {
		return opt, nil, err
	}
	opts, err := elastic.OptionsFromConfig(es)
	if err != nil {
		return opt, nil, err
	}
	if pf.keep < 1 {
		return opt, nil, fmt.Errorf("--es-keep must be at least 1, got %d", pf.keep)
	}
	if pf.shards < 0 || pf.replicas < 0 {
		return opt, nil, fmt.Errorf("--es-shards (%d) and --es-replicas (%d) may not be negative", pf.shards, pf.replicas)
	}
	tel, err := startTracing(ctx, stderr)
	if err != nil {
		return opt, nil, err
	}
	done = func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tel.Shutdown(sctx); err != nil {
			fmt.Fprintf(stderr, "publish: %v\n", err)
		}
	}
	opts.Tracing = tel.TracerProvider()
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "publish: "+format+"\n", args...) }
	if err := waitForCluster(ctx, opts.Connection, pf.wait, 2*time.Second, logf); err != nil {
		done()
		return opt, nil, err
	}
	opt = publish.DefaultOptions(opts.Connection, opts.Index)
	opt.Keep = pf.keep
	opt.Settings.Shards = pf.shards
	opt.Settings.Replicas = pf.replicas
	opt.Log = logf
	return opt, done, nil
}

// startTracing traces the publish when the OTEL_* variables name an
// exporter or endpoint; every publish is sampled unless
// OTEL_TRACES_SAMPLER says otherwise. In a pod, K8S_POD_NAME and
// K8S_NAMESPACE_NAME name it in the resource.
func startTracing(ctx context.Context, stderr io.Writer) (*telemetry.Telemetry, error) {
	tc, err := config.LoadTelemetry(os.LookupEnv)
	if err != nil {
		return nil, err
	}
	opt := telemetry.Options{
		ServiceName:    "productsearch-indexer",
		ServiceVersion: telemetry.BuildVersion(""),
		PodName:        tc.PodName,
		Namespace:      tc.Namespace,
		ExportTraces:   tc.ExportTraces(),
		Logger:         slog.New(slog.NewTextHandler(stderr, nil)),
	}
	if tc.PodName != "" && tc.Namespace != "" {
		opt.InstanceID = tc.Namespace + "." + tc.PodName
	}
	return telemetry.New(ctx, opt)
}

func summarise(w io.Writer, r *publish.Report) {
	if !r.Published && r.Error == "" {
		fmt.Fprintf(w, "loaded %d products into %s in %s (a partition: the alias %s stays on %s until the run finishes)\n",
			r.Indexed, r.Index, r.Duration.Round(time.Millisecond), r.Alias, orNone(r.Previous))
		return
	}
	if !r.Published {
		fmt.Fprintf(w, "not published to Elasticsearch: %s; alias %s still names %s\n", r.Error, r.Alias, orNone(r.Previous))
		for _, f := range r.Failures {
			fmt.Fprintf(w, "  %s: %d %s\n", f.ID, f.Status, f.Reason)
		}
		return
	}
	if r.Incremental {
		fmt.Fprintf(w, "updated %s (alias %s) in place in %s: %d of %d products changed and were sent, %d removed\n",
			r.Index, r.Alias, r.Duration.Round(time.Millisecond), r.Indexed, r.Products, r.Removed)
		return
	}
	fmt.Fprintf(w, "published %d products to %s (alias %s) in %s", r.Indexed, r.Index, r.Alias, r.Duration.Round(time.Millisecond))
	if r.Batches > 0 { // a finish sends nothing: its partitions did
		fmt.Fprintf(w, ": %d bulk requests, %.0f products/s", r.Batches, r.DocsPerSecond())
	}
	if len(r.Deleted) > 0 {
		fmt.Fprintf(w, "; deleted %s", strings.Join(r.Deleted, ", "))
	}
	fmt.Fprintln(w)
}

func orNone(s string) string {
	if s == "" {
		return "no index"
	}
	return s
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}

// waitForCluster waits up to wait for the cluster to answer its health
// check with status yellow or green, polling every poll: a sync started
// beside a node that is still starting (a Job scheduled with the cluster)
// publishes once the node is up instead of failing. It logs the first
// failure and then one line every ten polls.
func waitForCluster(ctx context.Context, conn elastic.Connection, wait, poll time.Duration, logf func(string, ...any)) error {
	if wait <= 0 {
		return nil
	}
	c, err := elastic.NewClient(conn)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(wait)
	for attempt := 0; ; attempt++ {
		var h struct {
			Status   string `json:"status"`
			TimedOut bool   `json:"timed_out"`
		}
		q := url.Values{"wait_for_status": {"yellow"}, "timeout": {poll.String()}}
		err := c.Do(ctx, http.MethodGet, "/_cluster/health", q, nil, &h)
		if err == nil && !h.TimedOut && (h.Status == "yellow" || h.Status == "green") {
			if attempt > 0 {
				logf("the cluster answers (status %s)", h.Status)
			}
			return nil
		}
		if err == nil {
			err = fmt.Errorf("cluster status %q", h.Status)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the cluster did not become available within %s (--es-wait): %w", wait, err)
		}
		if attempt%10 == 0 {
			logf("waiting for the cluster (up to %s): %v", wait, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// publishStatePath is where an incremental publish keeps its state.
func publishStatePath(snapshot string) string {
	return strings.TrimSuffix(snapshot, filepath.Ext(snapshot)) + ".publish-state.json"
}

// publishIncremental publishes s in place of the index the state at
// statePath describes when it can (else into a new index) and writes the
// new state there; a failed publish removes the state, so the next one
// starts from a new index.
func publishIncremental(ctx context.Context, s *catalog.Snapshot, statePath string, opt publish.Options) (*publish.Report, error) {
	var prev *publish.State
	data, err := os.ReadFile(statePath)
	switch {
	case err == nil:
		prev = &publish.State{}
		if jerr := json.Unmarshal(data, prev); jerr != nil {
			opt.Log("ignoring the publish state %s: %v", statePath, jerr)
			prev = nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	rep, next, err := publish.PublishIncremental(ctx, s, prev, false, opt)
	if err != nil {
		if rerr := os.Remove(statePath); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			opt.Log("%v", rerr)
		}
		return rep, err
	}
	return rep, writeJSON(statePath, next)
}
