package match

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Screen sizes, in inches, that a television's model code gives.
const (
	minScreenCode = 19
	maxScreenCode = 99
)

// minSeriesCode is the shortest model series a television's code is matched
// by ("A6K" of "55A6KTUK").
const minSeriesCode = 3

// readScreenCode reads the screen size a television's own model code
// gives: its letters, the size in two digits, then a letter ("OLED55C46LA",
// "QE65Q80C", "KD55X85L", "55A6KTUK", "TX50MX800B"). A title that names the
// model and another that states the size ("OLED B3 65 inch") then agree on
// it or not, as two stated sizes do.
func (p *profile) readScreenCode() {
	for _, c := range p.codes {
		if c.kind != codeStrong || c.fit {
			continue
		}
		if size, _ := screenOfCode(c.s); size != "" {
			p.addSlot("#in", size, false)
		}
	}
}

// screenOfCode returns the screen size a television's model code gives and
// the model series after it, or "": up to four letters, two digits of a
// size between minScreenCode and maxScreenCode, then the series, a letter
// first and a digit in it ("UE55MU6100": 55 and "MU6100").
func screenOfCode(s string) (size, series string) {
	i := 0
	for i < len(s) && i < 5 && isASCIILetter(s[i]) {
		i++
	}
	if i > 4 || i+3 > len(s) || !isDigitByte(s[i]) || !isDigitByte(s[i+1]) || !isASCIILetter(s[i+2]) {
		return "", ""
	}
	n := int(s[i]-'0')*10 + int(s[i+1]-'0')
	if n < minScreenCode || n > maxScreenCode || !strings.ContainsFunc(s[i+2:], unicode.IsDigit) {
		return "", "" // "Q80C", "X85L": a series, its number no size
	}
	return s[i : i+2], s[i+2:]
}

// isTV reports whether a listing is a television, not an accessory of one.
func isTV(p *profile) bool {
	return p.category == tvs
}

// setListing reports whether p is a television's listing, the set's own or
// one a title sells with something that reads as an accessory ("OLED55B8PLA
// 55 OLED 4K HDR TV wall bracket", as a site prints "... TV + Wall
// Bracket"): a code that gives a set's size and series names the set
// either way, and its market's letters tell no other model.
func setListing(p *profile) bool {
	return p.category == tvs
}

// maxNameAt is the furthest place among a television's title words where
// seriesDiffer looks for its model's short name.
const maxNameAt = 3

// seriesDiffer reports whether p, a television, names its model by a short
// name ("C4" of "OLED evo C4 65 inch") that neither q's title writes nor
// the series of q's code starts with ("G45LW" of "OLED65G45LW"): two models
// of one size and kind, which short titles and their specs make look alike.
func seriesDiffer(p, q *profile) bool {
	if !isTV(p) || !isTV(q) || !slices.ContainsFunc(q.codes, func(c code) bool { return codeSeries(c) != "" }) ||
		slices.ContainsFunc(p.codes, func(c code) bool { return codeSeries(c) != "" }) {
		return false // no series in q's code, or p's own code decides
	}
	named := false
	// The name comes first: after the brand and a line's name ("LG OLED
	// evo C4"), not in the features ("DVB-T2", "X1 processor").
	for _, w := range p.words[:min(p.nMain, maxNameAt+1)] {
		if !shortName(w) && (len(w) > maxModelName ||
			!slices.ContainsFunc(p.codes, func(c code) bool { return c.kind >= codeLine && !c.fit && strings.EqualFold(c.s, w) })) {
			continue
		}
		named = true
		if slices.Contains(q.words, w) || slices.ContainsFunc(q.codes, func(c code) bool {
			_, ok := seriesStarts(codeSeries(c), w)
			// Or the name is the series and a market's letters ("B8PLA"
			// of "OLED55B8"), as the code would end.
			market, named := seriesStarts(w, codeSeries(c))
			return ok || named && len(codeSeries(c)) >= 2 && lettersOnly(market) && len(market) <= maxMarketLetters
		}) {
			return false
		}
	}
	return named
}

// marketNumber reports whether rest, what a television code's series gives
// after a model's name, is two digits with a market's letters after them
// or none ("05" of the "XE9005" sold as the "XE90"), after a name that ends
// in two digits or more. One digit more is another model ("Q90" is not the
// "Q900R").
func marketNumber(rest, name string) bool {
	return len(rest) >= 2 && isDigitByte(rest[0]) && isDigitByte(rest[1]) && lettersOnly(rest[2:]) &&
		stem(name) == name && digitCount(name) >= 2
}

// seriesStarts reports whether a television code's series starts with a
// model's short name, and returns the rest: the name itself, or its
// letters and digits in another order, as a maker's name and code may
// give them ("A8F" and the "AF8" of "KD65AF8BU").
func seriesStarts(series, name string) (string, bool) {
	if name == "" || len(series) < len(name) {
		return "", false
	}
	head := series[:len(name)]
	if strings.EqualFold(head, name) {
		return series[len(name):], true
	}
	if len(name) >= 3 && sortedChars(strings.ToUpper(head)) == sortedChars(strings.ToUpper(name)) && strings.ContainsAny(head, "0123456789") {
		return series[len(name):], true
	}
	return "", false
}

