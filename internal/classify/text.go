package classify

import "productsearch/internal/lexer"

// clauseType says what part of a title a word is in.
type clauseType uint8

const (
	clMain  clauseType = iota // up to the first break: names the product
	clOther                   // after a comma, a bar, a parenthesis or " - "
	clFor                     // after "for", "compatible with", "fits": the device it fits
	clWith                    // after "with", "including", "+": what comes in the box
	clNeg                     // after "without", "no": what does not
)

// word is one lower-case alphanumeric run of a text.
type word struct {
	text   string
	clause int // clause number, counting from 0
	ctype  clauseType
}

// words splits text into lower-case alphanumeric runs and marks the clause
// each belongs to. The text is read through the lexer: a run is a group of
// glued words and digit runs ("16gb", "rtx4070"; a decimal point or a
// thousands comma separates runs), "&" becomes the word "and", and letters
// outside ASCII separate words.
func words(text string, buf []word) []word {
	var fb [512]byte
	s := string(lexer.FoldText(text, fb[:0], lexer.FoldKeep))
	var tb, sb [128]lexer.Token
	toks := lexer.SplitNumbers(s, lexer.Lex(s, tb[:0]), sb[:0])
	clause, ctype := 0, clMain
	brk := func(t clauseType) {
		clause++
		ctype = t
	}
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if t.Kind != lexer.Symbol {
			end := runEnd(toks, k)
			w := s[t.Start:toks[end].End]
			if ct, ok := clauseWord(w, s, toks, end+1, buf); ok {
				brk(ct)
			}
			buf = append(buf, word{text: w, clause: clause, ctype: ctype})
			k = end
			continue
		}
		switch c := t.Sym; {
		case c == '&':
			buf = append(buf, word{text: "and", clause: clause, ctype: ctype})
		case c == ',' || c == '|' || c == ';' || c == '(' || c == ')' || c == '[' || c == ']' || c == ':' ||
			c == '!' || c == '?' || c == '{' || c == '}':
			brk(clOther)
		case c == '+':
			// "Galaxy Tab S9+", "PoE+": a model's plus, not "with".
			if k > 0 && !t.Gap && toks[k-1].Kind != lexer.Symbol && (k+1 == len(toks) || toks[k+1].Gap || toks[k+1].Kind == lexer.Symbol) {
				break
			}
			brk(clWith)
		case c == '-':
			// " - ", and an en or em dash between spaces.
			if t.Gap && t.Start > 0 && int(t.End) < len(s) && s[t.End] == ' ' {
				brk(clOther)
			}
		}
	}
	return buf
}

// runEnd returns the index of the last token of the alphanumeric run that
// starts with token k: words and digit runs glued together.
func runEnd(toks []lexer.Token, k int) int {
	for k+1 < len(toks) && !toks[k+1].Gap && toks[k+1].Kind != lexer.Symbol {
		k++
	}
	return k
}

// clauseWord reports whether the word w, followed by token next of toks,
// starts a clause, and of which type.
func clauseWord(w, s string, toks []lexer.Token, next int, prev []word) (clauseType, bool) {
	after := nextWord(s, toks, next)
	switch w {
	case "for":
		// "Suitable for", "designed for", "made for": the clause began a
		// word earlier.
		if n := len(prev); n > 0 && prev[n-1].ctype == clFor {
			return 0, false
		}
		// "MX Keys for Mac", "for Business": an edition, not a device.
		switch after {
		case "mac", "business", "windows", "work", "home", "kids", "education", "creators", "chromebook":
			return 0, false
		}
		return clFor, true
	case "compatible", "compatibility", "fits":
		// "G-Sync compatible", "Alexa compatible": a standard the
		// device supports, not a device it fits.
		if n := len(prev); n > 0 && SupportedStandard(prev[n-1].text) {
			return 0, false
		}
		return clFor, true
	case "fit":
		return clFor, after == "for" || after == "with"
	case "suitable", "designed", "made", "replacement":
		return clFor, after == "for"
	case "works":
		return clFor, after == "with"
	case "with", "including", "includes", "inc", "incl":
		return clWith, true
	case "w":
		return clWith, next < len(toks) && !toks[next].Gap && toks[next].Kind == lexer.Symbol && toks[next].Sym == '/'
	case "without", "no":
		return clNeg, true
	case "free":
		// "... TV free wall bracket", "+ free case": a gift in the box;
		// not "sim free", "frost free", "free standing", "free delivery".
		if n := len(prev); n == 0 || freeCompound[prev[n-1].text] || freeService[after] || after == "" {
			return 0, false
		}
		return clWith, true
	}
	return 0, false
}

// freeCompound holds the words "free" follows to make a product's feature
// or condition ("sim free", "frost free", "hands free"), not a gift.
var freeCompound = map[string]bool{
	"sim": true, "frost": true, "hands": true, "cord": true, "wire": true, "cable": true, "tangle": true,
	"lead": true, "bpa": true, "dust": true, "scratch": true, "drip": true, "fan": true, "flicker": true,
	"latency": true, "lag": true, "interest": true, "vat": true, "tax": true, "duty": true, "glare": true,
	"noise": true, "maintenance": true, "tool": true, "tools": true, "mess": true, "fuss": true, "stress": true,
	"contract": true, "care": true, "worry": true, "smudge": true, "fingerprint": true, "spill": true,
}

// freeService holds the words after "free" that name a shop's service or
// a product's build, not a gift: "free delivery", "free standing".
var freeService = map[string]bool{
	"standing": true, "delivery": true, "shipping": true, "postage": true, "p": true, "next": true, "uk": true,
	"returns": true, "return": true, "installation": true, "install": true, "from": true, "of": true, "to": true,
	"and": true, "trial": true, "collection": true, "recycling": true, "removal": true, "setup": true,
	"warranty": true, "guarantee": true, "fast": true, "express": true, "same": true, "1st": true, "post": true,
	"pp": true, "dispatch": true, "courier": true, "tracked": true, "mobile": true, "unlocked": true,
}

// SupportedStandard reports whether w names a standard or an assistant a
// device is compatible with as a feature ("G-Sync compatible monitor").
func SupportedStandard(w string) bool {
	switch w {
	case "sync", "gsync", "g-sync", "freesync", "vrr", "alexa", "homekit", "siri", "matter", "airplay", "chromecast", "qi", "hdr10":
		return true
	}
	return false
}

// nextWord returns the alphanumeric run that starts with token k, or ""
// when token k is punctuation or there is none.
func nextWord(s string, toks []lexer.Token, k int) string {
	if k >= len(toks) || toks[k].Kind == lexer.Symbol {
		return ""
	}
	return s[toks[k].Start:toks[runEnd(toks, k)].End]
}
