// Package lexer reads product titles and search queries into typed tokens:
// words, numbers and punctuation, and numbers with their units ("16GB",
// "1 TB", "1,000GB", `15.6"`, "55-inch", "65W"). Extraction, classification,
// matching and query analysis all read text through it, so a title and a
// query can never read a unit spelling differently.
//
// Reading is in two steps. FoldText maps a text onto lower-case ASCII (and,
// if asked, keeps other letters), turning the Unicode punctuation retailers
// use into its ASCII form; Lex splits folded text into tokens. ReadQuantity
// and SplitNumberUnit read a number and its unit, from tokens or from one
// word. Readers that need another view build it on the tokens: search joins
// glued tokens into index terms, matching groups them into chunks,
// classification into clause words (SplitNumbers gives them plain digit
// runs). Nothing allocates when the caller passes buffers with room.
package lexer

import (
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Fold says how FoldText treats text beyond plain ASCII.
type Fold uint8

const (
	// FoldCurrency writes the pound and euro signs as '$'.
	FoldCurrency Fold = 1 << iota
	// FoldTimes writes the multiplication sign as 'x' ("2×16GB").
	FoldTimes
	// FoldLetters keeps letters and digits outside ASCII, lower-cased;
	// without it they become spaces.
	FoldLetters
	// FoldAccents, with FoldLetters, folds letters with FoldRune: lower
	// case and without accents ("É" is "e").
	FoldAccents
	// FoldKeep keeps every byte the fold does not map as it is written:
	// control characters, runes outside ASCII and invalid bytes; Lex reads
	// each such byte as a symbol.
	FoldKeep
)

// FoldText lowercases ASCII letters and maps the Unicode punctuation
// retailers use onto ASCII (see Punct), appending to buf; control
// characters become spaces. The mode says
// what happens to the pound and euro signs, the multiplication sign and
// other letters; every other rune outside ASCII becomes a space. Unless the
// mode has FoldKeep, the folded text holds no control character.
func FoldText(s string, buf []byte, mode Fold) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case (c < ' ' || c == 0x7f) && mode&FoldKeep == 0:
				c = ' '
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if p := Punct(r); p != r {
			buf = append(buf, byte(p))
			continue
		}
		switch r {
		case '\u00d7':
			buf = other(buf, mode, FoldTimes, 'x', s[i-n:i])
		case '\u00a3', '\u20ac':
			buf = other(buf, mode, FoldCurrency, '$', s[i-n:i])
		default:
			if mode&FoldLetters != 0 && r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				if mode&FoldAccents != 0 {
					buf = utf8.AppendRune(buf, FoldRune(r))
				} else {
					buf = utf8.AppendRune(buf, unicode.ToLower(r))
				}
			} else {
				buf = other(buf, mode, 0, 0, s[i-n:i])
			}
		}
	}
	return buf
}

// Punct returns the ASCII form of the Unicode punctuation retailers use: a
// double quote for curly double quotes and the double prime, an apostrophe
// for curly single quotes and the prime, a hyphen for dashes and the minus
// sign; r itself for any other rune.
func Punct(r rune) rune {
	switch r {
	case '\u2033', '\u201c', '\u201d', '\u201e', '\u201f', '\uff02':
		return '"'
	case '\u2018', '\u2019', '\u2032':
		return '\''
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return '-'
	}
	return r
}

// other appends the folding of the rune written raw: c when the mode has
// flag, raw itself under FoldKeep, else a space.
func other(buf []byte, mode, flag Fold, c byte, raw string) []byte {
	switch {
	case flag != 0 && mode&flag != 0:
		return append(buf, c)
	case mode&FoldKeep != 0:
		return append(buf, raw...)
	}
	return append(buf, ' ')
}

// FoldRune lowercases r and strips the accent from common Latin letters, so
// that "Pokémon" and "pokemon" are one word.
func FoldRune(r rune) rune {
	r = unicode.ToLower(r)
	if r < 0xC0 {
		return r
	}
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å':
		return 'a'
	case 'ç':
		return 'c'
	case 'è', 'é', 'ê', 'ë':
		return 'e'
	case 'ì', 'í', 'î', 'ï':
		return 'i'
	case 'ñ':
		return 'n'
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø':
		return 'o'
	case 'ù', 'ú', 'û', 'ü':
		return 'u'
	case 'ý', 'ÿ':
		return 'y'
	}
	return r
}

// Kind is the kind of a token.
type Kind uint8

const (
	Word   Kind = iota + 1 // a run of ASCII letters
	Number                 // digits with an optional decimal part or thousands group
	Symbol                 // one byte that is neither a letter, a digit nor a space
)

