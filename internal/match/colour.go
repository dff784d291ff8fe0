package match

import (
	"strings"

	"productsearch/internal/classify"
)

// colourWords maps colour words as retailers write them to one canonical
// colour, so "Space Grey" and "space gray" agree.
var colourWords = map[string]string{
	"black": "black", "midnight": "black", "graphite": "black", "onyx": "black", "obsidian": "black", "phantom black": "black",
	"white": "white", "starlight": "white", "chalk": "white", "porcelain": "white", "cream": "white",
	"silver": "silver", "platinum": "silver",
	"grey": "grey", "gray": "grey", "space grey": "grey", "space gray": "grey", "titanium grey": "grey", "charcoal": "grey",
	"blue": "blue", "navy": "blue", "sky blue": "blue", "midnight blue": "blue", "sierra blue": "blue", "ocean": "blue",
	"green": "green", "mint": "green", "sage": "green", "olive": "green",
	"red": "red", "crimson": "red",
	"pink": "pink", "rose": "pink", "rose gold": "pink",
	"purple": "purple", "lavender": "purple", "violet": "purple",
	"gold": "gold", "yellow": "yellow", "orange": "orange", "plum": "purple", "burgundy": "red",
	"turquoise": "blue", "teal": "blue", "aqua": "blue", "cyan": "blue", "magenta": "pink", "lime": "green",
	"bronze": "bronze", "copper": "copper", "brown": "brown", "beige": "beige", "clear": "clear",
	"transparent":      "clear",
	"natural titanium": "titanium", "titanium": "titanium", "desert titanium": "titanium",
	// Shops that list imports in their makers' languages: German, French,
	// Italian, Spanish ("Mikrowelle schwarz", "gris sidéral").
	"schwarz": "black", "weiss": "white", "weiß": "white", "silber": "silver", "grau": "grey", "blau": "blue",
	"grün": "green", "gruen": "green", "gelb": "yellow", "braun": "brown", "noir": "black", "blanc": "white",
	"argent": "silver", "gris": "grey", "bleu": "blue", "rouge": "red", "rot": "red", "vert": "green", "bianco": "white",
	"grigio": "grey", "argento": "silver", "rosso": "red", "negro": "black", "blanco": "white", "plata": "silver",
	"azul": "blue", "rojo": "red",
}

// colourOf returns the canonical colour of an item: its colour field when it
// names a known colour, else a colour word in its title, else "".
func colourOf(it Item) string {
	if c := canonicalColour(it.Colour); c != "" {
		return c
	}
	if it.Colour != "" {
		// "Soft Black", "Cobalt Violet": the colour the name contains.
		if c := titleColour(it.Colour); c != "" {
			return c
		}
		return strings.ToLower(strings.Join(strings.Fields(it.Colour), " "))
	}
	return titleColour(withoutBrand(it.Title, it.Brand))
}

// withoutBrand drops the brand's name from the start of a title, so that a
// maker named after a colour ("Black Box", "Red Magic", "Blue") states no
// colour. Case and punctuation are ignored ("BLACK-BOX").
func withoutBrand(title, brand string) string {
	b := alnumOnly(brand)
	if b == "" {
		return title
	}
	k := 0
	for i := 0; i < len(title); i++ {
		c := title[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if !isDigitByte(c) && !isLetterByte(c) {
			continue
		}
		if c != b[k] {
			return title
		}
		if k++; k == len(b) {
			return title[i+1:]
		}
	}
	return title
}

func canonicalColour(s string) string {
	return colourWords[strings.ToLower(strings.Join(strings.Fields(s), " "))]
}

// titleColour finds a colour phrase in a title, preferring two-word phrases
// ("space grey") over single words. Only the title's tail after the first
// separator-free run is not considered special: any position counts.
func titleColour(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == '-' || r == '/' || r == '|' || r == '[' || r == ']' || r == '"'
	})
	found := ""
	for i := 0; i < len(words); i++ {
		if i+1 < len(words) {
			if c, ok := colourWords[words[i]+" "+words[i+1]]; ok {
				if found != "" && found != c {
					return "" // two colours named: not a colour statement we trust
				}
				found = c
				i++
				continue
			}
		}
		if c, ok := colourWords[words[i]]; ok {
			if found != "" && found != c {
				return ""
			}
			found = c
		}
	}
	return found
}

