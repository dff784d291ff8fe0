package match

import (
	"slices"
	"strings"
	"unicode"

	"productsearch/internal/classify"
)

// How a title writes a model's name and number: a number with a letter
// glued on, a point release, a year, a network's generation, a variant's
// word glued on, and the words that can carry a model-line number.

// modelSuffixed reports whether w is a model number with one letter after
// it ("Pixel 7a", "OnePlus 8T", "Forerunner 255S"), not a measure ("4K",
// "8W").
func modelSuffixed(w string) bool {
	d := leadingDigits(w)
	if d == 0 || d > 3 || len(w) != d+1 {
		return false
	}
	switch w[d] {
	case 'a', 'e', 's', 't', 'r', 'c', 'i', 'g':
		return true
	}
	return false
}

// networkGeneration returns the digit of a mobile network generation a
// word names ("4" of "4G", "5" of "5G"), or "".
func networkGeneration(w string) string {
	if len(w) == 2 && w[1] == 'g' && w[0] >= '2' && w[0] <= '5' {
		return w[:1]
	}
	return ""
}

// joinedWord reports whether the pieces of a word written with hyphens or
// dots, run together, are a word to compare titles by: four characters or
// more ("wh1000xm5"), or three of letters and digits ("x-t3", "e-m1": a
// line's letter and a model's).
func joinedWord(j string) bool {
	return len(j) >= 4 || len(j) == 3 && strings.ContainsAny(j, "0123456789") && strings.IndexFunc(j, unicode.IsLetter) >= 0
}

// gluedVariant splits a short model's name from a variant word, or two,
// glued on after its number ("2xl" of "Pixel 2XL", "s20fe", "12mini",
// "mate20pro", "11promax"):
// the name, up to two letters and a number of up to three digits or a
// line's name that reads as a word and up to two digits, and the variant's
// bit, or 0. Only the words that name a variant wherever they stand count.
func gluedVariant(w string) (string, variants) {
	letters := 0
	for letters < len(w) && isLetterByte(w[letters]) {
		letters++
	}
	d := letters
	for d < len(w) && isDigitByte(w[d]) {
		d++
	}
	if d-letters < 1 || d-letters > 3 || len(w)-d < 2 || letters > 2 && (d-letters > 2 || !wordLike(w[:letters])) {
		return "", 0
	}
	if letters == 1 && w[0] == 'w' {
		return "", 0 // "W10Pro": Windows 10 Pro, the system a computer comes with
	}
	if bit := variantWords[w[d:]]; bit != 0 && bit < firstNameVariant {
		return w[:d], bit
	}
	// Two variant words glued on: "11promax".
	if bits := twoVariants(w[d:]); bits != 0 {
		return w[:d], bits
	}
	return "", 0
}

// twoVariants returns the bits of two variant words run together ("promax"),
// each a word that names a variant wherever it stands, or 0.
func twoVariants(w string) variants {
	for k := 2; k <= len(w)-2; k++ {
		a := variantWords[w[:k]]
		if a == 0 || a >= firstNameVariant {
			continue
		}
		if b := variantWords[w[k:]]; b != 0 && b < firstNameVariant {
			return a | b
		}
	}
	return 0
}

// modelYear reports whether w is a year a maker gives a model: four digits
// from 1990 to 2039.
func modelYear(w string) bool {
	return len(w) == 4 && isNumber(w) && (w >= "1990" && w <= "1999" || w >= "2000" && w <= "2039")
}

// pointRelease reports whether w is a model's number with a point release
// ("7.1" of "Nokia 7.1"): one digit, a point and one digit. Right after the
// brand it names the model; elsewhere such a number is as often a measure
// ("6.1 single sim", a screen).
func pointRelease(w string) bool {
	return len(w) == 3 && isDigitByte(w[0]) && w[1] == '.' && isDigitByte(w[2])
}

// lineWord reports whether w can name a model line whose generation a
// number after it gives: a word of letters that is no variant word.
func lineWord(w string) bool {
	return w != "" && lettersOnly(w) && slotKey(w) && variantWords[w] == 0
}

// timesSuffixed reports whether w, a number with an "x" after it, names a
// model after the line's name before it ("Note 50X", "Realme 12x"), not a
// multiple ("10x zoom", "optical 5x").
func timesSuffixed(w, prev string) bool {
	d := leadingDigits(w)
	return d >= 1 && d <= 3 && len(w) == d+1 && w[d] == 'x' && lineWord(prev) && !multipleWord(prev)
}

// multipleWord reports whether a word comes before a multiple ("zoom 10x").
func multipleWord(w string) bool {
	switch w {
	case "zoom", "optical", "digital", "magnification", "speed", "pack", "set":
		return true
	}
	return false
}

// minModelCode is the length of a word that, read as a model code, names a
// model rather than a line (see modelCode).
const minModelCode = 6

// modelCode reports whether a title word is a model's code ("fab10lb",
// "ue55mu6100"): a number after it gives no model-line number.
func modelCode(w string) bool {
	if len(w) < minModelCode {
		return false
	}
	c, ok := codeOf(w, "", "")
	return ok && c.kind == codeStrong
}

