package match

import (
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
	// Trace lists the rules the decision applied, in order, when it was
	// asked for (Matcher.Explain); it is nil otherwise.
	Trace []Step `json:",omitempty"`
}

// Matcher decides whether two listings are the same product. It weighs
// title words by their rarity in a corpus of listings, so that "Sony" or
// "headphones" count for less than "WH-1000XM5".
type Matcher struct {
	opt Options
	df  map[string]int32
	n   int
	// scorer decides the pairs the rules leave open (see Scorer), or nil.
	scorer *Scorer
}

// Thresholds of the title evidence: the rarity-weighted similarity a title
// match needs alone, with the support of a shared item number or model
// name, with a code one title names as the device it fits and the other as
// its own or one a description names, with a shared model name of five or
// more characters, with one lens of one brand (its focal range and
// aperture), and when both listings name codes of their own that nothing
// relates; and the similarity of the devices two accessories fit.
const (
	titleThreshold     = 0.75
	weakCodeThreshold  = 0.5
	fitCodeThreshold   = 0.3
	longLineThreshold  = 0.35
	lensThreshold      = 0.3
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
	m := &Matcher{opt: opt, scorer: embeddedScorer()}
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
	return m.decide(&p, &q, nil)
}

// Explain is Compare with the decision's trace: every rule applied, in
// order, with what it read of the two listings and its outcome.
func (m *Matcher) Explain(a, b Item) Decision {
	p, q := profileOf(a, m.opt), profileOf(b, m.opt)
	var tr trace
	d := m.decide(&p, &q, &tr)
	d.Trace = tr.steps
	return d
}

// Same reports whether two listings are the same product, weighing title
// words by their shape alone. A Matcher built from the listings' corpus
// weighs them better.
func Same(a, b Item) bool {
	return Compare(a, b).Same
}

// Compare is Same with the evidence; it weighs title words by their shape.
func Compare(a, b Item) Decision {
	m := Matcher{opt: Options{descriptions: true}, scorer: embeddedScorer()}
	return m.Compare(a, b)
}

