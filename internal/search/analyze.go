package search

import (
	"slices"
	"strconv"
	"strings"

	"productsearch/internal/catalog"
	"productsearch/internal/lexer"
)

// Term is one normalised query word.
type Term struct {
	// Text is the word lowercased, with hyphenated parts joined and plurals
	// folded: "WH-1000XM5" -> "wh1000xm5", "Headphones" -> "headphone".
	Text string
	// Parts holds the parts of a hyphenated word ("wh", "1000xm5"). A title
	// holding Text or every part matches the word, so "noise-cancelling"
	// finds "Noise Cancelling" as well as "Noise-Cancelling".
	Parts []string
}

func (t Term) String() string {
	if len(t.Parts) > 0 {
		return strings.Join(t.Parts, "-")
	}
	return t.Text
}

// Analysis is what a query asks for, per the query rules of the interface.
type Analysis struct {
	// Required terms must all be in a product's title.
	Required []Term
	// RankOnly terms only affect ranking: words naming the filtered
	// category, the filtered brand's words, bare numbers, unlabelled specs
	// ("16GB"), use-case words ("gaming", "cheap") and the values of
	// labelled specs.
	RankOnly []Term
	// Derived holds constraints from labelled specs in the query ("24GB
	// RAM", "1TB", "144Hz", "4K", `55"`, "65W", "Wi-Fi 6E"): gte, except
	// screen size, which is eq. Nil when the query states none.
	Derived Constraints
	// Phrase lists the texts of Required and RankOnly terms in query order,
	// for scoring titles that hold them side by side.
	Phrase []string
	// Accessory is set when a required word names an accessory ("case",
	// "charger", "strap"): accessories are then not ranked below devices.
	Accessory bool
}

// String writes the analysis compactly: required terms with '+', ranking
// terms with '~', then derived constraints, e.g.
// "+asus +rog ~4070 ~laptop memory_gb>=24".
func (a Analysis) String() string {
	var parts []string
	for _, t := range a.Required {
		parts = append(parts, "+"+t.String())
	}
	for _, t := range a.RankOnly {
		parts = append(parts, "~"+t.String())
	}
	if len(a.Derived) > 0 {
		parts = append(parts, a.Derived.String())
	}
	return strings.Join(parts, " ")
}

// Analyze splits a query into required words, ranking-only words and
// constraints derived from labelled specs, per the query rules of the
// interface. category is the category filter ("" for none).
//
// Words are lowercased, stripped of accents and punctuation, hyphenated
// words are joined ("WH-1000XM5" -> "wh1000xm5", matching titles that hold
// the joined word or every part), plurals are folded, and spellings,
// compounds and aliases are folded by the vocabulary as in TitleTerms
// ("space gray" -> "space grey", "ear buds" -> "earbud" or both its parts,
// "playstation 5" -> "ps5"). Then:
//   - a labelled spec ("24GB RAM", "1TB", "512GB SSD", "144Hz", "4K", `55"`,
//     "55 inch", "65W", "Wi-Fi 6E") becomes a derived constraint, gte except
//     screen size (eq); the first statement of a name wins; its words are
//     not required, its value ("24gb") only ranks;
//   - words naming the filtered category ("router" within Networking,
//     "laptop" within Laptops) only rank. Without a category filter they are
//     ordinary words that must match, since nothing else narrows the search;
//   - bare numbers ("4070"), unlabelled specs ("16GB") and use-case words
//     ("gaming", "cheap", "best") only rank;
//   - stop words ("with", "for", "the", "under") are dropped;
//   - every other word is required in the title.
//
// Analyze is pure and never fails; any text yields some analysis. Specs are
// those of the default attribute table.
func Analyze(query, category string) Analysis {
	return AnalyzeWith(catalog.DefaultAttributes(), query, category, "")
}

// AnalyzeWithBrand is Analyze for a search that also filters by brand: the
// query words that spell the brand are then redundant and ranking-only.
func AnalyzeWithBrand(query, category, brand string) Analysis {
	return AnalyzeWith(catalog.DefaultAttributes(), query, category, brand)
}

