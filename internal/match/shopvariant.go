package match

import (
	"slices"
	"strings"
)

// A shop lists a product once. Two of its listings of one brand that name
// one model and agree on everything else, one of them with a word right
// after the model's name that the other does not write ("Blade V9 Vita"
// beside "Blade V9", "Hero5 Session" beside "Hero5 Black"), are two
// products, and the word names a variant of the model wherever it follows
// the name, in any shop's title: one shop's pair teaches what no list of
// variant words knows.
const (
	// maxVariantDF is the most listings of the catalog that may write a
	// word for it to name a variant: a kind's name ("smartphone",
	// "camera") fills many titles, a variant's few.
	maxVariantDF = 64
	// minVariantWord is the shortest word read as a variant's name.
	minVariantWord = 3
	// minVariantShops is the fewest shops that must write a word right
	// after a model's name: a variant is named alike by the shops that
	// sell it, a shop's own description is not.
	minVariantShops = 2
)

// learnShopVariants finds a partition's variant words from the pairs of
// one shop's listings that name one model, and records in each profile the
// learnt variant word right after its model's name. items and prof are the
// partition's listings and their profiles.
func (g *groups) learnShopVariants(items []Item, prof []profile) {
	type key struct{ shop, name string }
	byName := map[key][]int{}
	after := make([]string, len(prof)) // the word after each listing's model name
	shopsOf := map[string][]string{}   // the shops that write each such word
	for k := range prof {
		p := &prof[k]
		if p.category != phones && p.category != cameras || p.acc {
			continue // a device named by its model's name, not by a part number
		}
		at := modelNameAt(p)
		if at < 0 {
			continue
		}
		r := items[k].Retailer
		after[k] = g.wordAfter(p, at)
		if w := after[k]; w != "" && !slices.Contains(shopsOf[w], r) {
			shopsOf[w] = append(shopsOf[w], r)
		}
		if r != "" {
			kk := key{r, p.words[at]}
			byName[kk] = append(byName[kk], k)
		}
	}
	learnt := map[string]bool{}
	for _, ks := range byName {
		if len(ks) < 2 || len(ks) > maxPairChecks {
			continue
		}
		for x, a := range ks {
			for _, b := range ks[x+1:] {
				for _, ab := range [2][2]int{{a, b}, {b, a}} {
					w, p, q := after[ab[0]], &prof[ab[0]], &prof[ab[1]]
					if w != "" && len(shopsOf[w]) >= minVariantShops && !slices.Contains(q.words, w) && agreeOtherwise(p, q) {
						learnt[w] = true
					}
				}
			}
		}
	}
	for k, w := range after {
		if learnt[w] {
			prof[k].shopVariant = w
		}
	}
}

// modelNameAt returns the place among a title's main words of the short
// name it gives its model (a letter and a digit, a model-line code or a
// model-line word's number: "V9", "Hero5", "7" of "Moto 7"), or -1; a
// name of letters alone ("XZ") is none.
func modelNameAt(p *profile) int {
	for k, w := range p.words[:p.nMain] {
		if shortName(w) {
			return k
		}
		if k > 0 && slices.Contains(p.slots, slot{key: p.words[k-1], num: w}) {
			return k
		}
		if len(w) <= maxModelName && slices.ContainsFunc(p.codes, func(c code) bool {
			return c.kind >= codeLine && !c.fit && strings.EqualFold(c.s, w)
		}) {
			return k
		}
	}
	return -1
}

// wordAfter returns the word right after a title's model name, at place
// at, that could name a variant: letters only, rare in the catalog, no
// colour, unit or stop word, and no variant or edition word the matcher
// reads already; or "".
func (g *groups) wordAfter(p *profile, at int) string {
	if at+1 >= p.nMain {
		return ""
	}
	w := p.words[at+1]
	if len(w) < minVariantWord || !lettersOnly(w) || isStopWord(w) || unitWords[w] || colourWords[w] != "" ||
		variantWords[w] != 0 || editionOf(w) != 0 || g.m.df[w] > maxVariantDF {
		return ""
	}
	return w
}

// agreeOtherwise reports whether two listings state nothing that tells
// them apart besides their words: no specs, model-line numbers, variant
// words or editions that differ.
func agreeOtherwise(p, q *profile) bool {
	return !specsConflict(p.specs, q.specs) && !slotsConflict(p.slots, q.slots, p.hasFit && q.hasFit, true) &&
		p.mainVar == q.mainVar && p.edition == q.edition && p.kit == q.kit
}

// shopVariantsDiffer reports whether one listing's title gives a variant
// word a shop's pair taught (see learnShopVariants) that the other title
// does not write.
func shopVariantsDiffer(p, q *profile) bool {
	return p.shopVariant != "" && !slices.Contains(q.words, p.shopVariant) ||
		q.shopVariant != "" && !slices.Contains(p.words, q.shopVariant)
}
