package match

import (
	"slices"
	"strings"
)

// Codes of one shape in two titles that differ in a few places: two models
// of a series ("ZWF71463W" and "ZWF71443W"), one model's colours
// ("MWHN2B/A" and "MWHR2B/A"), a model and its lettered sibling ("REDMI9A"
// and "Redmi 9").

// siblingCodes reports whether p and q each name a strong code of their
// own, with letters and digits in the same places and different numbers
// ("ZWF71463W" and "ZWF71443W", not "UP75" and "UP7500"), that meets no
// other code of the other listing's.
func siblingCodes(p, q *profile) bool {
	for _, a := range p.codes {
		if !ownModelCode(a) || meetsAny(a, q) {
			continue
		}
		for _, b := range q.codes {
			if ownModelCode(b) && sameMask(a.s, b.s) && relate(a.s, b.s) == codesDiffer && digitsOf(a.s) != digitsOf(b.s) &&
				!meetsAny(b, p) {
				return true
			}
		}
	}
	return false
}

// ownModelCode reports whether c is a strong code a title names as its
// own, not a processor's or a device's it fits.
func ownModelCode(c code) bool {
	return c.kind == codeStrong && !c.fit && !c.cpu
}

// meetsAny reports whether code c relates to any of q's codes other than
// by a differing code of its shape.
func meetsAny(c code, q *profile) bool {
	return slices.ContainsFunc(q.codes, func(d code) bool {
		r := relate(c.s, d.s)
		return r != codesUnrelated && r != codesDiffer
	})
}

// colourSiblings returns the length of the longest code of p's that is a
// colour's sibling of q's, when p and q, colours together, state other
// colours (or one states a colour the other's title does not read as one)
// and name one model (a model line's name and number, its variant words
// and specs alike), and each strong code of one is either the other's or
// a sibling of it that differs in one or two letters alone; or 0.
func colourSiblings(p, q *profile) int {
	if !p.anyColour || p.tint == q.tint || p.mainVar != q.mainVar ||
		specsConflict(p.specs, q.specs) || !slices.ContainsFunc(p.slots, func(s slot) bool { return lineSlot(s) && slices.Contains(q.slots, s) }) {
		return 0
	}
	if siblingsOf(q, p) == 0 {
		return 0
	}
	return siblingsOf(p, q)
}

// siblingsOf returns the length of the longest of p's own strong codes that
// differ from one of q's in one or two letters alone, or 0 when there is
// none or another of p's own strong codes is neither q's nor such a
// sibling.
func siblingsOf(p, q *profile) int {
	n := 0
	for _, a := range p.codes {
		if !ownModelCode(a) {
			continue
		}
		if slices.ContainsFunc(q.codes, func(b code) bool { return relate(a.s, b.s) == codesEqual }) {
			continue
		}
		if !slices.ContainsFunc(q.codes, func(b code) bool { return ownModelCode(b) && lettersApart(a.s, b.s) }) {
			return 0
		}
		n = max(n, len(a.s))
	}
	return n
}

// lettersApart reports whether two codes of one length, letters and digits
// in the same places, differ in one or two letters alone: "MWHN2" and
// "MWHR2", not "SMG960F" and "SMG965F".
func lettersApart(a, b string) bool {
	if !sameMask(a, b) {
		return false
	}
	n := 0
	for i := range len(a) {
		if a[i] != b[i] {
			if isDigitByte(a[i]) {
				return false
			}
			n++
		}
	}
	return n >= 1 && n <= 2
}

// sameMask reports whether two codes have letters and digits in the same
// places: "ZWF71463W" and "ZWF71443W", not "XCOVER4S" and "SMG398FN".
func sameMask(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		if isDigitByte(a[i]) != isDigitByte(b[i]) {
			return false
		}
	}
	return true
}

// digitsOf returns the digits of a code in order: "ZWF71463W" gives
// "71463".
func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// modelLetter reports whether a code ends in one letter after a number of
// one or two digits, a model's letter ("REDMI9A" is the "Redmi 9A", not
// the "Redmi 9"), not a colour's after a longer number ("BWC61452W") nor a
// colour's letter ("ILCE9B", black). S, a colour's letter too, names a
// model after a short number as often ("6S", "9S").
func modelLetter(code string) bool {
	n := len(code)
	if n < 2 || !isLetterByte(code[n-1]|0x20) {
		return false
	}
	if l := strings.ToUpper(code[n-1:]); l != "S" && colourLetters(l) != 0 {
		return false
	}
	d := 0
	for d < n-1 && isDigitByte(code[n-2-d]) {
		d++
	}
	return d >= 1 && d <= 2
}
