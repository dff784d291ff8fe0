package match

import (
	"slices"
	"strings"
)

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
	// letterApart: one title's code is the other's pieces and a model's
	// letter ("REDMI9A" and "Redmi 9").
	letterApart bool
	// lineApart: they share a model-line code ("50S" of "50s style")
	// but each names a model code of its own that relates to none of the
	// other's: two models of one line.
	lineApart bool
}

// codeEvidence compares the model codes of two listings: every code of one
// against every code of the other, then codes one title spells in pieces,
// identifier fields that outrank the titles, and codes the descriptions
// name.
func codeEvidence(p, q *profile) codeEv {
	var ev codeEv
	var t codeTally
	for _, a := range p.codes {
		for _, b := range q.codes {
			ev.compare(a, b, p, q, &t)
		}
	}
	whole := ev.pieces(p, q)
	// Both listings give part numbers and neither's agrees with the other:
	// a code only the titles share names a connector or a model line
	// ("DE15" of VGA cables and adapters) more often than the product.
	if ev.strong && !t.fieldAgree && hasField(p) && hasField(q) && !fieldSpelled(p, q) && !fieldSpelled(q, p) {
		ev.strong = false
		ev.longest = 0
	}
	// A shared code shorter than a code each listing names of its own,
	// which relates to nothing of the other's, names their series ("iq300"
	// of "SN236W00MG" and "KG39NXI35"): two models of one line.
	if ev.strong && !ev.part && longerOwn(p, q, ev.longest) && longerOwn(q, p, ev.longest) {
		ev.strong = false
		ev.longest = 0
		t.differ = true
	}
	// So does a shared code beside two codes of one shape, one in each
	// title, whose numbers differ and which meet nothing else of the
	// other's ("Lindo100 ZWF71463W" and "ZWF71443W Lindo100"): two
	// models of one series, however short their codes.
	if ev.strong && !ev.part && siblingCodes(p, q) {
		ev.strong = false
		ev.longest = 0
		t.differ = true
	}
	// A television's series both name, one in a code with its size.
	if n := max(sharedSeries(p, q), sharedSeries(q, p)); n > 0 && !ev.strong {
		ev.strong = true
		ev.longest = n
	}
	ev.desc = describedCode(p, q) || describedCode(q, p)
	// One code the same, also where a title spells it in pieces ("IWDD7143
	// S" against "IWDD7143S"): another of one listing that reads as a
	// colour variant ("SCPMX802EB" and "SCPMX802WH") is a retailer's
	// spelling.
	ev.variant = ev.variant && !t.exact && !whole
	// Codes of one shape that differ, and none shared: two models. Short
	// model names count when no longer code is shared either ("Galaxy A50"
	// and "Galaxy A51").
	// Beside a shared model-line code, own codes of one shape that differ
	// and meet nothing else of the other's name two models of the line
	// ("Galaxy S20" with "SM-G986B" and with "SM-G981B").
	ev.conflict = ((t.differ || t.lineDiffer || ev.letterApart) && !ev.line || ev.line && ownCodesApart(p, q)) &&
		!ev.strong && !ev.weak && !ev.fitOwn && !ev.desc
	// Colours together, part numbers that differ only in letters, of
	// titles that state other colours and one model line, name the model's
	// colours ("MWHN2B/A" space grey and "MWHR2B/A" midnight green).
	if n := colourSiblings(p, q); ev.conflict && n > 0 {
		ev.conflict = false
		ev.strong, ev.longest = true, n
	}
	apart := !ev.strong && !ev.fitOwn && !ev.desc && !ev.variant && !t.differ && hasOwnStrong(p) && hasOwnStrong(q)
	ev.unrelated = apart && !ev.weak && !ev.line
	ev.lineApart = apart && ev.line
	// Identifier fields outrank titles: two part numbers that differ are
	// different products, whatever codes the titles share.
	// Processors that differ in any letter are different processors,
	// whatever box codes relate ("BX80684I78700K" and "BX80684I78700");
	// one processor in kits for different machines ("DL380" and "DL360")
	// makes different kits.
	cpu := t.cpuDiffer && !t.cpuAgree || t.cpuAgree && t.differ && !t.ownEqual
	if t.fieldDiffer && !t.fieldAgree || t.partDiffer && !partAgree(p, q) || mpnsDiffer(p, q) || cpu {
		ev = codeEv{conflict: true}
	}
	return ev
}

