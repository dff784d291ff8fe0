package match

import "strings"

// A shop's boilerplate is the words it writes in many of its titles and
// no other shop writes: its slogans ("upgrade your setup", "a customer
// favourite"), its formatting ("sim free", "mob/") or its language
// ("Kühlschrank", "Speicher"). They describe the shop, not the product:
// two shops' titles of one product never share them, and a slogan's
// "upgrade" sells no upgrade.
const (
	// minShopWord is the fewest of a shop's listings that write a word
	// for it to be the shop's; a model's code or name is written once.
	minShopWord = 8
	// shopWordShare is how many times more of the shop's listings write
	// the word than listings of all other shops together: one shop's
	// slogan against a few other shops' real upgrades.
	shopWordShare = 10
)

// shopWords counts, per retailer, the listings whose titles write each
// word.
type shopWords map[string]map[string]int32

// add counts the distinct words of one of retailer's listings.
func (s shopWords) add(retailer string, words []string) {
	if retailer == "" {
		return
	}
	m := s[retailer]
	if m == nil {
		m = map[string]int32{}
		s[retailer] = m
	}
	for _, w := range words {
		if n, ok := m[w]; ok {
			m[w] = n + 1
		} else {
			m[strings.Clone(w)] = 1 // a slice of the listing's title: keep a copy
		}
	}
}

// merge adds o's counts to s.
func (s shopWords) merge(o shopWords) {
	for r, words := range o {
		m := s[r]
		if m == nil {
			s[r] = words
			continue
		}
		for w, n := range words {
			m[w] += n
		}
	}
}

// boilerplate returns, per retailer, its boilerplate words, given how many
// listings of all retailers write each word.
func (s shopWords) boilerplate(df map[string]int32) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for r, words := range s {
		for w, n := range words {
			if n < minShopWord || (df[w]-n)*shopWordShare > n || !lettersOnly(w) {
				continue // a figure is a spec however the shop writes it ("128 gb")
			}
			if out[r] == nil {
				out[r] = map[string]bool{}
			}
			out[r][w] = true
		}
	}
	return out
}

// dropBoilerplateEditions takes back the variant or edition a shop's
// boilerplate word would name: the "upgrade" of "upgrade your setup" sells
// no upgrade. The words stay in the title's words, which similarity weighs
// by their rarity, and which find a listing's candidates.
func (p *profile) dropBoilerplateEditions(boiler map[string]bool) {
	for _, w := range p.words {
		if boiler[w] {
			p.edition &^= editionOf(w)
			p.mainVar &^= variantWords[w]
		}
	}
}