// decide applies the evidence to one pair, strongest first. With a trace,
// it records every rule it applied and what the rule read; the grouping
// passes nil, which records nothing.
func (m *Matcher) decide(p, q *profile, tr *trace) Decision {
	if p.gtin != "" && q.gtin != "" {
		if tr.check("gtin", p.gtin == q.gtin, Merge, seeGTIN, p, q) {
			return Decision{Same: true, Reason: "gtin", Score: 1}
		}
		tr.check("barcode", true, Split, seeGTIN, p, q)
		return Decision{Reason: "barcode"}
	}
	if tr.check("link", sharedLink(p, q), Merge, seeLink, p, q) {
		return Decision{Same: true, Reason: "link", Score: 1}
	}
	ev := codeEvidence(p, q)
	tr.evidence(ev, p, q)
	if r := hardVeto(p, q, ev, tr); r != "" {
		return Decision{Reason: r}
	}
	if tr.check("part-number", ev.strong && ev.part, Merge, seeCodes, p, q) {
		return Decision{Same: true, Reason: "code", Score: 1}
	}
	if tr.check("code-conflict", ev.conflict, Split, seeCodes, p, q) {
		return Decision{Reason: "code"}
	}
	if ev.strong {
		// A code both titles give can name a model line ("HP Victus
		// 15-fa1"): its configurations differ in model-line numbers.
		if tr.check("model-line", codeLineConflict(p, q, ev, false), Split, seeSlots, p, q) {
			return Decision{Reason: "model-line"}
		}
		// A short model name is a line's ("Vivo Y400" and "Y400 Pro");
		// a part number names the variant itself.
		if tr.check("variant", nameVariant(p, q, ev), Split, seeVariants, p, q) {
			return Decision{Reason: "variant"}
		}
		tr.check("model-code", true, Merge, seeCodes, p, q)
		return Decision{Same: true, Reason: "code", Score: 1}
	}
	if r := m.titleVeto(p, q, tr); r != "" {
		return Decision{Reason: r}
	}
	s := m.similarity(p, q)
	if reason := titleEvidence(p, q, ev, s, tr); reason != "" {
		return Decision{Same: true, Reason: reason, Score: s}
	}
	if m.scorer != nil && !modelsApart(p, q, ev) && !(screensCoded(p, q) && (ev.unrelated || !namesModel(p) || !namesModel(q))) {
		f := m.features(p, q, ev, s)
		pr := m.scorer.Probability(f[:])
		if tr.score("learned", pr >= m.scorer.Threshold, Merge, pr, m.scorer.Threshold) {
			return Decision{Same: true, Reason: "learned", Score: s}
		}
	}
	tr.score("title-refused", true, Split, s, titleNeed(ev))
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

// screensCoded reports whether two listings are televisions: a
// television's code gives its size, series and year, and two sets whose
// codes have nothing in common are two models however alike their short
// titles ("55 4k qled"), so the learned scorer does not judge them; nor a
// set whose title names no model ("LG 55-Inch 4K UHD OLED TV"), which
// any set of its size and kind fits.
func screensCoded(p, q *profile) bool {
	return p.category == tvs && q.category == tvs && !p.acc && !q.acc
}

// nameVariant reports whether two listings share a short model name, not
// a part number, and one title writes a variant word right after it ("Y400
// Pro", "F115 Lite") that the other title does not write at all: a line's
// model and its variant share the name. A word elsewhere in the title is
// often the product's full name ("HD Pro Webcam C920"), which shops
// shorten.
func nameVariant(p, q *profile, ev codeEv) bool {
	return ev.strong && !ev.part && ev.longest <= maxModelName && !hasPartNumber(p) && !hasPartNumber(q) &&
		(variantAfter(p)&^written(q) != 0 || variantAfter(q)&^written(p) != 0)
}

// hasPartNumber reports whether a title gives a code of its own longer than
// a model's name: a part number, which names the variant itself
// ("QE85QN90DATXXU" beside "QN90D Neo").
func hasPartNumber(p *profile) bool {
	return slices.ContainsFunc(p.codes, func(c code) bool { return c.kind == codeStrong && !c.fit && len(c.s) > maxModelName })
}

// written returns the variant words a title writes: as words, or glued to
// a code's last digit ("6282SE" for "6282 SE", "WWG120XL").
func written(p *profile) variants {
	v := p.mainVar
	for _, c := range p.codes {
		if st := stem(c.s); st != "" {
			v |= variantWords[strings.ToLower(c.s[len(st):])]
		}
	}
	return v
}

// variantAfter returns the variant words a title writes right after one of
// its own model codes of up to maxModelName characters.
func variantAfter(p *profile) variants {
	var v variants
	for k := 0; k+1 < len(p.parts); k++ {
		bit := variantWords[strings.ToLower(p.parts[k+1])]
		if bit == 0 || p.mainVar&bit == 0 || len(p.parts[k]) > maxModelName {
			continue
		}
		if slices.ContainsFunc(p.codes, func(c code) bool { return c.kind == codeStrong && !c.fit && c.s == p.parts[k] }) {
			v |= bit
		}
	}
	return v
}

// titleEvidence returns the reason title similarity s makes the pair the
// same product, or "": alone above titleThreshold (unrelatedThreshold when
// both name codes of their own and none agrees, or short model names that
// share nothing), or lower with the support of a code.
func titleEvidence(p, q *profile, ev codeEv, s float64, tr *trace) string {
	need := titleNeed(ev)
	if modelsApart(p, q, ev) {
		need = unrelatedThreshold
	}
	switch {
	case tr.score("title", s >= need, Merge, s, need):
		return "title"
	case ev.fitOwn && tr.score("fit-code", s >= fitCodeThreshold, Merge, s, fitCodeThreshold):
		return "fit-code"
	case ev.desc && tr.score("description-code", s >= fitCodeThreshold, Merge, s, fitCodeThreshold):
		return "description-code"
	case ev.line && !ev.lineApart && ev.lineLen >= 5 && tr.score("long-model-name", s >= longLineThreshold, Merge, s, longLineThreshold):
		return "model-name"
	case s >= lensThreshold && !ev.unrelated &&
		tr.check("lens", p.brand != "" && p.brand == q.brand && sharedLens(p, q), Merge, seeSlots, p, q):
		return "model-name"
	case ev.line && !ev.lineApart && tr.score("model-name", s >= weakCodeThreshold, Merge, s, weakCodeThreshold):
		return "model-name"
	case ev.weak && tr.score("item-number", s >= weakCodeThreshold, Merge, s, weakCodeThreshold):
		return "item-number"
	case s >= weakCodeThreshold && !ev.unrelated &&
		tr.check("shared-model-name", sharedLetterCode(p, q) || sharedModelNumber(p, q) || sharedLens(p, q) || sharedShortName(p, q),
			Merge, seeSlots, p, q):
		return "model-name"
	case !ev.unrelated && tr.check("model-line-specs", sameLineAndSpecs(p, q, ev), Merge, seeSlots, p, q):
		return "model-name"
	}
	return ""
}

// sameLineAndSpecs reports whether two devices of one brand and category
// name the same model line and generation ("iPhone 16", "Pixel 9", "Edge
// 50") or give the same short model code, not in pieces ("P40"), and agree
// on a spec both state (its storage), whatever else their titles say:
// "apple iphone 16 brilliant display blazing speed 256gb pink" and "apple
// iphone 16 256gb ultramarine". The vetoes before it have kept
// apart other variants ("Plus", "Pro Max"), model-line numbers, specs and
// codes; a listing that leaves a configuration open (its memory, or a
// phone's storage) meets each configuration, and grouping then joins it to
// the one it meets, or to none when it meets two.
func sameLineAndSpecs(p, q *profile, ev codeEv) bool {
	if p.brand == "" || p.brand != q.brand || p.category == "" || p.category != q.category || p.acc || q.acc {
		return false
	}
	// A camera's slots name its lens as well ("IS II"): its model is
	// named by a code or a short name, or by its line's initial and number
	// ("A7R" of "Alpha 7R").
	line := ev.line && !ev.lineApart
	camera := p.category == cameras && (line || shortNamedAlike(p, q) || initialWritten(p, q) || initialWritten(q, p))
	if !line && !camera && !slices.ContainsFunc(p.slots, func(s slot) bool { return lineSlot(s) && s.key != "mark" && slices.Contains(q.slots, s) }) {
		return false
	}
	for k, v := range p.specs {
		if w, ok := q.specs[k]; ok && w == v {
			return true
		}
	}
	// A phone's title that states no spec leaves its configuration open
	// (see leavesOpen).
	if p.category == phones && (len(p.specs) == 0) != (len(q.specs) == 0) {
		return true
	}
	return camera && sameCameraEdition(p, q)
}

// shortNamedAlike reports whether two titles give their model one short
// name too short for a code: a letter and a digit ("G9"), or a number and
// a letter after the brand or the line's name ("Canon 5D", "EOS 5D").
func shortNamedAlike(p, q *profile) bool {
	nq := shortModelWords(q, nil)
	return slices.ContainsFunc(shortModelWords(p, nil), func(n string) bool { return slices.Contains(nq, n) })
}

// shortModelWords appends to out, upper case, the words of a title's main
// clause that name its model too shortly for a code: a letter and a digit
// ("G9"), or a number and a letter after the brand or the line's name
// ("5D" of "Canon 5D", "EOS 5D").
func shortModelWords(p *profile, out []string) []string {
	for k, w := range p.words[:p.nMain] {
		if shortName(w) && !apertureWord(p.words, k) || numberName(w) && afterBrandOrLine(p.words, k, p.brand) {
			out = append(out, strings.ToUpper(w))
		}
	}
	return out
}

// sameCameraEdition reports whether two cameras of one model name are sold
// alike: both with the same zoom, both as bodies, or neither title saying,
// in a kit of one name or none. A camera names no storage or memory to
// agree on; the vetoes before have kept apart its generations and kits. A
// body against a title that says nothing is left to the title's words,
// which may sell a lens in a clause of their own.
func sameCameraEdition(p, q *profile) bool {
	sold := edLensKit | edTwinLens | edBody
	if p.category != cameras || p.edition&sold != q.edition&sold || p.kit != q.kit {
		return false
	}
	return p.edition&edLensKit == 0 || sharedRange(p, q)
}

// lineSlot reports whether a slot is a model line's number ("iphone 16",
// "edge 50"): not a measure, not the device a fit clause names, not a
// processor's or graphics' tier.
func lineSlot(s slot) bool {
	return s.key != "cpu" && s.key != "gpu" && !strings.HasPrefix(s.key, "#") && !strings.HasPrefix(s.key, "@")
}

// modelsApart reports whether two titles each name a model by a short name
// (a model-line code, a code of up to six characters, a model-line number)
// and share nothing of it: no code, no model-line number, no word of
// letters and digits ("Honor Magic6 Lite" and "Honor 200 Lite"). The
// learned scorer, which weighs shared words and specs, does not judge such
// a pair: phones of one maker share their memory, storage and line words.
// Part numbers do not count: one retailer gives one where another names
// the model alone.
func modelsApart(p, q *profile, ev codeEv) bool {
	if ev.strong || ev.line || ev.weak || ev.fitOwn || ev.desc || ev.variant {
		return false
	}
	np, nq := modelNames(p), modelNames(q)
	if len(np) == 0 || len(nq) == 0 {
		return false
	}
	for _, a := range np {
		if slices.Contains(nq, a) {
			return false
		}
	}
	if initialNamed(p, nq) || initialNamed(q, np) {
		return false
	}
	return !sharedWordOf(p, q, true) && !sharedLetterCode(p, q) && !sharedModelNumber(p, q) && !sharedLens(p, q)
}

// initialNamed reports whether one of names is a model-line word's initial
// and number of p ("A7" of "Alpha 7").
func initialNamed(p *profile, names []string) bool {
	for _, s := range p.slots {
		if !plainNumber(s.num) {
			continue
		}
		for _, n := range names {
			if initialSpelling(s.key, s.num, n) {
				return true
			}
		}
	}
	return false
}

// maxModelName is the longest code modelNames counts as a model's name; a
// longer one is a part number.
const maxModelName = 6

// modelNames returns the short names a title gives its model: its own
// model-line codes and codes of up to maxModelName characters, a letter and
// a digit ("P4", "F7": too short for a code), a number and a letter after
// the brand ("Realme 15x"), a line's name and variant ("Pixel XL"), and the
// numbers of its model-line words ("200" of "Honor 200").
func modelNames(p *profile) []string {
	var out []string
	for _, c := range p.codes {
		if c.kind >= codeLine && !c.fit && !c.cpu && !c.field && len(c.s) <= maxModelName {
			out = append(out, c.s)
		}
	}
	out = shortModelWords(p, out)
	out = append(out, afterSeries(p)...) // "M100" of "EOS-M100"
	if n := lineVariant(p); n != "" && len(out) == 0 && !slices.ContainsFunc(p.slots, lineSlot) {
		out = append(out, n) // the model's only name: "Pixel XL", not the "Galaxy Z" of "Galaxy Z Flip 7"
	}
	named := len(out) > 0
	for _, s := range p.slots {
		// A mark is a generation of the model the title names ("6D Mark
		// II", "G7 X Mark II"), no name of its own.
		// A lens mount's letters name the lens's focal length ("XC 15").
		if !strings.HasPrefix(s.key, "#") && !strings.HasPrefix(s.key, "@") && !(named && s.key == "mark") &&
			!slices.Contains(lensMounts[:], s.key) {
			out = append(out, s.num)
		}
	}
	return out
}

// shortName reports whether a title word is a letter and a digit, a model's
// name too short for a code ("P4", "M6", "G7").
func shortName(w string) bool {
	return len(w) == 2 && isLetterByte(w[0]) && isDigitByte(w[1])
}

// afterBrandOrLine reports whether words[k] comes right after the brand, or
// after the brand and a line's name of letters ("Canon 5D", "Canon EOS
// 5D").
func afterBrandOrLine(words []string, k int, brand string) bool {
	return k > 0 && words[k-1] == brand || k > 1 && words[k-2] == brand && lettersOnly(words[k-1])
}

// numberName reports whether a word is a number of up to three digits with
// one letter after it, which names a model right after its brand or its
// line ("Realme 15x", "Canon 5D", "EOS 7D"): not a network ("5G") nor a
// resolution ("4K").
func numberName(w string) bool {
	d := leadingDigits(w)
	return d >= 1 && d <= 3 && len(w) == d+1 && isLetterByte(w[d]) && w[d] != 'k' && networkGeneration(w) == ""
}

// titleNeed is the similarity title evidence needs alone: more when both
// listings name codes of their own and none agrees.
func titleNeed(ev codeEv) float64 {
	if ev.unrelated {
		return unrelatedThreshold
	}
	return titleThreshold
}

// sharedLink reports whether two listings carry the same link (a stale
// retailer's offers and the product they had).
func sharedLink(p, q *profile) bool {
	return p.link != "" && p.link == q.link
}