// codeTally is what comparing codes pair by pair found besides a codeEv.
type codeTally struct {
	differ      bool // own codes (or item numbers of one length) that differ
	fieldDiffer bool // identifier fields, or a field and a code of its series, that differ
	fieldAgree  bool // a code from an identifier field equals one of the other's
	partDiffer  bool // part numbers of seven or more digits that differ
	exact       bool // own codes spelt exactly alike
	ownEqual    bool // own codes other than processor numbers that are equal
	cpuAgree    bool // a processor number both read as their own
	cpuDiffer   bool // processor numbers both read as their own that differ
	lineDiffer  bool // short model names of one shape that differ ("A50" and "A51")
}

// compare weighs code a of p against code b of q.
func (ev *codeEv) compare(a, b code, p, q *profile, t *codeTally) {
	if a.cpu || b.cpu {
		if a.cpu && b.cpu {
			if sameProcessor(a, b) {
				// A processor number agreed in full names one processor
				// as a part number does; clock speeds the titles state
				// (base or boost) do not keep them apart.
				// It names no maker: two brands' computers share
				// processors.
				t.cpuAgree = true
				ev.strong, ev.part = true, true
			} else {
				t.cpuDiffer = true
			}
		}
		return
	}
	af, bf := a.fit && !tailPart(a, p, q), b.fit && !tailPart(b, q, p)
	own := a.kind == codeStrong && b.kind == codeStrong && !af && !bf
	r := relateSpelled(a, b, own, p, q)
	// A part number and a code of its series the other's title gives as
	// its own: "TN2410" and "Brother TN2420 Toner".
	if a.field && b.field && (r == codesDiffer || r == codesVariant) ||
		a.field != b.field && own && r == codesDiffer && sameSeries(a.s, b.s) {
		t.fieldDiffer = true
	}
	if (a.field || b.field) && r == codesEqual {
		t.fieldAgree = true
	}
	// Item numbers of the same length that differ: "48213", "48260".
	if r == codesDiffer && !af && !bf && (a.kind == codeWeak || b.kind == codeWeak) &&
		digitCount(a.s) == len(a.s) && digitCount(b.s) == len(b.s) && len(a.s) == len(b.s) {
		t.differ = true
	}
	// Part numbers of seven or more digits that differ name different
	// items, whatever model names the titles share.
	if r == codesDiffer && len(a.s) >= 7 && len(b.s) >= 7 && digitCount(a.s) == len(a.s) && digitCount(b.s) == len(b.s) &&
		!af && !bf {
		t.partDiffer = true
	}
	switch r {
	case codesWithin:
		switch {
		case af || bf:
		case variantLetter(a, b.s, p, q) || variantLetter(b, a.s, q, p) || letterModel(a.s, b.s) || letterModel(b.s, a.s):
			// "V60E" and "V60", "Z10R" and "Z10": two models of one line.
			t.lineDiffer = true
		default:
			ev.line = true
		}
	case codesEqual:
		if own && a.s == b.s {
			t.exact = true
		}
		t.ownEqual = t.ownEqual || own
		ev.equal(a, b, af, bf, own, p, q)
	case codesVariant:
		switch {
		case own:
			ev.variant = true
		case a.kind == codeLine && b.kind == codeLine && !af && !bf && len(a.s) == len(b.s) && len(a.s)-len(stem(a.s)) == 1:
			// Short names a letter apart after one number: "A9F" and
			// "A9G" are two years' models of one line.
			t.lineDiffer = true
		}
	case codesDiffer:
		if own {
			t.differ = true
		} else if a.kind == codeLine && b.kind == codeLine && !af && !bf {
			t.lineDiffer = true
		}
	}
}

