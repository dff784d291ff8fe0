package match

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"productsearch/internal/classify"
	"productsearch/internal/lexer"
	"productsearch/internal/normalize"
)

// editionsDiffer reports whether one listing is an edition of a product
// the other is not: a bundle, an upgrade or academic licence, a
// remanufactured (third-party) item, a kit or multi-pack part number, a
// camera with a zoom lens against the body alone or the lens alone, a
// processor's tray against its box. A part
// number from an identifier field or of seven or more characters that both
// share outranks the maker's edition words, which titles leave out ("Xbox
// Series S Game Pass bundle" and "Xbox Series S" under one part number), but
// not a third party's (a remanufactured cartridge carries the maker's code),
// nor a part number's own kit letters, nor a lens: a camera's code names the
// body and the kit alike.
func editionsDiffer(p, q *profile, ev codeEv) bool {
	d := p.edition ^ q.edition
	lens := d&(edLensKit|edBody) == edLensKit|edBody || d&(edLensKit|edLens) == edLensKit|edLens ||
		d&edTwinLens != 0 && p.edition&q.edition&edLensKit != 0
	// A processor's tray and its box share its number.
	pack := d&(edTray|edBoxed) == edTray|edBoxed
	d &^= edLensKit | edBody | edLens | edTray | edBoxed | edTwinLens
	// Kits of other names ("standard combo", "adventure combo"), or a kit
	// against the body alone; a kit one title names and the other leaves
	// unsaid may be the product itself ("keyboard and mouse combo").
	kit := p.kit != "" && q.kit != "" && p.kit != q.kit ||
		p.kit != "" && q.kit == "" && q.edition&edBody != 0 || q.kit != "" && p.kit == "" && p.edition&edBody != 0
	if ev.strong && (ev.part || ev.longest >= 7) {
		d &= edThirdParty | edPack
		kit = false
	}
	if p.category == q.category && (p.category == phones || p.category == cameras) && !p.acc && !q.acc {
		// A phone or camera "bundle" is the device and what a shop adds (a
		// charger, a case, a spare battery, a bag): the device's offer, not
		// another product. A camera's lens or named kit still counts.
		d &^= edBundle
	}
	return d != 0 || lens || pack || kit
}

// hardVeto returns why two listings cannot be the same product whatever
// else they share, or "". Each rule is a predicate of its own; tr, when not
// nil, records them.
func hardVeto(p, q *profile, ev codeEv, tr *trace) string {
	switch {
	case tr.check("brand", brandsDiffer(p, q, ev), Split, seeBrands, p, q):
		return "brand"
	case tr.check("specs", specsConflict(p.specs, q.specs), Split, seeSpecs, p, q):
		return "specs"
	case tr.check("code-variant", ev.variant, Split, seeCodes, p, q):
		return "code"
	case tr.check("code-colour", ev.colour, Split, seeCodes, p, q):
		return "colour"
	case tr.check("edition", editionsDiffer(p, q, ev), Split, seeEditions, p, q):
		return "edition"
	case tr.check("colour", statedColoursDiffer(p, q), Split, seeColours, p, q):
		return "colour"
	}
	return ""
}

// brandsDiffer reports whether two listings name different makers. A
// shared model code of six or more characters outweighs a brand that
// disagrees (retailers file a product under its maker or its distributor),
// and any shared model code a brand misspelt by one letter ("Logitch
// G305"); a brand guessed from a title's first word ("Kamera IP 5010L")
// gives way to any model or model-line code both titles share.
func brandsDiffer(p, q *profile, ev codeEv) bool {
	return !brandsAgree(p, q) && !(ev.strong && (ev.longest >= 6 || oneTypo(p.brand, q.brand))) &&
		!((p.guessed || q.guessed) && (ev.strong || ev.line))
}

// statedColoursDiffer reports whether both listings state a colour and the
// colours differ.
func statedColoursDiffer(p, q *profile) bool {
	return p.colour != "" && q.colour != "" && p.colour != q.colour
}

