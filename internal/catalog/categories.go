package catalog

import (
	"slices"
	"strings"
)

// Category is one of the 19 product categories, by its exact name.
type Category string

// The 19 categories in their canonical order and spelling.
const (
	Laptops        Category = "Laptops"
	Desktops       Category = "Desktops"
	Tablets        Category = "Tablets"
	Phones         Category = "Phones"
	TVs            Category = "TVs"
	Monitors       Category = "Monitors"
	Headphones     Category = "Headphones"
	Speakers       Category = "Speakers"
	Cameras        Category = "Cameras"
	Keyboards      Category = "Keyboards"
	Mice           Category = "Mice"
	Printers       Category = "Printers"
	Networking     Category = "Networking"
	Storage        Category = "Storage"
	Gaming         Category = "Gaming"
	Wearables      Category = "Wearables"
	Drones         Category = "Drones"
	Audio          Category = "Audio"
	CablesChargers Category = "Cables & Chargers"
)

// AllCategories returns the 19 categories in their canonical order.
func AllCategories() []Category {
	return []Category{
		Laptops, Desktops, Tablets, Phones, TVs, Monitors, Headphones, Speakers, Cameras, Keyboards, Mice,
		Printers, Networking, Storage, Gaming, Wearables, Drones, Audio, CablesChargers,
	}
}

// Categories returns the names of the 19 categories in their canonical
// order.
func Categories() []string {
	all := AllCategories()
	out := make([]string, len(all))
	for i, c := range all {
		out[i] = string(c)
	}
	return out
}

// IsCategory reports whether name is one of the 19 exact category values.
func IsCategory(name string) bool { return slices.Contains(AllCategories(), Category(name)) }

// Valid reports whether c is one of the 19 categories.
func (c Category) Valid() bool { return IsCategory(string(c)) }

// HasWord reports whether word (lowercase, singular, without hyphens, as
// search terms are normalised) names the category in a query: "laptop" or
// "notebook" for Laptops, "router" for Networking.
func (c Category) HasWord(word string) bool {
	for rest := c.words(); rest != ""; {
		var w string
		w, rest, _ = strings.Cut(rest, " ")
		if w == word {
			return true
		}
	}
	return false
}

// Words returns the words naming the category, normalised as HasWord
// expects them.
func (c Category) Words() []string { return strings.Fields(c.words()) }

// words lists the words naming the category, separated by spaces.
func (c Category) words() string {
	switch c {
	case Laptops:
		return "laptop notebook ultrabook"
	case Desktops:
		return "desktop pc computer tower"
	case Tablets:
		return "tablet"
	case Phones:
		return "phone smartphone mobile cellphone handset mobilephone"
	case TVs:
		return "tv television telly smarttv"
	case Monitors:
		return "monitor display screen"
	case Headphones:
		return "headphone earbud earphone headset"
	case Speakers:
		return "speaker"
	case Cameras:
		return "camera"
	case Keyboards:
		return "keyboard"
	case Mice:
		return "mouse"
	case Printers:
		return "printer"
	case Networking:
		return "router mesh wifi network networking wireless"
	case Storage:
		return "storage drive disk"
	case Gaming:
		return "gaming game console"
	case Wearables:
		return "wearable smartwatch watch tracker"
	case Drones:
		return "drone quadcopter"
	case Audio:
		return "audio hifi"
	case CablesChargers:
		return "cable charger lead charging"
	}
	return ""
}
