package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"productsearch/internal/lexer"
)

// word is one lexed word of a title or query: lowercase letter-and-digit runs
// joined by hyphens (or a dot between letters), with the marks that follow it.
type word struct {
	parts []string // at least one part; "wh-1000xm5" has the parts "wh" and "1000xm5"
	inch  bool     // followed by an inch mark (", ″, ” or ''), or written "55in"/"55 inch"
	plus  bool     // followed directly by '+', as in "S24+"
	term  string   // the word's term once known: the vocabulary's name for it, or its stem (see fold.go)
}

// joined returns the word's parts joined without separators.
func (w word) joined() string {
	if len(w.parts) == 1 {
		return w.parts[0]
	}
	return strings.Join(w.parts, "")
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// lex splits text into words, reading the lexer's tokens of the folded text
// (lexer.FoldText keeps letters outside ASCII, folded by lexer.FoldRune, so
// "Pokémon" and "pokemon" are one word; Unicode quotes and dashes become
// ASCII). Words, numbers and letters outside ASCII glued together form
// parts; a hyphen, underscore or a dot between two of them joins parts into
// one word ("WH-1000XM5", "Wi-Fi", "M.2"), a number keeps its decimal point
// ("15.6") and drops its thousands comma ("20,000"), an apostrophe between
// letters is dropped ("Men's"), an inch mark or '+' after a word is recorded
// on it, and every other character separates words. Number-and-unit
// spellings are then normalised (see normalizeWords).
func lex(text string) []word {
	var fb [256]byte
	folded := string(lexer.FoldText(text, fb[:0], lexer.FoldLetters|lexer.FoldAccents))
	var tb [64]lexer.Token
	// The tokens are passed to the methods rather than held in the
	// wordLexer, whose words reach the heap: held there, the token array
	// would be moved to the heap with them.
	toks := lexer.Lex(folded, tb[:0])
	l := wordLexer{text: folded, words: make([]word, 0, len(toks)), parts: make([]string, 0, len(toks))}
	for k := 0; k < len(toks); k++ {
		k = l.token(toks, k)
	}
	l.endWord()
	return normalizeWords(l.words)
}

// wordLexer groups the lexer's tokens into words.
//
// A part that is a run of the text as it stands is a substring of it, and
// the words' parts share one backing array (each word's slice capped at its
// own parts), so that lexing a title allocates little beyond its words.
type wordLexer struct {
	text  string
	words []word
	cur   word
	parts []string // the parts of every word so far; cur's from first
	first int
	part  []byte // the part being read, when it is not a run of text
	run   [2]int // text[run[0]:run[1]] is the part being read while inRun
	inRun bool
}

// appendPart adds text[start:end] to the part being read.
func (l *wordLexer) appendPart(start, end int) {
	switch {
	case len(l.part) == 0 && !l.inRun:
		l.run, l.inRun = [2]int{start, end}, true
	case l.inRun && l.run[1] == start:
		l.run[1] = end
	default:
		l.spill()
		l.part = append(l.part, l.text[start:end]...)
	}
}

// appendByte adds c to the part being read.
func (l *wordLexer) appendByte(c byte) {
	if l.inRun && l.run[1] < len(l.text) && l.text[l.run[1]] == c {
		l.run[1]++
		return
	}
	l.spill()
	l.part = append(l.part, c)
}

// spill moves the part being read from its run of text to l.part.
func (l *wordLexer) spill() {
	if l.inRun {
		l.part = append(l.part[:0], l.text[l.run[0]:l.run[1]]...)
		l.inRun = false
	}
}

// partLen is the length of the part being read.
func (l *wordLexer) partLen() int {
	if l.inRun {
		return l.run[1] - l.run[0]
	}
	return len(l.part)
}

// startsWithDigit reports whether the word being read starts with a digit.
func (l *wordLexer) startsWithDigit() bool {
	switch {
	case l.first < len(l.parts):
		return lexer.IsDigit(l.parts[l.first][0])
	case l.inRun:
		return lexer.IsDigit(l.text[l.run[0]])
	case len(l.part) > 0:
		return lexer.IsDigit(l.part[0])
	}
	return false
}

// lastByte is the last byte of the part being read; partLen must be > 0.
func (l *wordLexer) lastByte() byte {
	if l.inRun {
		return l.text[l.run[1]-1]
	}
	return l.part[len(l.part)-1]
}

func (l *wordLexer) endPart() {
	switch {
	case l.inRun:
		l.parts = append(l.parts, l.text[l.run[0]:l.run[1]])
		l.inRun = false
	case len(l.part) > 0:
		l.parts = append(l.parts, string(l.part))
		l.part = l.part[:0]
	}
}

func (l *wordLexer) endWord() {
	l.endPart()
	if n := len(l.parts); n > l.first {
		l.cur.parts = l.parts[l.first:n:n]
		l.words = append(l.words, l.cur)
		l.first = n
	}
	l.cur = word{}
}

// alnum reports whether token k is a word, a number or a byte of a letter
// or digit outside ASCII (the only such bytes the fold leaves).
func (l *wordLexer) alnum(toks []lexer.Token, k int) bool {
	return k >= 0 && k < len(toks) && (toks[k].Kind != lexer.Symbol || toks[k].Sym >= utf8.RuneSelf)
}

// glued reports whether token k exists and touches the token before it.
func (l *wordLexer) glued(toks []lexer.Token, k int) bool {
	return k > 0 && k < len(toks) && !toks[k].Gap
}

// letterAround reports whether the rune just before token k and the rune
// just after it are letters.
func (l *wordLexer) letterAround(toks []lexer.Token, k int) bool {
	t := toks[k]
	if !l.glued(toks, k) || !l.glued(toks, k+1) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(l.text[:t.Start])
	after, _ := utf8.DecodeRuneInString(l.text[t.End:])
	return unicode.IsLetter(before) && unicode.IsLetter(after)
}

// token reads token k and returns the index of the last token it took.
func (l *wordLexer) token(toks []lexer.Token, k int) int {
	t := toks[k]
	if t.Gap {
		l.endWord()
	}
	if l.alnum(toks, k) {
		s := l.text[t.Start:t.End]
		start, stop := int(t.Start), int(t.End)
		if before, _, ok := strings.Cut(s, ","); ok && l.partLen() > 0 && l.lastByte() == '.' {
			// "1.99,142": the digits after a decimal point take no
			// thousands group; the comma separates words.
			l.appendPart(start, start+len(before))
			l.endWord()
			start += len(before) + 1
		}
		// A thousands comma is dropped: "20,000mAh" -> "20000mah".
		for start < stop {
			end := strings.IndexByte(l.text[start:stop], ',')
			if end < 0 {
				end = stop
			} else {
				end += start
			}
			if end > start {
				l.appendPart(start, end)
			}
			start = end + 1
		}
		return k
	}
	afterDigit := l.glued(toks, k) && toks[k-1].Kind == lexer.Number
	nextNumber := l.glued(toks, k+1) && toks[k+1].Kind == lexer.Number
	switch c := t.Sym; {
	case c == '.' && afterDigit && nextNumber && l.partLen() > 0:
		l.appendByte(byte(c)) // "1.2.3"
	case (c == '-' || c == '_' || c == '.') && l.partLen() > 0 && l.glued(toks, k+1) && l.alnum(toks, k+1):
		l.endPart()
	case c == '\'' && l.partLen() > 0 && l.letterAround(toks, k):
		// Men's -> mens
	case c == '"' && l.partLen() > 0 && afterDigit:
		l.cur.inch = true
		l.endWord()
	case c == '\'' && l.partLen() > 0 && afterDigit && l.glued(toks, k+1) && toks[k+1].Kind == lexer.Symbol &&
		toks[k+1].Sym == '\'':
		l.cur.inch = true
		l.endWord()
		return k + 1
	case c == '+' && l.partLen() > 0 && !(l.startsWithDigit() && l.glued(toks, k+1) && toks[k+1].Kind == lexer.Number):
		// "S24+" is a Plus; the '+' of "4GB+128GB" joins two figures.
		l.cur.plus = true
		l.endWord()
	default:
		l.endWord()
	}
	return k
}

// isNumber reports whether s is digits with at most one decimal point.
func isNumber(s string) bool { return lexer.IsNumber(s) }

// unitOf maps a unit word written after a number to its canonical suffix
// (lexer.UnitOf). Inch spellings map to "in"; they become an inch mark on
// the word.
func unitOf(s string) (string, bool) {
	u := lexer.UnitOf(s)
	return u.String(), u != lexer.NoUnit
}

// splitNumberUnit splits "15.6in" into "15.6" and "in" when the tail is a
// known unit (lexer.SplitNumberUnit).
func splitNumberUnit(s string) (num, unit string, ok bool) {
	num, u, ok := lexer.SplitNumberUnit(s)
	return num, u.String(), ok
}

// normalizeWords rewrites number-and-unit spellings to one form: "16 GB",
// "16-GB" and "16GB" all become "16gb"; "65 watts" becomes "65w"; "55 inch",
// "55-inch" and "55in" become "55" with the inch mark set.
func normalizeWords(words []word) []word {
	out := words[:0]
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case len(w.parts) == 2 && isNumber(w.parts[0]):
			if u, ok := unitOf(w.parts[1]); ok {
				w = withUnit(w, w.parts[0], u)
			} else if w.parts[1] == "in" && !w.plus && !(i+1 < len(words) && isNumber(words[i+1].parts[0])) {
				w = withUnit(w, w.parts[0], "in") // "15.6-in", as lexer.ReadQuantity reads it; not "15.6-in 2"
			}
		case len(w.parts) == 1 && !w.inch && !w.plus && isNumber(w.parts[0]) && i+1 < len(words) &&
			len(words[i+1].parts) == 1:
			if u, ok := unitOf(words[i+1].parts[0]); ok {
				next := words[i+1]
				w = withUnit(word{inch: next.inch, plus: next.plus}, w.parts[0], u)
				i++
			}
		case len(w.parts) == 1:
			if num, u, ok := splitNumberUnit(w.parts[0]); ok {
				w = withUnit(w, num, u)
			}
		}
		out = append(out, w)
	}
	return out
}

