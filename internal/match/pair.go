package match

import (
	"math"
	"slices"
	"strconv"
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
	// sketch makes profiles read only what grouping needs of every
	// listing at once: the words, the colour and the configuration.
	sketch bool
}

// Decision is the verdict on one pair of listings and the evidence for it.
type Decision struct {
	Same bool
	// Reason names the deciding evidence. For a match: "gtin", "link",
	// "code" (a shared part or model number), "model-name" (a shared model
	// name: a model-line code, a code of letters, a three-digit model
	// number), "item-number", "fit-code", "description-code" (a shared code
	// with enough title evidence) or "title". For a refusal: "barcode",
	// "brand", "specs", "colour" (stated colours, or colour letters of a
	// code, that differ), "code" (different part or model numbers, or a
	// variant's letters after one code), "edition" (a bundle, upgrade,
	// academic, remanufactured, kit or multi-pack edition against the
	// product, a camera with a lens against its body), "variant",
	// "model-line" (different model-line numbers, measures, paper sizes or
	// platforms), "type" (an accessory and a device), "fit" (accessories of
	// different devices) or "title" (too little in common), possibly as
	// "title/model-name" when a shared code was not enough.
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
	for _, x := range [2][2]*profile{{p, q}, {q, p}} {
		a, b := x[0], x[1]
		// A stock number ending one title weighs nothing against a
		// listing with codes of its own: the codes compare it.
		stock := a.nMain
		if hasOwnCode(b) {
			stock = a.stock
		}
		for i, w := range a.words {
			if i >= stock && i < a.nMain {
				continue
			}
			in := slices.Contains(b.words, w)
			if !in && splitIn(a.words, i, b.words) {
				continue // "4-port" and "4 port"
			}
			wt := m.weight(w)
			if i >= a.nMain {
				wt /= 2
			}
			total += wt
			if in {
				shared += wt
			}
		}
	}
	if total == 0 {
		return 0
	}
	return shared / total
}

// splitIn reports whether words[i] is the words before it run together
// ("4port" after "4", "port") and in holds every piece:
// the other title writes them apart.
func splitIn(words []string, i int, in []string) bool {
	rest := words[i]
	for k := i - 1; k >= 0 && rest != ""; k-- {
		w := words[k]
		if len(w) >= len(rest) || !strings.HasSuffix(rest, w) {
			break
		}
		if !slices.Contains(in, w) {
			return false
		}
		rest = rest[:len(rest)-len(w)]
		if slices.Contains(in, rest) {
			return true
		}
	}
	return false
}

// fitAgreement is how far two fit clauses name the same device: the
// rarity-weighted share of one clause's words found in the other, the better
// of the two ways ("for Galaxy Tab" within "for Galaxy Tab tablet Wi-Fi").
func (m *Matcher) fitAgreement(a, b []string) float64 {
	return max(m.coverage(a, b), m.coverage(b, a))
}

// deviceWords drops from a fit clause's words the long codes that name the
// accessory itself ("Case for iPhone 15 Pro ACS06707"); device names are
// words and short model names ("iPhone 15", "Galaxy S24", "Tab S9").
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
	case s >= weakCodeThreshold && !ev.unrelated && (sharedLetterCode(p, q) || sharedModelNumber(p, q)):
		return Decision{Same: true, Reason: "model-name", Score: s}
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

// minLetterCode is the shortest code of letters alone that names a model.
const minLetterCode = 5

// sharedLetterCode reports whether two titles share a code of letters alone
// that one of them writes in pieces and the other as one word ("ACC-TRW"
// and "acctrw"): five or more letters that read as no word (see
// wordLike). Pieces both titles write alike are as often a phrase
// ("CD/DVD", "CD/DVD/BD").
func sharedLetterCode(p, q *profile) bool {
	for i, w := range p.words {
		if len(w) < minLetterCode || !plainWord(w) || wordLike(w) {
			continue
		}
		j := slices.Index(q.words, w)
		if j >= 0 && joined(p.words, i) != joined(q.words, j) {
			return true
		}
	}
	return prefixedLetterCode(p, q) || prefixedLetterCode(q, p)
}

// prefixedLetterCode reports whether a code of six or more letters of p's
// title is one of q's with a series prefix of up to three letters
// ("SBBZAA" and "HDHSBBZAA"), as digits codes are ("P950" and
// "COOLPIXP950").
func prefixedLetterCode(p, q *profile) bool {
	for _, w := range p.words[:p.nMain] {
		if len(w) < minLetterCode+1 || !plainWord(w) || wordLike(w) {
			continue
		}
		for j, v := range q.words[:q.nMain] {
			// Not a chunk's words run together ("new-smartfit").
			if n := len(v) - len(w); n >= 1 && n <= 3 && strings.HasSuffix(v, w) && plainWord(v) && !wordLike(v) &&
				!(j > 0 && strings.HasSuffix(v, q.words[j-1])) {
				return true
			}
		}
	}
	return false
}