// sortedChars returns s's characters in byte order: "AF8" and "A8F" both
// give "8AF".
func sortedChars(s string) string {
	b := []byte(s)
	slices.Sort(b)
	return string(b)
}

// codeSeries returns the model series a television's own code gives after
// its size ("MU6100" of "UE55MU6100"), or "".
func codeSeries(c code) string {
	if c.kind != codeStrong || c.fit {
		return ""
	}
	_, s := screenOfCode(c.s)
	return s
}

// sharedSeries returns the length of the model series that a television's
// code of p gives and q names as its own code, the region's letters after
// it left out ("MU6100" of "UE55MU6100", "DU7100" of "UE85DU7100KXXU", "Q80C"
// of "QE65Q80CATXXU"), or 0: shops name a set by its series and its size.
// The sizes are compared as measures (see readScreenCode).
func sharedSeries(p, q *profile) int {
	if !isTV(p) || !isTV(q) {
		return 0
	}
	for _, a := range p.codes {
		if a.kind != codeStrong || a.fit {
			continue
		}
		_, series := screenOfCode(a.s)
		if series == "" {
			continue
		}
		for _, b := range q.codes {
			if b.kind < codeLine || b.fit || len(b.s) < minSeriesCode {
				continue
			}
			if size, _ := screenOfCode(b.s); size != "" {
				continue
			}
			if rest, ok := seriesStarts(series, b.s); ok && (lettersOnly(rest) || marketNumber(rest, b.s)) {
				return len(b.s)
			}
		}
		// A series of a letter and a digit, too short for a code: "C8"
		// of "OLED55C8PLA".
		for _, w := range q.words[:q.nMain] {
			if !shortName(w) {
				continue
			}
			if rest, ok := strings.CutPrefix(series, strings.ToUpper(w)); ok && lettersOnly(rest) {
				return len(w)
			}
		}
	}
	return 0
}

// seriesKeys returns the model series a television meets others by in
// its title block: of a code that gives a size, the series after it, and
// of its other codes the code itself, each without the letters after its
// last digit ("MU6100", "Q80"), and also by its first three characters in
// any order; its codes without a digit and a market's letters after them
// ("OLED55CX" of "OLED55CX6LA"); and a series of a letter and a digit its
// title names ("C8").
func seriesKeys(p *profile) []string {
	if !isTV(p) {
		return nil
	}
	var out []string
	for _, c := range p.codes {
		if c.kind < codeLine || c.fit {
			continue
		}
		s := c.s
		if _, series := screenOfCode(s); series != "" {
			s = series
		}
		if k := stem(s); len(k) >= minSeriesCode && strings.ContainsFunc(k, func(r rune) bool { return r >= 'A' && r <= 'Z' }) ||
			len(k) == 2 && isASCIILetter(k[0]) && isDigitByte(k[1]) {
			out = append(out, "tv:"+k)
		}
		if len(s) >= 3 && strings.ContainsAny(s[:3], "0123456789") {
			// The series' first three characters in any order: "AF8"
			// of "KD65AF8BU" meets "A8F" (see seriesStarts).
			out = append(out, "tv~"+sortedChars(s[:3]))
		}
	}
	// A set's code without a digit and a market's letters after it
	// ("OLED55CX" of "OLED55CX6LA", see marketsOfSet).
	for _, c := range p.codes {
		if c.kind != codeStrong || c.fit {
			continue
		}
		k := c.s
		if size, _ := screenOfCode(k); size != "" && len(k) > 3 && marketDigits(k[len(k)-3:]) {
			k = k[:len(k)-3]
		}
		out = append(out, "tvm:"+k)
	}
	// A series too short for a code ("LG C8 55 inch").
	for _, w := range p.words[:p.nMain] {
		if shortName(w) {
			out = append(out, "tv:"+strings.ToUpper(w))
		}
	}
	return out
}

// screenSize reports whether a whole number alone in a television's title
// is its screen size: two digits between minScreenCode and maxScreenCode.
func screenSize(p *profile, w string) bool {
	if !isTV(p) || len(w) != 2 || !isDigitByte(w[0]) || !isDigitByte(w[1]) {
		return false
	}
	n := int(w[0]-'0')*10 + int(w[1]-'0')
	return n >= minScreenCode && n <= maxScreenCode
}

// letterSeriesCode reports whether a television's code gives its size and
// then a series of letters alone ("OLED55CX", "OLED65GX"): the letters
// name the series, as the digits of another maker's do, and are no
// colour's or market's suffix a title may leave out.
func letterSeriesCode(s string) bool {
	i := 0
	for i < len(s) && isASCIILetter(s[i]) {
		i++
	}
	if i == 0 || i > 4 || i+4 > len(s) || !isDigitByte(s[i]) || !isDigitByte(s[i+1]) {
		return false
	}
	n := int(s[i]-'0')*10 + int(s[i+1]-'0')
	return n >= minScreenCode && n <= maxScreenCode && lettersOnly(s[i+2:])
}