// slotKey reports whether a word can carry a model-line number.
func slotKey(w string) bool {
	if len(w) > 12 || unitWords[w] || isStopWord(w) || colourWords[w] != "" {
		return false // "Black 10" is a colour and a count
	}
	if _, _, ok := digitsUnit(w); ok {
		return false // "9kg 1400 spin": a measure, then another
	}
	switch w {
	case "usb", "bluetooth", "bt", "hdmi", "wifi", "fi", "wi", "windows", "win", "android", "ios", "class",
		"cat", "dect", "uhs", "pcie", "express", "sata", "type", "qi", "ip", "ipx", "lightning", "displayport",
		"dp", "thunderbolt", "pd", "h", "x", "mp", "cl", "ddr", "lpddr", "gddr", "ax", "ac", "be", "axe", "n",
		"e", "up", "of", "v", "ver", "rev", "pack", "set", "kit", "no", "number", "uk", "eu", "us",
		"step", "grade", "level", "approx", "fits", "fit", "compatible", "for", "by", "at", "in", "on":
		return false
	}
	return true
}

// sharedShortName reports whether two phones, cameras or televisions of one
// brand name one model by a letter and a digit, glued or apart ("Lumix G9",
// "Z 6" and "Z6"), and, of phones and televisions, neither title writes
// right after it a word the other lacks that could name another model of
// that name ("G7 ThinQ" and "G7 Fit").
func sharedShortName(p, q *profile) bool {
	if p.brand == "" || p.brand != q.brand || p.acc || q.acc || p.category != q.category ||
		p.category != phones && p.category != cameras && p.category != tvs {
		return false // elsewhere such a name is a version ("BlackWidow V4")
	}
	qnames := shortNames(q)
	for name, next := range shortNames(p) {
		qnext, ok := qnames[name]
		// A camera's short name has its generation after it, compared
		// apart ("Z6 II"), and words that describe it ("Z6 full frame").
		if ok && (p.category == cameras || !otherModelWord(next, q) && !otherModelWord(qnext, p)) {
			return true
		}
	}
	return false
}

