package match

import (
	"fmt"
	"testing"
)

// TestUnmet checks that Unmet names why grouping's blocking never weighs
// two listings against each other, and is empty when it does.
func TestUnmet(t *testing.T) {
	tests := []struct {
		name string
		a, b Item
		want string
	}{
		{"one retailer", Item{Retailer: "A", Brand: "Acme", Title: "Acme KX500 Kettle"},
			Item{Retailer: "A", Brand: "Acme", Title: "Acme KX500 Kettle"}, UnmetRetailer},
		{"brands apart", Item{Retailer: "A", Brand: "Omni", Title: "Omni Boom Speaker"},
			Item{Retailer: "B", Brand: "Ultra", Title: "Ultra Boom Speaker"}, UnmetBrand},
		{"no brand", Item{Retailer: "A", Title: "Boom Speaker"},
			Item{Retailer: "B", Brand: "Ultra", Title: "Ultra Boom Speaker"}, UnmetBrand},
		{"categories apart", Item{Retailer: "A", Brand: "Acme", Title: "Acme Boom Speaker", Category: "Audio"},
			Item{Retailer: "B", Brand: "Acme", Title: "Acme Boom Speaker", Category: "Toys"}, UnmetCategory},
		{"one rare word", Item{Retailer: "A", Brand: "Acme", Title: "Acme Kettle Steel Blue"},
			Item{Retailer: "B", Brand: "Acme", Title: "Acme Toaster Chrome Red"}, UnmetWords},
		{"shared words", Item{Retailer: "A", Brand: "Acme", Title: "Acme Boom Speaker"},
			Item{Retailer: "B", Brand: "Acme", Title: "Acme Boom Speaker Blue"}, ""},
		{"a model line's name and number alone", Item{Retailer: "A", Brand: "Acme", Title: "acme vista7 black (chdhx-701-rw)", Category: "Cameras"},
			Item{Retailer: "B", Brand: "Acme", Title: "vista 7 black edition action cam acme", Category: "Cameras"}, ""},
		{"shared code", Item{Retailer: "A", Brand: "Acme", Title: "Acme KX500T kettle", Category: "Kitchen"},
			Item{Retailer: "B", Brand: "Acme", Title: "KX500T", Category: "Other"}, ""},
	}
	m := NewMatcher(nil, Options{})
	for _, tt := range tests {
		if got := m.Unmet(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Unmet = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestUnmetShortName checks that two titles of a model's short name of a
// letter and a digit meet in their block when their rarest words differ:
// a title with a part number beside one without.
func TestUnmetShortName(t *testing.T) {
	corpus := make([]Item, 0, 62)
	for i := range 60 {
		corpus = append(corpus, Item{Retailer: fmt.Sprint("R", i), Brand: "Acme", Category: "Phones", Title: "acme moto g7 64gb"})
	}
	tests := []struct {
		name string
		a, b Item
		want string
	}{
		{"one short name", Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme moto g7 64 gb black"},
			Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme moto g7 xt1962-4 smartphone android handy ohne vertrag"}, ""},
		{"two short names", Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme moto g8 64 gb black"},
			Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme moto g7 xt1962-4 smartphone android handy ohne vertrag"}, UnmetWords},
	}
	for _, tt := range tests {
		m := NewMatcher(append(corpus, tt.a, tt.b), Options{})
		if got := m.Unmet(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Unmet = %q, want %q", tt.name, got, tt.want)
		}
	}
}