// relateSpelled relates two codes as relate does, reading the retailers'
// spellings: colour letters both listings' colour explains are one code
// ("SCPMX802BK" and "SC-PMX802EB", both black), and a suffix a title writes
// as a word of its own is a variant ("ADAPT260MS", titled "Adapt 260 MS",
// and "ADAPT260").
func relateSpelled(a, b code, own bool, p, q *profile) codeRelation {
	r := relate(a.s, b.s)
	if (r == codesDiffer || r == codesUnrelated) && own && !a.field && !b.field && (revision(a.s, b.s) || revision(b.s, a.s)) {
		r = codesEqual // "BHWD149" and "BHWD1491": a model and its revision, as titles write them
	}
	if r == codesVariant && own && colourSpelling(a.s, b.s, p, q) {
		r = codesEqual
	}
	if r == codesEqual && own && (suffixWord(a.s, b.s, p, q) || suffixWord(b.s, a.s, q, p) ||
		marketLetter(a, b.s, p, q) || marketLetter(b, a.s, q, p) || variantLetter(a, b.s, p, q) || variantLetter(b, a.s, q, p)) {
		r = codesVariant
	}
	if r == codesEqual && own && (otherSeries(a.s, b.s, q) || otherSeries(b.s, a.s, p)) {
		r = codesDiffer
	}
	if r == codesVariant && own && regionLettersOfSet(a.s, b.s, p, q) {
		r = codesEqual
	}
	if (r == codesDiffer || r == codesUnrelated) && own && marketsOfSet(a.s, b.s, p, q) {
		r = codesEqual
	}
	if r == codesWithin && own && sizeFirstOfSet(a.s, b.s, p, q) {
		r = codesEqual
	}
	return r
}

// writtenApart reports whether a title's parts write code and, right after
// it, letter: "X100 F" is the "X100F".
func writtenApart(parts []string, code, letter string) bool {
	for k := 0; k+1 < len(parts); k++ {
		if parts[k] == code && parts[k+1] == letter {
			return true
		}
	}
	return false
}

// variantLetter reports whether code a, of p, is code b, a model number
// shorter than a market's (see marketLetter) that ends in a digit, with
// one letter glued on that spells no colour: "WMF147X" and "WMF147",
// "DI6013D" and "DI6013" are two models of one range. A colour's letter
// ("CAA55S", silver) may be the colour of one model, and so may any letter
// while a listing states a colour, as in marketLetter. A letter the other
// title writes apart right after the number is the same code ("X100 F").
func variantLetter(a code, b string, p, q *profile) bool {
	suf, ok := strings.CutPrefix(a.s, b)
	return ok && len(suf) == 1 && lettersOnly(suf) && len(b) < minMarketCode && isDigitByte(b[len(b)-1]) &&
		a.colours == 0 && (colourLetters(suf) == 0 && p.colour == "" && q.colour == "" || otherTint(p, suf)) &&
		!writtenApart(q.parts, b, suf)
}

// otherTint reports whether a camera's title states a colour that letter
// suf, a colour's letter after its short code, does not name: the letter
// is then the model's ("DC-S1R black" is the S1R, not a red S1), as camera
// makers name a line's models.
func otherTint(p *profile, suf string) bool {
	return p.category == cameras && !p.acc && p.tint != "" && colourBit(p.tint) != 0 &&
		colourLetters(suf)&colourBit(p.tint) == 0
}

// maxShortName is the longest model name that a letter glued on makes
// another model whatever the letter spells, and after which a word such as
// "Play" or "Compact" names a variant (see afterModelName).
const maxShortName = 3

// letterModel reports whether code a is b, a short model name ending in a
// digit, with one letter glued on: makers name a line's models so ("Y19S"
// beside "Y19", "Z10R" beside "Z10", "A52S" beside "A52"), and a name this
// short leaves no room for a colour's letter, as a part number does.
func letterModel(a, b string) bool {
	suf, ok := strings.CutPrefix(a, b)
	return ok && len(suf) == 1 && lettersOnly(suf) && len(b) <= maxShortName && isDigitByte(b[len(b)-1])
}

// maxSeriesDigits is the most digits of a number that a series' letters
// make a model: a longer number ("416020SIL") is a part number of its own.
const maxSeriesDigits = 4

