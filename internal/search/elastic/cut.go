package elastic

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"productsearch/internal/search"
)

// A constrained search with more candidates than the limit judges the
// first ones in sort order. When the order is by stored fields alone (no
// score), the first ones are those at or before the limit-th candidate's
// sort values (the cut): one search finds them, and the candidates up to
// the cut are judged with aggregations (counted) as a search with no
// more candidates than the limit is, instead of listing every candidate
// with its named verdicts.

// cutSort returns the fields and directions of an order by stored fields;
// false when the order holds the score.
func cutSort(sort []any) (fields []string, desc []bool, ok bool) {
	for _, s := range sort {
		o, isObj := s.(obj)
		if !isObj || len(o) != 1 {
			return nil, nil, false
		}
		for f, d := range o {
			if f == "_score" {
				return nil, nil, false
			}
			fields, desc = append(fields, f), append(desc, d == "desc")
		}
	}
	return fields, desc, len(fields) > 0
}

// cutFilter matches the documents at or before sort values vals in the
// order of fields (descending where desc says): those strictly before on
// the first field that differs, or equal on every field.
func cutFilter(fields []string, desc []bool, vals []json.RawMessage) any {
	eq := func(i int) any { return obj{"range": obj{fields[i]: obj{"gte": vals[i], "lte": vals[i]}}} }
	var either []any
	for i := range fields {
		op := "lt"
		if desc[i] {
			op = "gt"
		}
		clause := []any{obj{"range": obj{fields[i]: obj{op: vals[i]}}}}
		for j := range i {
			clause = append(clause, eq(j))
		}
		either = append(either, obj{"bool": obj{"filter": clause}})
	}
	all := make([]any, len(fields))
	for i := range fields {
		all[i] = eq(i)
	}
	either = append(either, obj{"bool": obj{"filter": all}})
	return obj{"bool": obj{"should": either, "minimum_should_match": 1}}
}

// bounded answers a constrained search in an order by stored fields whose
// page is within maxInline, with the candidates judged by aggregations:
// a first search counts the candidates and finds the limit-th one's sort
// values; when there are more candidates than the limit, those up to it
// are judged (counted within the cut). It reports false when the order
// holds the score or the limit is deeper than a search reads.
func (q *query) bounded(ctx context.Context, res *search.Result, sort []any) (bool, error) {
	fields, desc, ok := cutSort(sort)
	if !ok || q.e.maxCand <= 0 || q.e.maxCand > pageSize || q.req.Offset+q.req.Limit > maxInline {
		return false, nil
	}
	key := countKey("cut"+sortKey(sort), q.filters)
	if v, ok := q.e.stats.cut(key); ok && q.useCache && len(v.vals) == len(fields) {
		q.cutIndex = v.index
		done, err := q.counted(ctx, res, sort, cutFilter(fields, desc, v.vals))
		if done {
			res.CandidatesTruncated = true
		}
		return done, err
	}
	body := obj{
		"from":             q.e.maxCand - 1,
		"size":             1,
		"track_total_hits": true,
		"timeout":          esDuration(ctx),
		"stored_fields":    "_none_",
		"query":            q.boolQuery(nil, nil),
		"sort":             sort,
		// The concrete index, also when no hit names it.
		"aggs": indexAgg(),
	}
	var r searchResponse
	if err := q.e.searchOnce(ctx, q.index, body, &r); err != nil {
		return false, err
	}
	if err := q.checkIndex(r.Hits.Hits); err != nil {
		return false, err
	}
	index, err := indexOf(r.Aggregations)
	if err != nil {
		return false, err
	}
	total := r.total()
	if index == "" {
		return total == 0, nil // no candidate: res stays empty
	}
	if q.expect != "" && index != q.expect {
		q.e.stats.drop(q.expect)
		return false, fmt.Errorf("%w: candidates in %s, statistics of %s", errStale, index, q.expect)
	}
	// The judging search reads the index the candidates were counted in.
	q.index = index
	q.e.stats.putCount(index, countKey("candidates", q.filters), total)
	var cut any
	if total > q.e.maxCand {
		var vals []json.RawMessage
		if len(r.Hits.Hits) != 1 || json.Unmarshal(r.Hits.Hits[0].Sort, &vals) != nil || len(vals) != len(fields) {
			return false, nil
		}
		q.e.stats.putCut(key, cutValues{index: index, vals: vals})
		cut = cutFilter(fields, desc, vals)
	}
	done, err := q.counted(ctx, res, sort, cut)
	if done && cut != nil {
		res.CandidatesTruncated = true
	}
	return done, err
}

// sortKey names an order in a cache key.
func sortKey(sort []any) string {
	b, err := json.Marshal(sort)
	if err != nil {
		return ""
	}
	return string(b)
}

// indexAgg is the aggregation naming the concrete index the documents
// of a search are in (one: the alias names one index).
func indexAgg() obj { return obj{"index": obj{"terms": obj{"field": "_index", "size": 1}}} }

// indexOf reads indexAgg from a search's aggregations: "" when the search
// matched no document.
func indexOf(aggs json.RawMessage) (string, error) {
	var a struct {
		Index indexBuckets `json:"index"`
	}
	if err := json.Unmarshal(aggs, &a); err != nil {
		return "", fmt.Errorf("decode the candidates' index: %w", err)
	}
	return a.Index.name(), nil
}

// indexBuckets is the answer of indexAgg.
type indexBuckets struct {
	Buckets []struct {
		Key string `json:"key"`
	} `json:"buckets"`
}

// name is the index the answer names; "" when the search matched no
// document.
func (b *indexBuckets) name() string {
	if len(b.Buckets) == 0 {
		return ""
	}
	return b.Buckets[0].Key
}
