package match

import "productsearch/internal/catalog"

// The catalog's categories whose products the matcher reads in ways of
// their own.
const (
	laptops  = string(catalog.Laptops)
	desktops = string(catalog.Desktops)
	phones   = string(catalog.Phones)
	tvs      = string(catalog.TVs)     // a model code gives the screen size
	cameras  = string(catalog.Cameras) // bodies, lens kits and combos are editions of one camera
	gaming   = string(catalog.Gaming)  // consoles and gaming hardware, which name graphics processors
)

// configuredToOrder reports whether a category's products come in
// configurations of their memory beside their storage (computers); a
// phone's or a camera's memory comes with its model and storage, so a title
// that leaves it out names no other configuration.
func configuredToOrder(category string) bool {
	return category == laptops || category == desktops
}

// phone reports whether a listing is a phone, not an accessory: its title
// multiplies nothing ("Mate 20 X 7.2 dual sim" is the Mate 20 X with a 7.2"
// screen).
func (p *profile) phone() bool {
	return p.category == phones && !p.acc
}