func (k Kind) String() string {
	switch k {
	case Word:
		return "word"
	case Number:
		return "number"
	case Symbol:
		return "symbol"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Token is one lexical unit of a folded text. Words and numbers split at
// every letter/digit boundary, so "16GB" is the number 16 followed by the
// word "gb" with Gap false, and "RTX 4070" is a word and a number with Gap
// true.
type Token struct {
	Start, End int32   // byte range in the folded text
	Num        float64 // the value of a number
	Kind       Kind
	Sym        byte // the byte of a symbol
	Gap        bool // a space (or the start of the text) precedes the token
	Dec        bool // a number with a decimal part
}

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

// IsLetter reports whether c is a lower-case ASCII letter.
func IsLetter(c byte) bool { return 'a' <= c && c <= 'z' }

// Lex splits folded text (see FoldText) into tokens, appending to toks.
// Spaces separate tokens and are not tokens themselves.
func Lex(text string, toks []Token) []Token {
	gap := true
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ':
			gap = true
			i++
		case IsDigit(c):
			j, v, dec := ParseNumber(text, i)
			toks = append(toks, Token{Start: int32(i), End: int32(j), Num: v, Kind: Number, Gap: gap, Dec: dec})
			gap = false
			i = j
		case IsLetter(c):
			j := i + 1
			for j < len(text) && IsLetter(text[j]) {
				j++
			}
			if !gap && len(toks) > 0 && toks[len(toks)-1].Kind == Number && gluedLabel(text[i:j]) {
				// "16gbram": the unit, then its label after a gap, as if
				// written "16gb ram".
				toks = append(toks, Token{Start: int32(i), End: int32(i + 2), Kind: Word})
				i, gap = i+2, true
			}
			toks = append(toks, Token{Start: int32(i), End: int32(j), Kind: Word, Gap: gap})
			gap = false
			i = j
		default:
			toks = append(toks, Token{Start: int32(i), End: int32(i + 1), Kind: Symbol, Sym: c, Gap: gap})
			gap = false
			i++
		}
	}
	return toks
}

// gluedLabel reports whether w, a word right after a number, is a GB or TB
// unit with the label of the memory it counts glued to it: "gbram",
// "gbrom", "tbssd", "gbhdd", "gbemmc".
func gluedLabel(w string) bool {
	if len(w) < 5 || (w[:2] != "gb" && w[:2] != "tb") {
		return false
	}
	switch w[2:] {
	case "ram", "rom", "ssd", "hdd", "emmc":
		return true
	}
	return false
}

// ParseNumber reads the number starting at the digit text[i]: digits, then
// either a decimal part (".6") or one thousands group (",000" after one to
// three digits, as in "20,000mAh"). It returns the end offset, the value
// and whether a decimal part was read.
func ParseNumber(text string, i int) (end int, v float64, dec bool) {
	j := i
	for j < len(text) && IsDigit(text[j]) {
		v = v*10 + float64(text[j]-'0')
		j++
	}
	switch {
	case j+1 < len(text) && text[j] == '.' && IsDigit(text[j+1]):
		j++
		for j < len(text) && IsDigit(text[j]) {
			j++
		}
		f, err := strconv.ParseFloat(text[i:j], 64)
		if err != nil { // only on overflow of an absurdly long figure
			return j, math.Inf(1), true
		}
		return j, f, true
	case j-i <= 3 && j+3 < len(text) && text[j] == ',' &&
		IsDigit(text[j+1]) && IsDigit(text[j+2]) && IsDigit(text[j+3]) &&
		(j+4 == len(text) || !IsDigit(text[j+4])):
		for k := j + 1; k < j+4; k++ {
			v = v*10 + float64(text[k]-'0')
		}
		return j + 4, v, false
	}
	return j, v, false
}

// IsNumber reports whether s is digits with at most one decimal point
// between digits ("16", "15.6").
func IsNumber(s string) bool {
	if s == "" || !IsDigit(s[0]) || !IsDigit(s[len(s)-1]) {
		return false
	}
	dots := 0
	for i := 0; i < len(s); i++ {
		switch {
		case IsDigit(s[i]):
		case s[i] == '.':
			dots++
		default:
			return false
		}
	}
	return dots <= 1
}

// SplitNumbers appends toks to out with every number that holds a decimal
// point or a thousands comma split into its digit runs and the separator
// between them ("15.6" is 15, '.' and 6, all glued), for readers that take
// only runs of digits as numbers. The values of the split numbers are those
// of their digit runs; Dec is false.
func SplitNumbers(text string, toks, out []Token) []Token {
	for _, t := range toks {
		if t.Kind != Number {
			out = append(out, t)
			continue
		}
		start, gap := t.Start, t.Gap
		for k := t.Start; k < t.End; k++ {
			if c := text[k]; c == '.' || c == ',' {
				out = append(out,
					Token{Start: start, End: k, Num: digitsValue(text[start:k]), Kind: Number, Gap: gap},
					Token{Start: k, End: k + 1, Kind: Symbol, Sym: c})
				start, gap = k+1, false
			}
		}
		if start == t.Start {
			out = append(out, t)
			continue
		}
		out = append(out, Token{Start: start, End: t.End, Num: digitsValue(text[start:t.End]), Kind: Number})
	}
	return out
}

// digitsValue returns the value of a run of digits.
func digitsValue(s string) float64 {
	v := 0.0
	for i := 0; i < len(s); i++ {
		v = v*10 + float64(s[i]-'0')
	}
	return v
}
