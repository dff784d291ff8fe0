package eval

import (
	"slices"
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
	// lines are the model lines the data set's titles show the brands of.
	lines lineBrands
}

// item turns a listing into what the matcher reads, the way the indexer
// does: the brand canonicalised, the listing classified, the title's specs
// read for its category. A listing without a brand takes the first word of
// its title as a last resort, marked as a guess unless it is a known brand,
// a known brand misspelt by one slip, or the name of a model line the data
// set shows the brand of ("iPhone 8 64GB": Apple); a guess gives way to a
// known brand further in, unless the data set shows it as a brand (see
// leadMark).
func item(l listing) match.Item {
	brand, guessed := normalize.Brand(l.Brand), false
	if brand == "" {
		brand = titleBrand(l.Title)
		guessed = brand != "" && normalize.KnownBrand(brand) == ""
		if b := l.lines.brandOf(l.Title); (guessed || brand == "") && b != "" {
			brand, guessed = b, false
		}
		if brand == "" || guessed {
			if b := l.lines.codeBrand(l.Title); b != "" {
				brand, guessed = b, false
			}
		}
		if b := normalize.MisspeltBrand(brand); guessed && b != "" {
			brand, guessed = b, false // "aple iphone 6s", "panassonic lumix gh4"
		}
		if b := l.lines.slipConfirmed(l.Title); guessed && b != "" {
			brand, guessed = b, false // "somy kd55xh8196bu", "hnor view 20"
		}
		if b := innerBrand(titleWords(l.Title)); guessed && b != "" && !l.lines.leads(brand) && !leadsCode(l.Title) {
			// A first word few titles start with, and no code after it,
			// is no brand beside a known one further in: "appareil photo
			// reflex nikon d7200", "t l viseur led panasonic tx 58gx800";
			// "hotpoint ... polar white" stays Hotpoint's.
			brand, guessed = b, false
		}
	}
	cls := classify.Listing(classify.Input{Title: l.Title, CategoryPath: l.CategoryPath, TaxonomyID: l.TaxonomyID, Brand: brand})
	it := match.Item{
		Retailer:     l.Retailer,
		Brand:        brand,
		MPN:          l.MPN,
		ModelNumber:  l.ModelNumber,
		Colour:       l.Colour,
		Title:        l.Title,
		Description:  l.Description,
		Category:     cls.Category,
		Accessory:    cls.Type == catalog.TypeAccessory,
		BrandGuessed: guessed,
		Specs:        extract.Title(l.Title, extract.Context{Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory}),
	}
	if g, ok := normalize.GTIN(l.GTIN); ok {
		it.GTIN = g
	}
	return it
}

// maxBrandWord is how far into a title a known brand is looked for.
const maxBrandWord = 3

// titleBrand returns the brand of a title that gives none in a field: a
// known brand among its first three words, alone or with the next word
// ("Used Canon EOS 70D", "Bateria Leica GEB77", "Western Digital Green"),
// before any "for", else the known brand it ends with ("D3500 body only
// Nikon"), else, for a title that starts with a number or a kind of
// product, the known brand it gives further in ("7plus 64 gb nokia"), else
// its first word that can be a brand.
func titleBrand(title string) string {
	ws := titleWords(title)
	if _, _, b := knownBrandAt(ws); b != "" {
		return b
	}
	if b := lastBrand(ws); b != "" {
		return b
	}
	if b := gluedBrand(leadWord(title)); b != "" {
		return b
	}
	if b := gluedSeries(ws); b != "" {
		return b
	}
	first := firstTitleWord(title)
	if lead := leadWord(title); first == "" || classify.NamesKind(strings.ToLower(lead)) {
		// A title that starts with a number or a kind of product
		// ("7plus 64 gb nokia", "mirrorless camera panasonic g7") names
		// its brand further in, if at all.
		if b := innerBrand(ws); b != "" {
			return b
		}
	}
	return first
}

// minGluedBrand is the fewest letters of a brand a title's first word
// starts with, its model glued on, for the word to read as that brand.
const minGluedBrand = 3

// gluedBrand returns the known brand a title's first word starts with,
// the model's code or name glued on ("SamsungQE55Q60RATXXU", "Honor8X",
// "TCL50EP658", "PanasonicTX"), or "": what follows the brand has a digit,
// or starts a word of capitals after the brand's small letters.
func gluedBrand(w string) string {
	for k := len(w) - 1; k >= minGluedBrand-1; k-- {
		rest := w[k:]
		if !strings.ContainsAny(rest, "0123456789") && !(isLower(w[k-1]) && isUpper(w[k])) {
			continue
		}
		if k < minGluedBrand && (len(rest) < 4 || !strings.ContainsAny(rest, "0123456789")) {
			continue // a brand of two letters glued to a model's code ("LGOLED55BX6LB")
		}
		if b := normalize.KnownBrand(w[:k]); b != "" && normalize.KnownBrand(rest) == "" {
			return b
		}
	}
	return ""
}

