// Package classify places a retailer listing in one of the catalog's 19
// categories and tells a device from an accessory that fits one.
//
// The retailer's own category path is read first, then the Google product
// category, and the title last; the title also refines the path: a case
// listed under "Mobile Phones" is a Phones accessory, a charger under "Phone
// Accessories" is in Cables & Chargers. Every text is read the same way: it
// is split into clauses ("for iPhone 15", "with MagSafe", ", Black"), the
// phrases of a cue table are found in it, and the last phrase of the main
// clause that names a kind of product is its head ("iPhone 15 Case": a case;
// "Gaming Headset for PS5": a headset).
//
// Catalog rules (compatibility notes): Gaming holds consoles, controllers and
// gaming accessories, as products (a controller charging stand, a racing
// wheel, a capture card), but a gaming headset is Headphones, a gaming
// laptop Laptops and a gaming monitor Monitors; Cameras holds cameras and
// lenses as products; a case, cover, screen protector, strap, stand, mount
// or bag is an accessory in the category of the device it fits, in Gaming
// and Cameras too (a console cover, a VR headset strap, a tripod, a camera
// bag) (a phone case is a Phones accessory, a laptop sleeve a Laptops
// accessory, a TV wall bracket a TVs accessory, a keyboard case for an iPad
// a Tablets accessory); Cables & Chargers holds cables, chargers and power
// banks as products, whatever device they fit. Ink and toner are Printers
// accessories, computer parts (graphics cards, RAM, power supplies) Desktops
// accessories (laptop RAM a Laptops accessory), streaming sticks and media
// players TVs products, disc players TVs accessories, projectors TVs,
// soundbars, amplifiers, turntables, radios and microphones Audio. Things
// outside the 19 (kettles, vacuum cleaners, toys, books, drawing tablets,
// sat navs) have Category "".
package classify

import (
	"strings"

	"productsearch/internal/catalog"
)

// Input is what a listing says about what it is.
type Input struct {
	Title string
	// CategoryPath is the retailer's category text, such as "Computing >
	// Laptops", "Phones & Accessories > Phone Cases" or an Awin
	// category_name.
	CategoryPath string
	// TaxonomyID is the Google product category: an id ("328") or a path
	// ("Electronics > Communications > Telephony > Mobile Phones").
	TaxonomyID string
	Brand      string
}

// Result is a listing's place in the catalog. Category is "" when the
// listing is outside the 19 categories.
type Result struct {
	Category string
	Type     catalog.ProductType
}

// accState is what a text says about the listing being an accessory.
type accState uint8

const (
	accUnknown accState = iota
	accNo
	accYes
)

// verdict is what one text (a title, a path segment) says.
type verdict struct {
	cat     string
	acc     accState
	strong  bool // the head is a strong cue
	power   bool // the head is a cable, charger or power bank
	outside bool // the head names something outside the 19 categories
	found   bool // the text names anything at all
	holds   bool // the head is an accessory that holds or protects a device
}

// Listing classifies one listing.
func Listing(in Input) Result {
	var wb [48]word
	var mb [24]match
	path := fromPath(in.CategoryPath, wb[:0], mb[:0])
	tax := fromTaxonomy(in.TaxonomyID, wb[:0], mb[:0])
	ws := words(in.Title, wb[:0])
	ms := matchCues(ws, mb[:0])
	bundledExtras(ws, ms)
	title := analyze(ws, ms, false)
	if !title.found && in.Brand != "" {
		bw := words(in.Brand, nil)
		title = analyze(bw, matchCues(bw, nil), false)
		title.strong = false
	}
	paths := merge(path, tax)
	holds := title.holds || paths.holds && title.acc != accNo
	return productsOnly(decide(paths, title), holds)
}

// productsOnly applies the categories whose gear is sold as products: the
// Gaming category holds consoles, controllers, charging docks and other
// gaming accessories as products, and Cameras holds cameras and lenses as
// products. What holds or protects the device it fits (holds: a console
// cover, a stand, a carrying case, a strap, a tripod, a camera bag) stays
// an accessory there, as in every category.
func productsOnly(r Result, holds bool) Result {
	if (r.Category == catGaming || r.Category == catCameras) && !holds {
		r.Type = catalog.TypeProduct
	}
	return r
}

// merge fills what the retailer path leaves open from the Google category.
func merge(path, tax verdict) verdict {
	switch {
	case path.cat != "" && path.strong, path.outside && path.strong:
		return path
	case tax.cat != "" || tax.outside:
		if path.acc != accUnknown && tax.cat != "" {
			tax.acc, tax.holds = path.acc, path.holds
		}
		if path.cat != "" && !tax.strong {
			return path
		}
		return tax
	}
	return path
}

