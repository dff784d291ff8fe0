package match

import (
	"math"
	"slices"
	"strings"
)

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
			in := slices.Contains(b.words, w) || joinedIn(a.words, i, b.words) || mmIn(w, b.words) || initialIn(a.words, i, b.words) ||
				gluedIn(w, b.words) || sameBrandSpelt(w, a, b)
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

// brandSpelt reports whether w spells the brand p is filed under, whole
// or cut short to minBrandStem letters or more ("fuji" of Fujifilm): two
// shops that spell one brand differently share its word.
func brandSpelt(w string, p *profile) bool {
	return p.brand != "" && (w == p.brand || len(w) >= minBrandStem && strings.HasPrefix(p.brand, w))
}

// sameBrandSpelt reports whether w, a word of a, spells the brand a and b
// are filed under and b's title spells it too, either way.
func sameBrandSpelt(w string, a, b *profile) bool {
	return brandSpelt(w, a) && brandAlias(a.brand) == brandAlias(b.brand) &&
		slices.ContainsFunc(b.words, func(v string) bool { return brandSpelt(v, b) })
}

// minBrandStem is the shortest start of a brand's name that spells it.
const minBrandStem = 4

// joinedIn reports whether words[i] and a word beside it, run together, are
// a word of in, or words[i] is two words of in beside each other run
// together: "hero 5" and "hero5", "6 kg" and "6kg" are written two ways.
func joinedIn(words []string, i int, in []string) bool {
	w := words[i]
	for k, v := range in {
		if i+1 < len(words) && runTogether(v, w, words[i+1]) || i > 0 && runTogether(v, words[i-1], w) ||
			k+1 < len(in) && runTogether(w, v, in[k+1]) {
			return true
		}
	}
	return false
}

// gluedIn reports whether w is a model's number with a variant word glued
// on that in writes without it, or the number of such a word of in: "8plus"
// and "8" (the other title's "8+" or "8 Plus"); the variant words compare
// apart.
func gluedIn(w string, in []string) bool {
	if stem, bit := gluedVariant(w); bit != 0 {
		return slices.Contains(in, stem)
	}
	if len(w) > 5 || digitCount(w) == 0 {
		return false // no name gluedVariant splits off
	}
	return slices.ContainsFunc(in, func(v string) bool {
		stem, bit := gluedVariant(v)
		return bit != 0 && stem == w
	})
}

// initialIn reports whether words[i], a word of letters, and the number
// after it are written in in as its initial and the number ("alpha 6000"
// and "a6000"), or words[i], a letter and a number, is so written out in in.
func initialIn(words []string, i int, in []string) bool {
	w := words[i]
	if len(w) >= 3 && i+1 < len(words) && plainNumber(words[i+1]) && lettersOnly(w) {
		return slices.ContainsFunc(in, func(v string) bool { return initialSpelling(w, words[i+1], v) })
	}
	if len(w) < 2 || !isLetterByte(w[0]) || !plainNumber(w[1:]) {
		return false
	}
	for k := 0; k+1 < len(in); k++ {
		if initialSpelling(in[k], in[k+1], w) {
			return true
		}
	}
	return false
}

// initialSpelling reports whether name, a word of three letters or more,
// and num, a number, are written as code, the name's initial and the number
// ("alpha" and "6000" as "a6000"; codes are compared in either case).
func initialSpelling(name, num, code string) bool {
	return len(name) >= 3 && len(code) == 1+len(num) && code[0]|0x20 == name[0]|0x20 && code[1:] == num && lettersOnly(name)
}

// plainNumber reports whether w is a whole number.
func plainNumber(w string) bool {
	return w != "" && digitCount(w) == len(w)
}

// runTogether reports whether w is a and b run together.
func runTogether(w, a, b string) bool {
	return len(w) == len(a)+len(b) && strings.HasPrefix(w, a) && strings.HasSuffix(w, b)
}

// mmIn reports whether w is a number that in gives with or without its
// millimetres ("18-55" and "18-55mm", a lens's focal range, read as the
// words "18", "55" and "55mm").
func mmIn(w string, in []string) bool {
	if bare, ok := strings.CutSuffix(w, "mm"); ok {
		return isNumber(bare) && slices.Contains(in, bare)
	}
	return isNumber(w) && slices.ContainsFunc(in, func(v string) bool { return runTogether(v, w, "mm") })
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
// same number of three or four digits ("HD 599", "Zone 750", "RBI 4092"):
// a model's name, as a code is. Round hundreds are counts and speeds as
// often ("Powerline 600", "100 sheets"), and four digits from 1900 to 2099
// years ("Office 2021").
func sharedModelNumber(p, q *profile) bool {
	for _, s := range p.slots {
		if len(s.num) < 3 || len(s.num) > 4 || digitCount(s.num) != len(s.num) || strings.HasSuffix(s.num, "00") ||
			len(s.num) == 4 && (s.num[:2] == "19" || s.num[:2] == "20") || !plainWord(s.key) || s.key == "cpu" || s.key == "gpu" {
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

// sameWords reports whether two titles' words are the same, in the same
// order, but for the word "inch" one writes where the other writes the
// inch mark ("40 inch full hd tv", `40" full hd tv`).
func sameWords(a, b []string) bool {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		case i < len(a) && inchWord(a[i]):
			i++
		case j < len(b) && inchWord(b[j]):
			j++
		default:
			return false
		}
	}
	return true
}

// inchWord reports whether w is the word for an inch.
func inchWord(w string) bool {
	return w == "inch" || w == "inches"
}
