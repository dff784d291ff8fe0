package normalize

import (
	"unicode"

	"productsearch/internal/lexer"
)

// minSlipBrand is the fewest letters of a word, and of a known brand's
// name, for the word to read as the name with one slip: shorter words one
// letter apart are other words or other makers ("Sony" and "Sonos",
// "rich" and "Ricoh").
const minSlipBrand = 5

// MisspeltBrand returns the known brand that word w, a title's first, spells
// with one slip of the keyboard after its first letter ("cnaon" Canon,
// "panassonic" Panasonic), or "" when it spells none or more than one. A
// known brand is not misspelt, and a slip in the first letter makes
// another name ("Zanker" is not Anker).
func MisspeltBrand(w string) string {
	key := brandKey(text(w), false)
	if len(key) < minSlipBrand || canonicalBrand(key) != "" {
		return ""
	}
	for _, r := range key {
		if !unicode.IsLetter(r) {
			return ""
		}
	}
	found := ""
	for _, b := range brandTable {
		if len(b.key) < minSlipBrand || b.key[0] != key[0] || !lexer.OneSlip(key, b.key) {
			continue
		}
		if found != "" && found != b.name {
			return ""
		}
		found = b.name
	}
	return found
}

// SlipOf reports whether word w spells the known brand with one slip of
// the keyboard after its first letter, however short ("somy" Sony, "hnor"
// Honor). Short words one letter apart are as often other names, so a
// caller takes it only where the title's model names the brand as well.
func SlipOf(w, brand string) bool {
	key, b := brandKey(text(w), false), brandKey(text(brand), false)
	return len(key) >= 3 && len(b) >= 3 && key[0] == b[0] && canonicalBrand(key) == "" && lexer.OneSlip(key, b)
}
