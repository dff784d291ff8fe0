package publish

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/search/elastic"
)

// A partitioned publish loads one catalog into one index from several
// processes (the pods of a Kubernetes Indexed Job): each loads the
// documents of its partition, a set of categories, into the run's index
// <alias>-run-<run> and records a marker; Finish then checks that every
// partition is done and that all of them saw the same catalog, verifies the
// count, raises the replicas and moves the alias. Until Finish succeeds
// the alias, hence every reader, stays on the previous index.
//
// Every partition holds the whole catalog: grouping joins listings of
// different categories (by barcode and model code), and a document's browse
// rank and title norm are computed over all products, so the documents a
// partition writes are exactly those a full publish writes.

// runInfix separates the alias from the run in a run's index name.
const runInfix = "run-"

// MaxPartitions is the most partitions a catalog is split into: one
// category each.
const MaxPartitions = 19

// Partition is part Index (from 0) of Count.
type Partition struct {
	Index, Count int
}

// ParsePartition reads "i/N": part i, counted from 0 as a Job's completion
// index is, of N.
func ParsePartition(s string) (Partition, error) {
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Partition{}, fmt.Errorf("partition %q: want i/N, e.g. 0/4", s)
	}
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil {
		return Partition{}, fmt.Errorf("partition %q: want i/N with whole numbers, e.g. 0/4", s)
	}
	p := Partition{Index: i, Count: n}
	return p, p.Validate()
}

// Validate checks 0 <= Index < Count <= MaxPartitions.
func (p Partition) Validate() error {
	if p.Count < 1 || p.Count > MaxPartitions {
		return fmt.Errorf("partition count %d: want 1 to %d (one category at least per partition)", p.Count, MaxPartitions)
	}
	if p.Index < 0 || p.Index >= p.Count {
		return fmt.Errorf("partition %d of %d: the index counts from 0 to %d", p.Index, p.Count, p.Count-1)
	}
	return nil
}

func (p Partition) String() string { return strconv.Itoa(p.Index) + "/" + strconv.Itoa(p.Count) }

// AssignCategories splits the categories into count partitions balanced by
// their product counts (largest first, each to the lightest partition so
// far; ties go to the canonical order and the lower partition). Every
// partition of a run computes the same split from the same catalog.
func AssignCategories(products map[string]int, count int) [][]string {
	cats := catalog.Categories()
	for c := range products {
		if !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
	}
	canon := slices.Clone(cats)
	slices.SortStableFunc(cats, func(a, b string) int {
		return cmp.Or(cmp.Compare(products[b], products[a]), cmp.Compare(slices.Index(canon, a), slices.Index(canon, b)))
	})
	parts := make([][]string, count)
	load := make([]int, count)
	for k, c := range cats {
		best := 0
		for i := range count {
			if load[i] < load[best] || (load[i] == load[best] && len(parts[i]) < len(parts[best])) {
				best = i
			}
		}
		if k < count {
			best = k // every partition gets at least one category
		}
		parts[best] = append(parts[best], c)
		load[best] += products[c]
	}
	for i := range parts {
		slices.SortFunc(parts[i], func(a, b string) int { return cmp.Compare(slices.Index(canon, a), slices.Index(canon, b)) })
	}
	return parts
}

// validRun checks a run id: 1-64 lower-case letters, digits and hyphens,
// as index names allow.
func validRun(run string) error {
	if run == "" || len(run) > 64 {
		return fmt.Errorf("run %q: want 1 to 64 characters", run)
	}
	for _, r := range run {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return fmt.Errorf("run %q: only lower-case letters, digits and hyphens", run)
		}
	}
	return nil
}

// RunIndex is the index every partition of run loads.
func RunIndex(alias, run string) string { return alias + "-" + runInfix + run }

// markerIndex holds the partitions' markers of an alias.
func markerIndex(alias string) string { return alias + "-partitions" }

// marker records one finished partition.
type marker struct {
	Run        string    `json:"run"`
	Index      string    `json:"index"`
	Partition  int       `json:"partition"`
	Partitions int       `json:"partitions"`
	Categories []string  `json:"categories"`
	Products   int       `json:"products"` // documents the partition indexed
	Catalog    string    `json:"catalog"`  // fingerprint of the whole catalog
	Total      int       `json:"total"`    // products of the whole catalog
	Done       time.Time `json:"done"`
}

