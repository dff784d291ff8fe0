package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
)

// Engine names.
const (
	EngineMemory = "memory"
	EngineBleve  = "bleve"
	EngineSQLite = "sqlite"
)

// Engines lists the engine names in report order: ours first.
func Engines() []string { return []string{EngineMemory, EngineBleve, EngineSQLite} }

// Build builds the named engine over a snapshot. close releases it.
func Build(name string, s *catalog.Snapshot) (e Searcher, close func() error, err error) {
	switch name {
	case EngineMemory:
		m, err := memory.New(s, memory.DefaultOptions())
		if err != nil {
			return nil, nil, fmt.Errorf("build memory engine: %w", err)
		}
		return m, func() error { return nil }, nil
	case EngineBleve:
		p, err := NewBleve(s)
		if err != nil {
			return nil, nil, err
		}
		return p, p.Close, nil
	case EngineSQLite:
		p, err := NewSQLite(s)
		if err != nil {
			return nil, nil, err
		}
		return p, p.Close, nil
	}
	return nil, nil, fmt.Errorf("unknown engine %q: use one of %s", name, strings.Join(Engines(), ", "))
}

// Targets of the embedded engine at the demo catalog's size.
const (
	TargetP50     = 20 * time.Microsecond
	TargetP99     = 200 * time.Microsecond
	TargetSpeedup = 20.0
	TargetBuild   = time.Second
)

// Config configures a report.
type Config struct {
	Catalog   string   // the demo catalog snapshot
	Catalog10 string   // a 10x demo catalog snapshot; "" skips the scaling check
	Engines   []string // engines to compare; nil means all
	Runs      int      // measurement runs per engine; the best is reported with the spread
	Budget    Budget   // per run, for our engine
	// PeerBudget is per run, for the peers (which are far slower).
	PeerBudget Budget
	// CPUProfile, when set, receives a CPU profile of our engine running
	// the mix at the demo catalog's size.
	CPUProfile string
}

// DefaultConfig returns the configuration of `make bench-search`.
func DefaultConfig() Config {
	return Config{
		Runs:       3,
		Budget:     Budget{MinPasses: 5, MaxPasses: 200, MinTime: 2 * time.Second},
		PeerBudget: Budget{MinPasses: 1, MaxPasses: 20, MinTime: 5 * time.Second},
	}
}

// engineRun is what one engine measured.
type engineRun struct {
	name   string
	builds []time.Duration
	runs   [][]Sample // per run
}

// best returns the run with the lowest p50 and the p50 and p99 range
// over all runs.
func (e *engineRun) best() (best []Sample, p50s, p99s []time.Duration) {
	bestP50 := time.Duration(-1)
	for _, r := range e.runs {
		st := Summarize(r, nil)
		p50s, p99s = append(p50s, st.P50), append(p99s, st.P99)
		if bestP50 < 0 || st.P50 < bestP50 {
			best, bestP50 = r, st.P50
		}
	}
	return best, p50s, p99s
}

