package search

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// vocabularyYAML is the reviewed vocabulary of spellings, compounds and
// aliases that titles and queries are folded by.
//
//go:embed vocabulary/words.yaml
var vocabularyYAML []byte

// defaultVocabulary parses the embedded vocabulary once; the file is
// checked by the package's tests, so a parse error is a build mistake.
var defaultVocabulary = sync.OnceValue(func() *Vocabulary {
	v, err := ParseVocabulary(vocabularyYAML)
	if err != nil {
		panic(err)
	}
	return v
})

// Vocabulary folds the ways people write a word onto the one the search
// indexes: spelling variants ("gray" -> "grey"), compounds written apart
// or joined ("ear buds" -> "earbud"), aliases of one thing ("playstation 5"
// -> "ps5") and the words a product's own name is also found by
// ("dualsense" -> "ps5"). Titles and queries are folded alike, so each
// spelling finds titles written in any other, in every engine. A Vocabulary
// is immutable.
type Vocabulary struct {
	spell   map[string]string // a one-word form (as Stem leaves it) -> its name
	forms   map[string][]form // first word of a form of several words -> the forms, longest first
	implies map[string][]string
}

// form is a spelling of several words read as one word named name.
type form struct {
	words []string // as Stem leaves them
	name  string
}

// vocabularyFile is the layout of the vocabulary file.
type vocabularyFile struct {
	Spellings map[string][]string `yaml:"spellings"`
	Compounds []string            `yaml:"compounds"`
	Aliases   []struct {
		Name  string   `yaml:"name"`
		Forms []string `yaml:"forms"`
	} `yaml:"aliases"`
	Implies map[string][]string `yaml:"implies"`
}

// ParseVocabulary reads a vocabulary file (see vocabulary/words.yaml). A
// form that is not already written as the search reads it, or that is
// given two names, is an error.
func ParseVocabulary(data []byte) (*Vocabulary, error) {
	var f vocabularyFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("vocabulary: %w", err)
	}
	v := &Vocabulary{spell: map[string]string{}, forms: map[string][]form{}, implies: map[string][]string{}}
	for name, variants := range f.Spellings {
		for _, s := range variants {
			if err := v.add(name, s); err != nil {
				return nil, err
			}
		}
	}
	for _, c := range f.Compounds {
		if err := v.add(strings.ReplaceAll(c, " ", ""), c); err != nil {
			return nil, err
		}
	}
	for _, a := range f.Aliases {
		for _, s := range a.Forms {
			if err := v.add(a.Name, s); err != nil {
				return nil, err
			}
		}
	}
	for word, also := range f.Implies {
		if err := checkTerm(word); err != nil {
			return nil, err
		}
		for _, t := range also {
			if err := checkTerm(t); err != nil {
				return nil, err
			}
		}
		v.implies[word] = also
	}
	for _, fs := range v.forms {
		slices.SortStableFunc(fs, func(a, b form) int { return len(b.words) - len(a.words) })
	}
	return v, nil
}

// checkTerm reports an error unless s is one search term as Stem leaves it.
func checkTerm(s string) error {
	words := lex(s)
	if len(words) != 1 || wordTerm(words[0]) != s {
		return fmt.Errorf("vocabulary: %q is not one word as the search reads it (lower case, singular, no hyphen)", s)
	}
	return nil
}