// decide combines what the category paths say with what the title says.
func decide(p, t verdict) Result {
	product := func(cat string) Result { return Result{Category: cat, Type: catalog.TypeProduct} }
	accessory := func(cat string) Result {
		if cat == "" {
			return product("")
		}
		return Result{Category: cat, Type: catalog.TypeAccessory}
	}
	finish := func(cat string, acc accState) Result {
		if acc == accYes {
			return accessory(cat)
		}
		return product(cat)
	}
	switch {
	case p.cat != "" && p.strong:
		cat, acc := p.cat, p.acc
		if t.found && t.strong {
			switch {
			case t.power:
				// Chargers, cables and power banks are Cables & Chargers
				// products wherever a retailer files them.
				return product(catCables)
			case cat == catGaming && t.acc == accNo && gamingElsewhere(t.cat):
				return product(t.cat) // a gaming headset, laptop, monitor
			case t.acc == accYes && acc != accYes && (t.cat == cat || t.cat == ""):
				acc = accYes // a case filed under "Mobile Phones"
			}
		}
		if acc == accUnknown {
			acc = accNo
			if t.acc == accYes && (t.cat == cat || t.cat == "") {
				acc = accYes
			}
		}
		return finish(cat, acc)
	case p.outside:
		// "Toys > Remote Control" holds drones, "Home & Garden > Smart Home"
		// doorbells: a title that names a device says what the listing is.
		if t.cat != "" && !t.outside && (t.strong || !p.strong) {
			return finish(t.cat, t.acc)
		}
		return product("")
	case p.cat != "":
		// A broad path ("Gaming", "Components"): a title that names its
		// product wins.
		if t.cat != "" && (t.strong || p.acc != accYes) {
			return finish(t.cat, t.acc)
		}
		acc := p.acc
		if acc == accUnknown {
			acc = t.acc
		}
		return finish(p.cat, acc)
	}
	if t.outside || t.cat == "" {
		return product("")
	}
	acc := t.acc
	if p.acc == accYes && !t.power {
		acc = accYes // "Accessories > Cases" with a title naming only the phone
	}
	return finish(t.cat, acc)
}

// gamingElsewhere reports whether a device of category cat stays in its own
// category when sold for gaming.
func gamingElsewhere(cat string) bool {
	switch cat {
	case catHeadphone, catLaptops, catMonitors, catKeyboards, catMice, catDesktops, catTVs, catSpeakers:
		return true
	}
	return false
}

// fromPath reads a retailer category path from its most specific segment up:
// the first segment that names a category decides, and a deeper segment that
// names only an accessory ("Cases") makes it an accessory of that category.
func fromPath(path string, wb []word, mb []match) verdict {
	var res verdict
	segs := splitPath(path)
	for i := len(segs) - 1; i >= 0; i-- {
		ws := words(segs[i], wb[:0])
		v := analyze(ws, matchCues(ws, mb[:0]), true)
		if !v.found {
			continue
		}
		res.found = true
		if res.acc == accUnknown {
			res.acc, res.holds = v.acc, v.holds
		}
		if v.outside {
			res.outside, res.strong = true, v.strong
			break
		}
		if v.cat != "" {
			res.cat, res.strong, res.power = v.cat, v.strong, v.power
			if v.power {
				res.acc = accNo
			}
			break
		}
	}
	return res
}

// splitPath splits a category path at ">", "/", "|", "»", "›" and "\".
func splitPath(path string) []string {
	return strings.FieldsFunc(path, func(r rune) bool {
		switch r {
		case '>', '/', '|', '\\', '»', '›':
			return true
		}
		return false
	})
}

// fromTaxonomy reads a Google product category id or path.
func fromTaxonomy(tax string, wb []word, mb []match) verdict {
	tax = strings.TrimSpace(tax)
	if tax == "" {
		return verdict{}
	}
	// "328", or "328 - Electronics > Computers > Laptops".
	id := tax
	if i := strings.IndexFunc(tax, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		id = tax[:i]
	}
	if g, ok := googleCategories[id]; ok {
		v := verdict{cat: g.cat, acc: accNo, strong: true, found: true, outside: g.cat == ""}
		if g.acc {
			v.acc = accYes
		}
		if g.cat == catCables {
			v.power = true
		}
		return v
	}
	if id == tax {
		return verdict{}
	}
	return fromPath(strings.TrimLeft(tax[len(id):], " -"), wb, mb)
}

// Combine decides one product's place from its offers' results: the
// category most offers agree on (ties go to the category listed first in
// catalog.Categories, so the answer does not depend on offer order), and
// accessory when most of the offers in that category say so. Results
// outside the 19 categories count only when no offer is inside them.
func Combine(rs []Result) Result {
	var counts, accs [32]int
	cats := catalog.Categories()
	for _, r := range rs {
		for i, c := range cats {
			if r.Category == c {
				counts[i]++
				if r.Type == catalog.TypeAccessory {
					accs[i]++
				}
				break
			}
		}
	}
	best := -1
	for i := range cats {
		if counts[i] > 0 && (best == -1 || counts[i] > counts[best]) {
			best = i
		}
	}
	if best == -1 {
		return Result{Type: catalog.TypeProduct}
	}
	r := Result{Category: cats[best], Type: catalog.TypeProduct}
	if 2*accs[best] > counts[best] {
		r.Type = catalog.TypeAccessory
	}
	return r
}
