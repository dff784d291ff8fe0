package elastic_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/config"
	"productsearch/internal/publish"
	"productsearch/internal/search"
	"productsearch/internal/search/elastic"
	"productsearch/internal/search/memory"
	"productsearch/internal/search/searchtest"
)

// TestProductLookup finds products by canonical id and by offer id on the
// node: a canonical id wins over an equal offer id, a shared offer id
// resolves to the cheapest product, unknown ids are ErrNotFound.
func TestProductLookup(t *testing.T) {
	nodeURL(t)
	sync := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	product := func(id string, price float64, offers ...string) catalog.Product {
		p := catalog.Product{ID: id, Title: "Widget " + id, Price: price, Currency: catalog.Currency,
			Availability: catalog.InStock, Category: "Laptops", ProductType: catalog.TypeProduct,
			Provenance: catalog.Provenance{Source: "Currys", LastUpdated: sync}, OfferCount: len(offers)}
		for i, o := range offers {
			p.Offers = append(p.Offers, catalog.Offer{ID: o, Source: "Currys", Price: price + float64(i), Currency: catalog.Currency,
				Availability: catalog.InStock, PurchaseURL: "https://shop.example/" + o, LastUpdated: sync})
		}
		return p
	}
	s := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: sync}, Products: []catalog.Product{
		product("a", 300, "currys-1", "argos-1"),
		product("b", 200, "currys-2", "shared"),
		product("c", 100, "currys-3", "shared", "a"),
		product("d/e f", 50, "very-9%2F"),
	}}
	alias := uniqueAlias(t, "lookup")
	publishSnapshot(t, alias, s)
	e := newEngine(t, alias, search.DefaultMaxCandidates)
	tests := []struct{ id, want string }{
		{"a", "a"},             // canonical id, also an offer id of c
		{"argos-1", "a"},       // offer id
		{"currys-3", "c"},      // offer id
		{"shared", "c"},        // offer of b and c: the cheaper
		{"d/e f", "d/e f"},     // id with characters a URL escapes
		{"very-9%2F", "d/e f"}, // offer id with a percent sign
		{"A", ""},              // ids are case-sensitive
		{"currys", ""},         // no prefix match
		{"", ""},               // empty
		{"Widget", ""},         // not a title search
		{"*", ""},              // no wildcards
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			p, err := e.Product(context.Background(), tt.id)
			if tt.want == "" {
				if !errors.Is(err, search.ErrNotFound) {
					t.Fatalf("Product(%q) = %v, %v; want ErrNotFound", tt.id, p, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Product(%q): %v", tt.id, err)
			}
			if p.ID != tt.want || p.OfferCount != len(p.Offers) {
				t.Errorf("Product(%q) = %s with %d offers, want %s", tt.id, p.ID, len(p.Offers), tt.want)
			}
		})
	}
}

// TestTimeoutOnNode gives the engine a timeout no search can meet on the
// node: searches fail with ErrUnavailable instead of answering late.
func TestTimeoutOnNode(t *testing.T) {
	nodeURL(t)
	alias := uniqueAlias(t, "timeout")
	publishSnapshot(t, alias, randomSnapshot(3, 3000))
	opt, err := optionsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	opt.Index, opt.Timeout, opt.MaxCandidates = alias, time.Microsecond, 0
	e, err := elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"query=pro+max+4070", `query=noise-cancelling&constraints={"memory_gb":{"gte":16}}`, "sort=price_asc"} {
		start := time.Now()
		_, err := e.Search(context.Background(), searchtest.MustParse(t, q))
		if !errors.Is(err, search.ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Search(%s) error = %v, want ErrUnavailable from the deadline", q, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Search(%s) took %s with a 1µs timeout", q, d)
		}
	}
	// The same engine with room to answer succeeds.
	opt.Timeout = 30 * time.Second
	e, err = elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Search(context.Background(), searchtest.MustParse(t, "query=pro+max+4070")); err != nil {
		t.Errorf("Search with a 30s timeout: %v", err)
	}
}