// AnalyzeWith is AnalyzeWithBrand with the specs of the table's query
// forms.
func AnalyzeWith(attrs *catalog.AttributeTable, query, category, brand string) Analysis {
	var a Analysis
	vocab := defaultVocabulary()
	// Queries hold a handful of words: slices beat maps here.
	var brandTerms []string
	if brand != "" {
		for _, w := range vocab.fold(lex(brand)) {
			brandTerms = append(brandTerms, wordTerm(w), w.joined())
		}
	}
	isBrand := func(w word, t string) bool {
		return len(brandTerms) > 0 && (slices.Contains(brandTerms, t) || slices.Contains(brandTerms, w.joined()))
	}
	add := func(t Term, required bool) {
		if slices.Contains(a.Phrase, t.Text) {
			return
		}
		a.Phrase = append(a.Phrase, t.Text)
		if required {
			a.Required = append(a.Required, t)
			if isAccessoryWord(t.Text) {
				a.Accessory = true
			}
			return
		}
		a.RankOnly = append(a.RankOnly, t)
	}
	words := vocab.fold(lex(query))
	if len(words) > 0 {
		a.Phrase = make([]string, 0, len(words)+1)
	}
	for i := 0; i < len(words); {
		if s, ok := detectSpec(attrs, words, i); ok {
			if _, dup := a.Derived[s.name]; !dup {
				if a.Derived == nil {
					a.Derived = Constraints{}
				}
				a.Derived[s.name] = s.bound
			}
			add(Term{Text: s.token}, false)
			if s.kind != "" {
				add(Term{Text: s.kind}, false)
			}
			i += s.words
			continue
		}
		w := words[i]
		i++
		t := Term{Text: wordTerm(w)}
		if len(w.parts) > 1 {
			t.Parts = make([]string, len(w.parts))
			for j, p := range w.parts {
				t.Parts[j] = Stem(p)
			}
		}
		switch {
		case isStopword(t.Text):
		case category != "" && IsCategoryWord(category, t.Text),
			isBrand(w, t.Text),
			isUseCaseWord(t.Text),
			isNumber(t.Text),
			isUnlabelledSpec(t.Text):
			add(t, false)
		default:
			add(t, true)
		}
		if w.plus {
			add(Term{Text: "plus"}, true)
		}
	}
	return a
}

// isUnlabelledSpec reports whether t is a number with a unit, such as
// "16gb", "5000mah" or "50mp": a spec that does not say what it is.
func isUnlabelledSpec(t string) bool {
	if num, u, ok := lexer.SplitNumberUnit(t); ok {
		return u != lexer.Inch && t[len(num):] == u.String()
	}
	i := 0
	for i < len(t) && (isDigit(rune(t[i])) || t[i] == '.') {
		i++
	}
	if i == 0 || i == len(t) || !isNumber(t[:i]) {
		return false
	}
	switch t[i:] {
	case "k", "p", "x":
		return true
	}
	return false
}

// spec is a labelled spec found in a query.
type spec struct {
	name  string
	bound Bound
	token string // the value as a ranking term, e.g. "24gb"
	kind  string // a label naming a kind of drive ("ssd"), also a ranking term
	words int    // how many words formed it
}

