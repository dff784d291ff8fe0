package eval

import (
	"cmp"
	"slices"
	"strings"

	"productsearch/internal/normalize"
)

// lineBrands maps the name of a model line, or a model's code, to the brand
// it belongs to ("iphone": Apple, "galaxy": Samsung, "d3500": Nikon), as one
// data set's titles show it. A title that names no brand but starts with a
// line's name ("iPhone 8 64GB", "Galaxy S9 64GB") or a model's code ("D3500
// body only") is that brand's, not a guess.
type lineBrands map[string]string

// Learning a line's brand: the fewest titles that give the word right after
// a known brand, and the least share of them that give it after the same
// one.
const (
	minLineTitles = 3
	minLineShare  = 0.9
)

// learnLineBrands reads, from the titles of one data set, the word each
// gives right after a known brand ("Apple iPhone 8", "Samsung Galaxy S9")
// and keeps the words that at least minLineTitles titles give, nearly
// all after one brand. A brand known with its line's name ("Google
// Pixel") gives that name. A word that is a brand itself, has digits or fewer
// than three letters is no line's name.
func learnLineBrands(titles []string) lineBrands {
	words, codes, series := brandCounts{}, brandCounts{}, brandCounts{}
	leads := map[string][2]int{} // titles a word starts, and those of them naming a known brand further in
	for _, t := range titles {
		if w := strings.ToLower(firstTitleWord(t)); w != "" && normalize.KnownBrand(w) == "" {
			n := leads[w]
			n[0]++
			if innerBrand(titleWords(t)) != "" {
				n[1]++
			}
			leads[w] = n
		}
		w, brand := wordAfterBrand(t)
		if w != "" {
			words.add(w, brand)
		}
		cs, brand := modelCodes(t)
		for _, c := range cs {
			codes.add(c, brand)
			if k := seriesKey(c); k != "" {
				series.add(seriesMark+k, brand)
			}
		}
	}
	lines := lineBrands{}
	words.keep(lines, minLineTitles)
	codes.keep(lines, minCodeTitles)
	series.keep(lines, minSeriesTitles)
	for w, n := range leads {
		if n[0] >= minLineTitles && 2*n[1] < n[0] {
			lines[leadMark+w] = w
		}
	}
	return lines
}

// leadMark keeps, apart from lines' names and codes, the first words that
// at least minLineTitles titles start with, most of them naming no known
// brand further in: the names of brands the data set gives whether or not
// they are known ("hotpoint", "fridgemaster"), not a language's words for
// a kind of product ("appareil photo reflex nikon").
const leadMark = "^"

// leads reports whether at least minLineTitles titles of the data set
// start with word, so that it names a brand of the data set's.
func (l lineBrands) leads(word string) bool {
	_, ok := l[leadMark+strings.ToLower(word)]
	return ok
}

// A maker's series letters in front of its codes ("KD" of "KD49XF8505BU",
// "UM" of "55UM7100PLB", "DSC" of "DSCRX100M4") tell its brand once
// minSeriesTitles titles give codes with them, nearly all after one brand.
// They are kept under seriesMark, apart from lines' names and codes.
const (
	minSeriesTitles = 3
	seriesMark      = "~"
)

// seriesKey returns the letters a model's code starts with, after up to
// three digits of a screen's size, lower case: two to five letters before
// a digit ("kd49xf8505bu": "kd", "55um7100plb": "um"), or "".
func seriesKey(code string) string {
	i := 0
	for i < len(code) && i < 3 && code[i] >= '0' && code[i] <= '9' {
		i++
	}
	j := i
	for j < len(code) && lettersOnly(code[j:j+1]) {
		j++
	}
	if n := j - i; n < 2 || n > 5 || j == len(code) || code[j] < '0' || code[j] > '9' {
		return ""
	}
	return strings.ToLower(code[i:j])
}

// seriesBrand returns the brand whose series letters a model's code starts
// with (see seriesKey), or "".
func (l lineBrands) seriesBrand(code string) string {
	if k := seriesKey(code); k != "" {
		return l[seriesMark+k]
	}
	return ""
}

// minCodeTitles is the fewest titles that must give a model's code after
// a known brand for the code to tell the brand: a code names one product.
const minCodeTitles = 2

// brandCounts counts, per word, the titles that give it after each brand.
type brandCounts map[string]map[string]int

func (c brandCounts) add(w, brand string) {
	if c[w] == nil {
		c[w] = map[string]int{}
	}
	c[w][brand]++
}

// keep adds to lines the words at least least titles give, nearly all
// after one brand.
func (c brandCounts) keep(lines lineBrands, least int) {
	for w, byBrand := range c {
		total, best, top := 0, "", 0
		for b, n := range byBrand {
			total += n
			if n > top || n == top && b < best {
				best, top = b, n
			}
		}
		if total >= least && float64(top) >= minLineShare*float64(total) {
			lines[w] = best
		}
	}
}