// TestNodeRestart stops the node with scripts/elasticsearch.sh while an
// engine uses it, then starts it again: while it is down, searches fail
// with ErrUnavailable and health is degraded; afterwards both recover
// with the published catalog. It changes the shared node, so it runs only
// when ELASTICSEARCH_RESTART_TEST=1 (CI sets it after the other tests).
func TestNodeRestart(t *testing.T) {
	nodeURL(t)
	if os.Getenv("ELASTICSEARCH_RESTART_TEST") != "1" {
		t.Skip("set ELASTICSEARCH_RESTART_TEST=1 to stop and restart the node with scripts/elasticsearch.sh")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "..", "scripts", "elasticsearch.sh"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(arg string) {
		t.Helper()
		cmd := exec.Command(script, arg)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("elasticsearch.sh %s: %v\n%s", arg, err, out)
		}
		if arg == "start" && !strings.Contains(string(out), "ELASTICSEARCH_URL="+os.Getenv(config.EnvESURL)) {
			t.Fatalf("elasticsearch.sh start came back on another URL than %s:\n%s", os.Getenv(config.EnvESURL), out)
		}
	}
	s := randomSnapshot(4, 200)
	alias := uniqueAlias(t, "restart")
	publishSnapshot(t, alias, s)
	opt, err := optionsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	opt.Index, opt.Timeout = alias, 2*time.Second
	opt.HealthInterval, opt.HealthStale = 100*time.Millisecond, time.Second
	e, err := elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if h := waitHealth(t, e, "ok"); h.Items != len(s.Products) {
		t.Errorf("Health before the stop = %+v", h)
	}
	ctx := context.Background()
	req := searchtest.MustParse(t, "query=pro&sort=price_asc")
	before, err := e.Search(ctx, req)
	if err != nil {
		t.Fatal(err)
	}

	run("stop")
	t.Cleanup(func() { run("start") }) // leave the node up even when the test fails
	if _, err := e.Search(ctx, req); !errors.Is(err, search.ErrUnavailable) {
		t.Errorf("Search with the node down: %v, want ErrUnavailable", err)
	}
	if _, err := e.Product(ctx, s.Products[0].ID); !errors.Is(err, search.ErrUnavailable) {
		t.Errorf("Product with the node down: %v, want ErrUnavailable", err)
	}
	waitHealth(t, e, "degraded")

	run("start")
	var after *search.Result
	deadline := time.Now().Add(60 * time.Second)
	for {
		after, err = e.Search(ctx, req)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("Search after the restart: %v", err)
	}
	if after.Total != before.Total || len(after.Products) == 0 || after.Products[0].Product.ID != before.Products[0].Product.ID {
		t.Errorf("after the restart: total %d, first %v; before: total %d, first %s",
			after.Total, searchtest.IDs(after), before.Total, before.Products[0].Product.ID)
	}
	if h := waitHealth(t, e, "ok"); h.Items != len(s.Products) {
		t.Errorf("Health after the restart = %+v", h)
	}
}

// TestNodeLoss runs searches and look-ups from several goroutines on a
// cluster of several nodes and kills one node (the process
// ELASTICSEARCH_KILL_NODE_PID) while they run: every request must succeed,
// retried on the other nodes, and health must come back ok. It destroys a
// node, so only scripts/test-elastic-cluster.sh runs it.
func TestNodeLoss(t *testing.T) {
	nodeURL(t)
	pid, err := strconv.Atoi(os.Getenv("ELASTICSEARCH_KILL_NODE_PID"))
	if err != nil {
		t.Skip("set ELASTICSEARCH_KILL_NODE_PID to the process id of one node of the cluster in ELASTICSEARCH_URL (scripts/test-elastic-cluster.sh does)")
	}
	s := randomSnapshot(9, 3000)
	alias := uniqueAlias(t, "node-loss")
	publishSnapshot(t, alias, s)
	opt, err := optionsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	opt.Index, opt.Timeout = alias, 5*time.Second
	opt.HealthInterval, opt.HealthStale = 200*time.Millisecond, 2*time.Second
	e, err := elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	var reqs []search.Request
	for _, q := range randomQueries(9, 200) {
		reqs = append(reqs, searchtest.MustParse(t, q))
	}

	// The load: workers take requests in turn, a search and a look-up
	// each; the first `before` run before the kill, the rest after it.
	const workers, before, after = 4, 100, 400
	var (
		next, done, failed atomic.Int64
		mu                 sync.Mutex
		failures           []string
		killed             = make(chan struct{})
		wg                 sync.WaitGroup
	)
	ctx := context.Background()
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= before+after {
					return
				}
				if i >= before {
					<-killed
				}
				_, err := e.Search(ctx, reqs[i%len(reqs)])
				if err == nil {
					_, err = e.Product(ctx, s.Products[i%len(s.Products)].ID)
				}
				done.Add(1)
				if err != nil {
					failed.Add(1)
					mu.Lock()
					failures = append(failures, fmt.Sprintf("request %d: %v", i, err))
					mu.Unlock()
				}
			}
		})
	}
	for done.Load() < before {
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		close(killed)
		wg.Wait()
		t.Fatalf("kill node %d: %v", pid, err)
	}
	t.Logf("killed node %d after %d requests", pid, done.Load())
	close(killed)
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d requests failed with a node lost:\n%s", n, done.Load(), strings.Join(failures[:min(len(failures), 20)], "\n"))
	}
	t.Logf("%d requests, %d failed", done.Load(), failed.Load())
	if h := waitHealth(t, e, "ok"); h.Items != len(s.Products) {
		t.Errorf("Health after the loss = %+v", h)
	}
}