// Report measures the engines on the catalog's mix and writes the
// comparison: latency percentiles per engine and query class, ratios to
// ours, index build times, whether the answers agree, the targets, and the
// scaling of our engine from the demo catalog to a 10x catalog.
func Report(ctx context.Context, w io.Writer, cfg Config) error {
	if cfg.Runs < 1 {
		cfg.Runs = 1
	}
	names := cfg.Engines
	if len(names) == 0 {
		names = Engines()
	}
	if names[0] != EngineMemory {
		return errors.New("report: the first engine must be memory, the engine the others are compared with")
	}
	fmt.Fprintf(w, "search benchmark: %s/%s, GOMAXPROCS %d, %s; load average at start %s\n",
		runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version(), loadAverage())
	snap, err := catalog.ReadSnapshot(cfg.Catalog)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	mix := Mix(snap)
	fmt.Fprintf(w, "catalog %s: %d products; mix: %s\n\n", cfg.Catalog, len(snap.Products), describe(mix))

	// Build every engine and check the peers answer as ours does.
	engines := make([]Searcher, len(names))
	results := make([]*engineRun, len(names))
	for i, name := range names {
		results[i] = &engineRun{name: name}
		// Our build is short and sensitive to other load: take the best
		// of several.
		builds := 1
		if name == EngineMemory {
			builds = max(cfg.Runs, 5)
		}
		for b := range builds {
			runtime.GC()
			start := time.Now()
			e, closeFn, err := Build(name, snap)
			if err != nil {
				return fmt.Errorf("report: %w", err)
			}
			results[i].builds = append(results[i].builds, time.Since(start))
			if b < builds-1 {
				closeFn()
				continue
			}
			engines[i] = e
			defer closeFn()
		}
	}
	for i := 1; i < len(names); i++ {
		diffs, err := Agreement(ctx, engines[0], engines[i], mix)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		fmt.Fprintf(w, "%s answers as memory on %d of %d queries (totals, constraint counts, truncation; pages where the order is defined by fields)\n",
			names[i], len(mix)-len(diffs), len(mix))
		for _, d := range diffs[:min(5, len(diffs))] {
			fmt.Fprintf(w, "  differs: %s\n", d)
		}
	}

	// Measure: every engine once per run, ours first.
	for run := range cfg.Runs {
		for i, name := range names {
			b := cfg.PeerBudget
			if name == EngineMemory {
				b = cfg.Budget
			}
			runtime.GC()
			samples, err := Measure(ctx, engines[i], mix, b)
			if err != nil {
				return fmt.Errorf("report: %s run %d: %w", name, run+1, err)
			}
			results[i].runs = append(results[i].runs, samples)
		}
	}
	fmt.Fprintf(w, "load average after the runs: %s\n\n", loadAverage())
	writeLatency(w, mix, results)

	if cfg.CPUProfile != "" {
		if err := profile(ctx, cfg.CPUProfile, engines[0], mix, cfg.Budget); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		fmt.Fprintf(w, "\nCPU profile of memory over the mix: %s\n", cfg.CPUProfile)
	}

	if cfg.Catalog10 == "" {
		return nil
	}
	return writeScaling(ctx, w, cfg, snap, mix)
}

