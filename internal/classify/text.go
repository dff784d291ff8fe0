package classify

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
// each belongs to. "&" becomes the word "and"; letters outside ASCII
// separate words.
func words(text string, buf []word) []word {
	var lower [512]byte
	low := lower[:0]
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low = append(low, c)
	}
	s := string(low)
	clause, ctype := 0, clMain
	brk := func(t clauseType) {
		clause++
		ctype = t
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isAlnum(c):
			j := i + 1
			for j < len(s) && isAlnum(s[j]) {
				j++
			}
			w := s[i:j]
			if t, ok := clauseWord(w, s, j, buf); ok {
				brk(t)
			}
			buf = append(buf, word{text: w, clause: clause, ctype: ctype})
			i = j
			continue
		case c == '&':
			buf = append(buf, word{text: "and", clause: clause, ctype: ctype})
		case c == ',' || c == '|' || c == ';' || c == '(' || c == ')' || c == '[' || c == ']' || c == ':' ||
			c == '!' || c == '?' || c == '{' || c == '}':
			brk(clOther)
		case c == '+':
			// "Galaxy Tab S9+", "PoE+": a model's plus, not "with".
			if i > 0 && isAlnum(s[i-1]) && (i+1 == len(s) || !isAlnum(s[i+1])) {
				break
			}
			brk(clWith)
		case c == '-':
			if i > 0 && s[i-1] == ' ' && i+1 < len(s) && s[i+1] == ' ' {
				brk(clOther)
			}
		case c >= 0x80:
			// An en or em dash (E2 80 93/94) between spaces breaks like " - ".
			if c == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0x93 || s[i+2] == 0x94) &&
				i > 0 && s[i-1] == ' ' && i+3 < len(s) && s[i+3] == ' ' {
				brk(clOther)
				i += 3
				continue
			}
		}
		i++
	}
	return buf
}

func isAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// clauseWord reports whether the word w, which ends at offset end of s,
// starts a clause, and of which type.
func clauseWord(w, s string, end int, prev []word) (clauseType, bool) {
	next := nextWord(s, end)
	switch w {
	case "for":
		// "Suitable for", "designed for", "made for": the clause began a
		// word earlier.
		if n := len(prev); n > 0 && prev[n-1].ctype == clFor {
			return 0, false
		}
		// "MX Keys for Mac", "for Business": an edition, not a device.
		switch next {
		case "mac", "business", "windows", "work", "home", "kids", "education", "creators", "chromebook":
			return 0, false
		}
		return clFor, true
	case "compatible", "compatibility", "fits":
		return clFor, true
	case "fit":
		return clFor, next == "for" || next == "with"
	case "suitable", "designed", "made", "replacement":
		return clFor, next == "for"
	case "works":
		return clFor, next == "with"
	case "with", "including", "includes", "inc", "incl":
		return clWith, true
	case "w":
		return clWith, end < len(s) && s[end] == '/'
	case "without", "no":
		return clNeg, true
	}
	return 0, false
}

// nextWord returns the alphanumeric run that follows offset i of s.
func nextWord(s string, i int) string {
	for i < len(s) && !isAlnum(s[i]) {
		if s[i] != ' ' {
			return ""
		}
		i++
	}
	j := i
	for j < len(s) && isAlnum(s[j]) {
		j++
	}
	return s[i:j]
}