// gluedSeries returns the known brand a title's first word starts with
// when a series' letters are glued on and the model's code follows as a
// word of its own ("panasonictx 55ex750b", "sonykd 49xg8096bu"), or "".
func gluedSeries(ws []string) string {
	ws = slices.DeleteFunc(slices.Clone(ws), prefixWord)
	if len(ws) < 2 || !lettersOnly(ws[0]) || !modelCode(ws[1]) && !strings.ContainsAny(ws[1][:1], "0123456789") {
		return ""
	}
	w := ws[0]
	for k := max(minGluedBrand, len(w)-maxSeriesLetters); k < len(w); k++ {
		if b := normalize.KnownBrand(w[:k]); b != "" {
			return b
		}
	}
	return ""
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// innerBrand returns the known brand a title gives by its own name further
// in, also with the model glued on, before any clause of a device it fits
// ("7plus 64 gb nokia black", "4k action camera gopro hero4 silver", "55
// philips55oled804/12"), or "".
func innerBrand(ws []string) string {
	for _, w := range ws {
		switch strings.ToLower(w) {
		case "for", "with", "compatible", "fits":
			return ""
		}
		if b := normalize.KnownBrand(w); ownName(w, b) {
			return b
		}
		if b := gluedBrand(w); b != "" && leadingLetters(w) >= minInnerGlued {
			return b // "55 philips55oled804/12", not "iq500 wd14h422gb"
		}
	}
	return ""
}

// minInnerGlued is the fewest letters a word further in a title starts
// with for a known brand glued to a code to count: a model's code starts
// with a brand's letters of two or three as often ("WD14H422GB").
const minInnerGlued = 4

// leadingLetters returns how many ASCII letters a word starts with.
func leadingLetters(w string) int {
	n := 0
	for n < len(w) && (isLower(w[n]) || isUpper(w[n])) {
		n++
	}
	return n
}

// knownBrandAt finds the known brand among a title's first maxBrandWord
// words past a shop's prefix, before any "for": one word or two ("Western
// Digital"). It returns where the brand starts, how many words it takes and
// its canonical name, or an empty name.
func knownBrandAt(ws []string) (at, n int, brand string) {
	seen := 0
	for i, w := range ws {
		if strings.EqualFold(w, "for") {
			break
		}
		if prefixWord(w) {
			continue // "sim free phone Huawei P Smart": a shop's prefix is no word of the title's
		}
		if seen++; seen > maxBrandWord {
			break
		}
		if i+1 < len(ws) {
			if b := normalize.KnownBrand(w + " " + ws[i+1]); b != "" {
				return i, 2, b
			}
		}
		if b := normalize.KnownBrand(w); b != "" {
			return i, 1, b
		}
	}
	return 0, 0, ""
}

// lastBrand returns the known brand a title ends with, one word or two, by
// its own name and not after "for" ("D3500 body only Nikon", "UE65NU7100
// 65 inch Samsung"), or "".
func lastBrand(ws []string) string {
	n := len(ws)
	if n < 2 {
		return ""
	}
	for k := 2; k >= 1; k-- {
		if n-k < 1 || strings.EqualFold(ws[n-k-1], "for") {
			continue
		}
		// The brand's own name: an alias at the end is as often a word cut
		// short ("... touch control mi").
		words := ws[n-k:]
		if b := normalize.KnownBrand(strings.Join(words, " ")); ownName(strings.Join(words, ""), b) {
			return b
		}
	}
	return ""
}

// ownName reports whether s, words run together, spells brand b by its own
// name rather than an alias ("gopro" GoPro, not "mi" Xiaomi).
func ownName(s, b string) bool {
	return b != "" && strings.EqualFold(s, strings.ReplaceAll(b, " ", ""))
}

// titleWords splits a title into words at spaces and punctuation.
func titleWords(title string) []string {
	return strings.FieldsFunc(title, func(r rune) bool {
		return r == ' ' || r == '-' || r == ',' || r == '(' || r == ')' || r == '[' || r == ']' || r == '/' || r == '"'
	})
}

// firstTitleWord returns the first word of a title that can be a brand:
// not a filler such as "new" or "the", and not a number or a model code
// ("WVG30462GB washer dryer", "S1151 Core i7-6700K").
func firstTitleWord(title string) string {
	w := leadWord(title)
	if strings.ContainsAny(w, "0123456789") {
		return ""
	}
	return normalize.Brand(w)
}

// leadWord returns a title's first word past a shop's prefix (see
// prefixWord), or "".
func leadWord(title string) string {
	for _, w := range titleWords(title) {
		if !prefixWord(w) {
			return w
		}
	}
	return ""
}

// leadsCode reports whether a title's first word past a shop's prefix is
// followed by a word with a digit, a model's code after its brand ("zentor
// rla36p ... polar white"): a word with a vowel, not glued on with a
// hyphen; "SM-M315F" and "sm a105f" are part numbers.
func leadsCode(title string) bool {
	ws := slices.DeleteFunc(strings.Fields(title), prefixWord)
	return len(ws) > 1 && !strings.Contains(ws[0], "-") && strings.ContainsAny(strings.ToLower(ws[0]), "aeiouy") &&
		strings.ContainsAny(ws[1], "0123456789")
}

// prefixWord reports whether a title word is a filler, a shop's prefix or
// a colour that comes before the brand: "new", "the", "sim free", "mob/",
// "silver iphone 7".
func prefixWord(w string) bool {
	switch strings.ToLower(w) {
	case "new", "used", "the", "a", "an", "genuine", "official", "original", "brand",
		"sim", "free", "unlocked", "mob", "refurbished", "renewed", "sealed", "boxed", "import", "imported",
		"black", "white", "silver", "gold", "grey", "gray", "blue", "red", "pink", "green", "rose", "purple":
		return true
	}
	return false
}

// pairItem maps a pair record's attributes onto a listing. A title quoted
// by its source is the offer's name; what follows it, the title of the
// page it was found on, is read as description (see offerName).
func pairItem(r Record) match.Item {
	title, page := offerName(r.Get("name", "title"))
	desc := r.Get("description")
	if page != "" {
		desc = strings.TrimSpace(page + " " + desc)
		title += pageCodes(title, page)
	}
	return item(listing{
		Title:        title,
		Brand:        r.Get("brand", "manufacturer"),
		ModelNumber:  r.Get("modelno"),
		CategoryPath: r.Get("category"),
		Description:  desc,
	})
}

// offerName splits a title field that quotes the offer's name and then
// gives the title of the page it was found on ("\"Acme Pro Tripod\"@en
// Tripod AP-100 - Example Shop\"@en") into the name and the page's title. The
// name ends at a closing quote with a language tag ("\"@en"), one a second
// quoted text, a quoted shop's name ("Tripod\" Shopinn\"") or a dash
// follows, or one after which the page's title repeats the name's last word
// ("Tripod\" Tripod ..."); a quote inside the name, an
// inch mark ("Tripod 67\" 3-Section"), is followed by none of these. A field
// with no such quote is the name as it stands.
func offerName(s string) (name, page string) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, `"`) {
		return s, ""
	}
	body := t[1:]
	for i := 0; i < len(body); i++ {
		if body[i] != '"' || i == 0 {
			continue
		}
		head, rest := strings.TrimSpace(body[:i]), body[i+1:]
		if head == "" {
			continue
		}
		after := rest
		if strings.HasPrefix(after, "@") {
			// Skip the language tag: "@en", "@en-US", "@es-es".
			j := 1
			for j < len(after) && (isLetter(after[j]) || after[j] == '-') {
				j++
			}
			return head, strings.TrimSpace(after[j:])
		}
		next := strings.Fields(after)
		if len(next) == 0 {
			return head, ""
		}
		words := strings.Fields(head)
		if strings.HasPrefix(next[0], `"`) || strings.HasSuffix(next[0], `"`) || next[0] == "-" ||
			strings.EqualFold(next[0], words[len(words)-1]) {
			return head, strings.TrimSpace(after)
		}
	}
	return s, ""
}

// pageCodes returns the words of a page's title that carry both letters
// and digits and the offer's name does not, each after a space: a model
// code the shop gives beside the name ("Tripod MT055CXPRO3 - Example Shop").
func pageCodes(name, page string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(page, func(r rune) bool {
		return r == ' ' || r == '"' || r == '|' || r == ',' || r == '(' || r == ')'
	}) {
		w = strings.Trim(w, ":;.-/")
		if len(w) < 4 || !strings.ContainsAny(w, "0123456789") || !strings.ContainsFunc(w, func(r rune) bool { return r < 128 && isLetter(byte(r)) }) ||
			strings.Contains(strings.ToLower(name), strings.ToLower(w)) {
			continue
		}
		b.WriteString(" " + w)
	}
	return b.String()
}

// isLetter reports whether b is an ASCII letter.
func isLetter(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
