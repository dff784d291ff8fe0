package match

import (
	"math"
	"slices"
	"strings"
)

// Options adjust what counts as the same product.
type Options struct {
	// IgnoreColour treats colour variants as one product: colours never
	// keep two listings apart.
	IgnoreColour bool

	// descriptions makes profiles read the model codes of descriptions;
	// the pair decision does, Group does not.
	descriptions bool
}

// Decision is the verdict on one pair of listings and the evidence for it.
type Decision struct {
	Same bool
	// Reason names the deciding evidence. For a match: "gtin", "link",
	// "code" (a shared part or model number), "model-name", "item-number",
	// "fit-code", "description-code" (a shared code with enough title
	// evidence) or "title". For a refusal: "barcode", "brand", "specs",
	// "colour", "code" (different part or model numbers), "variant",
	// "model-line" (different model-line numbers or measures), "type"
	// (an accessory and a device), "fit" (accessories of different devices)
	// or "title" (too little in common), possibly as "title/model-name"
	// when a shared code was not enough.
	Reason string
	// Score is the rarity-weighted similarity of the two titles, 0 to 1.
	Score float64
}

// Matcher decides whether two listings are the same product. It weighs
// title words by their rarity in a corpus of listings, so that "Sony" or
// "headphones" count for less than "WH-1000XM5".
type Matcher struct {
	opt Options
	df  map[string]int32
	n   int
}

// Thresholds of the title evidence: the rarity-weighted similarity a title
// match needs alone, with the support of a shared item number or model
// name, with a code one title names as the device it fits and the other as
// its own or one a description names, with a shared model name of five or
// more characters, and when both listings name codes of their own that
// nothing relates; and the similarity of the devices two accessories fit.
const (
	titleThreshold     = 0.75
	weakCodeThreshold  = 0.5
	fitCodeThreshold   = 0.3
	longLineThreshold  = 0.35
	unrelatedThreshold = 0.85
	fitThreshold       = 0.6
)

// minCorpusForRarity is the smallest corpus whose word frequencies weigh
// words.
const minCorpusForRarity = 50

// NewMatcher returns a matcher whose word weights come from corpus; a corpus
// of fewer than 50 listings gives every word a weight from its shape alone.
func NewMatcher(corpus []Item, opt Options) *Matcher {
	opt.descriptions = true
	m := &Matcher{opt: opt}
	if len(corpus) < minCorpusForRarity {
		return m
	}
	m.df = make(map[string]int32, len(corpus)/2)
	m.n = len(corpus)
	for _, it := range corpus {
		p := profileOf(it, opt)
		m.count(&p)
	}
	return m
}

// count adds a listing's words to the word frequencies.
func (m *Matcher) count(p *profile) {
	for _, w := range p.words {
		m.df[w]++
	}
}

// Same reports whether a and b are the same product.
func (m *Matcher) Same(a, b Item) bool {
	return m.Compare(a, b).Same
}

// Compare decides whether a and b are the same product and says why.
func (m *Matcher) Compare(a, b Item) Decision {
	p, q := profileOf(a, m.opt), profileOf(b, m.opt)
	return m.decide(&p, &q)
}

// Same reports whether two listings are the same product, weighing title
// words by their shape alone. A Matcher built from the listings' corpus
// weighs them better.
func Same(a, b Item) bool {
	return Compare(a, b).Same
}

// Compare is Same with the evidence; it weighs title words by their shape.
func Compare(a, b Item) Decision {
	m := Matcher{opt: Options{descriptions: true}}
	return m.Compare(a, b)
}

// weight is the rarity weight of a title word.
func (m *Matcher) weight(w string) float64 {
	if m.n == 0 {
		return shapeWeight(w)
	}
	df := float64(m.df[w])
	return math.Log(float64(m.n+1) / (df + 1))
}