// otherSeries reports whether code a is a series' letters and code b, and
// q's title writes other letters as long before b: "DSR15B1" against "DPG
// 15B1" are two models of one number. A series name before b that a's
// letters spell ("Coolpix P950" against "COOLPIXP950") agrees, and so do
// letters of another length (a brand, a kind: "TV 55C3" against "OLED55C3").
func otherSeries(a, b string, q *profile) bool {
	pre, ok := strings.CutSuffix(a, b)
	if !ok || pre == "" || !lettersOnly(pre) || digitCount(b) > maxSeriesDigits {
		return false
	}
	for k := 1; k < len(q.parts); k++ {
		if q.parts[k] == b {
			w := q.parts[k-1]
			return len(w) == len(pre) && lettersOnly(w) && w != pre
		}
	}
	return false
}

// minMarketCode is the shortest code whose one letter more names a
// market's version of the model rather than a colour.
const minMarketCode = 8

// marketLetter reports whether code a, of p, is code b with one letter
// glued on that is not a colour, or "GB": makers of appliances end a
// long model number with the letter of the market it is built for
// ("HMT84M421B", a white microwave, against "HMT84M421"), and the number
// without it is another market's version. A letter that spells the colour
// p states ("DSCWX350B", black) or that a slash sets apart ("DSC-RX100/B")
// is a colour; so is any letter while a listing states a colour and the
// letter spells no other ("DMC-LX100K", black: makers have colour letters
// of their own). The maker's "GB" is a market's letters too ("WKD28541GB"
// against "WKD28541"), and so is its "G", after letters as after digits
// ("KSV36VW3PG" against "KSV36VW3P", the German version); "UK" is not, as
// shops append it to any number.
func marketLetter(a code, b string, p, q *profile) bool {
	suf, ok := strings.CutPrefix(a.s, b)
	if !ok || len(b) < minMarketCode || !lettersOnly(suf) || a.colours != 0 {
		return false
	}
	if suf == "GB" || suf == "G" {
		return true
	}
	if !isDigitByte(b[len(b)-1]) {
		return false
	}
	if len(suf) != 1 {
		return false
	}
	stated := colourBit(p.colour) | colourBit(q.colour)
	l := colourLetters(suf)
	return stated == 0 || l != 0 && l&stated == 0
}

// equal weighs two codes that are equal: a shared part or model number of
// the product, a model-line code, a code one names as the device it fits and
// the other as its own, or an item number; or, when their colour letters
// differ, a colour that keeps them apart ("SRSXB100R" against a black
// "SRSXB100").
func (ev *codeEv) equal(a, b code, af, bf, own bool, p, q *profile) {
	switch {
	case own && !p.anyColour && coloursDiffer(a, b, p, q):
		ev.colour = true
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
	case af && bf && !p.acc && !q.acc && p.category != "" && p.category == q.category:
		// Two devices sold with one lens or accessory ("A6100 & SELP1650
		// lens", "A6000 and SELP1650 lens"): nothing of the devices.
	default:
		ev.weak = true
	}
}

// pieces weighs the codes one listing gives that the other's title spells
// in pieces ("DT 770", "ACS 06707"), unless a strong code is shared already,
// and reports whether a title spells the other's own strong code whole, with
// nothing left over.
func (ev *codeEv) pieces(p, q *profile) (whole bool) {
	for _, pair := range [2][2]*profile{{p, q}, {q, p}} {
		for _, c := range pair[0].codes {
			if c.kind < codeLine || c.fit || ev.strong {
				continue
			}
			if c.kind == codeStrong && ownPrefix(pair[1], c.s) && piecesWhole(c.s, pair[1].parts) {
				whole = true
			}
			spelled, other := piecesOf(c.s, pair[1].parts)
			if spelled && isTV(pair[0]) && isTV(pair[1]) && letterSeriesCode(c.s) && !piecesWhole(c.s, pair[1].parts) {
				spelled = false // "OLED 55" is no "OLED55CX": its letters are the series
			}
			if spelled && c.kind == codeLine && !piecesWhole(c.s, pair[1].parts) {
				spelled = false // "GALAXYS10" is no "Galaxy S10e": a line's model letter
			}
			spelled = spelled || initialPieces(c.s, pair[1].parts)
			if other && c.kind == codeStrong && !setCode(c.s, pair[0], pair[1]) {
				ev.variant = true // "BWC 61452 S" against "BWC61452W"
			}
			if spelled {
				if c.kind == codeLine {
					ev.line = true
					ev.lineLen = max(ev.lineLen, len(c.s))
					continue
				}
				ev.strong = true
				ev.longest = max(ev.longest, len(c.s))
			} else if c.kind == codeStrong && modelLetter(c.s) {
				// "REDMI9A" against "Redmi 9": the pieces without the
				// model's letter, another model of the line.
				base, _ := piecesOf(c.s[:len(c.s)-1], pair[1].parts)
				ev.letterApart = ev.letterApart || base
			}
		}
	}
	return whole
}