// TestAliasMoves searches, moves the alias to another catalog and
// searches again with the same engines: the statistics and the cuts of
// truncated candidate lists they cached for the first index must not
// answer over the second, whose answers equal the embedded engine's over
// the second catalog.
func TestAliasMoves(t *testing.T) {
	nodeURL(t)
	first, second := randomSnapshot(11, 300), randomSnapshot(12, 500)
	second.Manifest.SyncTime = second.Manifest.SyncTime.Add(time.Hour)
	// No title of the first catalog says "gaming": the cached statistics
	// know the word as absent, which would leave it out of the ranking.
	for i := range first.Products {
		p := &first.Products[i]
		p.Title = strings.ReplaceAll(p.Title, "Gaming", "Black")
		for j := range p.Offers {
			p.Offers[j].Title = strings.ReplaceAll(p.Offers[j].Title, "Gaming", "Black")
		}
	}
	alias := uniqueAlias(t, "moves")
	publishSnapshot(t, alias, first)
	limits := []int{search.DefaultMaxCandidates, 7}
	engines := make([]*elastic.Engine, len(limits))
	for i, maxCand := range limits {
		engines[i] = newEngine(t, alias, maxCand)
	}
	queries := []string{"query=gaming+4070&limit=30", "query=pro+gaming+16gb", "query=pro", "query=pro+gaming", "query=pro+max&limit=5", "query=gaming+laptop&category=Laptops", "query=wireless+pro&offset=2&limit=3",
		`query=pro&constraints={"memory_gb":{"gte":16}}`, `category=Laptops&constraints={"memory_gb":{"gte":16}}&lite=true`,
		`category=Laptops&sort=price_desc&constraints={"storage_gb":{"gte":512}}`}
	ctx := context.Background()
	for _, e := range engines {
		for range 2 { // the second round runs on cached statistics and cuts
			for _, q := range queries {
				if _, err := e.Search(ctx, searchtest.MustParse(t, q)); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
		}
	}
	publishSnapshot(t, alias, second)
	for i, maxCand := range limits {
		mem, err := memory.New(second, memory.Options{MaxCandidates: maxCand})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			sameAnswers(t, ctx, mem, engines[i], searchtest.MustParse(t, q), fmt.Sprintf("max candidates %d, %s after the alias moved", maxCand, q))
		}
	}
}

// TestCachedStatisticsKeepFits repeats queries whose order depends on
// titles that name a query word only after "for" (ranked with the
// accessories): answered on cached statistics, they must still equal the
// embedded engine's answers.
func TestCachedStatisticsKeepFits(t *testing.T) {
	nodeURL(t)
	sync := time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	var s catalog.Snapshot
	s.Manifest.SyncTime = sync
	for i, title := range []string{"Apple iPhone 15 Pro Max 256GB Black", "Charging Stand for iPhone", "Apple iPhone 15",
		"Samsung Galaxy S24 Ultra", "MagSafe Charger for iPhone 15 Pro", "Apple iPhone 14 Plus 128GB"} {
		id := fmt.Sprintf("p%d", i)
		s.Products = append(s.Products, catalog.Product{ID: id, Title: title, Price: float64(100 + i), Currency: catalog.Currency,
			Availability: catalog.InStock, Category: "Phones", ProductType: catalog.TypeProduct, OfferCount: 1,
			Provenance: catalog.Provenance{Source: "Currys", LastUpdated: sync},
			Offers: []catalog.Offer{{ID: "o-" + id, Source: "Currys", Price: float64(100 + i), Currency: catalog.Currency,
				Availability: catalog.InStock, PurchaseURL: "https://shop.example/" + id, LastUpdated: sync}}})
	}
	alias := uniqueAlias(t, "fits")
	publishSnapshot(t, alias, &s)
	e := newEngine(t, alias, search.DefaultMaxCandidates)
	mem, err := memory.New(&s, memory.Options{MaxCandidates: search.DefaultMaxCandidates})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for round := range 2 { // the second round runs on cached statistics
		for _, q := range []string{"query=iphone", "query=iphone+15", "query=iphone&lite=true&limit=2", "query=galaxy",
			// pages across the tiers and within the accessories' tier
			"query=iphone&offset=2&limit=2", "query=iphone&offset=4&limit=1", "query=iphone+15&offset=1&limit=3&lite=true"} {
			sameAnswers(t, ctx, mem, e, searchtest.MustParse(t, q), fmt.Sprintf("round %d, %s", round, q))
		}
	}
}