// titleVeto returns why two titles name different models, or "": an
// accessory against a device, different variant words ("Pro" and "Pro
// Max"), model-line numbers ("Gen 2" and "Gen 3") or devices fitted. It
// applies when no shared model code decides; tr, when not nil, records each
// rule.
func (m *Matcher) titleVeto(p, q *profile, tr *trace) string {
	switch {
	case tr.check("type", typesDiffer(p, q), Split, seeType, p, q):
		return "type"
	case tr.check("variant", p.hasTitle && q.hasTitle && variantsDiffer(p, q), Split, seeVariants, p, q):
		return "variant"
	case tr.check("shop-variant", shopVariantsDiffer(p, q), Split, seeVariants, p, q):
		return "variant"
	case tr.check("model-line", slotsConflict(p.slots, q.slots, p.hasFit && q.hasFit, true) || marksDiffer(p, q) ||
		firstOfLine(p, q) || firstOfLine(q, p), Split, seeSlots, p, q):
		return "model-line"
	case tr.check("line-name", linesDiffer(p, q) || linesDiffer(q, p) || numberLeft(p, q) || numberLeft(q, p), Split, seeSlots, p, q):
		return "model-line"
	case tr.check("series", seriesDiffer(p, q) || seriesDiffer(q, p), Split, seeCodes, p, q):
		return "model-line"
	case tr.check("fit", m.fitsDiffer(p, q), Split, seeFit, p, q):
		return "fit"
	}
	return ""
}

// namesModel reports whether a title names a model: a model code, one
// spelt in pieces ("K 2330": a few letters, then a number of three digits or
// more; "P 30", a letter and a number, right after the brand), a model-line
// number ("Pro 5", "Serie 6"), a short name ("M6") or a line's name and
// variant ("Pixel XL"). A title of category words alone
// ("washing machine", "frost free fridge freezer") fits every model of its
// kind, so in grouping, where one such title would meet every listing of its
// kind, title evidence never joins it to another, unless another shop writes
// the same title of four words or more (see sameTitle). A pair decision, given
// its candidate, still weighs the titles.
func namesModel(p *profile) bool {
	if len(p.codes) > 0 {
		return true
	}
	for i := 1; i < len(p.parts); i++ {
		l, n := p.parts[i-1], p.parts[i]
		if l != "" && len(l) <= 3 && lettersOnly(l) && len(n) >= 3 && digitCount(n) == len(n) && !modelYear(n) {
			return true // a code in pieces ("CNSL 3033"), not a year ("TV 2016")
		}
		// A letter and a number right after the brand, or after the brand
		// and its line's name: "Huawei P 30", "Samsung Galaxy A 51".
		if i >= 2 && len(l) == 1 && lettersOnly(l) && n != "" && len(n) <= 3 && digitCount(n) == len(n) &&
			(strings.EqualFold(p.parts[i-2], p.brand) ||
				i >= 3 && strings.EqualFold(p.parts[i-3], p.brand) && p.parts[i-2] != "" && lettersOnly(p.parts[i-2])) {
			return true
		}
	}
	return slices.ContainsFunc(p.slots, func(s slot) bool {
		return !strings.HasPrefix(s.key, "#") && !strings.HasPrefix(s.key, "@") && s.key != yearSlot
	}) ||
		slices.ContainsFunc(p.words[:p.nMain], shortName) || lineVariant(p) != ""
}