// numberWithUnit splits "24gb" into 24 for the unit "gb".
func numberWithUnit(t, unit string) (float64, bool) {
	num, ok := strings.CutSuffix(t, unit)
	if !ok || !isNumber(num) {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	return v, err == nil && v > 0
}

// detectSpec reports whether the words from i on state a labelled spec by
// the query forms of the table: in the default table '24GB RAM', '16GB
// memory', '1TB', '512GB SSD', '144Hz', '4K', '55"' or '55 inch', '65W',
// 'Wi-Fi 6E'. A bare '16GB' is not one. The first attribute (in table
// order) whose form fits wins.
func detectSpec(attrs *catalog.AttributeTable, words []word, i int) (spec, bool) {
	w := words[i]
	t := w.joined()
	if len(w.parts) == 1 {
		if s, ok := inchSpec(attrs, w); ok {
			return s, true
		}
	}
	for k := range attrs.Len() {
		if d := attrs.At(k); d.Query.Prefix != "" && strings.HasPrefix(t, d.Query.Prefix) {
			if s, ok := prefixSpec(d, words, i); ok {
				return s, true
			}
		}
	}
	if len(w.parts) != 1 {
		return spec{}, false
	}
	next := func(k int) string {
		if i+k < len(words) {
			return words[i+k].joined()
		}
		return ""
	}
	if s, ok := unitSpec(attrs, t, next(1), next(2)); ok {
		return s, true
	}
	for k := range attrs.Len() {
		d := attrs.At(k)
		for _, nv := range d.Query.Named {
			if !strings.HasPrefix(nv.Name, t) {
				continue
			}
			first, second, two := strings.Cut(nv.Name, " ")
			if t == first && (!two || next(1) == second) {
				return spec{name: d.Name, bound: queryBound(d, nv.Value), token: t, words: 1 + b2i(two)}, true
			}
		}
	}
	return spec{}, false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// queryBound is the constraint a value stated in a query makes.
func queryBound(d *catalog.AttributeDef, v float64) Bound {
	switch d.Query.Op {
	case OpEq:
		return Bound{Eq: ptr(v)}
	case OpLte:
		return Bound{Lte: ptr(v)}
	}
	return Bound{Gte: ptr(v)}
}

// inchSpec reads a number with an inch mark ('55"', "55 inch").
func inchSpec(attrs *catalog.AttributeTable, w word) (spec, bool) {
	t := w.parts[0]
	if !w.inch || !isNumber(t) {
		return spec{}, false
	}
	for k := range attrs.Len() {
		if d := attrs.At(k); d.Query.Inch {
			v, err := strconv.ParseFloat(t, 64)
			if err != nil || v <= 0 {
				return spec{}, false
			}
			return spec{name: d.Name, bound: queryBound(d, v), token: t, words: 1}, true
		}
	}
	return spec{}, false
}

// unitSpec reads a number with a unit ("144hz", "1tb"), followed by a
// label where the unit needs one ("16gb ram", "16gb ddr5 ram", "16gb of
// ram"); n1 and n2 are the next two words.
func unitSpec(attrs *catalog.AttributeTable, t, n1, n2 string) (spec, bool) {
	if t == "" || !isDigit(rune(t[0])) && t[0] != '.' {
		return spec{}, false // not a number with a unit: most words
	}
	for k := range attrs.Len() {
		d := attrs.At(k)
		q := &d.Query
		for _, u := range q.Units {
			v, ok := numberWithUnit(t, u.Suffix)
			if !ok {
				continue
			}
			sp := spec{name: d.Name, bound: queryBound(d, v*u.Factor), token: t, words: 1}
			isLabel := func(s string) bool { return slices.Contains(q.Labels, s) }
			switch {
			case u.NeedsLabel && isLabel(n1) && slices.Contains(q.Nouns, n2) && n1 != n2:
				sp.words = 3
			case isLabel(n1):
				sp.words = 2
				if slices.Contains(q.Kinds, n1) {
					sp.kind = n1
				}
			case u.NeedsLabel && n1 == "of" && isLabel(n2):
				sp.words = 3
			case u.NeedsLabel:
				continue
			}
			return sp, true
		}
	}
	return spec{}, false
}

// prefixSpec reads a value after a prefix word: "wifi 6", "wi-fi 6e",
// "wifi6e" and "wifi 7" as wifi_gen.
func prefixSpec(d *catalog.AttributeDef, words []word, i int) (spec, bool) {
	t := words[i].joined()
	gen, n := strings.TrimPrefix(t, d.Query.Prefix), 1
	if gen == "" && i+1 < len(words) {
		gen, n = words[i+1].joined(), 2
	}
	for _, nv := range d.Query.Names {
		if nv.Name == gen {
			return spec{name: d.Name, bound: queryBound(d, nv.Value), token: d.Query.Prefix + gen, words: n}, true
		}
	}
	return spec{}, false
}
