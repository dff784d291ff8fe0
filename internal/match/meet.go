package match

import "slices"

// Ways grouping can leave two listings unmet, as Matcher.Unmet names them.
const (
	UnmetRetailer = "same-retailer" // one retailer: never joined
	UnmetBrand    = "brand"         // no brand, or brands in different partitions
	UnmetCategory = "category"      // one brand, different categories: no title block in common
	UnmetWords    = "rare-words"    // one block, too few of their rarest title words in common
)

// Unmet reports why grouping never weighs a against b as candidates, or ""
// when it does: they share a model code that links codes, or a block of one
// brand and category and enough of their rarest title words and model-code
// keys (see linkTitles). It mirrors grouping's blocking for one pair, so that an
// evaluation can tell the pairs the blocking never compares from those the
// rules refuse; the bounds on postings and candidates are left out.
func (m *Matcher) Unmet(a, b Item) string {
	if a.Retailer != "" && a.Retailer == b.Retailer {
		return UnmetRetailer
	}
	p, q := profileOf(a, m.opt), profileOf(b, m.opt)
	if c := bridgeCode(&p); c != "" && c == bridgeCode(&q) {
		return ""
	}
	if p.brand == "" || q.brand == "" || brandAlias(p.brand) != brandAlias(q.brand) {
		return UnmetBrand
	}
	if sharedLinkCode(&p, &q) {
		return ""
	}
	if p.category != q.category {
		return UnmetCategory
	}
	if !p.hasTitle || !q.hasTitle {
		return UnmetWords
	}
	if !m.meetsInBlock(&p, &q) && !m.meetsInBlock(&q, &p) {
		return UnmetWords
	}
	return ""
}

// meetsInBlock reports whether linkTitles, seeking p's matches, counts q a
// candidate: their shared rarest words, a model code key counting twice
// (see judge.partners), reach what p's own words need.
func (m *Matcher) meetsInBlock(p, q *profile) bool {
	kp, kq := m.blockKeys(p), m.blockKeys(q)
	count, words := 0, 0
	for _, k := range kp {
		hit := keyHit(k)
		if hit == 1 {
			words++
		}
		if slices.Contains(kq, k) {
			count += hit
		}
	}
	return count >= keysNeeded(words)
}

// sharedLinkCode reports whether two listings of one brand meet through a
// model code in linkCodes: a strong code of their own, or its stem.
func sharedLinkCode(p, q *profile) bool {
	keys := func(p *profile) []string {
		var out []string
		for _, c := range p.codes {
			if c.kind != codeStrong || c.fit {
				continue
			}
			out = append(out, c.s)
			if st := linkStem(c); st != "" {
				out = append(out, st)
			}
		}
		return out
	}
	kq := keys(q)
	for _, k := range keys(p) {
		for _, l := range kq {
			if k == l {
				return true
			}
		}
	}
	return false
}

// NamesModel reports whether a listing's title or identifiers name a model
// (a model code, one spelt in pieces, or a model-line number): a title of
// category words alone fits every model of its kind, and grouping joins it
// on title evidence only to a title written alike (see sameTitle).
func (m *Matcher) NamesModel(it Item) bool {
	p := profileOf(it, m.opt)
	return namesModel(&p)
}