func writeLatency(w io.Writer, mix []Query, results []*engineRun) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "engine\tbuild\tsearches\tp50\tp99\tp50 runs\tp99 runs\tcpu p50\tcpu p99\tp50 vs memory\tp99 vs memory\t")
	var ours Stats
	for i, r := range results {
		best, p50s, p99s := r.best()
		st := Summarize(best, nil)
		if i == 0 {
			ours = st
		}
		ratio50, ratio99 := "", ""
		if i > 0 {
			ratio50 = fmt.Sprintf("%.0fx", float64(st.P50)/float64(ours.P50))
			ratio99 = fmt.Sprintf("%.0fx", float64(st.P99)/float64(ours.P99))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.name, spread(r.builds), st.N,
			us(st.P50), us(st.P99), spread(p50s), spread(p99s), us(st.CPUP50), us(st.CPUP99), ratio50, ratio99)
	}
	tw.Flush()

	fmt.Fprintln(w, "\np50 per query class (best run):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "class\tqueries\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t", r.name)
	}
	for _, r := range results[1:] {
		fmt.Fprintf(tw, "%s/memory\t", r.name)
	}
	fmt.Fprintln(tw)
	for _, class := range Classes() {
		n := 0
		for _, q := range mix {
			if q.Class == class {
				n++
			}
		}
		keep := func(s Sample) bool { return mix[s.Query].Class == class }
		fmt.Fprintf(tw, "%s\t%d\t", class, n)
		var p50s []time.Duration
		for _, r := range results {
			best, _, _ := r.best()
			p := Summarize(best, keep).P50
			p50s = append(p50s, p)
			fmt.Fprintf(tw, "%s\t", us(p))
		}
		for _, p := range p50s[1:] {
			fmt.Fprintf(tw, "%.0fx\t", float64(p)/float64(p50s[0]))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()

	// The slowest queries of ours, by their median.
	best, _, _ := results[0].best()
	byQuery := map[int][]time.Duration{}
	for _, s := range best {
		byQuery[s.Query] = append(byQuery[s.Query], s.Wall)
	}
	type slow struct {
		query int
		p50   time.Duration
	}
	var slowest []slow
	for q, ds := range byQuery {
		slices.Sort(ds)
		slowest = append(slowest, slow{q, percentile(ds, 0.5)})
	}
	slices.SortFunc(slowest, func(a, b slow) int { return cmp.Or(cmp.Compare(b.p50, a.p50), cmp.Compare(a.query, b.query)) })
	fmt.Fprintln(w, "\nslowest queries of memory (median of their searches):")
	for _, s := range slowest[:min(5, len(slowest))] {
		fmt.Fprintf(w, "  %s  %s: %s\n", us(s.p50), mix[s.query].Class, mix[s.query])
	}

	// Targets.
	st := Summarize(best, nil)
	fmt.Fprintln(w, "\ntargets for memory:")
	check := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	fmt.Fprintf(w, "  p50 %s <= %s: %s\n", us(st.P50), us(TargetP50), check(st.P50 <= TargetP50))
	fmt.Fprintf(w, "  p99 %s <= %s: %s\n", us(st.P99), us(TargetP99), check(st.P99 <= TargetP99))
	fmt.Fprintf(w, "  index build %s <= %s: %s\n", ms(slices.Min(results[0].builds)), ms(TargetBuild),
		check(slices.Min(results[0].builds) <= TargetBuild))
	for _, r := range results[1:] {
		pb, _, _ := r.best()
		ratio := float64(Summarize(pb, nil).P50) / float64(st.P50)
		fmt.Fprintf(w, "  p50 %.0fx faster than %s (>= %.0fx): %s\n", ratio, r.name, TargetSpeedup, check(ratio >= TargetSpeedup))
	}
}

// writeScaling measures our engine on a 10x catalog with the same mix and
// compares, per class, how search cost and candidate counts grow.
func writeScaling(ctx context.Context, w io.Writer, cfg Config, snap *catalog.Snapshot, mix []Query) error {
	or1 := NewOracle(snap)
	cand1 := make([]int, len(mix))
	for i, q := range mix {
		cand1[i] = or1.Candidates(q.Req)
	}
	e1, err := memory.New(snap, memory.DefaultOptions())
	if err != nil {
		return fmt.Errorf("scaling: %w", err)
	}
	var runs1 [][]Sample
	for range cfg.Runs {
		runtime.GC()
		s, err := Measure(ctx, e1, mix, cfg.Budget)
		if err != nil {
			return fmt.Errorf("scaling: %w", err)
		}
		runs1 = append(runs1, s)
	}
	e1 = nil

	snap10, err := catalog.ReadSnapshot(cfg.Catalog10)
	if err != nil {
		return fmt.Errorf("scaling: %w", err)
	}
	or10 := NewOracle(snap10)
	cand10 := make([]int, len(mix))
	for i, q := range mix {
		cand10[i] = or10.Candidates(q.Req)
	}
	runtime.GC()
	start := time.Now()
	e10, err := memory.New(snap10, memory.DefaultOptions())
	if err != nil {
		return fmt.Errorf("scaling: %w", err)
	}
	build10 := time.Since(start)
	var runs10 [][]Sample
	for range cfg.Runs {
		runtime.GC()
		s, err := Measure(ctx, e10, mix, cfg.Budget)
		if err != nil {
			return fmt.Errorf("scaling: %w", err)
		}
		runs10 = append(runs10, s)
	}
	best1, _, _ := (&engineRun{runs: runs1}).best()
	best10, _, _ := (&engineRun{runs: runs10}).best()

	fmt.Fprintf(w, "\nscaling: memory at %d products (%s) vs %d products (%s), build %s; same mix, best of %d runs each\n",
		len(snap.Products), cfg.Catalog, len(snap10.Products), cfg.Catalog10, ms(build10), cfg.Runs)
	fmt.Fprintln(w, "candidates = products passing the filters and required words (before constraints), median over the class's queries")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "class\tqueries\tcandidates 1x\tcandidates 10x\tgrowth\tp50 1x\tp50 10x\tgrowth\tmean 1x\tmean 10x\tgrowth\tcost grows\t")
	for _, class := range append(Classes(), "all") {
		var c1, c10 []int
		for i, q := range mix {
			if class == "all" || q.Class == class {
				c1, c10 = append(c1, cand1[i]), append(c10, cand10[i])
			}
		}
		keep := func(s Sample) bool { return class == "all" || mix[s.Query].Class == class }
		s1, s10 := Summarize(best1, keep), Summarize(best10, keep)
		m1, m10 := median(c1), median(c10)
		cg := float64(m10) / float64(max(m1, 1))
		pg := float64(s10.P50) / float64(s1.P50)
		mg := float64(s10.Mean) / float64(s1.Mean)
		verdict := "no faster than candidates"
		if pg > cg*1.1 || mg > mean(c10)/max(mean(c1), 1)*1.1 {
			verdict = "FASTER than candidates"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1fx\t%s\t%s\t%.1fx\t%s\t%s\t%.1fx\t%s\t\n", class, len(c1), m1, m10, cg,
			us(s1.P50), us(s10.P50), pg, us(s1.Mean), us(s10.Mean), mg, verdict)
	}
	tw.Flush()
	fmt.Fprintln(w, "(the mean is compared with the growth of the mean candidate count)")
	return nil
}