// ownPrefix reports whether p names a strong code of its own that starts
// code, which p's title then writes with its last letters apart ("IWDD7143
// S").
func ownPrefix(p *profile, code string) bool {
	for _, c := range p.codes {
		if c.kind == codeStrong && !c.fit && len(c.s) < len(code) && strings.HasPrefix(code, c.s) {
			return true
		}
	}
	return false
}

// initialPieces reports whether two consecutive parts, a line's name and a
// number, spell code as the name's initial and the number ("Alpha 6100"
// and "A6100").
func initialPieces(code string, parts []string) bool {
	if len(code) < 2 || isDigitByte(code[0]) || !plainNumber(code[1:]) {
		return false // no initial and number
	}
	for k := 0; k+1 < len(parts); k++ {
		if plainNumber(parts[k+1]) && initialSpelling(parts[k], parts[k+1], code) {
			return true
		}
	}
	return false
}

// describedCode reports whether p's description names a code q carries as
// its own strong code.
func describedCode(p, q *profile) bool {
	for _, d := range p.descCodes {
		for _, c := range q.codes {
			if c.kind == codeStrong && !c.fit && relate(d, c.s) == codesEqual {
				return true
			}
		}
	}
	return false
}

// minSuffixWord is the fewest letters of a suffix that names a variant.
const minSuffixWord = 2

// suffixWord reports whether code a is code b with letters appended that
// p's title writes as a word of its own and q's title lacks ("EPOS Adapt 260
// MS" as "ADAPT260MS" against "ADAPT260"): the maker's name for a variant,
// not the colour or region letters retailers append, which titles leave out.
func suffixWord(a, b string, p, q *profile) bool {
	suf, ok := strings.CutPrefix(a, b)
	if !ok || len(suf) < minSuffixWord || !lettersOnly(suf) || colourLetters(suf) != 0 || regionLetters(suf) ||
		dottedSuffix(a, b, p) {
		return false
	}
	word := func(w string) bool { return strings.EqualFold(w, suf) }
	return slices.ContainsFunc(p.words[:p.nMain], word) && !slices.ContainsFunc(q.words, word)
}

