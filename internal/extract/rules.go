package extract

import "productsearch/internal/catalog"

// attrSet is a set of the attributes extraction has a reading rule for, one
// bit each: a new attribute's rule takes the next bit (64 rules fit, and the
// type widens to a bitset should more ever be written).
type attrSet uint64

const (
	aMem attrSet = 1 << iota
	aSto
	aScr
	aRes
	aRef
	aPow
	aWifi
)

// rules are what one category lets a title state and how it reads figures
// that carry no label.
type rules struct {
	allow attrSet
	// loneSto: an unlabelled GB figure that stands alone is storage when it is
	// at least this large; 0 means a lone figure is never read.
	loneSto float64
	// ramMax: an unlabelled pair "8GB/256GB" is RAM/storage when the first is
	// at most ramMax and the second at least four times the first; 0 disables
	// the pair rule.
	ramMax float64
	// eitherOrder: the pair rule also reads the larger figure first
	// ("64GB 4GB"), as phones and tablets are listed.
	eitherOrder bool
	// scrMin and scrMax bound a screen size that belongs to the product.
	scrMin, scrMax float64
	// powerSupply: watts are read only from a title that names a power
	// supply ("850W ATX Power Supply", "650W PSU").
	powerSupply bool
	// ramModule: a lone figure in a title naming DDR memory is the module's
	// capacity (RAM kits and their listings).
	ramModule bool
}

// rulesFor returns the reading rules of a listing's category and type.
func rulesFor(ctx Context) rules {
	var r rules
	switch catalog.Category(ctx.Category) {
	case catalog.Laptops:
		r = rules{allow: aMem | aSto | aScr | aRes | aRef | aWifi, loneSto: 256, ramMax: 128, scrMin: 10, scrMax: 18.5}
	case catalog.Desktops:
		r = rules{allow: aMem | aSto | aScr | aRes | aRef | aWifi, loneSto: 256, ramMax: 256, scrMin: 15, scrMax: 34}
	case catalog.Tablets:
		r = rules{allow: aMem | aSto | aScr | aRes | aRef | aWifi, loneSto: 16, ramMax: 24, eitherOrder: true, scrMin: 6, scrMax: 15}
	case catalog.Phones:
		r = rules{allow: aMem | aSto | aScr | aRes | aRef | aWifi, loneSto: 32, ramMax: 24, eitherOrder: true, scrMin: 1.5, scrMax: 8.2}
	case catalog.TVs:
		r = rules{allow: aScr | aRes | aRef, scrMin: 19, scrMax: 120}
	case catalog.Monitors:
		r = rules{allow: aScr | aRes | aRef, scrMin: 10, scrMax: 57}
	case catalog.Headphones, catalog.Keyboards, catalog.Mice:
		r = rules{}
	case catalog.Speakers:
		r = rules{allow: aPow}
	case catalog.CablesChargers:
		// A cable's or adapter's rated video resolution ("USB-C to HDMI 4K").
		r = rules{allow: aPow | aRes}
	case catalog.Audio:
		r = rules{allow: aPow | aSto, loneSto: 1}
	case catalog.Cameras:
		r = rules{allow: aSto | aScr | aRes, scrMin: 1.5, scrMax: 4}
	case catalog.Printers:
		r = rules{allow: aWifi}
	case catalog.Networking:
		r = rules{allow: aWifi | aSto}
	case catalog.Storage:
		r = rules{allow: aSto | aMem, loneSto: 1, ramModule: true}
	case catalog.Gaming:
		r = rules{allow: aMem | aSto | aScr | aRes | aRef | aWifi, loneSto: 32, ramMax: 32, scrMin: 3, scrMax: 10}
	case catalog.Wearables:
		r = rules{allow: aSto | aScr, loneSto: 1, scrMin: 0.5, scrMax: 2.5}
	case catalog.Drones:
		r = rules{allow: aSto | aRes}
	default:
		// Unknown: only figures that say what they are. Sizes and watts are
		// left out, since a binder's "1 inch ring", a sat nav's "nuvi 205w" or
		// a paper roll's "36 inches" read like screens and chargers; a power
		// supply's watts are its power.
		r = rules{allow: aMem | aSto | aRes | aRef | aWifi | aPow, ramModule: true, powerSupply: true}
	}
	if ctx.Accessory {
		// An accessory's own specs are its capacity (a RAM kit, a memory
		// card), its wattage (a charger, a PSU) and its Wi-Fi (a card);
		// sizes and resolutions in its title describe the device it fits.
		r.allow = aMem | aSto | aPow | aWifi
		if ctx.Category != "Storage" && ctx.Category != "Gaming" {
			r.loneSto = 0
		}
		r.ramMax = 0
		r.ramModule = true
	}
	return r
}