// shapeWeight weighs a word by its shape: codes and numbers name models,
// plain words describe them.
func shapeWeight(w string) float64 {
	hasDigit, hasLetter := false, false
	for i := 0; i < len(w); i++ {
		if isDigitByte(w[i]) {
			hasDigit = true
		} else {
			hasLetter = true
		}
	}
	switch {
	case hasDigit && hasLetter:
		return 4
	case hasDigit:
		return 2
	}
	return 1
}

// similarity is the rarity-weighted Dice coefficient of two titles' words;
// words of the fit clause count half.
func (m *Matcher) similarity(p, q *profile) float64 {
	var shared, total float64
	for i, w := range p.words {
		wt := m.weight(w)
		if i >= p.nMain {
			wt /= 2
		}
		total += wt
		if slices.Contains(q.words, w) {
			shared += wt
		}
	}
	for i, w := range q.words {
		wt := m.weight(w)
		if i >= q.nMain {
			wt /= 2
		}
		total += wt
		if slices.Contains(p.words, w) {
			shared += wt
		}
	}
	if total == 0 {
		return 0
	}
	return shared / total
}

// fitAgreement is how far two fit clauses name the same device: the
// rarity-weighted share of one clause's words found in the other, the better
// of the two ways ("for Galaxy Tab" within "for Galaxy Tab tablet Wi-Fi").
func (m *Matcher) fitAgreement(a, b []string) float64 {
	return max(m.coverage(a, b), m.coverage(b, a))
}

// deviceWords drops from a fit clause's words the long codes that name the
// accessory itself ("Cable for iPod CDI200"); device names are words and
// short model names ("iPhone 15", "Galaxy S24", "Tab P1000").
func deviceWords(ws []string) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if len(w) >= 6 && strings.ContainsAny(w, "0123456789") {
			continue
		}
		out = append(out, w)
	}
	return out
}

// coverage is the rarity-weighted share of words found among in.
func (m *Matcher) coverage(words, in []string) float64 {
	var found, total float64
	for _, w := range words {
		wt := m.weight(w)
		total += wt
		if slices.Contains(in, w) {
			found += wt
		}
	}
	if total == 0 {
		return 1
	}
	return found / total
}

// decide applies the evidence to one pair, strongest first.
func (m *Matcher) decide(p, q *profile) Decision {
	if p.gtin != "" && q.gtin != "" {
		if p.gtin == q.gtin {
			return Decision{Same: true, Reason: "gtin", Score: 1}
		}
		return Decision{Reason: "barcode"}
	}
	if p.link != "" && p.link == q.link {
		return Decision{Same: true, Reason: "link", Score: 1}
	}
	ev := codeEvidence(p, q)
	if r := hardVeto(p, q, ev); r != "" {
		return Decision{Reason: r}
	}
	if ev.strong && ev.part {
		return Decision{Same: true, Reason: "code", Score: 1}
	}
	if ev.conflict {
		return Decision{Reason: "code"}
	}
	if ev.strong {
		// A code both titles give can name a model line ("HP Victus
		// 15-fa1"): its configurations differ in model-line numbers.
		if slotsConflict(p.slots, q.slots, p.hasFit && q.hasFit) {
			return Decision{Reason: "model-line"}
		}
		return Decision{Same: true, Reason: "code", Score: 1}
	}
	if r := m.titleVeto(p, q); r != "" {
		return Decision{Reason: r}
	}
	s := m.similarity(p, q)
	need := titleThreshold
	if ev.unrelated {
		need = unrelatedThreshold // both name their own codes and none agrees
	}
	switch {
	case s >= need:
		return Decision{Same: true, Reason: "title", Score: s}
	case ev.fitOwn && s >= fitCodeThreshold:
		return Decision{Same: true, Reason: "fit-code", Score: s}
	case ev.desc && s >= fitCodeThreshold:
		return Decision{Same: true, Reason: "description-code", Score: s}
	case ev.line && ev.lineLen >= 5 && s >= longLineThreshold:
		return Decision{Same: true, Reason: "model-name", Score: s}
	case ev.line && s >= weakCodeThreshold:
		return Decision{Same: true, Reason: "model-name", Score: s}
	case ev.weak && s >= weakCodeThreshold:
		return Decision{Same: true, Reason: "item-number", Score: s}
	}
	switch {
	case ev.fitOwn:
		return Decision{Reason: "title/fit-code", Score: s}
	case ev.line:
		return Decision{Reason: "title/model-name", Score: s}
	case ev.weak:
		return Decision{Reason: "title/item-number", Score: s}
	}
	return Decision{Reason: "title", Score: s}
}

