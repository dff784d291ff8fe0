package match

import (
	"slices"
	"strings"
	"unicode"
)

// Reading a title's model codes, chunk by chunk, and those its
// description names.

// marketNumbered splits a market's two digits written after a long code
// with a hyphen ("50pus6753-12", as "50pus6753/12" names the European
// model) from the code: the code, and whether it had them.
func marketNumbered(s string) (string, bool) {
	a, b, ok := strings.Cut(s, "-")
	if !ok || len(b) != 2 || !isNumber(b) || len(a) < minMarketCode || digitCount(a) == 0 || digitCount(a) == len(a) ||
		!isDigitByte(a[len(a)-1]) || alnumOnly(a) != a {
		return s, false
	}
	return a, true
}

// readCodes reads the model codes of chunk i of a title.
func (p *profile) readCodes(cs []chunk, i int) {
	c := cs[i]
	if apertureAt(cs, i) != "" {
		return // "f/4-5.6", "F2.8L": a lens's aperture
	}
	if n := mountLetters(c.text); n > 0 && focalRange(c.text[n:]) || zoomAt(cs, i) {
		return // "XF18-55mm", "Objectif 18-135 USM": a lens's mount and focal range
	}
	prev, prev2 := "", ""
	if i > 0 {
		prev = cs[i-1].text
	}
	if i > 1 {
		prev2 = cs[i-2].text
	}
	if a, b, ok := strings.Cut(c.text, "/"); ok && !strings.Contains(b, "/") {
		// "sel50f18/sel50f18f": two codes.
		ca, okA := codeOf(a, prev, prev2)
		cb, okB := codeOf(b, a, prev)
		if okA && okB && ca.kind == codeStrong && cb.kind == codeStrong && len(ca.s) >= 4 && len(cb.s) >= 4 {
			ca.fit, cb.fit = c.fit, c.fit
			p.codes = appendCode(appendCode(p.codes, ca), cb)
			return
		}
	}
	text := c.text
	if a, ok := marketNumbered(text); ok {
		text = a // "50PUS6753-12" is the "50PUS6753/12"
	}
	cd, ok := codeOf(text, prev, prev2)
	if !ok {
		cd, ok = pieceCode(prev, c.text)
	}
	if !ok {
		cd, ok = p.letterNumberCode(cs, i)
	}
	if leadCode(cs, i, p.brand) {
		if !ok {
			cd, ok = code{s: NormalizePart(c.text)}, true
		}
		cd.kind, cd.field = codeStrong, true
	}
	if ok {
		// "ht-s40r / b": the letters after the slash, ending a clause, end
		// the code ("A6100 / E PZ 16-50mm" is no "A6100E").
		if i+1 < len(cs) && cs[i+1].slash && len(cs[i+1].text) <= 3 && !strings.ContainsAny(cs[i+1].text, "0123456789") &&
			regionSuffix("/"+cs[i+1].text) == 0 && (i+2 >= len(cs) || cs[i+2].brk || cs[i+2].slash) {
			cd.s += NormalizePart(cs[i+1].text)
			cd.colours |= slashColour(cs[i+1].text)
		}
		cd.fit, cd.last = c.fit, i == len(cs)-1
		p.codes = appendCode(p.codes, cd)
		if base, gen, ok := markedCode(cd); ok {
			p.codes = appendCode(p.codes, code{s: base, kind: codeStrong, fit: cd.fit, last: cd.last, gen: gen})
		}
		if s, ok := seriesPrefixed(prev, cd); ok && prev != p.brand {
			p.codes = appendCode(p.codes, code{s: s, kind: codeStrong, fit: cd.fit, last: cd.last})
		}
		if s, ok := kitSuffixed(prev, c.text); ok {
			// The number alone names no product once its suffix is read.
			num := NormalizePart(prev)
			p.codes = slices.DeleteFunc(p.codes, func(x code) bool { return x.s == num && x.kind == codeWeak })
			p.codes = appendCode(p.codes, code{s: s, kind: codeStrong, fit: cd.fit, last: cd.last})
		}
		// "720841-0012": the item number before its suffix.
		if a, b, ok := strings.Cut(c.text, "-"); ok && len(a) >= 5 && isNumber(a) && isNumber(b) && len(b) <= 4 &&
			!strings.Contains(a, ".") {
			p.codes = appendCode(p.codes, code{s: a, kind: codeWeak, fit: c.fit})
		}
	}
}