// lineVariant returns the line's name and the variant's word or model's
// letters a title writes right after its brand, run together ("pixelxl" of
// "Google Pixel XL", "eosr" of "Canon EOS R"), or "". A lens mount's
// letters are no line's ("EF-S").
func lineVariant(p *profile) string {
	if p.category == "" || p.acc {
		return "" // of goods of no known kind, short words are as often "up to"
	}
	ws := p.words[:p.nMain]
	for k := 2; k < len(ws); k++ {
		if ws[k-2] == p.brand && lineWord(ws[k-1]) && !classify.NamesKind(ws[k-1]) && !slices.Contains(lensMounts[:], ws[k-1]) &&
			(variantWords[ws[k]] != 0 || modelLetters(ws[k])) {
			return ws[k-1] + ws[k]
		}
	}
	return ""
}

// modelLetters reports whether a word after a line's name can be a model's
// letters: one or two letters that are no unit, colour or kind ("R" of
// "EOS R", "RP").
func modelLetters(w string) bool {
	return len(w) <= 2 && lettersOnly(w) && w != "" && !unitWords[w] && colourWords[w] == "" && !classify.NamesKind(w) &&
		!isStopWord(w)
}

// typesDiffer reports whether one listing is an accessory and the other a
// device of the same category.
func typesDiffer(p, q *profile) bool {
	return p.category != "" && p.category == q.category && p.acc != q.acc
}

// fitsDiffer reports whether two accessories fit different devices: their
// fit clauses name different devices ("for iPad" and "for iPod touch"), or
// one names a device the other accessory's title does not ("Case for Galaxy
// S24" and "Case iPhone 13").
func (m *Matcher) fitsDiffer(p, q *profile) bool {
	switch {
	case len(p.fitWords) > 0 && len(q.fitWords) > 0:
		return m.fitAgreement(deviceWords(p.fitWords), deviceWords(q.fitWords)) < fitThreshold
	case len(p.fitWords) > 0 && len(q.fitWords) == 0 && q.acc:
		return m.fitCoverage(p.fitWords, q.words) < fitThreshold
	case len(q.fitWords) > 0 && len(p.fitWords) == 0 && p.acc:
		return m.fitCoverage(q.fitWords, p.words) < fitThreshold
	}
	return false
}

// fitCoverage is the rarity-weighted share of a fit clause's words that a
// title without one gives, a plural as its singular ("case for memory
// cards" and "Memory Card Case").
func (m *Matcher) fitCoverage(fit, words []string) float64 {
	var found, total float64
	for _, w := range fit {
		wt := m.weight(w)
		total += wt
		if slices.Contains(words, w) || slices.Contains(words, singular(w)) {
			found += wt
		}
	}
	if total == 0 {
		return 1
	}
	return found / total
}

// singular returns a plural word without its "s" ("cards", "lenses":
// "card", "lense"), or the word; words in "ss", "us" and "is" and short
// ones are left.
func singular(w string) string {
	if len(w) < 4 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") ||
		strings.HasSuffix(w, "is") || strings.ContainsAny(w, "0123456789") {
		return w
	}
	return w[:len(w)-1]
}

// specsConflict reports whether a spec both listings state has different
// values.
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
// Pro") counts as its main clause. With lengths false, lengths in cm and m,
// loads in kg and watts are left out: under one model code they are the
// product's dimensions, and one title gives its width ("60cm") where
// another gives its height ("185cm"); or its loads, and one washer dryer's
// title gives its wash load ("7kg") where another gives its dry load
// ("4kg", after "7kg" it cannot tell from a lost decimal); or its watts,
// and one microwave's title gives its microwave power ("900W") where another
// gives its grill's or its total ("1000W").
func slotsConflict(a, b []slot, clauses, lengths bool) bool {
	key := func(s slot) string {
		if clauses {
			return s.key
		}
		return strings.TrimPrefix(s.key, "@")
	}
	for _, s := range a {
		k := key(s)
		if !lengths && (k == "#cm" || k == "#m" || k == "#kg" || k == "#w") {
			continue
		}
		if !slices.ContainsFunc(b, func(t slot) bool { return key(t) == k }) {
			continue
		}
		if !subset(a, b, k, key) && !subset(b, a, k, key) {
			return true
		}
	}
	return false
}

