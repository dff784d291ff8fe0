package match

import "strings"

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
	return titleColour(it.Title)
}

func canonicalColour(s string) string {
	return colourWords[strings.ToLower(strings.Join(strings.Fields(s), " "))]
}

// titleColour finds a colour phrase in a title, preferring two-word phrases
// ("space grey") over single words. Only the title's tail after the first
// separator-free run is not considered special: any position counts.
func titleColour(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return r == ' ' || r == ',' || r == '(' || r == ')' || r == '-' || r == '/' || r == '|' || r == '[' || r == ']'
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
