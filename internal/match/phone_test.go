package match

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// phone is a phone listing of a shop.
func phone(retailer, brand, title string) Item {
	return Item{Retailer: retailer, Brand: brand, Title: title, Category: "Phones"}
}

// TestComparePhoneSiblings covers a maker's phones of one line, named by
// short model names, letters glued on and networks, that share memory,
// storage and most title words.
func TestComparePhoneSiblings(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "short model names of a letter and a digit",
			a:          phone("A", "Zentor", "Zentor K4 5G (8GB RAM + 128GB)"),
			b:          phone("B", "Zentor", "Zentor K3 5G (8GB RAM + 128GB)"),
			wantReason: "title",
		},
		{
			name:       "a number and a letter right after the brand name a model",
			a:          phone("A", "Zentor", "Zentor 15x 5G (8GB RAM + 128GB)"),
			b:          phone("B", "Zentor", "Zentor K4 5G (8GB RAM + 128GB)"),
			wantReason: "title",
		},
		{
			name:       "a letter that also starts a codec's name and two digits",
			a:          Item{Retailer: "A", Brand: "Zentor", Category: "Cameras", Title: "Zentor Ektra H35 half frame film camera"},
			b:          Item{Retailer: "B", Brand: "Zentor", Category: "Cameras", Title: "Zentor Ektra H36 half frame film camera"},
			wantReason: "code",
		},
		{
			name:       "a number with an x after a line's name is a model, not a multiple",
			a:          phone("A", "Zentor", "Zentor Vela Note 50X 5G (8GB RAM + 128GB)"),
			b:          phone("B", "Zentor", "Zentor Vela Hot 50 5G (8GB RAM + 128GB)"),
			wantReason: "title",
		},
		{
			name:       "two generations in roman numerals after one number",
			a:          phone("A", "Zentor", "Zentor Vela 10 V 8GB RAM 128GB"),
			b:          phone("B", "Zentor", "Zentor Vela 10 VI 8GB RAM 128GB"),
			wantReason: "model-line",
		},
		{
			name:     "a V after a phone's number is its generation, not volts",
			a:        phone("A", "Zentor", "zentor vela 5 v 5g smartphone 6.1 inch sim free 8gb ram 128gb black"),
			b:        phone("B", "Zentor", "zentor vela 5 v 8gb 128gb 5g smartphone black"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a charger's volts",
			a:          Item{Retailer: "A", Brand: "Zentor", Category: "Cables & Chargers", Title: "Zentor wall charger 5 v 2a"},
			b:          Item{Retailer: "B", Brand: "Zentor", Category: "Cables & Chargers", Title: "Zentor wall charger 12 v 2a"},
			wantReason: "model-line",
		},
		{
			name:       "a short model name against a line's name and number",
			a:          phone("A", "Zentor", "Zentor K4 5G (8GB RAM + 128GB)"),
			b:          phone("B", "Zentor", "Zentor Vanta 70 5G (8GB RAM + 128GB)"),
			wantReason: "title",
		},
		{
			name:       "a network after a variant word is no model-line number",
			a:          phone("A", "Zentor", "Zentor K4 Pro 5G (8GB RAM + 256GB)"),
			b:          phone("B", "Zentor", "Zentor 15 Pro 5G (8GB RAM + 256GB)"),
			wantReason: "title",
		},
		{
			name:       "4G and 5G models of one phone",
			a:          phone("A", "Zentor", "Zentor Vanta 12 4G (6GB RAM + 128GB)"),
			b:          phone("B", "Zentor", "Zentor Vanta 12 5G (6GB RAM + 128GB)"),
			wantReason: "model-line",
		},
		{
			name:       "a generation after a line's name (a player's 4th and 5th)",
			a:          phone("A", "Zentor", "Zentor Tune touch 4G 32GB"),
			b:          phone("B", "Zentor", "Zentor Tune touch 5G 32GB"),
			wantReason: "model-line",
		},
		{
			name:     "one model with and without its network",
			a:        phone("A", "Zentor", "Zentor Vanta 12 5G 6GB 128GB"),
			b:        phone("B", "Zentor", "Zentor Vanta 12 6GB 128GB"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a letter glued on a three-character model name",
			a:          phone("A", "Zentor", "Zentor Y19s 5G (4GB RAM + 128GB)"),
			b:          phone("B", "Zentor", "Zentor Y19 5G (4GB RAM + 128GB)"),
			wantReason: "code",
		},
		{
			name:       "a letter that could spell a colour, on a short model name",
			a:          phone("A", "Zentor", "Zentor Moto K04s"),
			b:          phone("B", "Zentor", "Zentor Moto K04"),
			wantReason: "code",
		},
		{
			name:       "one letter glued on a model name that a title gives as its own code",
			a:          phone("A", "Zentor", "Zentor V60e (8GB RAM + 256GB)"),
			b:          phone("B", "Zentor", "Zentor V60 5G (8GB RAM + 256GB)"),
			wantReason: "code",
		},
		{
			name:       "memory and storage written with a plus and no spaces are no code",
			a:          phone("A", "Zentor", "Zentor T4x 5G (8GB RAM+128GB)"),
			b:          phone("B", "Zentor", "Zentor Y29 5G (8GB RAM + 128GB)"),
			wantReason: "title",
		},
	})
}