func withUnit(w word, num, unit string) word {
	if unit == "in" {
		return word{parts: []string{num}, inch: true, plus: w.plus}
	}
	return word{parts: []string{num + unit}, inch: w.inch, plus: w.plus}
}

// isAlpha reports whether s is letters only.
func isAlpha(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// Stem folds plural forms of an alphabetic lowercase term to the singular
// ("headphones" -> "headphone", "batteries" -> "battery", "boxes" -> "box",
// "mice" -> "mouse") and "generation" to "gen". Terms holding digits (model numbers) and terms shorter
// than four letters are returned unchanged. The same folding is applied to
// titles and queries, so only consistency matters, not linguistic accuracy.
func Stem(s string) string {
	switch s {
	case "mice":
		return "mouse"
	case "tvs":
		return "tv"
	case "pcs":
		return "pc"
	case "lenses":
		return "lens"
	case "series", "species", "lens", "sonos":
		return s
	case "generation", "generations":
		// "iPad (10th generation)" and "iPad 10th Gen" are one product.
		return "gen"
	}
	if len(s) < 4 || !isAlpha(s) {
		return s
	}
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 4:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "sses"), strings.HasSuffix(s, "xes"),
		strings.HasSuffix(s, "ches"), strings.HasSuffix(s, "shes"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "ss"), strings.HasSuffix(s, "us"), strings.HasSuffix(s, "is"):
		return s
	case strings.HasSuffix(s, "s"):
		return s[:len(s)-1]
	}
	return s
}