// sharedModelNumber reports whether two titles give one model-line word the
// same three-digit number ("HD 599", "Zone 750"): a model's name, as a
// code is. Round hundreds are counts and speeds as often ("Powerline 600",
// "100 sheets"), and four digits years ("Office 2021").
func sharedModelNumber(p, q *profile) bool {
	for _, s := range p.slots {
		if len(s.num) != 3 || digitCount(s.num) != 3 || strings.HasSuffix(s.num, "00") || !plainWord(s.key) ||
			s.key == "cpu" || s.key == "gpu" {
			continue
		}
		if slices.Contains(q.slots, s) {
			return true
		}
	}
	return false
}

// plainWord reports whether w is lower-case ASCII letters alone.
func plainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isLetterByte(w[i]) {
			return false
		}
	}
	return w != ""
}

// maxCodePiece is the longest piece of a code of letters written in pieces.
const maxCodePiece = 4

// joined reports whether words[i] is a title chunk's short pieces run
// together ("acc-trw" read as "acc", "trw" and "acctrw"), not words joined
// by a hyphen ("noise-cancelling", "over-ear"). A chunk's words
// come before its joined form, but for those the title gave earlier.
func joined(words []string, i int) bool {
	rest := words[i]
	for k := i - 1; k >= 0; k-- {
		w := words[k]
		if len(w) > maxCodePiece || len(w) >= len(rest) || !strings.HasSuffix(rest, w) {
			break
		}
		rest = rest[:len(rest)-len(w)]
		if len(rest) <= maxCodePiece && slices.Contains(words[:i], rest) {
			return true
		}
	}
	return false
}

// editionsDiffer reports whether one listing is an edition of a product
// the other is not: a bundle, an upgrade or academic licence, a
// remanufactured (third-party) item, a kit or multi-pack part number, a
// camera with a zoom lens against the body alone. A part number from an
// identifier field or of seven or more characters that both share outranks
// the maker's edition words, which titles leave out ("Xbox Series S Game
// Pass bundle" and "Xbox Series S" under one part number), but not a third
// party's (a remanufactured cartridge carries the maker's code), nor a part
// number's own kit letters, nor a lens: a camera's code names the body and
// the kit alike.
func editionsDiffer(p, q *profile, ev codeEv) bool {
	d := p.edition ^ q.edition
	lens := d&(edLensKit|edBody) == edLensKit|edBody
	d &^= edLensKit | edBody
	if ev.strong && (ev.part || ev.longest >= 7) {
		d &= edThirdParty | edPack
	}
	return d != 0 || lens
}

