package match

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShopBoilerplate(t *testing.T) {
	s := shopWords{}
	for i := range 10 {
		// One shop's slogan in ten of its titles, another's word in
		// seven, a word both shops write, and a number one shop writes
		// apart from its unit.
		s.add("K", []string{"acme", fmt.Sprint("zx", i), "upgrade", "your", "setup", "camera", "128"})
		if i < 7 {
			s.add("L", []string{"acme", fmt.Sprint("zx", i), "camera", "rare"})
		}
	}
	df := map[string]int32{}
	for _, words := range s {
		for w, n := range words {
			df[w] += n
		}
	}
	want := map[string]map[string]bool{"K": {"upgrade": true, "your": true, "setup": true}}
	if diff := cmp.Diff(want, s.boilerplate(df)); diff != "" {
		t.Errorf("boilerplate mismatch (-want +got):\n%s", diff)
	}
}

// TestGroupShopSlogans checks that a shop's slogan ("upgrade your setup")
// sells no upgrade: its listings join other shops' of one product, while an
// upgrade that shops name alike stays an edition.
func TestGroupShopSlogans(t *testing.T) {
	var items []Item
	for i := range 30 {
		items = append(items,
			Item{Retailer: "K", Brand: "Acme", Category: "Cameras", Title: fmt.Sprintf("acme vista zx%d%d camera upgrade your setup", 100+i, i)},
			Item{Retailer: "L", Brand: "Acme", Category: "Cameras", Title: fmt.Sprintf("acme vista zx%d%d camera", 100+i, i)})
	}
	items = append(items,
		Item{Retailer: "L", Brand: "Acme", Title: "acme studio zp500 software upgrade"},
		Item{Retailer: "M", Brand: "Acme", Title: "acme studio zp500 software upgrade"},
		Item{Retailer: "N", Brand: "Acme", Title: "acme studio zp500 software"})
	groups := GroupWith(items, Options{})
	want := [][]int{{60, 61}, {62}}
	for i := range 30 {
		want = append(want, []int{2 * i, 2*i + 1})
	}
	got := map[string]bool{}
	for _, g := range groups {
		got[fmt.Sprint(g)] = true
	}
	for _, g := range want {
		if !got[fmt.Sprint(g)] {
			t.Errorf("group %v missing from %v", g, groups)
			break
		}
	}
}