// TestComparePhoneVariants covers the words that make a line's model
// another: a variant word after its name, a line's name before its number,
// and the spellings of one model that must still meet.
func TestComparePhoneVariants(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "a variant word right after a shared model name",
			a:          phone("A", "Zentor", "Zentor Y400 Pro 5G (8GB RAM + 256GB)"),
			b:          phone("B", "Zentor", "Zentor Y400 5G (8GB RAM + 256GB)"),
			wantReason: "variant",
		},
		{
			name:       "two variant words after one model name",
			a:          phone("A", "Zentor", "Zentor F115 Pro"),
			b:          phone("B", "Zentor", "Zentor F115 Lite"),
			wantReason: "variant",
		},
		{
			name:     "a variant word glued on the model name in the other title",
			a:        Item{Retailer: "A", Brand: "Zentor", Title: "Zentor Opal 6282 SE 2.6GHz 16MB processor"},
			b:        Item{Retailer: "B", Brand: "Zentor", Title: "Zentor Opal 6282SE 2.6GHz 16MB L3 processor"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a variant word elsewhere in one title is the product's full name",
			a:        Item{Retailer: "A", Brand: "Zentor", Title: "Zentor HD Pro Webcam C930"},
			b:        Item{Retailer: "B", Brand: "Zentor", Title: "Zentor C930 Webcam 1080p USB"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "ultra silent is a feature, not a variant",
			a:        Item{Retailer: "A", Brand: "Zentor", Title: "Zentor Vault 330R Ultra Silent Midi Tower Case"},
			b:        Item{Retailer: "B", Brand: "Zentor", Title: "Zentor Vault Series 330R Silent Edition case"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a line's name before one title's number only",
			a:          phone("A", "Zentor", "Zentor Vanta Note 8 64GB"),
			b:          phone("B", "Zentor", "Zentor Vanta 8 64GB"),
			wantReason: "model-line",
		},
		{
			name:       "a sub-line's letters before the number",
			a:          phone("A", "Zentor", "Zentor Lumo CE 5 5G 256GB"),
			b:          phone("B", "Zentor", "Zentor Lumo 5 5G 256GB"),
			wantReason: "model-line",
		},
		{
			name:       "two lines' names before one number",
			a:          phone("A", "Zentor", "Zentor Vanta Z Fold 7 512GB"),
			b:          phone("B", "Zentor", "Zentor Vanta Z Flip 7 512GB"),
			wantReason: "model-line",
		},
		{
			name:     "a line's name in the singular and the plural",
			a:        phone("A", "Zentor", "Zentor Vanta Series 6 64GB"),
			b:        phone("B", "Zentor", "Zentor Vanta Serie 6 64GB"),
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a kind's name after the number",
			a:        Item{Retailer: "A", Brand: "Zentor", Category: "Desktops", Title: "Zentor X2 340 Opal desktop 3.2GHz"},
			b:        Item{Retailer: "B", Brand: "Zentor", Category: "Desktops", Title: "Zentor Opal X2 340 desktop 3.2GHz"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a count of goods of no known category",
			a:        Item{Retailer: "A", Brand: "Zentor", Title: "Zentor Moda 2 shelf wall furniture"},
			b:        Item{Retailer: "B", Brand: "Zentor", Title: "Zentor Moda Collection 2 shelf wall furniture"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a variant word right after a model's name",
			a:          phone("A", "Zentor", "Zentor Vanta G6 Play 32GB"),
			b:          phone("B", "Zentor", "Zentor Vanta G6 32GB"),
			wantReason: "variant",
		},
		{
			name:       "a variant word after a model-line number",
			a:          phone("A", "Zentor", "Zentor Vanta 60 Stylus 256GB"),
			b:          phone("B", "Zentor", "Zentor Vanta 60 5G 256GB"),
			wantReason: "variant",
		},
		{
			name:       "a variant word after another",
			a:          phone("A", "Zentor", "Zentor Vanta 10 Pro Fold"),
			b:          phone("B", "Zentor", "Zentor Vanta 10 Pro"),
			wantReason: "variant",
		},
		{
			name:     "a variant word glued on after a short model's number",
			a:        phone("A", "Zentor", "zentor vanta 2xl 128gb"),
			b:        phone("B", "Zentor", "zentor vanta 2 xl 128gb black"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a glued variant word against the model without it",
			a:          phone("A", "Zentor", "zentor vanta 2xl 128gb"),
			b:          phone("B", "Zentor", "zentor vanta 2 128gb"),
			wantReason: "variant",
		},
		{
			name:     "a system's edition glued on after its version is no variant",
			a:        Item{Retailer: "A", Brand: "Zentor", Category: "Laptops", Title: "Zentor Book 640 G3 i5-7200u 8GB 256GB SSD 14 W10Pro"},
			b:        Item{Retailer: "B", Brand: "Zentor", Category: "Laptops", Title: "Zentor Book 640 G3 Core i5 8GB SSD 256GB 14 laptop"},
			wantSame: true, wantReason: "title",
		},
	})
}

// TestComparePhoneNumbers covers the numbers of a phone's title: its
// model's, its memory's and storage's, and its screen's.
func TestComparePhoneNumbers(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "memory after storage, right after the model's number",
			a:        phone("A", "Zentor", "zentor 6 128gb 8gb ram mirror black"),
			b:        phone("B", "Zentor", "zentor 6 dual sim 128gb mirror black"),
			wantSame: true, wantReason: "title",
		},
		{
			name:     "memory and storage in either order after a line's number",
			a:        phone("A", "Zentor", "zentor vanta note 7 4gb 64gb black"),
			b:        phone("B", "Zentor", "zentor vanta note 7 64gb 4gb ram black"),
			wantSame: true, wantReason: "title",
		},
		{
			name:     "storage written apart from its unit right after the model's number, and memory",
			a:        phone("A", "Zentor", "zentor vanta 4 64 gb 6gb ram just black sim free"),
			b:        phone("B", "Zentor", "zentor vanta 4 64gb just black"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "storage written apart from its unit right after the model's number, and another storage",
			a:          phone("A", "Zentor", "zentor vanta 4 64 gb just black sim free"),
			b:          phone("B", "Zentor", "zentor vanta 4 128gb just black"),
			wantReason: "model-line",
		},
		{
			name:       "a model's number with a point release after the brand",
			a:          phone("A", "Zentor", "zentor 7.1 32gb gloss midnight blue"),
			b:          phone("B", "Zentor", "zentor 6.1 32gb gloss midnight blue"),
			wantReason: "model-line",
		},
		{
			name:       "a letter x after a model's number names a model",
			a:          phone("A", "Zentor", "zentor vela 20 x 128gb midnight blue"),
			b:          phone("B", "Zentor", "zentor vela 20 128gb midnight blue"),
			wantReason: "model-line",
		},
		{
			name:     "a letter x between a model's number and a screen's size multiplies nothing",
			a:        phone("A", "Zentor", "zentor vela 20 x 128gb midnight blue"),
			b:        phone("B", "Zentor", "zentor vela 20 x 7.2 128gb midnight blue"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a model's year in brackets",
			a:          phone("A", "Zentor", "zentor vanta k5 2016 32gb black"),
			b:          phone("B", "Zentor", "zentor vanta k5 (2017) 32gb black"),
			wantReason: "model-line",
		},
		{
			name:     "a model's year after its variant word and after the variant's plus sign",
			a:        phone("A", "Zentor", "zentor vanta k6+ 2018 32gb black"),
			b:        phone("B", "Zentor", "zentor vanta k6 plus 2018 32gb black"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a line's name without its number is the line's first model",
			a:          phone("A", "Zentor", "zentor vela 128gb quite black"),
			b:          phone("B", "Zentor", "zentor vela 2 128gb just black"),
			wantReason: "model-line",
		},
		{
			name:       "a line's name without the number and letter of a later model",
			a:          phone("A", "Zentor", "zentor vela 256 gb sim free unlocked"),
			b:          phone("B", "Zentor", "zentor vela 10x zoom 256gb ocean green"),
			wantReason: "model-line",
		},
		{
			name:       "a number after a kind of product names no line",
			a:          phone("A", "Zentor", "zentor vela 2 smartphone 15 5 cm 6 1 zoll 128 gb interner speicher"),
			b:          phone("B", "Zentor", "zentor vela 2 128gb smartphone black"),
			wantReason: "title", // the titles' words decide, no model-line rule
		},
		{
			name:       "a network after a colour names no line",
			a:          phone("A", "Zentor", "zentor vela 2 32 gb titan 4g"),
			b:          phone("B", "Zentor", "zentor vela 2 32gb titan ohne vertrag"),
			wantReason: "title", // the titles' words decide, no model-line rule
		},
		{
			name: "storage written short agrees with storage written in full",
			a: Item{Brand: "Zentor", Category: "Phones", Title: "zentor vela 7 128g black 6gb ram",
				Specs: map[string]float64{"storage_gb": 128, "memory_gb": 6}},
			b: Item{Brand: "Zentor", Category: "Phones", Title: "zentor vela 7 128gb black",
				Specs: map[string]float64{"storage_gb": 128}},
			wantSame: true, wantReason: "model-name", // no model-line rule keeps them apart
		},
		{
			name:     "memory and storage with a slash after a model's year are no fraction",
			a:        phone("A", "Zentor", "zentor vanta k7 2018 16gb 2gb ram sim free unlocked"),
			b:        phone("B", "Zentor", "zentor vanta k7 2018 2/16 gb black sim free"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "storage after a screen's size with decimal places",
			a:        phone("A", "Zentor", "zentor vanta k7 2019 32gb sapphire blue"),
			b:        phone("B", "Zentor", "zentor vanta k7 2019 6.09 32gb 2gb ram 13mp android 9.0 sapphire blue"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a model's year after its variant word",
			a:          phone("A", "Zentor", "zentor vanta k5 lite (2015) 16gb black"),
			b:          phone("B", "Zentor", "zentor vanta k5 lite 2017 16 gb black 4g"),
			wantReason: "model-line",
		},
		{
			name:     "a model's year with brackets and without",
			a:        phone("A", "Zentor", "zentor vanta k5 2017 32gb black"),
			b:        phone("B", "Zentor", "zentor vanta k5 (2017) 32gb black"),
			wantSame: true, wantReason: "title",
		},
	})
}

// TestComparePhoneModelCodes covers a phone's model letter and part
// numbers as a comparison site prints them.
func TestComparePhoneModelCodes(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "a model's letter written apart after its name, before the storage",
			a:          phone("A", "Zentor", "zentor vela s10 e 128gb prism black"),
			b:          phone("B", "Zentor", "zentor vela s10 128gb prism black"),
			wantReason: "code",
		},
		{
			name:       "part numbers of one shape that differ beside a shared line",
			a:          phone("A", "Zentor", "zentor vela s20 5g zmg986b/ds 128gb cloud blue"),
			b:          phone("B", "Zentor", "zentor vela s20 5g 128gb cloud blue zm g981b"),
			wantReason: "code",
		},
		{
			name:     "a code beside a line's code the other title shares",
			a:        Item{Brand: "Zentor", Title: "zentor black vistapix s210 li-ion rechargeable battery exel10"},
			b:        Item{Brand: "Zentor", Title: "zentor ex-el10 no-mem lithium-ion camera battery 25752"},
			wantSame: true, wantReason: "model-name",
		},
	})
}

// TestGroupPhoneSiblings checks that grouping, which joins listings by a
// shared code, keeps a variant apart from the model its name starts with,
// and that a short model name ("M6") lets shops' titles join on title
// evidence.
func TestGroupPhoneSiblings(t *testing.T) {
	items := []Item{
		phone("A", "Zentor", "Zentor Y400 5G (8GB RAM + 256GB)"),
		phone("B", "Zentor", "Zentor Y400 Pro 5G (8GB RAM + 256GB)"),
		phone("C", "Zentor", "Zentor Y400 5G 8GB 256GB black"),
		phone("D", "Zentor", "Zentor Y400 Pro 5G 256GB"),
		phone("A", "Zentor", "zentor m6 pro 5g smartphone 6.67 inch sim free 12gb ram 256gb blue"),
		phone("B", "Zentor", "zentor m6 pro 12 gb ram 256 gb unlocked 5g smartphone purple"),
	}
	items[4].Specs = map[string]float64{"memory_gb": 12, "storage_gb": 256}
	items[5].Specs = map[string]float64{"memory_gb": 12, "storage_gb": 256}
	want := [][]int{{0, 2}, {1, 3}, {4, 5}}
	if diff := cmp.Diff(want, GroupWith(items, Options{IgnoreColour: true})); diff != "" {
		t.Errorf("GroupWith mismatch (-want +got):\n%s", diff)
	}
}

// TestGroupLineVariants checks that a line's name and a variant's word name
// a model, so that shops' titles of it join on title evidence, and that
// two such names that share nothing stay apart.
func TestGroupLineVariants(t *testing.T) {
	items := []Item{
		phone("A", "Zentor", "zentor vela xl 128gb quite black unlocked - sim free"),
		phone("B", "Zentor", "zentor vela xl black 128gb unlocked - sim free smartphone"),
		phone("C", "Zentor", "zentor vela xl 128gb storage black"),
		phone("D", "Zentor", "zentor storm play 5g (8gb ram + 256gb)"),
		phone("E", "Zentor", "zentor agni 3 5g (8gb ram + 256gb)"),
		{Retailer: "A", Brand: "Zentor", Category: "Cameras", Title: "zentor vox r black"}, // a line's name and a model's letter
		{Retailer: "B", Brand: "Zentor", Category: "Cameras", Title: "zentor vox r black - body only"},
		phone("C", "Zentor", "zentor galaxy z flip 7 5g (12gb ram+512gb)"), // a letter before another name
		phone("D", "Zentor", "zentor galaxy z fold 6 (12gb ram + 512gb)"),
	}
	for i := range items[:3] {
		items[i].Specs = map[string]float64{"storage_gb": 128}
	}
	for i := range items[3:5] {
		items[3+i].Specs = map[string]float64{"memory_gb": 8, "storage_gb": 256}
	}
	items[7].Specs = map[string]float64{"memory_gb": 12, "storage_gb": 512}
	items[8].Specs = map[string]float64{"memory_gb": 12, "storage_gb": 512}
	want := [][]int{{0, 1, 2}, {3}, {4}, {5, 6}, {7}, {8}}
	if diff := cmp.Diff(want, GroupWith(items, Options{IgnoreColour: true})); diff != "" {
		t.Errorf("GroupWith mismatch (-want +got):\n%s", diff)
	}
}

// TestGroupColourPartNumbers checks that, colours together, part numbers
// a letter or two apart of one model in other colours join, while part
// numbers apart in a digit, or of one colour, stay apart.
func TestGroupColourPartNumbers(t *testing.T) {
	items := []Item{
		phone("A", "Zentor", "zentor vela 11 pro max zwhn2b/a 512gb space grey"),
		phone("B", "Zentor", "zentor vela 11 pro max zwhr2b/a 512gb midnight green"),
		phone("C", "Zentor", "zentor vela 9 zm-g960f 64gb black"), // another model's number
		phone("D", "Zentor", "zentor vela 9 zm-g965f 64gb blue"),
		phone("E", "Zentor", "zentor vela 6000 zlce6000l black"), // one colour: another kit's letter
		phone("F", "Zentor", "zentor vela 6000 zlce6000y black"),
	}
	want := [][]int{{0, 1}, {2}, {3}, {4}, {5}}
	if diff := cmp.Diff(want, GroupWith(items, Options{IgnoreColour: true})); diff != "" {
		t.Errorf("GroupWith mismatch (-want +got):\n%s", diff)
	}
}

// TestGroupShopVariants checks that a word one shop's two listings of one
// model differ by, and that two shops write right after the model's name,
// names a variant for every shop's listings.
func TestGroupShopVariants(t *testing.T) {
	items := []Item{
		phone("A", "Zentor", "zentor blade v9 32gb black"),
		phone("A", "Zentor", "zentor blade v9 vita 32gb black"),
		phone("B", "Zentor", "zentor blade v9 vita 5.45 dual sim 4g 32gb blue"),
		phone("C", "Zentor", "zentor blade v9 5.7 dual sim 4g 32gb gold"),
	}
	for i := range items {
		items[i].Specs = map[string]float64{"storage_gb": 32}
	}
	want := [][]int{{0, 3}, {1, 2}}
	if diff := cmp.Diff(want, GroupWith(items, Options{IgnoreColour: true})); diff != "" {
		t.Errorf("GroupWith mismatch (-want +got):\n%s", diff)
	}
}

// TestComparePhoneSpellings covers a phone's model and variant written in
// shops' ways: a plus sign apart, a generation in two letters, the brand in
// two words, a variant glued to the number.
func TestComparePhoneSpellings(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "a plus sign apart after the model, before its storage",
			a:          phone("A", "Acme", "acme vela s9 + 64gb midnight black 4g sim free"),
			b:          phone("B", "Acme", "acme vela s9 64gb midnight black 4g sim free"),
			wantReason: "variant",
		},
		{
			name:     "a plus sign between memory and storage",
			a:        phone("A", "Acme", "acme vela s9 4gb ram + 64gb midnight black"),
			b:        phone("B", "Acme", "acme vela s9 4gb ram 64gb midnight black"),
			wantSame: true, wantReason: "title",
		},
		{
			name: "a generation in two letters names the model",
			a: Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela xz 5.2 32gb 4g sim free platinum",
				Specs: map[string]float64{"storage_gb": 32}},
			b:        Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme vela xz 32gb", Specs: map[string]float64{"storage_gb": 32}},
			wantSame: true, wantReason: "model-name",
		},
		{
			name: "a short model name both titles give and the storage both state, whatever else each title says",
			a: Item{Retailer: "A", Brand: "Zentor", Category: "Phones", Specs: map[string]float64{"storage_gb": 128, "memory_gb": 8},
				Title: "zentor p40 128gb 8gb ram dual sim deep sea blue (no google services) triple camera kirin 990 android 10"},
			b: Item{Retailer: "B", Brand: "Zentor", Category: "Phones", Specs: map[string]float64{"storage_gb": 128},
				Title: "zentor p40 128gb 5g sim free mobile phone"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name: "a short model name both titles give, two storages",
			a: Item{Retailer: "A", Brand: "Zentor", Category: "Phones", Specs: map[string]float64{"storage_gb": 256, "memory_gb": 8},
				Title: "zentor p40 256gb 8gb ram dual sim deep sea blue (no google services) triple camera kirin 990 android 10"},
			b: Item{Retailer: "B", Brand: "Zentor", Category: "Phones", Specs: map[string]float64{"storage_gb": 128},
				Title: "zentor p40 128gb 5g sim free mobile phone"},
			wantReason: "specs",
		},
		{
			name:       "a variant's word after a generation in two letters",
			a:          phone("A", "Acme", "acme vela xz premium 5.5 64gb"),
			b:          phone("B", "Acme", "acme vela xz 5.5 64gb"),
			wantReason: "variant",
		},
		{
			name:       "two generations in two letters",
			a:          phone("A", "Acme", "acme vela xa 5.2 32gb 4g sim free"),
			b:          phone("B", "Acme", "acme vela xz 5.2 32gb 4g sim free"),
			wantReason: "model-line",
		},
		{
			name:     "a brand written in two words, the second a variant's word",
			a:        phone("A", "Zenplus", "zen plus 6t 128 gb dual sim"),
			b:        phone("B", "Zenplus", "zenplus 6t 128gb"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a brand written in two words, another model",
			a:          phone("A", "Zenplus", "zen plus 6t 128 gb dual sim"),
			b:          phone("B", "Zenplus", "zenplus 6 128gb"),
			wantReason: "model-line",
		},
		{
			name:     "a variant glued to a line's number, against a plus sign",
			a:        phone("A", "Acme", "acme vela 8plus 64 gb"),
			b:        phone("B", "Acme", "acme vela 8+ 64 gb"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a variant glued to a line's number, against the line's model",
			a:          phone("A", "Acme", "acme vela 8plus 64 gb"),
			b:          phone("B", "Acme", "acme vela 9plus 64 gb"),
			wantReason: "model-line",
		},
		{
			name:       "a variant glued to a model's code, against the model's name in pieces",
			a:          phone("A", "Acme", "acme k 30 128gb black 4g lte sim free"),
			b:          phone("B", "Acme", "acme k30pro - 128gb - black - unlocked"),
			wantReason: "variant",
		},
		{
			name:     "a variant glued to a model's code, against the variant in pieces",
			a:        phone("A", "Acme", "acme k 30 pro 128gb black 4g lte sim free"),
			b:        phone("B", "Acme", "acme k30pro - 128gb - black - unlocked"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a letter glued on a short model's name, against the name in pieces",
			a:          phone("A", "Acme", "acme vela k10e 128gb"),
			b:          phone("B", "Acme", "acme vela k 10 128gb"),
			wantReason: "code",
		},
		{
			name:       "a line's name, its number and a variant in one word, against the line's model",
			a:          phone("A", "Zentor", "zentor orbit20pro 128gb"),
			b:          phone("B", "Zentor", "zentor orbit 20 128gb"),
			wantReason: "variant",
		},
		{
			name:     "a line's name, its number and a variant in one word, against them written apart",
			a:        phone("A", "Zentor", "zentor orbit20pro 128gb"),
			b:        phone("B", "Zentor", "zentor orbit 20 pro 128gb"),
			wantSame: true, wantReason: "code",
		},
	})
}

// TestComparePhoneGluedWords covers how shops run a phone's brand, line,
// model, variant words and storage together or label them.
func TestComparePhoneGluedWords(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name: "a line's letter and number apart after the brand name a model, no year's line",
			a: Item{Brand: "Zentor", Category: "Phones", Title: "Zentor P smart 2020 / 128 GB / Midnight Black",
				Specs: map[string]float64{"storage_gb": 128}},
			b: Item{Brand: "Zentor", Category: "Phones", Title: "Zentor P 20 / 128GB / Midnight Black / Unlocked",
				Specs: map[string]float64{"storage_gb": 128}},
			wantReason: "title",
		},
		{
			name: "and the model written whole",
			a: Item{Brand: "Zentor", Category: "Phones", Title: "Zentor P20 128GB Midnight Black",
				Specs: map[string]float64{"storage_gb": 128}},
			b: Item{Brand: "Zentor", Category: "Phones", Title: "Zentor P 20 / 128GB / Midnight Black / Unlocked",
				Specs: map[string]float64{"storage_gb": 128}},
			wantSame: true, wantReason: "title",
		},
		{
			name: "a line's name and number run together are no model of a letter more",
			a: Item{Brand: "Zentor", Category: "Phones", Title: "ZENTOR VELAS10 128GB PRISM BLACK SIM FREE",
				Specs: map[string]float64{"storage_gb": 128}},
			b: Item{Brand: "Zentor", Category: "Phones", Title: "Zentor Vela S10e 128gb prism black + Tempered Glass",
				Specs: map[string]float64{"storage_gb": 128}},
			wantReason: "title",
		},
		{
			name: "a variant's word joined to the storage with slashes",
			a: Item{Brand: "Zentor", Category: "Phones", Title: "Zentor Vela 11 Pro/256G/silver/4GB RAM + Charger",
				Specs: map[string]float64{"storage_gb": 256}},
			b: Item{Brand: "Zentor", Category: "Phones", Title: "Zentor Vela 11 Smartphone (6,1 Zoll, 256 GB interner Speicher) silver",
				Specs: map[string]float64{"storage_gb": 256}},
			wantReason: "variant",
		},
		{
			name:       "the brand, the line and two variant words glued on",
			a:          phone("A", "Zentor", "ZENTORIPHONE11PROMAX 64GB MIDNIGHT GREEN"),
			b:          phone("B", "Zentor", "Zentor iPhone 11 / 64gb / Midnight Green / Factory Unlocked"),
			wantReason: "variant",
		},
		{
			name:     "two variant words run together after the number",
			a:        phone("A", "Zentor", "zentor vela 11 promax 64gb silver"),
			b:        phone("B", "Zentor", "zentor vela 11 pro max 64gb silver unlocked sim free"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "two variant words run together, against one of them",
			a:          phone("A", "Zentor", "zentor vela 11 promax 64gb silver"),
			b:          phone("B", "Zentor", "zentor vela 11 pro 64gb silver unlocked sim free"),
			wantReason: "variant",
		},
		{
			name:       "two variant words glued on after the number",
			a:          phone("A", "Zentor", "Zentor iphone11promax 64GB Midnight Green"),
			b:          phone("B", "Zentor", "Zentor iPhone 11 Pro 64GB Midnight Green"),
			wantReason: "variant",
		},
		{
			name:     "memory a title labels is no storage another title states",
			a:        phone("A", "Zentor", "Zentor Vela A20 / Blue / 3GB RAM / UK Stock"),
			b:        phone("B", "Zentor", "Zentor Vela A20 / Blue / 32gb / UK Model"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "memory labelled apart from its unit",
			a:        phone("A", "Zentor", "zentor vela a20 blue 3 gb ram uk stock"),
			b:        phone("B", "Zentor", "zentor vela a20 blue 32 gb uk model"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "storage written short after a model's name is no line's number",
			a:          phone("A", "Zentor", "MOB/ Zentor Vela M3 64G Cool Blue"),
			b:          phone("B", "Zentor", "MOB/ ZENTOR VELA X3 NFC 64G COOL BLUE"),
			wantReason: "title",
		},
		{
			name:       "one model number of two storages",
			a:          phone("A", "Zentor", "ZM1903C3EG Zentor Vela 7A 32GB Matte Blue"),
			b:          phone("B", "Zentor", "zm1903c3eg Zentor Vela 7A 16gb Matte Blue"),
			wantReason: "model-line",
		},
		{
			name:     "a line's two words run together",
			a:        phone("A", "Zentor", "SIM Free Zentor P smart 2019 - 64 GB, Midnight Black"),
			b:        phone("B", "Zentor", "Zentor PSmart 2019 / 64 GB / Midnight Black / 4G"),
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a network after a spec's word is no line's number",
			a:        phone("A", "Zentor", "Zentor Vela X2 Pro 512 GB 12GB RAM 5G Smartphone, Black - UK Version"),
			b:        phone("B", "Zentor", "ZENTOR VELA X2 PRO 512GB 12GB RAM BLACK (6.7\") 48MP CAMERA 5G"),
			wantSame: true, wantReason: "title",
		},
	})
}

// TestMemoryKey covers which figure a memory label between two figures
// labels: the smaller one, RAM coming smaller than storage.
func TestMemoryKey(t *testing.T) {
	tests := []struct {
		val, next string
		after     []string
		want      string
	}{
		{"3", "ram", nil, "#ram"},                         // "3GB RAM"
		{"64", "ram", []string{"4gb", "12mp"}, "#gb"},     // "64gb / ram 4gb / 12mp"
		{"32", "ram", []string{"4", "gb", "16mp"}, "#gb"}, // "32 gb ram 4 gb 16mp"
		{"6", "ram", []string{"128gb", "black"}, "#ram"},  // "6gb ram 128gb black"
		{"16", "ram", []string{"512gb", "ssd"}, "#ram"},   // "16gb ram 512gb ssd"
		{"64", "ram", []string{"4gb", "ram"}, "#ram"},     // the figure after has a label of its own
		{"128", "storage", []string{"8gb"}, "#gb"},        // no memory label
		{"8", "memory", nil, "#ram"},
	}
	for _, tt := range tests {
		if got := memoryKey("#gb", tt.val, tt.next, tt.after); got != tt.want {
			t.Errorf("memoryKey(#gb, %q, %q, %q) = %q, want %q", tt.val, tt.next, tt.after, got, tt.want)
		}
	}
}

// TestComparePhoneShopWritings covers how shops write a phone's model,
// variant, generation, memory and bundle.
func TestComparePhoneShopWritings(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "a variant's words written out and its initials",
			a:        phone("A", "Zentor", "zentor vela s20 fan edition 5g 128gb cloud white"),
			b:        phone("B", "Zentor", "zentor vela s20 fe 5g 128gb cloud white"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a variant's words written out and the model without it",
			a:          phone("A", "Zentor", "zentor vela s20 fan edition 5g 128gb cloud white"),
			b:          phone("B", "Zentor", "zentor vela s20 5g 128gb cloud white"),
			wantReason: "variant",
		},
		{
			name:     "a memory label between storage and memory goes with the smaller figure",
			a:        phone("A", "Zentor", "zentor vela g7 64gb / ram 4gb / 12mp camera / 6.2 inch"),
			b:        phone("B", "Zentor", "zentor vela g7 64gb ceramic black sim free"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "and after the storage written apart",
			a:        phone("A", "Zentor", "zentor vela a8 2018 smartphone 5.6 inch 32 gb ram 4gb 16mp camera black"),
			b:        phone("B", "Zentor", "zentor vela a8 2018 32 gb black factory unlocked"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a line letter's generation written as an ordinal",
			a:        phone("A", "Zentor", "zentor vela g 4th gen 16 gb black"),
			b:        phone("B", "Zentor", "zentor vela g4 16gb black"),
			wantSame: true, wantReason: "title",
		},
		{
			name:     "and with a variant word between",
			a:        phone("A", "Zentor", "zentor vela g play 4th generation 16gb white"),
			b:        phone("B", "Zentor", "zentor vela g4 play 16gb white"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a line letter's ordinal generation and another generation",
			a:          phone("A", "Zentor", "zentor vela g 4th gen 16 gb black"),
			b:          phone("B", "Zentor", "zentor vela g5 16gb black"),
			wantReason: "title",
		},
		{
			name:     "a phone sold as a bundle with a charger is the phone",
			a:        phone("A", "Zentor", "zentor vela g9 plus 128gb blue bundle charger brand new"),
			b:        phone("B", "Zentor", "zentor vela g9 plus 128 gb 4gb ram dual sim blue"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "the brand misspelt before the model's number names no other line",
			a:        phone("A", "Zentor", "zentour 10 128gb phantom blue"),
			b:        phone("B", "Zentor", "zentor 10 128gb phantom blue"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a line's name against the number right after the brand",
			a:          phone("A", "Zentor", "Zentor View 20 128GB"),
			b:          phone("B", "Zentor", "Zentor 20 128GB"),
			wantReason: "model-line",
		},
		{
			name:     "a camera's line name against its number right after the brand",
			a:        Item{Retailer: "A", Brand: "Zentor", Category: "Cameras", Title: "zentor alpha 7c mirrorless digital camera body"},
			b:        Item{Retailer: "B", Brand: "Zentor", Category: "Cameras", Title: "zentor 7c body"},
			wantSame: true, wantReason: "title",
		},
	})
}