// piecesWhole reports whether two or three consecutive parts of a title
// spell code whole, with nothing left over.
func piecesWhole(code string, parts []string) bool {
	for i := range parts {
		spelt := parts[i]
		for k := i + 1; k < len(parts) && k <= i+2 && parts[k] != "" && len(spelt) < len(code); k++ {
			spelt += parts[k]
			if spelt == code {
				return true
			}
		}
	}
	return false
}

// screenInches returns the screen size in inches, the way sets are sold,
// that a television's title states in centimetres ("102 cm" is the 40-inch
// set, "123cm" the 49-inch, "139 cm" the 55-inch), or "". A set sold by a
// size in inches measures a little less across, and centimetres round
// either way: the size is the whole inch from 0.3 below the measure to
// 0.7 above it.
func screenInches(p *profile, w, unit string) string {
	if !isTV(p) || unit != "cm" {
		return ""
	}
	cm, err := strconv.ParseFloat(w, 64)
	if err != nil || cm < minScreenCm || cm > maxScreenCm {
		return ""
	}
	return strconv.Itoa(int(math.Ceil(cm/2.54 - 0.3)))
}

// The screen sizes in centimetres a television's title may state, from
// 19 to 120 inches.
const (
	minScreenCm = 48
	maxScreenCm = 305
)

// regionLettersOfSet reports whether two televisions' codes give one size
// and series and differ only in the letters after it, a market's
// ("55UK6300PLA" and "55UK6300PLB"): the same set.
func regionLettersOfSet(a, b string, p, q *profile) bool {
	if !setListing(p) || !setListing(q) || stem(a) != stem(b) {
		return false
	}
	size, _ := screenOfCode(a)
	return size != ""
}

// sizeFirstOfSet reports whether two televisions' codes give one size and
// series, one of them without the maker's letters before the size
// ("43B7100" of "H43B7100UK"), the letters after the series a market's.
func sizeFirstOfSet(a, b string, p, q *profile) bool {
	if !setListing(p) || !setListing(q) || a == "" || b == "" || isDigitByte(a[0]) == isDigitByte(b[0]) {
		return false
	}
	sizeA, seriesA := screenOfCode(a)
	sizeB, seriesB := screenOfCode(b)
	stA, stB := stem(seriesA), stem(seriesB)
	return sizeA != "" && sizeA == sizeB && stA == stB &&
		len(seriesA)-len(stA) <= maxMarketLetters && len(seriesB)-len(stB) <= maxMarketLetters
}

// maxMarketLetters is the most letters a television's code ends in after
// its size and series: a version's, a market's and a year's ("KXXU",
// "UXZG", "BAEP", "AKXXU").
const maxMarketLetters = 5

// marketsOfSet reports whether two televisions' codes give one size and
// series and differ only in the letters after them, which name the markets
// one set is sold in ("UE65RU7100KXXU" and "UE65RU7100UXZG", "KD55AF9BU" and
// "KD-55AF9BAEP"), or one is the other with a digit and a market's letters
// after it ("OLED55CX" and "OLED55CX6LA", "55UN7400" and "55UN74006LB").
func marketsOfSet(a, b string, p, q *profile) bool {
	if !setListing(p) || !setListing(q) {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if ext, ok := strings.CutPrefix(b, a); ok && marketDigits(ext) {
		size, _ := screenOfCode(b)
		return size != ""
	}
	sa, sb := stem(a), stem(b)
	if size, _ := screenOfCode(sa); sa != sb || size == "" {
		return false
	}
	ta, tb := a[len(sa):], b[len(sb):]
	return len(ta) <= maxMarketLetters && len(tb) <= maxMarketLetters || sameVersion(ta, tb)
}

// marketLetters is how many letters a television's code ends in for its
// market ("XXU", "XZT", "XXH").
const marketLetters = 3

// sameVersion reports whether two television codes' letters after their
// series, one more than maxMarketLetters, give one year and version and
// differ in the market's letters alone ("TATXXU" and "TATXZT"; not
// "RATXXU", another year's model).
func sameVersion(a, b string) bool {
	n := len(a)
	return n == len(b) && n == maxMarketLetters+1 && a[:n-marketLetters] == b[:n-marketLetters]
}

// setCode reports whether s, a code of p, is a television's that gives its
// size and series, and both listings are televisions: the letters after
// the series name its markets, not another model, whatever word the other
// title writes after the series ("43UK6300PLB" and "43 UK6300 UHD").
func setCode(s string, p, q *profile) bool {
	size, _ := screenOfCode(s)
	return size != "" && setListing(p) && setListing(q)
}

// marketDigits reports whether the end of a television's code is a digit
// and a market's letters ("6LA" of "OLED55CX6LA", "6LB" of "55UN74006LB").
func marketDigits(ext string) bool {
	return len(ext) >= 2 && len(ext) <= 3 && isDigitByte(ext[0]) && lettersOnly(ext[1:])
}