// wordAfterBrand returns the word a title gives right after the known
// brand among its first words (see titleBrand), lower case, and the brand;
// or "" when there is none or it can name no line.
func wordAfterBrand(title string) (word, brand string) {
	ws := titleWords(title)
	i, n, brand := knownBrandAt(ws)
	if n == 2 && normalize.KnownBrand(ws[i]) == brand {
		n = 1 // the brand and its line's name, known together ("Google Pixel")
	}
	if brand == "" || i+n >= len(ws) {
		return "", ""
	}
	next := strings.ToLower(ws[i+n])
	if len(next) <= maxLineLetters && lettersOnly(next) && i+n+1 < len(ws) {
		next += strings.ToLower(ws[i+n+1]) // "P Smart": the line's letter and name
	}
	if len(next) < 3 || strings.ContainsAny(next, "0123456789") || normalize.KnownBrand(next) != "" || !lettersOnly(next) {
		return "", ""
	}
	return next, brand
}

// maxLineLetters is the most letters a line's name starts with as a word
// of its own ("P" of "P Smart").
const maxLineLetters = 2

// brandOf returns the brand of a line whose name a title starts with, or "".
func (l lineBrands) brandOf(title string) string {
	if len(l) == 0 {
		return ""
	}
	w := strings.ToLower(firstTitleWord(title))
	if b := l[w]; b != "" {
		return b
	}
	ws := titleWords(title)
	if k := slices.IndexFunc(ws, func(w string) bool { return !prefixWord(w) }); k >= 0 && k+1 < len(ws) &&
		len(ws[k]) <= maxLineLetters && lettersOnly(ws[k]) && lettersOnly(ws[k+1]) {
		return l[strings.ToLower(ws[k]+ws[k+1])] // "P Smart 2019"
	}
	return l.gluedLine(strings.ToLower(leadWord(title)))
}

// minGluedLine is the fewest letters of a line's name a title's first word
// starts with, for the word to read as that line glued to more.
const minGluedLine = 4

// gluedLine returns the brand of a line whose name a title's first word
// starts with, a model's code glued on ("powershotsx740": PowerShot's), or
// of a known brand with its own line's name glued on ("motorolamoto g7",
// "samsunggalaxy s7"), as the data set's titles show them, or "".
func (l lineBrands) gluedLine(w string) string {
	for k := len(w) - 1; k >= minGluedLine; k-- {
		head, rest := w[:k], w[k:]
		if b := l[head]; b != "" && lettersOnly(head) && strings.ContainsAny(rest, "0123456789") {
			return b
		}
		if b := normalize.KnownBrand(head); b != "" && (l[rest] == b || normalize.KnownBrand(rest) == b) {
			return b
		}
	}
	return ""
}

// codeBrand returns the brand of the model code a title starts with ("D3500
// body only"), or gives after a series' letters ("SM-A105FN 32GB"), as the
// data set's titles that give a known brand show it, or "".
func (l lineBrands) codeBrand(title string) string {
	toks := joinedTokens(title)
	for k, w := range toks[:min(len(toks), 2)] {
		// "X-A7", "WG-50", "OM-D E-M5": a code written with a hyphen.
		if k == 1 && (len(toks[0]) > maxSeriesLetters || !lettersOnly(toks[0])) {
			break
		}
		if !modelCode(w) {
			continue
		}
		if b := l[w]; b != "" {
			return b
		}
		if b := l.codeStemBrand(w); b != "" {
			return b
		}
	}
	ws := titleWords(title)
	if lead := slices.DeleteFunc(slices.Clone(ws[:min(len(ws), 4)]), prefixWord); len(lead) >= 2 {
		// "kd 49xf8505bu", "x t3": a series' letters and the code after
		// them, as a site prints "KD-49XF8505BU" and "X-T3".
		if j := seriesJoined(lead[0], lead[1]); j != "" {
			if b := cmp.Or(l[j], l.codeStemBrand(j), l.seriesBrand(j)); b != "" {
				return b
			}
		}
	}
	for k, w := range ws[:min(len(ws), 2)] {
		if k == 1 && (len(ws[0]) > maxSeriesLetters || !lettersOnly(ws[0])) {
			break // a second word only after a series' letters ("SM", "DSC")
		}
		if !modelCode(w) {
			continue
		}
		w = strings.ToLower(w)
		return cmp.Or(l[w], l.codeStemBrand(w), l.seriesBrand(w))
	}
	return ""
}

