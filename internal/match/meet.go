package match

// Ways grouping can leave two listings unmet, as Matcher.Unmet names them.
const (
	UnmetRetailer = "same-retailer" // one retailer: never joined
	UnmetBrand    = "brand"         // no brand, or brands in different partitions
	UnmetCategory = "category"      // one brand, different categories: no title block in common
	UnmetWords    = "rare-words"    // one block, too few of their rarest title words in common
)

// Unmet reports why grouping never weighs a against b as candidates, or ""
// when it does: they share a model code that links codes, or a block of one
// brand and category and enough of their rarest title words (see
// linkTitles). It mirrors grouping's blocking for one pair, so that an
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
	rp, rq := m.rarest(p.words), m.rarest(q.words)
	shared := 0
	for _, w := range rp {
		for _, v := range rq {
			if w == v {
				shared++
			}
		}
	}
	if shared < min(2, len(rp), len(rq)) || shared == 0 {
		return UnmetWords
	}
	return ""
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