// Agreement compares peer's answers with ref's on every query of the mix:
// totals, constraint counts and truncation, and the page's products where
// the order is defined by fields alone (price sorts, and relevance without
// query words). It returns one line per query that differs.
func Agreement(ctx context.Context, ref, peer Searcher, mix []Query) ([]string, error) {
	var diffs []string
	for _, q := range mix {
		a, err := ref.Search(ctx, q.Req)
		if err != nil {
			return nil, fmt.Errorf("agreement: %s: %w", q, err)
		}
		b, err := peer.Search(ctx, q.Req)
		if err != nil {
			return nil, fmt.Errorf("agreement: %s: %w", q, err)
		}
		if d := compare(q, a, b); d != "" {
			diffs = append(diffs, q.String()+": "+d)
		}
	}
	return diffs, nil
}

func compare(q Query, a, b *search.Result) string {
	type counts struct {
		total, excluded, unverified int
		truncated                   bool
	}
	ca := counts{a.Total, a.ExcludedByConstraints, a.UnverifiedTotal, a.CandidatesTruncated}
	cb := counts{b.Total, b.ExcludedByConstraints, b.UnverifiedTotal, b.CandidatesTruncated}
	plan, err := q.Req.Plan()
	if err != nil {
		return err.Error()
	}
	scored := shapeOf(&plan).scored
	if scored && a.CandidatesTruncated {
		// Which 2,000 candidates are judged depends on the ranking, which
		// differs between engines: only the number judged must agree.
		ca.total, ca.excluded, ca.unverified = ca.total+ca.excluded+ca.unverified, 0, 0
		cb.total, cb.excluded, cb.unverified = cb.total+cb.excluded+cb.unverified, 0, 0
	}
	if ca != cb {
		return fmt.Sprintf("counts %+v, peer %+v", ca, cb)
	}
	if len(a.Products) != len(b.Products) {
		return fmt.Sprintf("%d products, peer %d", len(a.Products), len(b.Products))
	}
	if scored {
		return ""
	}
	for i := range a.Products {
		if a.Products[i].Product.ID != b.Products[i].Product.ID {
			return fmt.Sprintf("product %d is %s, peer %s", i, a.Products[i].Product.ID, b.Products[i].Product.ID)
		}
	}
	return ""
}

// profile writes a CPU profile of e running the mix.
func profile(ctx context.Context, path string, e Searcher, mix []Query, b Budget) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("cpu profile: %w", err)
	}
	b.MinTime = max(b.MinTime, 10*time.Second)
	b.MaxPasses = max(b.MaxPasses, 2000)
	_, merr := Measure(ctx, e, mix, b)
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	return merr
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func us(d time.Duration) string {
	v := float64(d) / float64(time.Microsecond)
	switch {
	case v >= 10000:
		return fmt.Sprintf("%.1fms", v/1000)
	case v >= 100:
		return fmt.Sprintf("%.0fµs", v)
	}
	return fmt.Sprintf("%.1fµs", v)
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.0fms", float64(d)/float64(time.Millisecond))
}

// spread writes the range of durations: "a" or "a-b".
func spread(ds []time.Duration) string {
	lo, hi := slices.Min(ds), slices.Max(ds)
	f := us
	if lo >= time.Millisecond*100 {
		f = ms
	}
	if f(lo) == f(hi) {
		return f(lo)
	}
	return f(lo) + "-" + f(hi)
}

func median(v []int) int {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func mean(v []int) float64 {
	if len(v) == 0 {
		return 0
	}
	sum := 0
	for _, x := range v {
		sum += x
	}
	return float64(sum) / float64(len(v))
}
