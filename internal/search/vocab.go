package search

import (
	"strings"

	"productsearch/internal/catalog"
)

// The word lists below hold terms as Stem leaves them (singular, lowercase,
// hyphens removed). They are switch statements rather than package-level
// maps so that they cannot be changed at run time.

// isStopword reports whether t carries no meaning for finding products:
// articles, prepositions, price words and request phrasing.
func isStopword(t string) bool {
	switch t {
	case "a", "an", "the", "and", "or", "with", "without", "for", "of", "in", "on", "to", "by", "from",
		"at", "into", "that", "this", "these", "those", "which", "is", "are", "be", "it", "its", "as",
		"under", "below", "over", "above", "less", "more", "than", "upto", "up", "around", "about",
		"between", "within", "maximum", "minimum", "least", "most",
		"gbp", "pound", "price", "priced", "cost", "costing",
		"me", "my", "i", "we", "our", "need", "want", "looking", "find", "show", "buy", "get",
		"some", "any", "very", "really", "please":
		return true
	}
	return false
}

// isUseCaseWord reports whether t describes a use or a wish rather than a
// product ("gaming", "cheap", "best"); such words only affect ranking.
func isUseCaseWord(t string) bool {
	switch t {
	case "gaming", "gamer", "cheap", "cheapest", "cheaper", "best", "better", "budget", "affordable",
		"inexpensive", "good", "great", "top", "premium", "flagship", "latest", "newest", "new",
		"popular", "recommended", "value", "quality", "highend", "entrylevel", "powerful", "decent",
		"reliable", "student", "school", "college", "university", "office", "work", "business",
		"travel", "everyday", "beginner", "professional", "home", "family", "kid", "children",
		"fast", "quiet", "lightweight", "nice", "ideal", "perfect", "deal", "bargain", "sale", "offer":
		return true
	}
	return false
}

// isAccessoryWord reports whether t names an accessory, so that a query
// holding it does not rank devices above accessories.
func isAccessoryWord(t string) bool {
	switch t {
	case "case", "cover", "protector", "screenprotector", "strap", "band", "charger", "sleeve",
		"stand", "mount", "holder", "skin", "bag", "pouch", "dock", "adapter", "adaptor", "cable",
		"glass", "film", "bracket", "folio", "tip", "cushion", "earpad", "pad", "replacement",
		"spare", "cartridge", "ink", "toner", "grip", "cradle", "bumper", "wallet", "lanyard":
		return true
	}
	return false
}

// IsCategoryWord reports whether term (as Analyze normalises it) names the
// category: such words are ranking-only when the category filter is set,
// for instance "router" within Networking or "laptop" within Laptops.
func IsCategoryWord(category, term string) bool { return catalog.Category(category).HasWord(term) }

// suggestCategory names the valid category a mistaken category value most
// likely means ("Smartphones" -> Phones, "Televisions" -> TVs), or "".
func suggestCategory(value string) string {
	words := lex(value)
	if len(words) == 0 {
		return ""
	}
	var compact strings.Builder
	for _, w := range words {
		compact.WriteString(wordTerm(w))
	}
	whole := Stem(compact.String())
	for _, c := range catalog.Categories() {
		var name strings.Builder
		for _, w := range lex(c) {
			if t := wordTerm(w); t != "and" {
				name.WriteString(t)
			}
		}
		if strings.ReplaceAll(whole, "and", "") == name.String() || whole == Stem(strings.ToLower(c)) {
			return c
		}
	}
	if c := categoryForTerm(whole); c != "" {
		return c
	}
	for _, w := range words {
		if c := categoryForTerm(wordTerm(w)); c != "" {
			return c
		}
	}
	return ""
}

// categoryForTerm names the category whose vocabulary holds term, with a few
// extra product kinds that only appear as mistaken category values.
func categoryForTerm(term string) string {
	for _, c := range catalog.Categories() {
		if IsCategoryWord(c, term) {
			return c
		}
	}
	switch term {
	case "ipad":
		return string(catalog.Tablets)
	case "iphone", "cell":
		return string(catalog.Phones)
	case "webcam", "dashcam", "actioncamera":
		return string(catalog.Cameras)
	case "ssd", "hdd", "harddrive", "memorycard", "sdcard", "usbstick":
		return string(catalog.Storage)
	case "soundbar", "turntable", "amplifier", "receiver":
		return string(catalog.Audio)
	case "powerbank", "usbcable", "plug":
		return string(catalog.CablesChargers)
	case "fitnesstracker", "fitnessband":
		return string(catalog.Wearables)
	case "videogame", "controller", "playstation", "xbox", "nintendo":
		return string(catalog.Gaming)
	}
	return ""
}
