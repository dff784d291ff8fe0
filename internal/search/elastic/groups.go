package elastic

import (
	"context"
	"slices"
)

// maxGroupClauses is the most scoring clauses for which the candidates
// holding a scoring word are read group by group (2^n - 1 searches in the
// one _msearch); with more, they are all read in one search.
const maxGroupClauses = 4

// group is one list of candidates holding a scoring word, read in an
// order consistent with their rank, and the sort fields naming its keys.
type group struct {
	fetch  *fetch
	fields []string
}

// touchedGroups returns the searches that read the candidates matching a
// scoring clause. The candidates that match the same clauses (a
// signature) share one score sum, so within a signature the rank follows
// tier (unless a "for" title puts them all in the accessories' tier),
// then title length (shorter is a higher norm; ignored when the sum is 0),
// then browse rank: of each signature only the first limit candidates in
// that order can reach the page or the candidate limit, and the exact
// totals of the disjoint signatures add up. With more than
// maxGroupClauses clauses, one search reads every such candidate.
func (q *query) touchedGroups(ctx context.Context, rk *ranking, scoring []namedClause, verdicts []any, limit int, touchedFirst bool) []group {
	full := []string{fieldTier, fieldTitleWords, fieldBrowseRank}
	if len(scoring) > maxGroupClauses || limit < 0 {
		named := make([]any, len(scoring))
		for i, c := range scoring {
			named[i] = c.named()
		}
		anyScoring := obj{"bool": obj{"should": named, "minimum_should_match": 1}}
		return []group{{fields: full, fetch: &fetch{limit: -1, body: candidateFields(obj{
			"timeout": esDuration(ctx),
			"query":   obj{"bool": obj{"filter": append(slices.Clone(q.filters), anyScoring), "should": verdicts}},
			"sort":    sortBy(full),
		})}}}
	}
	var out []group
	for sig := 1; sig < 1<<len(scoring); sig++ {
		filter := slices.Clone(q.filters)
		var not []any
		var names []string
		for i, c := range scoring {
			if sig&(1<<i) != 0 {
				filter = append(filter, c.named())
				names = append(names, c.name)
			} else {
				not = append(not, c.query)
			}
		}
		probe := rk.rank(&hit{Matched: names}, docKey{words: 1}, touchedFirst)
		var fields []string
		if rk.useTier && !slices.Contains(names, fitName) {
			fields = append(fields, fieldTier)
		}
		if probe.score > 0 {
			fields = append(fields, fieldTitleWords)
		}
		fields = append(fields, fieldBrowseRank)
		bq := obj{"filter": filter, "should": verdicts}
		if len(not) > 0 {
			bq["must_not"] = not
		}
		out = append(out, group{fields: fields, fetch: &fetch{limit: limit, body: candidateFields(obj{
			"timeout": esDuration(ctx),
			"query":   obj{"bool": bq},
			"sort":    sortBy(fields),
		})}})
	}
	return out
}

// sortBy sorts ascending by the fields, in order.
func sortBy(fields []string) []any {
	out := make([]any, len(fields))
	for i, f := range fields {
		out[i] = obj{f: "asc"}
	}
	return out
}