// hardVeto returns why two listings cannot be the same product whatever
// else they share, or "". A shared model code of six or more characters
// outweighs a brand that disagrees (retailers file a product under its
// maker or its distributor), and any shared model code a brand misspelt by
// one letter ("Logitch G305").
func hardVeto(p, q *profile, ev codeEv) string {
	switch {
	case !brandsAgree(p, q) && !(ev.strong && (ev.longest >= 6 || oneTypo(p.brand, q.brand))):
		return "brand"
	case specsConflict(p.specs, q.specs):
		return "specs"
	case ev.variant:
		return "code"
	case ev.colour:
		return "colour"
	case editionsDiffer(p, q, ev):
		return "edition"
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
// among the other's ("Flip 6" and "Flip 5", "200 x 200" and "400 x 400", but
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

// subset reports whether every number a gives key k is among b's; measures
// agree when they are about the same (see aboutEqual).
func subset(a, b []slot, k string, key func(slot) string) bool {
	measure := strings.HasPrefix(strings.TrimPrefix(k, "@"), "#")
	for _, s := range a {
		if key(s) != k {
			continue
		}
		if !slices.ContainsFunc(b, func(t slot) bool {
			return key(t) == k && (t.num == s.num || measure && aboutEqual(t.num, s.num))
		}) {
			return false
		}
	}
	return true
}

// aboutEqual reports whether two measures are the same value stated to
// different precision: a whole number is a rounded statement of a decimal
// within one unit and five per cent of it, which rounds or truncates to it
// ("14" and "14.7 megapixel", "32" and "31.5 inch"). Two decimals, or two
// whole numbers, must be equal ("15.0" and "15.6 inch" differ).
func aboutEqual(a, b string) bool {
	x, errX := strconv.ParseFloat(a, 64)
	y, errY := strconv.ParseFloat(b, 64)
	if errX != nil || errY != nil {
		return false
	}
	if x == y {
		return true
	}
	wholeX, wholeY := !strings.Contains(a, "."), !strings.Contains(b, ".")
	if wholeX == wholeY {
		return false
	}
	if wholeY {
		x, y = y, x // x is the whole number, y the decimal
	}
	d := math.Abs(x - y)
	return d < 1 && (x == math.Floor(y) || x == math.Round(y)) && d <= maxRounding*max(x, y)
}

// maxRounding is the largest share of a measure that rounding it to a whole
// number may lose.
const maxRounding = 0.05

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
	line     bool // they share a model-line code ("iPhone15", "Zenbook14")
	lineLen  int  // length of the longest model-line code shared
	desc     bool // one's description names a code the other carries
	fitOwn   bool // one names as the device it fits a code the other names as its own
	weak     bool // they share only an item number or the code of the device an accessory fits
	conflict bool // both name their own codes of the same shape and share none
	variant  bool // they name the same model with different colour letters
	colour   bool // one's code names a colour the other's code or listing contradicts
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
			af, bf := a.fit && !tailPart(a, p, q), b.fit && !tailPart(b, q, p)
			own := a.kind == codeStrong && b.kind == codeStrong && !af && !bf
			r := relate(a.s, b.s)
			if r == codesVariant && own && colourSpelling(a.s, b.s, p, q) {
				r = codesEqual // "SCPMX802BK" and "SC-PMX802EB", both black
			}
			if r == codesEqual && own && (suffixWord(a.s, b.s, p, q) || suffixWord(b.s, a.s, q, p)) {
				r = codesVariant // "ADAPT260MS", titled "Adapt 260 MS", and "ADAPT260"
			}
			// A part number and a code of its series the other's title
			// gives as its own: "TN2410" and "Brother TN2420 Toner".
			if a.field && b.field && (r == codesDiffer || r == codesVariant) ||
				a.field != b.field && own && r == codesDiffer && sameSeries(a.s, b.s) {
				fieldDiffer = true
			}
			if (a.field || b.field) && r == codesEqual {
				fieldAgree = true
			}
			// Item numbers of the same length that differ: "48213", "48260".
			if r == codesDiffer && !af && !bf && (a.kind == codeWeak || b.kind == codeWeak) &&
				digitCount(a.s) == len(a.s) && digitCount(b.s) == len(b.s) && len(a.s) == len(b.s) {
				differ = true
			}
			// Part numbers of seven or more digits that differ name
			// different items, whatever model names the titles share.
			if r == codesDiffer && len(a.s) >= 7 && len(b.s) >= 7 && digitCount(a.s) == len(a.s) && digitCount(b.s) == len(b.s) &&
				!af && !bf {
				partDiffer = true
			}
			switch r {
			case codesWithin:
				if !af && !bf {
					ev.line = true
				}
			case codesEqual:
				if own && a.s == b.s {
					exact = true
				}
				if own && coloursDiffer(a, b, p, q) {
					// "SRSXB100R" against a black "SRSXB100".
					ev.colour = true
					continue
				}
				switch {
				case own:
					ev.strong = true
					ev.longest = max(ev.longest, min(len(a.s), len(b.s)))
					if a.field || b.field {
						ev.part = true
					}
				case a.kind >= codeLine && b.kind >= codeLine && !af && !bf:
					ev.line = true
					ev.lineLen = max(ev.lineLen, min(len(a.s), len(b.s)))
				case a.kind == codeStrong && b.kind == codeStrong && af != bf:
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
	// A code one listing spells in pieces ("DT 770", "ACS 06707").
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
	// Both listings give part numbers and neither's agrees with the other:
	// a code only the titles share names a connector or a model line
	// ("DE15" of VGA cables and adapters) more often than the product.
	if ev.strong && !fieldAgree && hasField(p) && hasField(q) && !fieldSpelled(p, q) && !fieldSpelled(q, p) {
		ev.strong = false
		ev.longest = 0
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
	// variant ("SCPMX802EB" and "SCPMX802WH") is a retailer's spelling.
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

// minSuffixWord is the fewest letters of a suffix that names a variant.
const minSuffixWord = 2

// suffixWord reports whether code a is code b with letters appended that
// p's title writes as a word of its own and q's title lacks ("EPOS Adapt 260
// MS" as "ADAPT260MS" against "ADAPT260"): the maker's name for a variant,
// not the colour or region letters retailers append, which titles leave out.
func suffixWord(a, b string, p, q *profile) bool {
	suf, ok := strings.CutPrefix(a, b)
	if !ok || len(suf) < minSuffixWord || !lettersOnly(suf) || colourLetters(suf) != 0 || regionLetters(suf) {
		return false
	}
	word := func(w string) bool { return strings.EqualFold(w, suf) }
	return slices.ContainsFunc(p.words[:p.nMain], word) && !slices.ContainsFunc(q.words, word)
}

// regionLetters reports whether letters ending a code name a market: "UK",
// "EU", "NA" (North America), "EB" (Panasonic's UK).
func regionLetters(s string) bool {
	switch s {
	case "UK", "GB", "EU", "EB", "EK", "US", "NA", "AU", "XU", "AA":
		return true
	}
	return false
}

// coloursDiffer reports whether two equal codes name different colours:
// one ends in colour letters or a colour name the other's code and listing
// do not share ("SRSXB100R" and a black "SRSXB100"). A listing that states
// its colour is taken at its word.
func coloursDiffer(a, b code, p, q *profile) bool {
	var ta, tb string
	switch {
	case strings.HasPrefix(b.s, a.s):
		tb = b.s[len(a.s):]
	case strings.HasPrefix(a.s, b.s):
		ta = a.s[len(b.s):]
	default:
		return false
	}
	ca, cb := colourBit(p.colour), colourBit(q.colour)
	if ca == 0 {
		ca = a.colours | colourCode(ta)
	}
	if cb == 0 {
		cb = b.colours | colourCode(tb)
	}
	return ca != 0 && cb != 0 && ca&cb == 0
}

// tailPart reports whether a code that ends the clause naming the device an
// accessory fits, the last word of p's title, is p's own part number:
// retailers append it ("Case for iPhone 15 Pro ACS06707"). A number of
// seven or more digits is (no device is named by digits alone), and so is a
// code of eight or more characters when both listings are accessories;
// device names are short ("iPhone 15", "Forerunner 255", "SM-S921B"), and a
// device's full code after "for" ("Charger for HP 15-fa1003na") stays the
// device's against the device itself.
func tailPart(c code, p, q *profile) bool {
	if !c.last || c.kind != codeStrong {
		return false
	}
	return digitCount(c.s) == len(c.s) && len(c.s) >= 7 || p.acc && q.acc && len(c.s) >= 8
}

// colourSpelling reports whether two codes that end in different letters
// ("SCPMX802BK", "SCPMX802EB") spell one colour of one model: both listings
// state that colour, the letters of one name it and those of the other name
// no other colour ("JBLGO4BLK" and "JBLGO4WHT" differ, whatever the titles
// say).
func colourSpelling(a, b string, p, q *profile) bool {
	c := colourBit(p.colour)
	if c == 0 || p.colour != q.colour {
		return false
	}
	ca, cb := colourLetters(a[len(stem(a)):]), colourLetters(b[len(stem(b)):])
	if ca != 0 && ca&c == 0 || cb != 0 && cb&c == 0 {
		return false
	}
	return ca|cb != 0
}

// colourCode returns the colours letters after a code name when they are
// two or more: a single letter is a colour ("R") as often as a variant
// ("P" for pro, "G" for a generation).
func colourCode(s string) colourSet {
	if len(s) < 2 {
		return 0
	}
	return colourLetters(s)
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

// sameSeries reports whether two codes of one shape are numbers of one
// series: as long, with the same first two characters ("TN2410",
// "TN2420"). A part number and a model name can share a shape alone
// ("NXKDEEK001", "A315").
func sameSeries(a, b string) bool {
	return len(a) == len(b) && len(a) >= 2 && a[:2] == b[:2]
}

// fieldSpelled reports whether q's title spells in pieces a code of p's
// identifier fields ("MASTERBOX520" and "MasterBox 520").
func fieldSpelled(p, q *profile) bool {
	return slices.ContainsFunc(p.codes, func(c code) bool { return c.field && spelledInPieces(c.s, q.parts) })
}

// hasOwnCode reports whether a listing names a code of its own, not of a
// device it fits.
func hasOwnCode(p *profile) bool {
	return slices.ContainsFunc(p.codes, func(c code) bool { return !c.fit })
}

// hasField reports whether a listing gives a code in an identifier field.
func hasField(p *profile) bool {
	return slices.ContainsFunc(p.codes, func(c code) bool { return c.field })
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
// letters on either side ("DT 770" is "DT770", "Flip 6" is "FLIP6BLK").
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
// equal, one the start of the other ("Tripp" and "Tripp Lite"), or one named
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

// minTypoBrand is the shortest brand a misspelling is recognised in: short
// names one letter apart are different makers ("Anker" and "Ankar").
const minTypoBrand = 6

// oneTypo reports whether two brand names of six or more letters differ by
// one slip of the keyboard: a letter changed, added or dropped, or two
// neighbours swapped ("Logitch", "Pansaonic").
func oneTypo(a, b string) bool {
	if len(a) < minTypoBrand || len(b) < minTypoBrand {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	switch len(b) - len(a) {
	case 0:
		if a[i+1:] == b[i+1:] {
			return true // one letter changed
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // two swapped
	case 1:
		return a[i:] == b[i+1:] // one letter added
	}
	return false
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