// linesDiffer reports whether p, a device of the category q is one of,
// gives a model-line number under a line's name that q's title does not
// write, while q gives the number under another name and no line's name
// and number of p: "Redmi Note 8" and "Redmi 8", "Nord CE 5" and "Nord 5",
// "Z Fold 7" and "Z Flip 7" are other lines' models of one number. Of
// goods of no known category, a number is as often a count ("Moda 2 shelf
// wall furniture", "Moda Collection 2 shelf"). A camera's number right
// after its brand leaves the line's name unsaid ("Sony 7C" is the "Alpha
// 7C"), as a phone's does not ("Honor 20" is no "Honor View 20").
func linesDiffer(p, q *profile) bool {
	if p.category == "" || p.category != q.category || p.acc || q.acc {
		return false
	}
	// The place of a word in a title, in the singular: "Series 6" is
	// "Serie 6".
	place := func(words []string, w string) int {
		return slices.IndexFunc(words, func(v string) bool { return singular(v) == singular(w) })
	}
	if slices.ContainsFunc(p.slots, func(t slot) bool { return lineSlot(t) && slices.Contains(q.slots, t) }) {
		return false // a line's name and number both give
	}
	if slices.ContainsFunc(q.slots, func(t slot) bool { return lineSlot(t) && slices.Contains(p.words, t.key+t.num) }) {
		return false // p writes q's name and number as one word ("X-T4" and "XT4")
	}
	if initialWritten(p, q) || initialWritten(q, p) {
		return false // one writes the other's name as its line's initial and number
	}
	if gluedLine(p, q) || gluedLine(q, p) {
		return false // one runs the line's two words together ("PSmart 2019" and "P Smart 2019")
	}
	for _, s := range p.slots {
		if !lineSlot(s) || s.key == "mark" || place(q.words, s.key) >= 0 {
			continue // a Mark is a generation (marksDiffer)
		}
		// q's name for the number, when p writes it, comes before p's
		// ("Redmi" of "Redmi Note 8"); after it, it names the kind
		// ("X2 340 Athlon" and "Athlon 340").
		at := place(p.words, s.key)
		other := slices.ContainsFunc(q.slots, func(t slot) bool {
			return lineSlot(t) && t.key != "mark" && t.num == s.num && place(p.words, t.key) < at &&
				!(p.category == cameras && t.key == q.brand) && !(brandWord(s.key, p.brand) && brandWord(t.key, q.brand))
		})
		if other {
			return true
		}
	}
	return false
}

// brandWord reports whether a title word names the listing's brand, by its
// name, an alias or with one slip ("honour 10" and "honor 10" are one
// model, no lines of two names).
func brandWord(w, brand string) bool {
	if brand == "" || w == "" {
		return false
	}
	if strings.EqualFold(w, brand) {
		return true
	}
	if b := normalize.KnownBrand(w); b != "" {
		return strings.EqualFold(alnumOnly(b), brand)
	}
	return normalize.SlipOf(w, brand)
}

// gluedLine reports whether p gives a line's number under a name that is
// q's name for the number with the word before it in q's title run
// together: "PSmart 2019" and "P Smart 2019".
func gluedLine(p, q *profile) bool {
	for _, s := range p.slots {
		if !lineSlot(s) {
			continue
		}
		for _, t := range q.slots {
			if t.num != s.num || !lineSlot(t) || len(t.key) >= len(s.key) || !strings.HasSuffix(s.key, t.key) {
				continue
			}
			if k := slices.Index(q.words, t.key); k > 0 && q.words[k-1]+t.key == s.key {
				return true
			}
		}
	}
	return false
}

