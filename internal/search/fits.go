package search

import "slices"

// TitleFits returns the terms a title holds only after the word "for": the
// device a product is made for ("WD_BLACK SN850P SSD for PS5 Consoles" ->
// "ps5", "console", ...), not what the product is. Under relevance, a
// product whose title holds a required query word only there ranks after
// the products that are what the query names, as an accessory does (unless
// the query asks for an accessory); see Analysis.Accessory. Nil when the
// title has no "for".
func TitleFits(title string) []string {
	vocab := defaultVocabulary()
	return vocab.titleFits(vocab.fold(lex(title)))
}

// TitleText returns a title's TitleTerms and TitleFits, reading it once.
func TitleText(title string) (words, terms, fits []string) {
	vocab := defaultVocabulary()
	lexed := vocab.fold(lex(title))
	words, terms = vocab.titleTerms(lexed)
	return words, terms, vocab.titleFits(lexed)
}

// titleFits is TitleFits over folded words.
func (vocab *Vocabulary) titleFits(lexed []word) []string {
	k := slices.IndexFunc(lexed, func(w word) bool { return wordTerm(w) == "for" })
	if k < 0 {
		return nil
	}
	_, before := vocab.titleTerms(lexed[:k])
	_, after := vocab.titleTerms(lexed[k+1:])
	var fits []string
	for _, t := range after {
		if t != "for" && !slices.Contains(before, t) {
			fits = append(fits, t)
		}
	}
	return fits
}