// TestRequestsPerCall counts the requests the engine sends to the node
// (through a counting proxy) for each kind of call, once its statistics
// of the index are cached.
func TestRequestsPerCall(t *testing.T) {
	target, err := url.Parse(strings.Split(nodeURL(t), ",")[0])
	if err != nil {
		t.Fatal(err)
	}
	s := randomSnapshot(13, 500)
	alias := uniqueAlias(t, "requests")
	publishSnapshot(t, alias, s)
	var mu sync.Mutex
	var sent []string
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.Method+" "+r.URL.Path)
		mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	opt, err := optionsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	opt.Addresses, opt.Index, opt.Timeout = []string{srv.URL}, alias, 30*time.Second
	e, err := elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	opt.MaxCandidates = 7
	few, err := elastic.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { few.Close() })
	ctx := context.Background()
	for _, e := range []*elastic.Engine{e, few} {
		if _, err := e.Health(ctx); err != nil { // the view is refreshed from now on, not per call
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		call func() error
		want []string
	}{
		{"browse", searchCall(e, searchtest.MustParse(t, "category=Laptops&lite=true")), []string{"POST /" + alias + "/_search"}},
		{"price order", searchCall(e, searchtest.MustParse(t, "sort=price_asc&max_price=500")), []string{"POST /" + alias + "/_search"}},
		{"constrained", searchCall(e, searchtest.MustParse(t, `category=Laptops&constraints={"memory_gb":{"gte":16}}&lite=true`)), []string{"POST /" + alias + "/_search"}},
		{"required words", searchCall(e, searchtest.MustParse(t, "query=pro&lite=true")), []string{"POST /" + alias + "/_search"}},
		{"ranking words", searchCall(e, searchtest.MustParse(t, "query=pro+16gb+gaming")), []string{"POST /" + alias + "/_search"}},
		{"ranking words, lite", searchCall(e, searchtest.MustParse(t, "query=pro+16gb+gaming&lite=true")), []string{"POST /" + alias + "/_search"}},
		{"ranking words, constrained", searchCall(e, searchtest.MustParse(t, `query=pro+gaming&constraints={"memory_gb":{"gte":16}}&lite=true`)), []string{"POST /" + alias + "/_search"}},
		{"constrained, more candidates than the limit", searchCall(few, searchtest.MustParse(t, `category=Laptops&constraints={"memory_gb":{"gte":16}}&lite=true`)), []string{"POST /" + alias + "/_search"}},
		{"constrained by price, more candidates than the limit", searchCall(few, searchtest.MustParse(t, `category=Laptops&sort=price_asc&constraints={"storage_gb":{"gte":512}}`)), []string{"POST /" + alias + "/_search"}},
		{"product", func() error { _, err := e.Product(ctx, s.Products[7].ID); return err }, []string{"GET /" + alias + "/_doc/" + s.Products[7].ID}},
		{"health", func() error { _, err := e.Health(ctx); return err }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); err != nil { // the statistics of its words are read now
				t.Fatal(err)
			}
			mu.Lock()
			sent = nil
			mu.Unlock()
			if err := tt.call(); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.want, sent); diff != "" {
				t.Errorf("requests mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// searchCall returns a call of one search.
func searchCall(e *elastic.Engine, req search.Request) func() error {
	return func() error {
		_, err := e.Search(context.Background(), req)
		return err
	}
}

// TestResultsOutliveAnswers checks that a result holds none of the answer
// it was read from: the engine reads answers into buffers it reuses, so a
// result that kept a slice of one would change with the next searches.
func TestResultsOutliveAnswers(t *testing.T) {
	nodeURL(t)
	s := randomSnapshot(17, 300)
	alias := uniqueAlias(t, "outlive")
	publishSnapshot(t, alias, s)
	e := newEngine(t, alias, search.DefaultMaxCandidates)
	ctx := context.Background()
	// The largest answer first and between the others, so that every
	// answer is read into the buffer it left and overwrites the last.
	largest := searchtest.MustParse(t, "limit=100")
	run := func(q string) *search.Result {
		t.Helper()
		res, err := e.Search(ctx, searchtest.MustParse(t, q))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	queries := []string{
		"lite=true&limit=50",
		`category=Laptops&lite=true&limit=50&constraints={"memory_gb":{"gte":8}}`,
		"limit=50&sort=price_desc",
		"query=pro&lite=true&limit=50",
	}
	type kept struct {
		res  *search.Result
		json string
	}
	var all []kept
	for _, q := range queries {
		if _, err := e.Search(ctx, largest); err != nil {
			t.Fatal(err)
		}
		res := run(q)
		all = append(all, kept{res, answerOf(res)})
	}
	if _, err := e.Search(ctx, largest); err != nil {
		t.Fatal(err)
	}
	for i, k := range all {
		if got := answerOf(k.res); got != k.json {
			t.Errorf("%s: result changed after later searches:\n got %.200s\nwant %.200s", queries[i], got, k.json)
		}
	}
}

// answerOf is what a result shows: its JSON and the ids of its products.
func answerOf(res *search.Result) string {
	return string(res.AppendJSON(nil)) + " " + strings.Join(searchtest.IDs(res), ",")
}

// TestUpdatedInPlace checks that an index an incremental publish updates
// in place is searched as the embedded engine searches the new catalog
// once the health view has seen the new sync time: the statistics, counts
// and cuts kept of the index are read again.
func TestUpdatedInPlace(t *testing.T) {
	nodeURL(t)
	alias := uniqueAlias(t, "inplace")
	// The same ids with other titles and ranks; no laptop states 16 GB of
	// memory any more, so a search whose matches filled its page before
	// finds none.
	before, after := randomSnapshot(23, 400), randomSnapshot(24, 400)
	after.Manifest.SyncTime = before.Manifest.SyncTime.Add(time.Hour)
	for i := range after.Products {
		p := &after.Products[i]
		if _, ok := p.Attributes[catalog.MemoryGB]; ok && p.Category == "Laptops" {
			p.Attributes[catalog.MemoryGB], _ = catalog.BuildAttribute([]catalog.Observation{{Retailer: "Currys", Value: 8}})
		}
	}
	ctx := context.Background()
	popt := publish.DefaultOptions(connection(t), alias)
	popt.ForceMerge = false
	_, state, err := publish.PublishIncremental(ctx, before, nil, false, popt)
	if err != nil {
		t.Fatal(err)
	}
	limits := []int{7, search.DefaultMaxCandidates}
	engines := make([]*elastic.Engine, len(limits))
	for i, limit := range limits {
		opt, err := optionsFromEnv()
		if err != nil {
			t.Fatal(err)
		}
		opt.Index, opt.MaxCandidates, opt.Timeout = alias, limit, 30*time.Second
		opt.HealthInterval, opt.HealthStale = 50*time.Millisecond, time.Minute
		if engines[i], err = elastic.New(opt); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { engines[i].Close() })
	}
	queries := []string{
		// First, so that after the update its search reads the number of
		// matches kept before it (which filled its page) and runs again.
		`category=Laptops&constraints={"memory_gb":{"gte":16}}&lite=true&limit=3`,
		"query=pro+gaming+16gb&lite=true",
		"query=rtx+4070+laptop",
		`category=Laptops&constraints={"memory_gb":{"gte":16}}&lite=true`,
		`category=Laptops&sort=price_asc&constraints={"storage_gb":{"gte":512}}`,
		`query=gaming&category=Laptops&constraints={"memory_gb":{"gte":16}}`,
	}
	compare := func(s *catalog.Snapshot, when string) {
		t.Helper()
		for i, limit := range limits {
			mem, err := memory.New(s, memory.Options{MaxCandidates: limit})
			if err != nil {
				t.Fatal(err)
			}
			// Twice: the second search of each reads what the first kept.
			for range 2 {
				for _, q := range queries {
					sameAnswers(t, ctx, mem, engines[i], searchtest.MustParse(t, q), fmt.Sprintf("%s, limit %d, %s", when, limit, q))
				}
			}
		}
	}
	compare(before, "before the update")
	rep, _, err := publish.PublishIncremental(ctx, after, state, false, popt)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Incremental {
		t.Fatal("the second publish made a new index; want the index updated in place")
	}
	for _, e := range engines {
		deadline := time.Now().Add(30 * time.Second)
		for {
			h, err := e.Health(ctx)
			if err == nil && h.LastUpdate.Equal(after.Manifest.SyncTime) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("health still shows %v, want the update's sync time %v", h.LastUpdate, after.Manifest.SyncTime)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	compare(after, "after the update")
}