// numberLeft reports whether q, a phone or a camera as p is, writes the
// name of a line (a word of letters after the brand) whose number p gives,
// and no number of that line, nor p's number in any other word: the line's
// first model ("Google Pixel 128GB" is not the "Pixel 2", "Oppo Reno" not
// the "Reno 10x"). A maker's name followed by a number ("Nokia 7 Plus") is
// left out, as another word often comes between them ("Nokia TA-1046 7
// Plus"); so are a kind of product ("smartphone 15,5 cm"), a colour and a
// network ("titan 4G") and a model's year ("Galaxy A8 2018").
func numberLeft(p, q *profile) bool {
	if p.category != q.category || p.category != phones && p.category != cameras || p.acc || q.acc {
		return false
	}
	mine, theirs := p.words[:p.nMain], q.words[:q.nMain]
	for _, s := range p.slots {
		n := digitsOf(s.num)
		if n == "" || !lineSlot(s) || !lineWord(s.key) || s.key == p.brand || s.key == yearSlot || modelYear(s.num) ||
			networkGeneration(s.num) != "" || colourWords[s.key] != "" || classify.NamesKind(s.key) ||
			!slices.Contains(theirs, s.key) || slotNumber(q, s.key) != "" ||
			!afterBrandOrLine(mine, slices.Index(mine, s.key), p.brand) {
			continue
		}
		if !slices.ContainsFunc(q.words, func(w string) bool { return digitsOf(w) == n }) {
			return true
		}
	}
	return false
}

// initialWritten reports whether q names p's model by the initial of p's
// line and its number: "A7R" of "Alpha 7R III".
func initialWritten(p, q *profile) bool {
	return slices.ContainsFunc(p.slots, func(u slot) bool {
		if len(u.key) < 3 || !lettersOnly(u.key) || !lineSlot(u) {
			return false
		}
		n := u.key[:1] + u.num
		return slices.Contains(q.words, n) || slices.ContainsFunc(q.slots, func(t slot) bool { return t.key == n })
	})
}

// subset reports whether every number a gives key k is among b's; measures
// agree when they are about the same (see aboutEqual), a model number
// with its revision digit ("BHWD1491") as the number without it.
func subset(a, b []slot, k string, key func(slot) string) bool {
	measure := strings.HasPrefix(strings.TrimPrefix(k, "@"), "#")
	for _, s := range a {
		if key(s) != k {
			continue
		}
		if !slices.ContainsFunc(b, func(t slot) bool {
			return key(t) == k && (t.num == s.num || measure && aboutEqual(t.num, s.num) ||
				!measure && revision(k+s.num, k+t.num) || !measure && revision(k+t.num, k+s.num) ||
				strings.TrimPrefix(k, "@") == "#f" && apertureStart(s.num, t.num))
		}) {
			return false
		}
	}
	return true
}

// apertureStart reports whether one of two apertures is the other's range
// given by its first f-number alone ("4" and "4-5.6"): shops often name a
// zoom by its widest aperture.
func apertureStart(a, b string) bool {
	return strings.HasPrefix(b, a+"-") || strings.HasPrefix(a, b+"-")
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
	// A word that names a variant only after a model's name (see
	// nameVariantWord) agrees with the same word anywhere in the other
	// title ("950 000 premier" and "950000 premier").
	pm, qm := mentioned(p), mentioned(q)
	pMain, pFit := p.mainVar|pm&(q.mainVar|q.fitVar), p.fitVar
	qMain, qFit := q.mainVar|qm&(p.mainVar|p.fitVar), q.fitVar
	if p.hasFit && q.hasFit {
		return pMain != qMain || pFit != qFit
	}
	return pMain|pFit != qMain|qFit
}

// mentioned returns the words of nameVariantWord a title writes anywhere.
func mentioned(p *profile) variants {
	var v variants
	for _, w := range p.words {
		if nameVariantWord(w) {
			v |= variantWords[w]
		}
	}
	return v
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
// one slip of the keyboard ("Logitch", "Pansaonic").
func oneTypo(a, b string) bool {
	return len(a) >= minTypoBrand && len(b) >= minTypoBrand && lexer.OneSlip(a, b)
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
