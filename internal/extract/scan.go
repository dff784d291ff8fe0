package extract

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// tokKind is the kind of a title token.
type tokKind uint8

const (
	tkWord tokKind = iota + 1 // a run of ASCII letters
	tkNum                     // a number: digits with an optional decimal part
	tkSym                     // one punctuation byte
)

// Token flags set by the context pass.
const (
	flNeg       uint8 = 1 << iota // inside the reach of "up to", "supports", "max" ...
	flGPU                         // shortly after a graphics processor name
	flCut                         // after "for"/"compatible with": names another device
	flLabelUsed                   // a label word already bound to a figure before it
)

// token is one lexical unit of a folded title. Words and numbers split at
// every letter/digit boundary, so "16GB" is the number 16 followed by the word
// "gb" with gap false, and "RTX 4070" is a word and a number with gap true.
type token struct {
	start, end int32   // byte range in the folded text
	num        float64 // value of a number token
	kind       tokKind
	sym        byte // the byte of a symbol token
	gap        bool // whitespace (or the start of the title) precedes the token
	dec        bool // a number token with a decimal part
	flags      uint8
}

// fold lowercases an ASCII title and maps the Unicode punctuation retailers
// use (curly quotes, the double prime, the multiplication sign, dashes, the
// pound sign) onto ASCII; every other non-ASCII rune becomes a space.
func fold(title string, buf []byte) []byte {
	for i := 0; i < len(title); {
		c := title[i]
		if c < utf8.RuneSelf {
			switch {
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case c < ' ' || c == 0x7f:
				c = ' '
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(title[i:])
		i += n
		switch r {
		case '\u2033', '\u201c', '\u201d', '\u201e', '\u201f', '\uff02':
			buf = append(buf, '"')
		case '\u2018', '\u2019', '\u2032':
			buf = append(buf, '\'')
		case '\u00d7':
			buf = append(buf, 'x')
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			buf = append(buf, '-')
		case '\u00a3', '\u20ac':
			buf = append(buf, '$')
		default:
			buf = append(buf, ' ')
		}
	}
	return buf
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' }

// tokenize splits folded text into tokens, appending to toks.
func tokenize(text string, toks []token) []token {
	gap := true
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ':
			gap = true
			i++
		case isDigit(c):
			j, v, dec := scanNumber(text, i)
			toks = append(toks, token{start: int32(i), end: int32(j), num: v, kind: tkNum, gap: gap, dec: dec})
			gap = false
			i = j
		case isLetter(c):
			j := i + 1
			for j < len(text) && isLetter(text[j]) {
				j++
			}
			toks = append(toks, token{start: int32(i), end: int32(j), kind: tkWord, gap: gap})
			gap = false
			i = j
		default:
			toks = append(toks, token{start: int32(i), end: int32(i + 1), kind: tkSym, sym: c, gap: gap})
			gap = false
			i++
		}
	}
	return toks
}

// scanNumber reads the number starting at text[i]: digits, then either a
// decimal part (".6") or a thousands group (",000" after one to three digits,
// as in "20,000mAh"). It returns the end offset, the value and whether a
// decimal part was read.
func scanNumber(text string, i int) (end int, v float64, dec bool) {
	j := i
	for j < len(text) && isDigit(text[j]) {
		v = v*10 + float64(text[j]-'0')
		j++
	}
	switch {
	case j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]):
		j++
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		f, err := strconv.ParseFloat(text[i:j], 64)
		if err != nil { // only on overflow of an absurdly long figure
			return j, math.Inf(1), true
		}
		return j, f, true
	case j-i <= 3 && j+3 < len(text) && text[j] == ',' &&
		isDigit(text[j+1]) && isDigit(text[j+2]) && isDigit(text[j+3]) &&
		(j+4 == len(text) || !isDigit(text[j+4])):
		for k := j + 1; k < j+4; k++ {
			v = v*10 + float64(text[k]-'0')
		}
		return j + 4, v, false
	}
	return j, v, false
}