// colourSet is a set of the canonical colours that model codes spell.
type colourSet uint16

// colourBit returns the set holding one canonical colour, or 0 for a
// colour no code letters spell ("titanium", "clear").
func colourBit(c string) colourSet {
	switch c {
	case "black":
		return 1 << 0
	case "white":
		return 1 << 1
	case "silver":
		return 1 << 2
	case "grey":
		return 1 << 3
	case "blue":
		return 1 << 4
	case "green":
		return 1 << 5
	case "red":
		return 1 << 6
	case "pink":
		return 1 << 7
	case "purple":
		return 1 << 8
	case "gold":
		return 1 << 9
	case "yellow":
		return 1 << 10
	case "orange":
		return 1 << 11
	case "brown":
		return 1 << 12
	}
	return 0
}

// colourLetters returns the colours that letters ending a model code can
// stand for, or 0 when they are no colour code: makers end one model's
// code with a colour's letters ("BK", "BLK", "WH", "SIL"), and "B" and "BL"
// are black as often as blue.
func colourLetters(s string) colourSet {
	switch s {
	case "BK", "BLK", "BLACK":
		return colourBit("black")
	case "B", "BL":
		return colourBit("black") | colourBit("blue")
	case "BLU", "BU", "BLUE", "NV", "NVY", "NAVY":
		return colourBit("blue")
	case "W", "WH", "WT", "WHT", "WHI", "WHITE":
		return colourBit("white")
	case "S", "SL", "SV", "SIL", "SLV", "SILVER":
		return colourBit("silver")
	case "GY", "GRY", "GREY", "GRAY":
		return colourBit("grey")
	case "GR":
		return colourBit("grey") | colourBit("green")
	case "G", "GN", "GRN", "GREEN":
		return colourBit("green")
	case "R", "RD", "RED":
		return colourBit("red")
	case "P", "PK", "PNK", "PINK":
		return colourBit("pink")
	case "PU", "PUR", "PRP", "PURPLE":
		return colourBit("purple")
	case "GD", "GLD", "GOLD":
		return colourBit("gold")
	case "Y", "YL", "YW", "YEL", "YELLOW":
		return colourBit("yellow")
	case "O", "OR", "ORG", "ORANGE":
		return colourBit("orange")
	case "BR", "BRN", "BROWN":
		return colourBit("brown")
	}
	return 0
}

// dropColourWords leaves the colour words out of a title of the catalog's
// categories when colours are one product: "iphone 14 256gb yellow" and
// "iphone 14 256gb gelb" say the same. A title outside them keeps its
// colour: an appliance's colour is often its model ("serie 2 dishwasher in
// white" and "... in black" are two).
func (p *profile) dropColourWords() {
	kept := p.words[:0]
	nMain, stock := p.nMain, p.stock
	for i, w := range p.words {
		if colourWords[w] == "" && !colourName(p.words[:p.nMain], i, p.brand) {
			kept = append(kept, w)
			continue
		}
		if i < p.nMain {
			nMain--
		}
		if i < p.stock {
			stock--
		}
	}
	p.words, p.nMain, p.stock = kept, nMain, stock
}

// colourName reports whether words[i] names a colour with the colour word
// that ends a title's main clause right after it ("ice" of "ice blue",
// "flamingo" of "flamingo pink"): a plain word, not the brand, a variant,
// a model's name, what the product is sold in ("kit black") or what it is
// ("webcam graphite").
func colourName(words []string, i int, brand string) bool {
	n := len(words)
	return i == n-2 && colourWords[words[n-1]] != "" && len(words[i]) >= 3 && lettersOnly(words[i]) &&
		words[i] != brand && variantWords[words[i]] == 0 && !kitWord(words[i]) && editionOf(words[i]) == 0 &&
		!classify.NamesKind(words[i])
}