// fingerprint identifies a catalog by its product ids and counts, so that
// Finish can tell partitions that read different feeds.
func fingerprint(s *catalog.Snapshot, m elastic.Meta) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d %d %d\n", m.Products, m.Offers, m.TitleWords)
	for i := range s.Products {
		h.Write([]byte(s.Products[i].ID))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// PublishPartition loads the documents of partition part of s into the
// index of run (created by whichever partition comes first) and records
// the partition as done. It never moves the alias. A partition loaded
// again (a retried pod) writes the same documents under the same ids.
func PublishPartition(ctx context.Context, s *catalog.Snapshot, part Partition, run string, opt Options) (*Report, error) {
	start := time.Now()
	if err := opt.fill(); err != nil {
		return nil, err
	}
	if err := part.Validate(); err != nil {
		return nil, err
	}
	if err := validRun(run); err != nil {
		return nil, err
	}
	rep := &Report{Alias: opt.Alias, Index: RunIndex(opt.Alias, run)}
	err := publishPartition(ctx, s, part, run, &opt, rep)
	rep.Duration = time.Since(start)
	if err != nil {
		rep.Error = err.Error()
	}
	return rep, err
}

func publishPartition(ctx context.Context, s *catalog.Snapshot, part Partition, run string, opt *Options, rep *Report) error {
	cat, err := elastic.Prepare(s)
	if err != nil {
		return err
	}
	c, err := newClient(opt.Connection)
	if err != nil {
		return err
	}
	current, err := aliasTargets(ctx, c, opt.Alias)
	if err != nil {
		return err
	}
	rep.Previous = strings.Join(current, ",")
	if slices.Contains(current, rep.Index) {
		return fmt.Errorf("run %s is published already (alias %s names %s)", run, opt.Alias, rep.Index)
	}
	cats := AssignCategories(cat.Meta().Categories, part.Count)[part.Index]
	var docs []int
	for i := range s.Products {
		if slices.Contains(cats, s.Products[i].Category) {
			docs = append(docs, i)
		}
	}
	rep.Products = len(docs)
	if err := createRunIndex(ctx, c, cat, rep.Index, opt); err != nil {
		return err
	}
	opt.Log("partition %s: %d products of %s into %s", part, len(docs), strings.Join(cats, ", "), rep.Index)
	if docs == nil {
		docs = []int{} // a partition of no products loads none
	}
	if err := loadDocs(ctx, c, cat, rep.Index, docs, opt, rep); err != nil {
		return err
	}
	m := marker{Run: run, Index: rep.Index, Partition: part.Index, Partitions: part.Count, Categories: cats,
		Products: len(docs), Catalog: fingerprint(s, cat.Meta()), Total: cat.Len(), Done: time.Now().UTC()}
	return writeMarker(ctx, c, opt.Alias, m)
}

// createRunIndex creates the run's index unless another partition has.
func createRunIndex(ctx context.Context, c *elastic.Client, cat *elastic.Catalog, name string, opt *Options) error {
	loading := opt.Settings
	loading.Replicas = 0
	body, err := cat.IndexBody(loading)
	if err != nil {
		return err
	}
	err = c.Do(ctx, http.MethodPut, "/"+name, url.Values{"wait_for_active_shards": {"1"}}, body, nil)
	if alreadyExists(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create index %s: %w", name, err)
	}
	opt.Log("created index %s", name)
	return nil
}

// alreadyExists reports whether err says the index to create exists.
func alreadyExists(err error) bool {
	var ee *elastic.Error
	return errors.As(err, &ee) && ee.Type == "resource_already_exists_exception"
}

func writeMarker(ctx context.Context, c *elastic.Client, alias string, m marker) error {
	idx := markerIndex(alias)
	mapping := []byte(`{"settings":{"index":{"number_of_shards":1,"auto_expand_replicas":"0-1"}},` +
		`"mappings":{"dynamic":false,"properties":{"run":{"type":"keyword"},"index":{"type":"keyword"}}}}`)
	if err := c.Do(ctx, http.MethodPut, "/"+idx, nil, mapping, nil); err != nil && !alreadyExists(err) {
		return fmt.Errorf("create %s: %w", idx, err)
	}
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	id := m.Run + "." + strconv.Itoa(m.Partition)
	q := url.Values{"refresh": {"wait_for"}}
	if err := c.Do(ctx, http.MethodPut, "/"+idx+"/_doc/"+url.PathEscape(id), q, body, nil); err != nil {
		return fmt.Errorf("record partition %d of run %s: %w", m.Partition, m.Run, err)
	}
	return nil
}

// markers returns the recorded partitions of run.
func markers(ctx context.Context, c *elastic.Client, alias, run string) ([]marker, error) {
	var ans struct {
		Hits struct {
			Hits []struct {
				Source marker `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	body, err := json.Marshal(map[string]any{"size": 1000, "query": map[string]any{"term": map[string]any{"run": run}}})
	if err != nil {
		return nil, err
	}
	err = c.Do(ctx, http.MethodPost, "/"+markerIndex(alias)+"/_search", nil, body, &ans)
	if elastic.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the partitions of run %s: %w", run, err)
	}
	out := make([]marker, len(ans.Hits.Hits))
	for i, h := range ans.Hits.Hits {
		out[i] = h.Source
	}
	return out, nil
}

// checkMarkers verifies that all count partitions of a run are done and saw
// the same catalog; it returns that catalog's product count.
func checkMarkers(ms []marker, count int) (int, error) {
	done := make([]*marker, count)
	for i := range ms {
		m := &ms[i]
		if m.Partitions != count {
			return 0, fmt.Errorf("partition %d was run as one of %d, not %d", m.Partition, m.Partitions, count)
		}
		if m.Partition >= 0 && m.Partition < count {
			done[m.Partition] = m
		}
	}
	var missing []string
	for i, m := range done {
		if m == nil {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("partitions %s of %d are not done", strings.Join(missing, ", "), count)
	}
	sum := 0
	for _, m := range done {
		if m.Catalog != done[0].Catalog || m.Total != done[0].Total {
			return 0, fmt.Errorf("partitions 0 and %d read different catalogs (%d and %d products): the feeds changed during the run",
				m.Partition, done[0].Total, m.Total)
		}
		sum += m.Products
	}
	if sum != done[0].Total {
		return 0, fmt.Errorf("the partitions indexed %d products of a catalog of %d", sum, done[0].Total)
	}
	return sum, nil
}

// Finish publishes the index of a partitioned run: every one of count
// partitions must be done and agree on the catalog; then the count is
// verified, the shrink check applied, the replicas raised, the alias moved
// and old versions pruned. When a partition is missing nothing changes and
// the alias stays on the previous index.
func Finish(ctx context.Context, run string, count int, opt Options) (*Report, error) {
	start := time.Now()
	if err := opt.fill(); err != nil {
		return nil, err
	}
	if err := (Partition{Count: count}).Validate(); err != nil {
		return nil, err
	}
	if err := validRun(run); err != nil {
		return nil, err
	}
	rep := &Report{Alias: opt.Alias, Index: RunIndex(opt.Alias, run)}
	err := finish(ctx, run, count, &opt, rep)
	rep.Duration = time.Since(start)
	if err != nil {
		rep.Error = err.Error()
	}
	return rep, err
}

func finish(ctx context.Context, run string, count int, opt *Options, rep *Report) error {
	c, err := newClient(opt.Connection)
	if err != nil {
		return err
	}
	ms, err := markers(ctx, c, opt.Alias, run)
	if err != nil {
		return err
	}
	total, err := checkMarkers(ms, count)
	if err != nil {
		return fmt.Errorf("run %s: %w; the alias stays", run, err)
	}
	rep.Products, rep.Indexed = total, total
	current, err := aliasTargets(ctx, c, opt.Alias)
	if err != nil {
		return err
	}
	rep.Previous = strings.Join(current, ",")
	if slices.Contains(current, rep.Index) {
		rep.Published = true
		opt.Log("alias %s names %s already", opt.Alias, rep.Index)
		return nil
	}
	if len(current) > 0 {
		if err := checkShrink(ctx, c, opt, total); err != nil {
			return err
		}
	}
	if err := seal(ctx, c, rep.Index, total, opt); err != nil {
		return err
	}
	return goLive(ctx, c, current, rep.Index, opt, rep)
}

// forgetRuns deletes the partition markers of deleted run indices.
func forgetRuns(ctx context.Context, c *elastic.Client, alias string, deleted []string, opt *Options) {
	var runs []string
	for _, d := range deleted {
		if strings.HasPrefix(d, alias+"-"+runInfix) {
			runs = append(runs, d)
		}
	}
	if len(runs) == 0 {
		return
	}
	body, err := json.Marshal(map[string]any{"query": map[string]any{"terms": map[string]any{"index": runs}}})
	if err != nil {
		return
	}
	q := url.Values{"refresh": {"true"}, "conflicts": {"proceed"}}
	if err := c.Do(ctx, http.MethodPost, "/"+markerIndex(alias)+"/_delete_by_query", q, body, nil); err != nil && !elastic.IsNotFound(err) {
		opt.Log("deleting the markers of %s: %v", strings.Join(runs, ", "), err)
	}
}
