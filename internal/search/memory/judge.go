package memory

import (
	"slices"

	"productsearch/internal/search"
)

// judge applies the constraints: it fills the result's counts and returns
// the page of matched-then-unverified documents.
func (q *query) judge(res *search.Result, maxCand int) []uint32 {
	req, sc := &q.plan.Request, q.sc
	need := req.Offset + req.Limit
	n := q.c.len()
	matched, unverified := sc.matched[:0], sc.unverified[:0]
	defer func() { sc.matched, sc.unverified = matched[:0], unverified[:0] }()
	// tally counts doc's verdict; it reports the verdict and whether the
	// document may still be on the page (keep: collect every one).
	tally := func(doc uint32, keep bool) search.Verdict {
		v := q.ix.verdict(doc, sc.cons)
		switch v {
		case search.Matched:
			res.Total++
			if keep || len(matched) < need {
				matched = append(matched, doc)
			}
		case search.Excluded:
			res.ExcludedByConstraints++
		default:
			res.UnverifiedTotal++
			if keep || len(unverified) < need {
				unverified = append(unverified, doc)
			}
		}
		return v
	}
	truncated := maxCand > 0 && n > maxCand
	res.CandidatesTruncated = truncated
	switch {
	case req.Sort == search.SortRelevance && truncated && !q.static:
		// Find the best maxCand without sorting them, judge those, and
		// sort only what the page needs.
		rs := q.bestCandidates(maxCand)
		rm, ru := sc.rankedM[:0], sc.rankedU[:0]
		for _, r := range rs {
			switch q.ix.verdict(r.doc, sc.cons) {
			case search.Matched:
				res.Total++
				rm = append(rm, r)
			case search.Excluded:
				res.ExcludedByConstraints++
			default:
				res.UnverifiedTotal++
				ru = append(ru, r)
			}
		}
		rm = topK(rm, need)
		ru = topK(ru, need-len(rm))
		for _, r := range rm {
			matched = append(matched, r.doc)
		}
		for _, r := range ru {
			unverified = append(unverified, r.doc)
		}
		sc.ranked, sc.rankedM, sc.rankedU = rs[:0], rm[:0], ru[:0]
	case truncated:
		sc.order = q.ordered(maxCand, sc.order[:0])
		for _, doc := range sc.order {
			tally(doc, false)
		}
	case req.Sort == search.SortRelevance:
		for i := range n {
			tally(q.c.at(i), true)
		}
		out := q.rankDocs(matched, need, sc.order[:0])
		m := len(out)
		out = q.rankDocs(unverified, need-m, out)
		sc.order = out[:0]
		return page(out[:m], out[m:], req)
	default:
		sc.order = q.ordered(n, sc.order[:0])
		for _, doc := range sc.order {
			tally(doc, false)
		}
	}
	return page(matched, unverified, req)
}

// bestCandidates returns the best k candidates by relevance, in no
// particular order.
func (q *query) bestCandidates(k int) []ranked {
	n := q.c.len()
	if q.early(n, k) {
		return q.bestK(q.candidateSet(), k)
	}
	q.computeMasks()
	rs := q.sc.ranked[:0]
	for i := range n {
		rs = append(rs, q.key(q.c.at(i)))
	}
	if k < n {
		selectTop(rs, k)
		rs = rs[:k]
	}
	q.sc.ranked = rs[:0]
	return rs
}

// page cuts offset..offset+limit from matched followed by unverified into a
// fresh slice.
func page(matched, unverified []uint32, req *search.Request) []uint32 {
	var out []uint32
	for i := req.Offset; i < req.Offset+req.Limit; i++ {
		switch {
		case i < len(matched):
			out = append(out, matched[i])
		case i-len(matched) < len(unverified):
			out = append(out, unverified[i-len(matched)])
		default:
			return out
		}
	}
	return out
}

// judgeOne decides one constraint for doc.
func (c *constraint) judgeOne(doc uint32) search.Verdict {
	switch x := c.col.value[doc]; {
	case x == noValue:
		return search.Unverified
	case x <= multiValue:
		return c.rng.Judge(c.col.values(x))
	case c.rng.Contains(x):
		return search.Matched
	}
	return search.Excluded
}

// verdict judges doc against the constraints.
func (ix *index) verdict(doc uint32, cons []constraint) search.Verdict {
	all := search.Matched
	for i := range cons {
		switch cons[i].judgeOne(doc) {
		case search.Excluded:
			return search.Excluded
		case search.Unverified:
			all = search.Unverified
		}
	}
	return all
}

// statusSet shares one constraint_status map among the hits of a page
// with the same matched constraints; any number of constraints is fine.
type statusSet struct {
	words int      // uint64 words per key
	keys  []uint64 // the key of entry e is keys[e*words : (e+1)*words]
	maps  []map[string]string
	key   []uint64 // the key being looked up
}

// statuses returns the constraint_status of a document that is not
// excluded: bit i of its key is set when constraint i is matched.
func (s *statusSet) statuses(doc uint32, cons []constraint) map[string]string {
	if s.words == 0 {
		s.words = (len(cons) + 63) / 64
		s.key = make([]uint64, s.words)
	}
	clear(s.key)
	for i := range cons {
		if cons[i].judgeOne(doc) == search.Matched {
			s.key[i/64] |= 1 << (i % 64)
		}
	}
	for e := range s.maps {
		if slices.Equal(s.keys[e*s.words:(e+1)*s.words], s.key) {
			return s.maps[e]
		}
	}
	m := make(map[string]string, len(cons))
	for i := range cons {
		if s.key[i/64]&(1<<(i%64)) != 0 {
			m[cons[i].name] = search.StatusMatched
		} else {
			m[cons[i].name] = search.StatusUnverified
		}
	}
	s.keys = append(s.keys, s.key...)
	s.maps = append(s.maps, m)
	return m
}
