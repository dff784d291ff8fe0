package eval

import (
	"strings"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
	"productsearch/internal/match"
	"productsearch/internal/normalize"
)

// listing is what an evaluation knows of one offer before matching.
type listing struct {
	Retailer, Title, Brand, GTIN, MPN, ModelNumber, Colour string
	CategoryPath, TaxonomyID, Description                  string
}

// item turns a listing into what the matcher reads, the way the indexer
// does: the brand canonicalised, the listing classified, the title's specs
// read for its category. A listing without a brand takes the first word of
// its title as a last resort.
func item(l listing) match.Item {
	brand := normalize.Brand(l.Brand)
	if brand == "" {
		brand = firstTitleWord(l.Title)
	}
	cls := classify.Listing(classify.Input{Title: l.Title, CategoryPath: l.CategoryPath, TaxonomyID: l.TaxonomyID, Brand: brand})
	it := match.Item{
		Retailer:    l.Retailer,
		Brand:       brand,
		MPN:         l.MPN,
		ModelNumber: l.ModelNumber,
		Colour:      l.Colour,
		Title:       l.Title,
		Description: l.Description,
		Category:    cls.Category,
		Accessory:   cls.Type == catalog.TypeAccessory,
		Specs:       extract.Title(l.Title, extract.Context{Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory}),
	}
	if g, ok := normalize.GTIN(l.GTIN); ok {
		it.GTIN = g
	}
	return it
}

// firstTitleWord returns the first word of a title that can be a brand:
// not a filler such as "new" or "the", and not a number or a model code
// ("WVG30462GB washer dryer", "S1151 Core i7-6700K").
func firstTitleWord(title string) string {
	for _, w := range strings.FieldsFunc(title, func(r rune) bool {
		return r == ' ' || r == '-' || r == ',' || r == '(' || r == ')' || r == '[' || r == ']' || r == '/' || r == '"'
	}) {
		switch strings.ToLower(w) {
		case "new", "the", "a", "an", "genuine", "official", "original", "brand":
			continue
		}
		if strings.ContainsAny(w, "0123456789") {
			return ""
		}
		return normalize.Brand(w)
	}
	return ""
}

// pairItem maps a pair record's attributes onto a listing.
func pairItem(r Record) match.Item {
	return item(listing{
		Title:        r.Get("name", "title"),
		Brand:        r.Get("brand", "manufacturer"),
		ModelNumber:  r.Get("modelno"),
		CategoryPath: r.Get("category"),
		Description:  r.Get("description"),
	})
}
