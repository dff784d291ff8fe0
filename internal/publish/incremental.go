package publish

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/search/elastic"
)

// An incremental publish updates the live index in place: it sends only
// the documents whose source changed since the previous publish (State
// records a hash of each), deletes the documents of products that left
// the catalog, and rewrites the index's _meta. A document's source holds
// its browse rank and title norm, which depend on the whole catalog, so a
// price that moves a product in browse order re-sends the products it
// passes. A new index version is still made, as by Publish, when there is
// no state, when the alias names another index than the state's, when the
// mapping (schema version, attributes) or the shard count changed, or when
// the caller asks for a full publish. An update is not atomic: readers see
// the changed documents as the index refreshes, in the seconds it takes.

// State is what an incremental publish keeps of the index it wrote.
type State struct {
	Alias   string            `json:"alias"`
	Index   string            `json:"index"`
	Mapping string            `json:"mapping"`
	Shards  int               `json:"shards"`
	Docs    map[string]uint64 `json:"docs"` // product id -> hash of its document
}

// mappingKey names what decides an index's mapping: the schema version and
// the attributes documents hold.
func mappingKey() string {
	return strconv.Itoa(elastic.SchemaVersion) + ":" + strings.Join(catalog.DefaultAttributes().Names(), ",")
}

// docHashes hashes every document's source.
func docHashes(cat *elastic.Catalog) (map[string]uint64, error) {
	out := make(map[string]uint64, cat.Len())
	var src []byte
	for i := range cat.Len() {
		var err error
		if src, err = cat.AppendSource(src[:0], i); err != nil {
			return nil, err
		}
		out[cat.DocID(i)] = sourceHash(src)
	}
	return out, nil
}

// sourceHash is what the state keeps of a document's source.
func sourceHash(src []byte) uint64 {
	h := fnv.New64a()
	h.Write(src)
	return h.Sum64()
}

// PublishIncremental updates the index of prev in place with the
// documents of s that changed, or, when prev cannot be updated (see
// above) or full is set, publishes s into a new index as Publish does. It
// returns the report and the state to pass to the next publish (nil when
// it failed).
func PublishIncremental(ctx context.Context, s *catalog.Snapshot, prev *State, full bool, opt Options) (*Report, *State, error) {
	if err := opt.fill(); err != nil {
		return nil, nil, err
	}
	cat, err := elastic.Prepare(s)
	if err != nil {
		return nil, nil, err
	}
	next := &State{Alias: opt.Alias, Mapping: mappingKey(), Shards: max(opt.Settings.Shards, 1)}
	c, err := newClient(opt.Connection)
	if err != nil {
		return nil, nil, err
	}
	current, err := aliasTargets(ctx, c, opt.Alias)
	if err != nil {
		return nil, nil, err
	}
	if reason := inPlace(prev, next, current, full); reason != "" {
		opt.Log("publishing a new index: %s", reason)
		// The documents are hashed as they are sent, not encoded twice.
		next.Docs = make(map[string]uint64, cat.Len())
		opt.hashed = func(id string, h uint64) { next.Docs[id] = h }
		rep, err := publishPrepared(ctx, cat, opt)
		if err != nil {
			return rep, nil, err
		}
		next.Index = rep.Index
		return rep, next, nil
	}
	if next.Docs, err = docHashes(cat); err != nil {
		return nil, nil, err
	}
	next.Index = prev.Index
	start := time.Now()
	rep := &Report{Alias: opt.Alias, Index: prev.Index, Previous: prev.Index, Products: cat.Len(), Incremental: true}
	err = update(ctx, c, cat, prev, next, &opt, rep)
	rep.Duration = time.Since(start)
	if err != nil {
		rep.Error = err.Error()
		return rep, nil, err
	}
	rep.Published = true
	return rep, next, nil
}

// inPlace says why prev's index cannot be updated to next, or "" when it
// can.
func inPlace(prev, next *State, current []string, full bool) string {
	switch {
	case full:
		return "a full publish was asked for"
	case prev == nil:
		return "no state of a previous publish"
	case prev.Alias != next.Alias:
		return "the state is of alias " + prev.Alias
	case !slices.Equal(current, []string{prev.Index}):
		return fmt.Sprintf("the alias names %s, not the state's %s", orNone(strings.Join(current, ",")), prev.Index)
	case prev.Mapping != next.Mapping:
		return "the mapping changed"
	case prev.Shards != next.Shards:
		return fmt.Sprintf("the shards changed from %d to %d", prev.Shards, next.Shards)
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "no index"
	}
	return s
}

// update sends the changed documents into the live index, deletes those
// of products that left, rewrites _meta and verifies the count.
func update(ctx context.Context, c *elastic.Client, cat *elastic.Catalog, prev, next *State, opt *Options, rep *Report) error {
	if err := checkShrink(ctx, c, opt, cat.Len()); err != nil {
		return err
	}
	var changed []int
	for i := range cat.Len() {
		id := cat.DocID(i)
		if h, ok := prev.Docs[id]; !ok || h != next.Docs[id] {
			changed = append(changed, i)
		}
	}
	var gone []string
	for id := range prev.Docs {
		if _, ok := next.Docs[id]; !ok {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	opt.Log("updating %s in place: %d of %d products changed, %d left the catalog", prev.Index, len(changed), cat.Len(), len(gone))
	if len(changed) > 0 {
		if err := loadDocs(ctx, c, cat, prev.Index, changed, opt, rep); err != nil {
			return err
		}
	}
	if err := deleteDocs(ctx, c, prev.Index, gone, opt, rep); err != nil {
		return err
	}
	body, err := json.Marshal(map[string]any{"_meta": cat.Meta()})
	if err != nil {
		return err
	}
	if err := c.Do(ctx, http.MethodPut, "/"+prev.Index+"/_mapping", nil, body, nil); err != nil {
		return fmt.Errorf("update the _meta of %s: %w", prev.Index, err)
	}
	if err := c.Do(ctx, http.MethodPost, "/"+prev.Index+"/_refresh", nil, nil, nil); err != nil {
		return fmt.Errorf("refresh %s: %w", prev.Index, err)
	}
	n, err := count(ctx, c, prev.Index)
	if err != nil {
		return err
	}
	if n != cat.Len() {
		return fmt.Errorf("index %s holds %d documents after the update, the snapshot %d products", prev.Index, n, cat.Len())
	}
	return nil
}

// deleteDocs deletes the documents ids from index; one already gone is
// no failure.
func deleteDocs(ctx context.Context, c *elastic.Client, index string, ids []string, opt *Options, rep *Report) error {
	for len(ids) > 0 {
		n := min(len(ids), 1000)
		b := &batch{}
		for k, id := range ids[:n] {
			action, err := json.Marshal(map[string]map[string]string{"delete": {"_index": index, "_id": id}})
			if err != nil {
				return err
			}
			b.offs = append(b.offs, len(b.body))
			b.docs = append(b.docs, k)
			b.body = append(append(b.body, action...), '\n')
		}
		res, err := send(ctx, c, b, opt)
		if err != nil {
			return fmt.Errorf("delete products: %w", err)
		}
		rep.Removed += res.indexed
		var errs []error
		for _, f := range res.failures {
			if f.Status == http.StatusNotFound {
				rep.Removed++
				continue
			}
			errs = append(errs, fmt.Errorf("%s: %s", f.ID, f.Reason))
		}
		if len(errs) > 0 {
			return fmt.Errorf("delete products: %w", errors.Join(errs...))
		}
		ids = ids[n:]
	}
	return nil
}
