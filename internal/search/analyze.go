package search

import (
	"strconv"
	"strings"

	"productsearch/internal/catalog"
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
// the joined word or every part), and plurals are folded. Then:
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
// Analyze is pure and never fails; any text yields some analysis.
func Analyze(query, category string) Analysis { return AnalyzeWithBrand(query, category, "") }

// AnalyzeWithBrand is Analyze for a search that also filters by brand: the
// query words that spell the brand are then redundant and ranking-only.
func AnalyzeWithBrand(query, category, brand string) Analysis {
	var a Analysis
	brandTerms := map[string]bool{}
	for _, w := range lex(brand) {
		brandTerms[wordTerm(w)] = true
		brandTerms[w.joined()] = true
	}
	seen := map[string]bool{}
	add := func(t Term, required bool) {
		if seen[t.Text] {
			return
		}
		seen[t.Text] = true
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
	words := lex(query)
	for i := 0; i < len(words); {
		if s, ok := detectSpec(words, i); ok {
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
			brandTerms[t.Text] || brandTerms[w.joined()],
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
	i := 0
	for i < len(t) && (isDigit(rune(t[i])) || t[i] == '.') {
		i++
	}
	if i == 0 || i == len(t) || !isNumber(t[:i]) {
		return false
	}
	switch t[i:] {
	case "gb", "tb", "mb", "hz", "khz", "w", "mah", "mp", "mm", "cm", "kg", "v", "wh", "k", "p", "x":
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

func isMemoryLabel(t string) bool {
	switch t {
	case "ram", "memory", "ddr3", "ddr4", "ddr5", "lpddr4", "lpddr4x", "lpddr5", "lpddr5x", "unified":
		return true
	}
	return false
}

// isDriveKind reports whether a storage label names a kind of drive, which
// ranks that kind first ("1TB SSD" before a 1TB memory card).
func isDriveKind(t string) bool {
	switch t {
	case "ssd", "hdd", "nvme", "emmc", "harddrive":
		return true
	}
	return false
}

func isStorageLabel(t string) bool {
	switch t {
	case "ssd", "storage", "hdd", "emmc", "nvme", "rom", "flash", "drive", "disk", "harddrive":
		return true
	}
	return false
}

func gte(v float64) Bound { return Bound{Gte: ptr(v)} }

// detectSpec reports whether the words from i on state a labelled spec,
// per the interface: '24GB RAM', '16GB memory', '1TB', '512GB SSD', '144Hz',
// '4K', '55"' or '55 inch', '65W', 'Wi-Fi 6E'. A bare '16GB' is not one.
func detectSpec(words []word, i int) (spec, bool) {
	w := words[i]
	if len(w.parts) != 1 {
		if t := w.joined(); strings.HasPrefix(t, "wifi") {
			return wifiSpec(words, i)
		}
		return spec{}, false
	}
	t := w.parts[0]
	next := func(k int) string {
		if i+k < len(words) {
			return words[i+k].joined()
		}
		return ""
	}
	switch {
	case w.inch && isNumber(t):
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || v <= 0 {
			return spec{}, false
		}
		return spec{name: catalog.ScreenIn, bound: Bound{Eq: ptr(v)}, token: t, words: 1}, true
	case strings.HasSuffix(t, "tb"):
		v, ok := numberWithUnit(t, "tb")
		if !ok {
			return spec{}, false
		}
		sp := spec{name: catalog.StorageGB, bound: gte(v * 1000), token: t, words: 1}
		if label := next(1); isStorageLabel(label) {
			sp.words = 2
			if isDriveKind(label) {
				sp.kind = label
			}
		}
		return sp, true
	case strings.HasSuffix(t, "gb"):
		v, ok := numberWithUnit(t, "gb")
		if !ok {
			return spec{}, false
		}
		n1, n2 := next(1), next(2)
		switch {
		case isMemoryLabel(n1) && (n2 == "ram" || n2 == "memory") && n1 != n2:
			return spec{name: catalog.MemoryGB, bound: gte(v), token: t, words: 3}, true
		case isMemoryLabel(n1):
			return spec{name: catalog.MemoryGB, bound: gte(v), token: t, words: 2}, true
		case n1 == "of" && isMemoryLabel(n2):
			return spec{name: catalog.MemoryGB, bound: gte(v), token: t, words: 3}, true
		case isStorageLabel(n1):
			sp := spec{name: catalog.StorageGB, bound: gte(v), token: t, words: 2}
			if isDriveKind(n1) {
				sp.kind = n1
			}
			return sp, true
		case n1 == "of" && isStorageLabel(n2):
			return spec{name: catalog.StorageGB, bound: gte(v), token: t, words: 3}, true
		}
		return spec{}, false
	case strings.HasSuffix(t, "hz") && !strings.HasSuffix(t, "khz"):
		if v, ok := numberWithUnit(t, "hz"); ok {
			return spec{name: catalog.RefreshHz, bound: gte(v), token: t, words: 1}, true
		}
	case strings.HasSuffix(t, "w") && !strings.HasSuffix(t, "kw"):
		if v, ok := numberWithUnit(t, "w"); ok {
			return spec{name: catalog.PowerW, bound: gte(v), token: t, words: 1}, true
		}
	case strings.HasPrefix(t, "wifi"):
		return wifiSpec(words, i)
	}
	if v, n := resolution(t, next(1)); v > 0 {
		return spec{name: catalog.ResolutionP, bound: gte(v), token: t, words: n}, true
	}
	return spec{}, false
}

// resolution reads a resolution term ("4k", "1080p", "qhd", "full hd") as
// pixels high, and how many words it took; 0 when t is not one.
func resolution(t, next string) (float64, int) {
	switch t {
	case "4k", "uhd", "2160p":
		return 2160, 1
	case "8k", "4320p":
		return 4320, 1
	case "2k", "qhd", "wqhd", "1440p":
		return 1440, 1
	case "fhd", "1080p":
		return 1080, 1
	case "720p":
		return 720, 1
	case "full", "ultra":
		if next == "hd" {
			if t == "full" {
				return 1080, 2
			}
			return 2160, 2
		}
	}
	return 0, 0
}

// wifiSpec reads "wifi 6", "wi-fi 6e", "wifi6e" and "wifi 7" as wifi_gen.
func wifiSpec(words []word, i int) (spec, bool) {
	t := words[i].joined()
	gen, n := strings.TrimPrefix(t, "wifi"), 1
	if gen == "" && i+1 < len(words) {
		gen, n = words[i+1].joined(), 2
	}
	var v float64
	switch gen {
	case "4":
		v = 4
	case "5":
		v = 5
	case "6":
		v = 6
	case "6e":
		v = 6.5
	case "7":
		v = 7
	default:
		return spec{}, false
	}
	return spec{name: catalog.WifiGen, bound: gte(v), token: "wifi" + gen, words: n}, true
}