// wordTerm returns the search term of a word: the vocabulary's name for it,
// else its parts joined, with plural folding for alphabetic words.
func wordTerm(w word) string {
	if w.term != "" {
		return w.term
	}
	return Stem(w.joined())
}

// letterPrefix splits a term such as "rtx4070" into its leading letter run
// and the rest, when the run has at least two letters and the rest starts
// with a digit.
func letterPrefix(s string) (head, tail string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
		i++
	}
	if i < 2 || i == len(s) || !isDigit(rune(s[i])) {
		return "", "", false
	}
	return s[:i], s[i:], true
}

// sdFamily returns the card format that a memory card's capacity class
// belongs to ("microsdxc" -> "microsd", "sdhc" -> "sd"), or "".
func sdFamily(t string) string {
	for _, class := range []string{"hc", "xc", "uc"} {
		if f, ok := strings.CutSuffix(t, class); ok && (f == "sd" || f == "microsd") {
			return f
		}
	}
	return ""
}

// TitleTerms returns how a title is indexed: words holds the term of each
// title word in order (for phrase scoring), terms every distinct term the
// title can be found by. Besides the word terms, terms holds the parts of
// hyphenated words ("WH-1000XM5" -> "wh", "1000xm5"), the letter prefix and
// the rest of letter-digit words ("RTX4070" -> "rtx", "4070"), the card
// format of a card class ("microSDXC" -> "microsd"), the join of a
// letter word with a following word that starts with a digit ("RTX 4070" ->
// "rtx4070"; not with sizes such as `15.6"`), and "plus" for a trailing
// '+'. Words are first folded by the vocabulary (vocabulary/words.yaml:
// "gray" is "grey", "ear buds" the word "earbud" with its parts,
// "PlayStation 5" the word "ps5"), and a word implying others
// ("DualSense" -> "ps5") adds them to terms. Every engine indexes titles
// this way so that query terms from Analyze match the same titles.
func TitleTerms(title string) (words, terms []string) {
	vocab := defaultVocabulary()
	return vocab.titleTerms(vocab.fold(lex(title)))
}

// titleTerms is TitleTerms over folded words.
func (vocab *Vocabulary) titleTerms(lexed []word) (words, terms []string) {
	words = make([]string, 0, len(lexed))
	terms = make([]string, 0, 2*len(lexed))
	add := func(t string) {
		for _, have := range terms {
			if have == t {
				return
			}
		}
		terms = append(terms, t)
	}
	for i, w := range lexed {
		t := wordTerm(w)
		words = append(words, t)
		add(t)
		for _, also := range vocab.implied(t) {
			add(also)
		}
		if len(w.parts) > 1 {
			for _, p := range w.parts {
				add(Stem(p))
			}
		}
		if head, tail, ok := letterPrefix(t); ok {
			add(head)
			add(tail)
		}
		if w.plus {
			add("plus")
		}
		if card := sdFamily(t); card != "" {
			add(card)
		}
		if i+1 < len(lexed) && isAlpha(t) && len(t) >= 2 && !w.plus {
			next := lexed[i+1]
			if j := next.joined(); isDigit(rune(j[0])) && !next.inch && !strings.Contains(j, ".") {
				add(w.joined() + j)
			}
		}
	}
	return words, terms
}
