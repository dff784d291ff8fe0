package normalize

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"productsearch/internal/lexer"
)

// word is one lower-case run of letters and digits and the text between it
// and the previous word.
type word struct {
	text, before string
}

// words reads s through the lexer into words: glued words, digit runs and
// letters and digits outside ASCII. A decimal point or a thousands comma
// separates words, as any punctuation does.
func words(s string) []word {
	var fb [256]byte
	text := string(lexer.FoldText(s, fb[:0], lexer.FoldLetters|lexer.FoldKeep))
	var tb, sb [96]lexer.Token
	toks := lexer.SplitNumbers(text, lexer.Lex(text, tb[:0]), sb[:0])
	var out []word
	start, last, end, alnum := -1, 0, 0, false
	runeEnd := int32(0) // the end of the last rune outside ASCII
	for _, t := range toks {
		switch {
		case t.Kind != lexer.Symbol:
			alnum = true
		case t.Sym < utf8.RuneSelf:
			alnum = false
		case t.Start >= runeEnd:
			// The first byte of a rune the fold kept: a letter or digit
			// (lower case already), other text or an invalid byte.
			r, n := utf8.DecodeRuneInString(text[t.Start:])
			alnum = unicode.IsLetter(r) || unicode.IsDigit(r)
			runeEnd = t.Start + int32(n)
		}
		if start >= 0 && (!alnum || t.Gap) {
			out[len(out)-1].text = text[start:end]
			start, last = -1, end
		}
		if alnum {
			if start < 0 {
				out = append(out, word{before: text[last:t.Start]})
				start = int(t.Start)
			}
			end = int(t.End)
		}
	}
	if start >= 0 {
		out[len(out)-1].text = text[start:end]
	}
	return out
}

// notNew reports whether a listing is not new stock by its condition field
// or its title, and says which words showed it. Title patterns match whole
// words: "Renewed" counts, "Refresh" does not. "Used" counts in a title only
// where it reads as a condition: first, last, or after a separator such as
// "-", "(", "|" or ",".
func notNew(condition, title string) (string, bool) {
	if c := strings.ToLower(text(condition)); c != "" && c != "new" {
		compact := strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return -1
		}, c)
		for _, p := range []string{"used", "refurb", "renewed", "reconditioned", "preowned", "openbox", "exdisplay", "secondhand"} {
			if strings.HasPrefix(compact, p) {
				return fmt.Sprintf("condition %q", short(condition)), true
			}
		}
		if phrase, ok := notNewWords(words(c), true); ok {
			return fmt.Sprintf("condition %q (%s)", short(condition), phrase), true
		}
	}
	if phrase, ok := notNewWords(words(title), false); ok {
		return fmt.Sprintf("title says %q", phrase), true
	}
	return "", false
}

// notNewWords finds a phrase marking second-hand stock. inField relaxes the
// rules for a condition field, where "used" or "like new" can only mean one
// thing.
func notNewWords(ws []word, inField bool) (string, bool) {
	next := func(i int) string {
		if i+1 < len(ws) {
			return ws[i+1].text
		}
		return ""
	}
	for i, w := range ws {
		switch w.text {
		case "refurbished", "refurb", "renewed", "reconditioned", "preowned", "openbox", "exdisplay", "exdemo", "secondhand":
			return w.text, true
		case "pre":
			if next(i) == "owned" {
				return "pre-owned", true
			}
		case "open":
			if next(i) == "box" {
				return "open box", true
			}
		case "ex":
			if n := next(i); n == "display" || n == "demo" {
				return "ex-" + n, true
			}
		case "second":
			if next(i) == "hand" {
				return "second hand", true
			}
		case "grade":
			if n := next(i); n == "a" || n == "b" || n == "c" {
				return "grade " + n, true
			}
		case "b", "c":
			if next(i) == "grade" {
				return w.text + " grade", true
			}
		case "a":
			if inField && next(i) == "grade" {
				return "a grade", true
			}
		case "like", "nearly":
			if inField && next(i) == "new" {
				return w.text + " new", true
			}
		case "used":
			if inField || i == 0 || i == len(ws)-1 || strings.ContainsAny(w.before, "-–—([|,:/") {
				return "used", true
			}
		}
	}
	return "", false
}