// hardVeto returns why two listings cannot be the same product whatever
// else they share, or "". A shared model code of six or more characters
// outweighs a brand that disagrees (retailers file a product under its
// maker or its distributor).
func hardVeto(p, q *profile, ev codeEv) string {
	switch {
	case !brandsAgree(p, q) && !(ev.strong && ev.longest >= 6):
		return "brand"
	case specsConflict(p.specs, q.specs):
		return "specs"
	case ev.variant:
		return "code"
	case p.colour != "" && q.colour != "" && p.colour != q.colour:
		return "colour"
	}
	return ""
}

// titleVeto returns why two titles name different models, or "": different
// variant words ("Pro" and "Pro Max") or model-line numbers ("Gen 2" and
// "Gen 3"). It applies when no shared model code decides.
func (m *Matcher) titleVeto(p, q *profile) string {
	switch {
	case p.category != "" && p.category == q.category && p.acc != q.acc:
		return "type"
	case p.hasTitle && q.hasTitle && variantsDiffer(p, q):
		return "variant"
	case slotsConflict(p.slots, q.slots, p.hasFit && q.hasFit):
		return "model-line"
	case len(p.fitWords) > 0 && len(q.fitWords) > 0 && m.fitAgreement(deviceWords(p.fitWords), deviceWords(q.fitWords)) < fitThreshold:
		return "fit" // "for iPad" and "for iPod touch"
	case len(p.fitWords) > 0 && len(q.fitWords) == 0 && q.acc && m.coverage(p.fitWords, q.words) < fitThreshold,
		len(q.fitWords) > 0 && len(p.fitWords) == 0 && p.acc && m.coverage(q.fitWords, p.words) < fitThreshold:
		// "Case for Galaxy S24" and the accessory "Case iPhone 13".
		return "fit"
	}
	return ""
}

func specsConflict(a, b map[string]float64) bool {
	for k, va := range a {
		if vb, ok := b[k]; ok && va != vb {
			return true
		}
	}
	return false
}

// slotsConflict reports whether two listings give a model-line word or a
// measure different numbers: for some key, neither listing's numbers are
// among the other's ("Flip 6" and "Flip 5", "81 x 108" and "90 x 120", but
// not "8GB" and "8GB 256GB").
//
// With clauses false, one of the titles names no device it fits ("Case
// iPhone 15 Pro"), and the fit clause of the other ("Case for iPhone 15
// Pro") counts as its main clause.
func slotsConflict(a, b []slot, clauses bool) bool {
	key := func(s slot) string {
		if clauses {
			return s.key
		}
		return strings.TrimPrefix(s.key, "@")
	}
	for _, s := range a {
		k := key(s)
		if !slices.ContainsFunc(b, func(t slot) bool { return key(t) == k }) {
			continue
		}
		if !subset(a, b, k, key) && !subset(b, a, k, key) {
			return true
		}
	}
	return false
}

// subset reports whether every number a gives key k is among b's.
func subset(a, b []slot, k string, key func(slot) string) bool {
	for _, s := range a {
		if key(s) != k {
			continue
		}
		if !slices.ContainsFunc(b, func(t slot) bool { return key(t) == k && t.num == s.num }) {
			return false
		}
	}
	return true
}

// variantsDiffer reports whether two titles name different variants: their
// main clauses, and their fit clauses when both have one; when only one has
// a fit clause, the variant words of the whole titles.
func variantsDiffer(p, q *profile) bool {
	if p.hasFit && q.hasFit {
		return p.mainVar != q.mainVar || p.fitVar != q.fitVar
	}
	return p.mainVar|p.fitVar != q.mainVar|q.fitVar
}