// slipConfirmed returns the brand a title's first word misspells with one
// slip, however short the word, when the rest of the title names a line or
// a model's code of that brand as well ("somy kd55xh8196bu", "soni alpha
// a6000", "hnor view 20"), or "".
func (l lineBrands) slipConfirmed(title string) string {
	ws := slices.DeleteFunc(titleWords(title), prefixWord)
	if len(ws) < 2 || !lettersOnly(ws[0]) {
		return ""
	}
	rest := strings.Join(ws[1:], " ")
	b := l.brandOf(rest)
	if b == "" {
		b = l.codeBrand(rest)
	}
	if b != "" && normalize.SlipOf(ws[0], b) {
		return b
	}
	return ""
}

// maxSeriesLetters is the most letters a maker's series takes in front of
// a part number ("SM-A105FN", "DSC-HX60B"); a longer first word is a name,
// not a series ("BlackZone S25").
const maxSeriesLetters = 3

// lettersOnly reports whether w is made of letters alone.
func lettersOnly(w string) bool {
	return w != "" && !strings.ContainsFunc(w, func(r rune) bool { return r < 'A' || r > 'Z' && r < 'a' || r > 'z' })
}

// minStemCode is the shortest code a model's code is matched on as the
// start of another ("KD55XF9005" of "KD55XF9005BU").
const minStemCode = 5

// codeStemBrand returns the one brand of the learned codes that code
// starts or that start it, both of minStemCode characters or more, or "".
func (l lineBrands) codeStemBrand(code string) string {
	if len(code) < minStemCode {
		return ""
	}
	brand := ""
	for k, b := range l {
		if len(k) < minStemCode || !strings.ContainsAny(k, "0123456789") ||
			!strings.HasPrefix(k, code) && !strings.HasPrefix(code, k) {
			continue
		}
		if brand != "" && brand != b {
			return ""
		}
		brand = b
	}
	return brand
}

// modelCodes returns the model codes, lower case, of a title that gives a
// known brand among its first words ("Nikon D3500 body", "Sony Bravia
// KD55XF9005BU"), and the brand, or none.
func modelCodes(title string) ([]string, string) {
	ws := titleWords(title)
	i, n, brand := knownBrandAt(ws)
	if brand == "" {
		return nil, ""
	}
	var out []string
	for _, w := range ws[i+n:] {
		if modelCode(w) {
			out = append(out, strings.ToLower(w))
		}
	}
	for _, w := range joinedTokens(title) {
		if modelCode(w) && !slices.Contains(out, w) && normalize.KnownBrand(w) == "" {
			out = append(out, w) // "X-A7" as "xa7", "KD-49XF8505" as "kd49xf8505"
		}
	}
	for k := i + n; k+1 < len(ws); k++ {
		if j := seriesJoined(ws[k], ws[k+1]); j != "" && !slices.Contains(out, j) {
			out = append(out, j) // "kd 49xf8505" as "kd49xf8505", as a site prints "KD-49XF8505"
		}
	}
	return out, brand
}

// maxSeriesPiece is the most letters of a series written apart from the
// code after it ("x t3", "kd 49xf8505"); one letter more before a number
// ("ilce 6100"), for a longer word before a letter names a line ("xeon
// e3", "core i5"), not a series.
const maxSeriesPiece = 3

// seriesJoined returns a series' letters and the code after them run
// together, lower case ("x t3": "xt3", "kd 49xf8505": "kd49xf8505"), or ""
// when the first is no series' letters or the two make no model's code.
func seriesJoined(a, b string) string {
	long := len(a) == maxSeriesPiece+1 && b != "" && b[0] >= '0' && b[0] <= '9'
	if len(a) > maxSeriesPiece && !long || !lettersOnly(a) || normalize.KnownBrand(a) != "" || !strings.ContainsAny(b, "0123456789") {
		return ""
	}
	if j := strings.ToLower(a + b); modelCode(j) {
		return j
	}
	return ""
}

// joinedTokens returns a title's words split at spaces and punctuation but
// not at hyphens, which are dropped, lower case: "X-A7 Kit" gives "xa7"
// and "kit".
func joinedTokens(title string) []string {
	ws := strings.FieldsFunc(title, func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == '[' || r == ']' || r == '/' || r == '"' || r == '|' || r == '+'
	})
	out := ws[:0]
	for _, w := range ws {
		if w = strings.ToLower(strings.ReplaceAll(w, "-", "")); w != "" && !prefixWord(w) {
			out = append(out, w)
		}
	}
	return out
}

// modelCode reports whether a word reads as a model's code: three
// characters or more, letters and digits with a letter before a digit
// ("D3500", "x100f", "55UK6300"; not "64GB" nor "4K").
func modelCode(w string) bool {
	if len(w) < 3 {
		return false
	}
	letterDigit := false
	for i := 0; i < len(w); i++ {
		c := w[i] | 0x20
		switch {
		case c >= 'a' && c <= 'z':
			if i+1 < len(w) && w[i+1] >= '0' && w[i+1] <= '9' {
				letterDigit = true
			}
		case w[i] >= '0' && w[i] <= '9':
		default:
			return false
		}
	}
	return letterDigit
}
