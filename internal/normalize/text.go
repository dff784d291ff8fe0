package normalize

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Caps on cleaned text, in runes.
const (
	maxTitle       = 500
	maxDescription = 2000
)

// text cleans a short feed value: HTML entities decoded, control and
// invisible format characters removed, white space collapsed to single
// spaces and trimmed.
func text(s string) string {
	return collapse(unescape(s))
}

// title cleans a title as text does and caps it at 500 runes.
func title(s string) string {
	return capRunes(text(s), maxTitle)
}

// description turns an HTML or plain description into plain text: tags
// removed (script and style with their content), entities decoded (and
// entity-escaped markup removed too), white space collapsed, capped at 2,000
// runes at a word boundary.
func description(s string) string {
	s = unescape(stripTags(s))
	if strings.IndexByte(s, '<') >= 0 {
		s = stripTags(s)
	}
	return capRunes(collapse(s), maxDescription)
}

// unescape decodes HTML entities, twice when the feed escaped them twice
// ("&amp;amp;").
func unescape(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	u := html.UnescapeString(s)
	if u != s && strings.IndexByte(u, '&') >= 0 {
		u = html.UnescapeString(u)
	}
	return u
}

// collapse removes control and format characters (zero-width spaces, soft
// hyphens, byte order marks) and U+FFFD, and turns runs of white space into
// one space, trimmed.
func collapse(s string) string {
	if cleanASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r) || unicode.IsControl(r):
			space = true
		case r == utf8.RuneError || unicode.Is(unicode.Cf, r):
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cleanASCII reports whether s is printable ASCII with single inner spaces
// and none at the ends, which collapse would return unchanged.
func cleanASCII(s string) bool {
	for i := range len(s) {
		c := s[i]
		if c == ' ' {
			if i == 0 || i == len(s)-1 || s[i-1] == ' ' {
				return false
			}
		} else if c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

// capRunes cuts s to at most n runes, at the last space in the second half
// of the allowance when there is one, ending it with "…".
func capRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut, count := 0, 0
	for i := range s {
		if count == n-1 {
			cut = i
			break
		}
		count++
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > cut/2 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,;:-–") + "…"
}

// stripTags removes HTML tags: block-level ones become a space, inline ones
// (b, i, em, strong, span, a, ...) nothing; comments, script and style go
// with their content. A "<" that does not open a tag stays.
func stripTags(s string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '<' {
			b.WriteByte(c)
			i++
			continue
		}
		rest := s[i+1:]
		if strings.HasPrefix(rest, "!--") {
			end := strings.Index(rest[3:], "-->")
			if end < 0 {
				break
			}
			i += 1 + 3 + end + 3
			b.WriteByte(' ')
			continue
		}
		if rest == "" || !(isLetter(rest[0]) || rest[0] == '/' && len(rest) > 1 && isLetter(rest[1]) || rest[0] == '!' || rest[0] == '?') {
			b.WriteByte(c)
			i++
			continue
		}
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			b.WriteByte(c)
			i++
			continue
		}
		closing := rest[0] == '/'
		name := tagName(rest)
		i += 1 + end + 1
		if !closing && (name == "script" || name == "style") {
			if j := indexFold(s[i:], "</"+name); j >= 0 {
				i += j
				if k := strings.IndexByte(s[i:], '>'); k >= 0 {
					i += k + 1
				} else {
					i = len(s)
				}
			} else {
				i = len(s)
			}
		}
		if !inlineTag(name) {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tagName returns the lower-case name of the tag whose text (after "<")
// starts rest.
func tagName(rest string) string {
	rest = strings.TrimPrefix(rest, "/")
	n := 0
	for n < len(rest) && (isLetter(rest[n]) || rest[n] >= '0' && rest[n] <= '9') {
		n++
	}
	return strings.ToLower(rest[:n])
}

func inlineTag(name string) bool {
	switch name {
	case "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "em", "font", "i", "kbd", "mark",
		"q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr":
		return true
	}
	return false
}

// indexFold is strings.Index ignoring ASCII case; substr is lower-case.
func indexFold(s, substr string) int {
	for i := 0; i+len(substr) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(substr)], substr) {
			return i
		}
	}
	return -1
}