// add records that the form s (one or more words) is read as name.
func (v *Vocabulary) add(name, s string) error {
	if err := checkTerm(name); err != nil {
		return err
	}
	words := lex(s)
	terms := make([]string, len(words))
	for i, w := range words {
		terms[i] = wordTerm(w)
		if len(w.parts) != 1 {
			return fmt.Errorf("vocabulary: form %q of %q: write its words apart, not hyphenated", s, name)
		}
	}
	switch len(terms) {
	case 0:
		return fmt.Errorf("vocabulary: empty form of %q", name)
	case 1:
		if have, ok := v.spell[terms[0]]; ok && have != name {
			return fmt.Errorf("vocabulary: %q is read as both %q and %q", s, have, name)
		}
		if terms[0] != name {
			v.spell[terms[0]] = name
		}
		return nil
	}
	for _, f := range v.forms[terms[0]] {
		if slices.Equal(f.words, terms) {
			return fmt.Errorf("vocabulary: %q is read as both %q and %q", s, f.name, name)
		}
	}
	v.forms[terms[0]] = append(v.forms[terms[0]], form{words: terms, name: name})
	// The form written as one word ("earbuds", "playstation5") is the
	// same word.
	if joined := strings.Join(terms, ""); joined != name {
		if have, ok := v.spell[joined]; ok && have != name {
			return fmt.Errorf("vocabulary: %q is read as both %q and %q", joined, have, name)
		}
		v.spell[joined] = name
	}
	return nil
}

// implied returns the further terms a title holding term is found by.
func (v *Vocabulary) implied(term string) []string { return v.implies[term] }

// fold rewrites lexed words by the vocabulary, in place: each alphabetic
// part spelled as a variant takes the canonical spelling ("space-gray" ->
// "space-grey"); a word written as a one-word form takes its name
// ("playstation5" -> "ps5"); and the words of a form of several words
// become one word named by it, keeping their parts ("ear buds" -> the word
// "earbud" with the parts "ear" and "buds"), so that a title holding either
// spelling matches.
func (v *Vocabulary) fold(words []word) []word {
	for i := range words {
		w := &words[i]
		for j, p := range w.parts {
			if name, ok := v.spell[Stem(p)]; ok && isAlpha(p) {
				w.parts[j] = name
			}
		}
		// The term is kept on the word either way, so that the steps
		// after this one do not join and stem its parts again.
		t := wordTerm(*w)
		if name, ok := v.spell[t]; ok {
			t = name
		}
		w.term = t
	}
	words = joinLetterNumber(words)
	out := words[:0]
	for i := 0; i < len(words); {
		n, name := v.formAt(words, i)
		if n < 2 {
			out = append(out, words[i])
			i++
			continue
		}
		merged := word{term: name, inch: words[i+n-1].inch, plus: words[i+n-1].plus}
		for _, w := range words[i : i+n] {
			merged.parts = append(merged.parts, w.parts...)
		}
		out = append(out, merged)
		i += n
	}
	return out
}

// formAt returns the number of words of the longest form of several words
// starting at words[i], and its name; 0 when none starts there.
func (v *Vocabulary) formAt(words []word, i int) (int, string) {
	fs := v.forms[wordTerm(words[i])]
	if len(fs) == 0 || words[i].inch || words[i].plus {
		return 0, ""
	}
next:
	for _, f := range fs {
		if i+len(f.words) > len(words) {
			continue
		}
		for k, t := range f.words {
			w := words[i+k]
			if wordTerm(w) != t || (k < len(f.words)-1 && (w.inch || w.plus)) {
				continue next
			}
		}
		return len(f.words), f.name
	}
	return 0, ""
}

// joinLetterNumber joins a model code written with a space after a single
// letter ("S 24", "M 3") into one word with two parts, as "S-24" is read:
// a title or query holding "S24" or both parts matches it. The letter must
// not be a stop word ("a 2 pack") and the number must be a whole number
// without a unit, so that "C 20W" keeps its wattage.
func joinLetterNumber(words []word) []word {
	out := words[:0]
	for i := 0; i < len(words); i++ {
		w := words[i]
		if i+1 < len(words) && len(w.parts) == 1 && len(w.parts[0]) == 1 && isAlpha(w.parts[0]) &&
			!w.inch && !w.plus && !isStopword(w.parts[0]) {
			next := words[i+1]
			if len(next.parts) == 1 && !next.inch && isWholeNumber(next.parts[0]) {
				w = word{parts: []string{w.parts[0], next.parts[0]}, plus: next.plus}
				i++
			}
		}
		out = append(out, w)
	}
	return out
}

// isWholeNumber reports whether s is digits only.
func isWholeNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(rune(s[i])) {
			return false
		}
	}
	return s != ""
}