// shortNames returns the names of a letter and a digit a title's main
// clause gives its model ("g9", "z 6" as "z6", a camera's "alpha 7" as
// "a7"), each with the word after it and its variant words, or "".
func shortNames(p *profile) map[string]string {
	var out map[string]string
	for k, w := range p.words[:p.nMain] {
		name := ""
		switch {
		case shortName(w) && !apertureWord(p.words, k):
			name = w
		case k > 0 && len(w) == 1 && isDigitByte(w[0]) && len(p.words[k-1]) == 1 && isLetterByte(p.words[k-1][0]):
			name = p.words[k-1] + w
		case p.category == cameras && len(w) == 1 && isDigitByte(w[0]) && (k == 1 || k > 1 && p.words[k-2] == p.brand) &&
			len(p.words[k-1]) >= 3 && lettersOnly(p.words[k-1]) && p.words[k-1] != p.brand:
			// A camera line's name by its initial, the line's name first
			// or after the brand: "alpha 7" as "a7" (not "Mark 2").
			name = p.words[k-1][:1] + w
		default:
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		next := ""
		for j := k + 1; j < p.nMain && next == ""; j++ {
			if variantWords[p.words[j]] == 0 {
				next = p.words[j] // past the variant's words ("R1 Plus Jumbo")
			}
		}
		out[name] = next
	}
	return out
}

// apertureWord reports whether words[k] is a lens's aperture after its
// focal length ("105mm f4"), not a model's short name.
func apertureWord(words []string, k int) bool {
	return k > 0 && fNumber(words[k]) && strings.HasSuffix(words[k-1], "mm")
}

// fNumber reports whether w is a bare f-number ("f4", "f2.8").
func fNumber(w string) bool {
	return len(w) >= 2 && w[0] == 'f' && isNumber(w[1:])
}

// otherModelWord reports whether w, the word after a short model name,
// could name a model of its own that q's title does not write: a plain word
// of three letters or more that names no kind of product, body or kit.
func otherModelWord(w string, q *profile) bool {
	return len(w) >= 3 && plainWord(w) && !slices.Contains(q.words, w) && !isStopWord(w) && !unitWords[w] &&
		colourWords[w] == "" && !cameraWord(w) && !kitWord(w) && w != "body" && !classify.NamesKind(w)
}

// lineLetterApart returns chunk i, a line's letter, run together with the
// model's name written apart after it ("x t4" as "xt4", as "x-t4" is), or
// "": a letter, then a short name of letters and digits starting with a
// letter.
func lineLetterApart(cs []chunk, i int) string {
	if len(cs[i].text) != 1 || !isLetterByte(cs[i].text[0]) || i+1 >= len(cs) || cs[i+1].brk || cs[i+1].fit != cs[i].fit {
		return ""
	}
	next := cs[i+1].text
	if len(next) < 2 || len(next) > maxModelName-1 || !isLetterByte(next[0]) || !strings.ContainsFunc(next, unicode.IsDigit) ||
		alnumOnly(next) != next {
		return ""
	}
	return cs[i].text + next
}

// letterNumberCode returns the short model name a phone's or camera's
// title writes as a line's letter and its number apart, right after the
// brand or after the brand and its line's name ("Huawei P 20", "Samsung
// Galaxy S 10", "Nikon Z 6": "P20", "S10", "Z6"), as other titles write it
// whole; chunk i is the number. Of other goods the letter is as often a
// code's first piece ("R 200 W").
func (p *profile) letterNumberCode(cs []chunk, i int) (code, bool) {
	brand := p.brand
	if p.category != phones && p.category != cameras || p.acc || brand == "" || i < 2 || cs[i].brk || cs[i-1].brk || cs[i].fit {
		return code{}, false
	}
	l, n := cs[i-1].text, cs[i].text
	if !lineLetters(l) || !lineNumber(n, len(l) > 1) {
		return code{}, false
	}
	if cs[i-2].text == brand || i >= 3 && cs[i-3].text == brand && !cs[i-2].brk && lettersOnly(cs[i-2].text) {
		return code{s: strings.ToUpper(l + n), kind: codeLine}, true
	}
	return code{}, false
}

// lineLetters reports whether a title's piece can be a line's letters
// before a model's number: a letter, or two or three that make no word,
// unit or kind of product ("zv" of "Sony ZV 1F", as a comparison site
// prints "ZV-1F").
func lineLetters(l string) bool {
	switch {
	case len(l) == 1:
		return isLetterByte(l[0])
	case len(l) > 3 || !lettersOnly(l):
		return false
	}
	return !wordLike(l) && !unitWords[l] && !isStopWord(l) && !classify.NamesKind(l) && colourWords[l] == ""
}

// lineNumber reports whether a title's piece can be a model's number after
// a line's letters: up to three digits, and after two or three letters
// also a letter after the digits ("1F"), other than a measure's ("4K").
func lineNumber(n string, letters bool) bool {
	d := leadingDigits(n)
	switch {
	case d == 0 || len(n) > 3:
		return false
	case d == len(n):
		return true
	}
	return letters && d == len(n)-1 && isLetterByte(n[d]) && !isSpecCode(NormalizePart(n))
}

// glueModelLetters returns the chunks with a model's letter that a title
// writes apart after the model's name glued on ("m10 p", "s10 e", "a7 r
// iii": "m10p", "s10e", "a7r iii"), as other titles write it and as a
// comparison site prints "M10-P": the name holds a letter and ends in a
// digit, and the letter stands alone in the name's clause (see
// writtenLetter), for a camera not before a number (a lens mount's: "a6400
// e 18-135mm"). It returns cs itself when no chunk is glued.
func glueModelLetters(cs []chunk, camera bool) []chunk {
	return mergePairs(cs, func(i int) (string, bool) {
		mount := camera && i+2 < len(cs) && cs[i+2].text != "" && isDigitByte(cs[i+2].text[0])
		return cs[i].text + cs[i+1].text, writtenLetter(cs[i], cs[i+1], camera) && !mount
	})
}

// mergePairs returns the chunks with each chunk i that merge reports
// merging with chunk i+1 replaced by one chunk of the text merge returns,
// the first's marks kept. It returns cs itself when none merges.
func mergePairs(cs []chunk, merge func(i int) (string, bool)) []chunk {
	var out []chunk
	for i := 0; i < len(cs); i++ {
		if i+1 < len(cs) {
			if text, ok := merge(i); ok {
				if out == nil {
					out = append(make([]chunk, 0, len(cs)), cs[:i]...)
				}
				c := cs[i]
				c.text = text
				out = append(out, c)
				i++
				continue
			}
		}
		if out != nil {
			out = append(out, cs[i])
		}
	}
	if out == nil {
		return cs
	}
	return out
}

// writtenLetter reports whether chunk l is a model's letter written apart
// after the model's name n (see glueModelLetters). "a", "i", "w" (of
// "w/"), "x", "v" (Roman numerals: "RX100 V") and "c" (of "cámara" as a
// site prints it: "c mara") are words as often, and so is a camera's "e"
// (a lens mount's: "a6400 e pz 16-50mm"); no letter follows an aperture
// ("F4 L").
func writtenLetter(n, l chunk, camera bool) bool {
	t := n.text
	if len(t) < 2 || !isDigitByte(t[len(t)-1]) || !hasLetter(t) || !alnumWord(t) || fNumber(t) ||
		n.fit || n.plus || n.inch {
		return false // not "f4" of "F4 L": an aperture
	}
	if len(l.text) != 1 || !isLetterByte(l.text[0]) || l.brk || l.slash || l.added || l.fit {
		return false
	}
	switch l.text[0] {
	case 'a', 'i', 'w', 'x', 'v', 'c':
		return false
	case 'e':
		return !camera // a phone's "S10 e", not a lens mount's "A6400 E PZ"
	}
	return true
}

// hasLetter reports whether s holds a letter.
func hasLetter(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' })
}

// alnumWord reports whether s is lower-case letters and digits alone.
func alnumWord(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') })
}