// codeEv is what two listings' model codes say.
type codeEv struct {
	strong   bool // they share a part or model number of the product itself
	line     bool // they share a model-line code ("iPhone15", "CoolpixP80")
	lineLen  int  // length of the longest model-line code shared
	desc     bool // one's description names a code the other carries
	fitOwn   bool // one names as the device it fits a code the other names as its own
	weak     bool // they share only an item number or the code of the device an accessory fits
	conflict bool // both name their own codes of the same shape and share none
	variant  bool // they name the same model with different colour letters
	longest  int  // length of the longest strong code shared
	// part: a strong code shared is an identifier field's, a part number
	// rather than a name that titles give a whole model line ("15-fa1",
	// "M70q").
	part bool
	// unrelated: both name strong codes of their own and no code of one
	// relates to any of the other's.
	unrelated bool
}

// codeEvidence compares the model codes of two listings.
func codeEvidence(p, q *profile) codeEv {
	var ev codeEv
	differ, fieldDiffer, fieldAgree, partDiffer, exact := false, false, false, false, false
	for _, a := range p.codes {
		for _, b := range q.codes {
			own := a.kind == codeStrong && b.kind == codeStrong && !a.fit && !b.fit
			r := relate(a.s, b.s)
			if a.field && b.field && (r == codesDiffer || r == codesVariant) {
				fieldDiffer = true
			}
			if (a.field || b.field) && r == codesEqual {
				fieldAgree = true
			}
			// Item numbers of the same length that differ: "63300", "63260".
			if r == codesDiffer && !a.fit && !b.fit && (a.kind == codeWeak || b.kind == codeWeak) &&
				digitCount(a.s) == len(a.s) && digitCount(b.s) == len(b.s) && len(a.s) == len(b.s) {
				differ = true
			}
			// Part numbers of seven or more digits that differ name
			// different items, whatever model names the titles share.
			if r == codesDiffer && len(a.s) >= 7 && len(b.s) >= 7 && digitCount(a.s) == len(a.s) && digitCount(b.s) == len(b.s) &&
				!a.fit && !b.fit {
				partDiffer = true
			}
			switch r {
			case codesWithin:
				if !a.fit && !b.fit {
					ev.line = true
				}
			case codesEqual:
				if own && a.s == b.s {
					exact = true
				}
				switch {
				case own:
					ev.strong = true
					ev.longest = max(ev.longest, min(len(a.s), len(b.s)))
					if a.field || b.field {
						ev.part = true
					}
				case a.kind >= codeLine && b.kind >= codeLine && !a.fit && !b.fit:
					ev.line = true
					ev.lineLen = max(ev.lineLen, min(len(a.s), len(b.s)))
				case a.kind == codeStrong && b.kind == codeStrong && a.fit != b.fit:
					ev.fitOwn = true
				default:
					ev.weak = true
				}
			case codesVariant:
				if own {
					ev.variant = true
				}
			case codesDiffer:
				if own {
					differ = true
				}
			}
		}
	}
	// A code one listing spells in pieces ("RS 130", "1EG0 .052.00").
	for _, pair := range [2][2]*profile{{p, q}, {q, p}} {
		for _, c := range pair[0].codes {
			if c.kind < codeLine || c.fit || ev.strong {
				continue
			}
			if spelledInPieces(c.s, pair[1].parts) {
				if c.kind == codeLine {
					ev.line = true
					ev.lineLen = max(ev.lineLen, len(c.s))
					continue
				}
				ev.strong = true
				ev.longest = max(ev.longest, len(c.s))
			}
		}
	}
	// A code the description names and the other listing carries.
	for _, pair := range [2][2]*profile{{p, q}, {q, p}} {
		for _, d := range pair[0].descCodes {
			for _, c := range pair[1].codes {
				if c.kind == codeStrong && !c.fit && relate(d, c.s) == codesEqual {
					ev.desc = true
				}
			}
		}
	}
	// One code the same: another of one listing that reads as a colour
	// variant ("GSD4000NWW" and "GSD4000WH") is a retailer's spelling.
	ev.variant = ev.variant && !exact
	ev.conflict = differ && !ev.strong && !ev.weak && !ev.line && !ev.fitOwn && !ev.desc
	ev.unrelated = !ev.strong && !ev.weak && !ev.line && !ev.fitOwn && !ev.desc && !ev.variant && !differ &&
		hasOwnStrong(p) && hasOwnStrong(q)
	// Identifier fields outrank titles: two part numbers that differ are
	// different products, whatever codes the titles share.
	if fieldDiffer && !fieldAgree || partDiffer && !partAgree(p, q) || mpnsDiffer(p, q) {
		ev = codeEv{conflict: true}
	}
	return ev
}

