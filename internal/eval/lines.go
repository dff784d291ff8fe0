package eval

import (
	"strings"

	"productsearch/internal/normalize"
)

// lineBrands maps the name of a model line to the brand it belongs to
// ("iphone": Apple, "galaxy": Samsung), as one data set's titles show it.
// A title that names no brand but starts with a line's name ("iPhone 8
// 64GB", "Galaxy S9 64GB") is that brand's, not a guess.
type lineBrands map[string]string

// Learning a line's brand: the fewest titles that give the word right after
// a known brand, and the least share of them that give it after the same
// one.
const (
	minLineTitles = 3
	minLineShare  = 0.9
)

// learnLineBrands reads, from the titles of one data set, the word each
// gives right after a known brand ("Apple iPhone 8", "Samsung Galaxy S9")
// and keeps the words that at least minLineTitles titles give, nearly
// all after one brand. A brand known with its line's name ("Google
// Pixel") gives that name. A word that is a brand itself, has digits or fewer
// than three letters is no line's name.
func learnLineBrands(titles []string) lineBrands {
	counts := map[string]map[string]int{}
	for _, t := range titles {
		w, brand := wordAfterBrand(t)
		if w == "" {
			continue
		}
		if counts[w] == nil {
			counts[w] = map[string]int{}
		}
		counts[w][brand]++
	}
	lines := lineBrands{}
	for w, byBrand := range counts {
		total, best, top := 0, "", 0
		for b, n := range byBrand {
			total += n
			if n > top || n == top && b < best {
				best, top = b, n
			}
		}
		if total >= minLineTitles && float64(top) >= minLineShare*float64(total) {
			lines[w] = best
		}
	}
	return lines
}

// wordAfterBrand returns the word a title gives right after the known
// brand among its first words (see titleBrand), lower case, and the brand;
// or "" when there is none or it can name no line.
func wordAfterBrand(title string) (word, brand string) {
	ws := titleWords(title)
	i, n, brand := knownBrandAt(ws)
	if n == 2 && normalize.KnownBrand(ws[i]) == brand {
		n = 1 // the brand and its line's name, known together ("Google Pixel")
	}
	if brand == "" || i+n >= len(ws) {
		return "", ""
	}
	next := strings.ToLower(ws[i+n])
	if len(next) < 3 || strings.ContainsAny(next, "0123456789") || normalize.KnownBrand(next) != "" {
		return "", ""
	}
	return next, brand
}

// brandOf returns the brand of a line whose name a title starts with, or "".
func (l lineBrands) brandOf(title string) string {
	if len(l) == 0 {
		return ""
	}
	w := firstTitleWord(title)
	return l[strings.ToLower(w)]
}