// packCode reports whether a part number ends in the letters that make it a
// kit or a multi-pack of a product: "TLPA7017KIT", "DECOX20DUO",
// "TAPOP3042PK".
func packCode(s string) bool {
	st := stem(s)
	if packSuffix(s[len(st):]) {
		return len(st) >= 4
	}
	if rest, ok := strings.CutSuffix(s, "KIT"); ok && len(rest) >= 4 && strings.ContainsFunc(rest, unicode.IsDigit) {
		return true // "D5600 18-55mm kit": a kit whatever comes before
	}
	if rest, ok := strings.CutSuffix(s, "PK"); ok && len(rest) > 0 && isDigitByte(rest[len(rest)-1]) {
		return true
	}
	return false
}

// stockNumber reports whether chunk i is a code that ends a title in a
// clause of its own ("Belkin USB-C Cable 1m Black - BL4471"): a retailer's
// stock number as often as the maker's code. Against a listing with codes of
// its own, the codes compare it and its words weigh nothing.
func stockNumber(cs []chunk, i int) bool {
	if i != len(cs)-1 || !cs[i].brk || cs[i].fit || i < 3 {
		return false
	}
	c, ok := codeOf(cs[i].text, cs[i-1].text, cs[i-2].text)
	return ok && c.kind == codeStrong
}

// minLeadDigits is the fewest digits of a code a title gives right after
// its brand.
const minLeadDigits = 4

// leadCode reports whether chunk i is the code a title gives right after its
// brand and before a new clause: "Leitz 5219 - WOW Letter Tray", "Leitz
// 5214, Desk Organiser". Four or more digits there name the item, not a
// measure or a count, and the code counts as an identifier field's.
func leadCode(cs []chunk, i int, brand string) bool {
	if brand == "" || i == 0 || i+1 >= len(cs) || !cs[i+1].brk || cs[i].brk || cs[i].fit ||
		digitCount(cs[i].text) < minLeadDigits || strings.Contains(cs[i].text, ".") {
		return false
	}
	var b strings.Builder
	for k, c := range cs[:i] {
		if c.brk && k > 0 || b.Len() > len(brand)+maxBrandPrefix {
			return false
		}
		b.WriteString(alnumOnly(c.text))
	}
	// The brand, or the brand with a short word glued in front.
	return b.Len() <= len(brand)+maxBrandPrefix && strings.HasSuffix(b.String(), brand)
}

// maxBrandPrefix is the longest word a retailer glues before a brand
// ("New-Leitz").
const maxBrandPrefix = 3

// maxDescription is how much of a description is read for model codes.
const maxDescription = 400

// readDescription finds the model codes the start of a description names
// that the title does not, stopping where it names another device ("for",
// "compatible with").
func (p *profile) readDescription(d string) {
	if len(d) > maxDescription {
		d = d[:maxDescription]
	}
	prev, prev2 := "", ""
	for f := range strings.FieldsSeq(d) {
		f = strings.Trim(f, ",;:()[]\"'.!?")
		lf := strings.ToLower(f)
		if lf == "for" || lf == "compatible" || lf == "fits" {
			return
		}
		// A code has letters and digits, or is a part number of seven or
		// more digits ("010-12314-00").
		if strings.ContainsAny(f, "0123456789") && (strings.ContainsFunc(f, unicode.IsLetter) || digitCount(f) >= 7) {
			if cd, ok := codeOf(lf, prev, prev2); ok && cd.kind == codeStrong &&
				!slices.ContainsFunc(p.codes, func(x code) bool { return x.s == cd.s }) {
				p.descCodes = append(p.descCodes, cd.s)
			}
		}
		prev, prev2 = lf, prev
	}
}