// mpnsDiffer reports whether both listings give manufacturer part numbers
// and none of one's is the other's: a part number names one product.
func mpnsDiffer(p, q *profile) bool {
	found := false
	for _, a := range p.codes {
		if !a.mpn {
			continue
		}
		for _, b := range q.codes {
			if !b.mpn {
				continue
			}
			if a.s == b.s {
				return false
			}
			found = true
		}
	}
	return found
}

// hasOwnStrong reports whether a listing names a part or model number of its
// own.
func hasOwnStrong(p *profile) bool {
	return slices.ContainsFunc(p.codes, func(c code) bool { return c.kind == codeStrong && !c.fit })
}

// partAgree reports whether two listings share a part number of seven or
// more digits.
func partAgree(p, q *profile) bool {
	for _, a := range p.codes {
		if len(a.s) < 7 || digitCount(a.s) != len(a.s) {
			continue
		}
		for _, b := range q.codes {
			if a.s == b.s {
				return true
			}
		}
	}
	return false
}

// spelledInPieces reports whether two or three consecutive parts of one
// clause, run together, spell code, give or take up to three trailing
// letters on either side ("RS 130" is "RS130", "Rezo 15" is "REZO15BK").
func spelledInPieces(code string, parts []string) bool {
	for i, first := range parts {
		rest, ok := strings.CutPrefix(code, first)
		if !ok || first == "" || rest == "" {
			continue
		}
		for k := i + 1; k < len(parts) && k <= i+2 && parts[k] != ""; k++ {
			next := parts[k]
			if r, ok := strings.CutPrefix(rest, next); ok {
				if len(r) <= 3 && lettersOnly(r) {
					return true // the code, or the pieces and a suffix
				}
				rest = r
				continue
			}
			if extra, ok := strings.CutPrefix(next, rest); ok && len(extra) <= 3 && lettersOnly(extra) {
				return true // the pieces spell the code and a suffix
			}
			break
		}
	}
	return false
}

// brandsAgree reports whether two listings' brands can be the same maker:
// equal, one the start of the other ("CTA" and "CTA Digital"), or one named
// in the other's title.
func brandsAgree(p, q *profile) bool {
	a, b := p.brand, q.brand
	if a == "" || b == "" || a == b {
		return true
	}
	if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
		return true
	}
	return namesBrand(q.words, a) || namesBrand(p.words, b) || brandAlias(a) == brandAlias(b)
}

// namesBrand reports whether a title's words spell brand, alone or as two
// words run together ("polk audio").
func namesBrand(words []string, brand string) bool {
	for i, w := range words {
		if w == brand {
			return true
		}
		if i+1 < len(words) && strings.HasPrefix(brand, w) && w+words[i+1] == brand {
			return true
		}
	}
	return false
}

// brandAlias folds brand names that retailers write differently.
func brandAlias(b string) string {
	switch b {
	case "hewlettpackard", "hpinc", "hewlettpackardenterprise", "hpe":
		return "hp"
	case "lgelectronics":
		return "lg"
	case "samsungelectronics":
		return "samsung"
	case "sonyelectronics", "sonycomputerentertainment":
		return "sony"
	case "microsoftcorporation", "microsoftsoftware":
		return "microsoft"
	}
	return b
}