// dottedSuffix reports whether p's title writes code a as code b and a
// market's letters after a dot ("oled55b8pla.aek"): its words hold both
// the code and the code with the letters run on, as one chunk gives them.
func dottedSuffix(a, b string, p *profile) bool {
	return slices.Contains(p.words, strings.ToLower(a)) && slices.Contains(p.words, strings.ToLower(b))
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
			if sameProcessor(a, b) {
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

// longerOwn reports whether p names a strong code of its own at least
// seriesMargin characters longer than n that meets none of q's codes (the
// same shape and other characters, or another shape altogether).
func longerOwn(p, q *profile, n int) bool {
	return slices.ContainsFunc(p.codes, func(c code) bool {
		if c.kind != codeStrong || c.fit || c.cpu || len(c.s) < n+seriesMargin {
			return false
		}
		return !slices.ContainsFunc(q.codes, func(d code) bool {
			r := relate(c.s, d.s)
			return r != codesUnrelated && r != codesDiffer
		})
	})
}

// ownCodesApart reports whether p and q each name a strong code of their
// own, of one shape, that differ, neither meeting any other code of the
// other listing: "SMG986B" and "G981B", not "S210" beside "ENEL10" against
// "ENEL10".
func ownCodesApart(p, q *profile) bool {
	alone := func(c code, q *profile) bool {
		return c.kind == codeStrong && !c.fit && !c.cpu && !slices.ContainsFunc(q.codes, func(d code) bool {
			r := relate(c.s, d.s)
			return r != codesUnrelated && r != codesDiffer
		})
	}
	for _, a := range p.codes {
		if !alone(a, q) {
			continue
		}
		for _, b := range q.codes {
			if relate(a.s, b.s) == codesDiffer && alone(b, p) {
				return true
			}
		}
	}
	return false
}

// seriesMargin is how much longer than a shared code the codes of two
// listings' own must be for the shared one to read as their series: a code
// one letter longer is more often a colour or kit of the shared model
// ("DMC-GX1KBODY" and "DMC-GX1SBODY" beside "DMC-GX1BODY").
const seriesMargin = 3

// partAgree reports whether two listings share a part number of seven or
// more digits.
func partAgree(p, q *profile) bool {
	for _, a := range p.codes {
		if len(a.s) < 7 || digitCount(a.s) != len(a.s) {
			continue
		}
		for _, b := range q.codes {
			if sameProcessor(a, b) {
				return true
			}
		}
	}
	return false
}

// spelledInPieces reports whether two or three consecutive parts of one
// clause, or four for a long code (see fourPieces), run together, spell
// code, give or take up to three trailing letters on either side ("DT 770"
// is "DT770", "Flip 6" is "FLIP6BLK"): not a variant's word ("P 30" is not
// "P30PRO"), nor one letter after a model's short name ("S 10" is not
// "S10E").
func spelledInPieces(code string, parts []string) bool {
	spelled, _ := piecesOf(code, parts)
	return spelled
}

// piecesOf reports whether parts spell code in pieces (see
// spelledInPieces), and whether they spell it with another suffix of one to
// three letters as a piece of its own ("BWC 61452 S" against "BWC61452W"):
// another variant of the model.
func piecesOf(code string, parts []string) (spelled, other bool) {
	for i, first := range parts {
		rest, ok := strings.CutPrefix(code, first)
		if !ok || first == "" || rest == "" {
			continue
		}
		for k := i + 1; k < len(parts) && k <= i+3 && parts[k] != ""; k++ {
			next := parts[k]
			if k == i+3 && !fourPieces(parts[i:k+1], code) {
				break
			}
			if r, ok := strings.CutPrefix(rest, next); ok {
				if len(r) <= 3 && lettersOnly(r) && !variantSuffix(r) && (len(r) != 1 || len(code) > maxModelName && !modelLetter(code)) {
					// The code, or the pieces and a suffix, unless the
					// title writes another suffix as a piece of its own
					// ("BWC 61452 S" against "BWC61452W").
					other := r != "" && otherSuffix(r, parts, k+1)
					return !other, other
				}
				rest = r
				continue
			}
			if extra, ok := strings.CutPrefix(next, rest); ok && len(extra) <= 3 && lettersOnly(extra) && !variantSuffix(extra) {
				return true, false // the pieces spell the code and a suffix
			}
			break
		}
	}
	return false, false
}

// variantSuffix reports whether letters left over after a code's pieces
// name a variant of the model ("P30PRO" against "P 30", "3XL" against "3"):
// not a colour's or a market's letters, which titles leave out.
func variantSuffix(s string) bool {
	return variantWords[strings.ToLower(s)] != 0
}

// otherSuffix reports whether parts[k], the piece after a code spelt in
// pieces, is a suffix of one to three letters other than suffix, the
// letters that end the code the pieces are compared with.
func otherSuffix(suffix string, parts []string, k int) bool {
	if k >= len(parts) {
		return false
	}
	w := parts[k]
	if w == "" || len(w) > 3 || strings.HasPrefix(w, suffix) || strings.HasPrefix(suffix, w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'A' || w[i] > 'Z' {
			return false
		}
	}
	return regionSuffix("/"+w) == 0
}

// sameProcessor reports whether two codes name one processor: their
// numbers agree in every letter and in the generation ("E5-2630" names the
// first, a processor of its own beside "E5-2630 v3"), and so do their
// series where both name one.
func sameProcessor(a, b code) bool {
	return a.s == b.s && (a.series == "" || b.series == "" || a.series == b.series)
}
