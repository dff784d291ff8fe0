// Package match groups retailer listings that describe the same product.
//
// Listings are linked by identifiers, strongest first: the same GTIN; the same
// brand and normalised manufacturer part number or model number; and, within
// one retailer, the same brand and normalised title (a duplicate listing).
// A link other than the GTIN is refused when the two groups it would join
// carry different barcodes or differ in a hard configuration detail (a stated
// spec such as storage or screen size, or the colour), so that a 128GB phone
// is never merged with the 256GB one; a part number that two barcoded
// products share links neither.
// Work is proportional to the number of listings: listings meet only through
// shared keys, never pairwise.
package match

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Item is what the matcher knows of one listing.
type Item struct {
	Retailer    string
	GTIN        string // normalised GTIN-14, or empty
	Brand       string // canonical brand, or empty
	MPN         string
	ModelNumber string
	Colour      string
	Title       string
	Specs       map[string]float64 // values the title states, by attribute name
	// Link, when set, ties the item to every other item with the same Link
	// (used to keep a stale retailer's offers with the product they had).
	Link string
}

// Group partitions items into products and returns the groups as index lists.
// Each group is sorted ascending and groups are ordered by their first index,
// so the result is deterministic for a given input order.
func Group(items []Item) [][]int {
	g := newGroups(items)
	// Strongest evidence first, so vetoes see the richest groups.
	g.linkBy(func(it Item) string {
		if it.GTIN == "" {
			return ""
		}
		return "gtin:" + it.GTIN
	}, false)
	g.linkBy(func(it Item) string {
		if it.Link == "" {
			return ""
		}
		return "link:" + it.Link
	}, false)
	g.linkBy(func(it Item) string { return partKey(it.Brand, it.MPN) }, true)
	g.linkBy(func(it Item) string { return partKey(it.Brand, it.ModelNumber) }, true)
	g.linkBy(func(it Item) string {
		t := normTitle(it.Title)
		if t == "" || it.Brand == "" {
			return ""
		}
		return "dup:" + it.Retailer + "\x00" + strings.ToLower(it.Brand) + "\x00" + NormalizePart(it.MPN) + "\x00" + t
	}, true)
	return g.result()
}

// partKey is the blocking key for a brand and part number, or "" when the
// part number is too weak to identify a product.
func partKey(brand, part string) string {
	p := NormalizePart(part)
	if brand == "" || len(p) < 4 || !strings.ContainsFunc(p, unicode.IsDigit) {
		return ""
	}
	return "part:" + strings.ToLower(brand) + "\x00" + p
}

// regionSuffix matches the region codes that retailers append to part
// numbers: Apple's "B/A", "LL/A", "ZP/A" and plain "/A", and "-UK", "-GB",
// "/EU" forms.
var regionSuffix = regexp.MustCompile(`(?:[A-Z]{0,2}/A|[-/ ](?:UK|GB|EU))$`)

// NormalizePart folds a manufacturer part or model number so that spelling
// differences between retailers vanish: case, spaces, hyphens, dots and
// slashes are dropped, and a trailing region suffix ("B/A", "LL/A", "-UK",
// "/EU") is removed.
func NormalizePart(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if m := regionSuffix.FindStringIndex(s); m != nil && m[0] >= 4 {
		s = s[:m[0]]
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// normTitle folds a title for duplicate detection within one retailer.
func normTitle(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.'
	})
	return strings.Join(f, " ")
}

// groups is a union-find over items that tracks, per root, the evidence that
// vetoes a merge: the spec values and colours its members state.
type groups struct {
	items   []Item
	parent  []int
	gtin    []string               // per root: the group's barcode, if any
	specs   []map[string][]float64 // per root
	colours []map[string]bool      // per root
}

func newGroups(items []Item) *groups {
	g := &groups{
		items:   items,
		parent:  make([]int, len(items)),
		gtin:    make([]string, len(items)),
		specs:   make([]map[string][]float64, len(items)),
		colours: make([]map[string]bool, len(items)),
	}
	for i, it := range items {
		g.parent[i] = i
		g.gtin[i] = it.GTIN
		if len(it.Specs) > 0 {
			g.specs[i] = make(map[string][]float64, len(it.Specs))
			for k, v := range it.Specs {
				g.specs[i][k] = []float64{v}
			}
		}
		if c := colourOf(it); c != "" {
			g.colours[i] = map[string]bool{c: true}
		}
	}
	return g
}

func (g *groups) find(i int) int {
	for g.parent[i] != i {
		g.parent[i] = g.parent[g.parent[i]]
		i = g.parent[i]
	}
	return i
}

// vetoed reports whether the groups rooted at a and b are different
// products: they carry different barcodes, a spec both state has no value in
// common, or their colours have none in common.
func (g *groups) vetoed(a, b int) bool {
	if g.gtin[a] != "" && g.gtin[b] != "" && g.gtin[a] != g.gtin[b] {
		return true
	}
	for k, va := range g.specs[a] {
		vb, ok := g.specs[b][k]
		if !ok {
			continue
		}
		if !slices.ContainsFunc(va, func(x float64) bool { return slices.Contains(vb, x) }) {
			return true
		}
	}
	if len(g.colours[a]) > 0 && len(g.colours[b]) > 0 {
		for c := range g.colours[a] {
			if g.colours[b][c] {
				return false
			}
		}
		return true
	}
	return false
}

func (g *groups) union(a, b int, veto bool) {
	a, b = g.find(a), g.find(b)
	if a == b || (veto && g.vetoed(a, b)) {
		return
	}
	if b < a {
		a, b = b, a
	}
	g.parent[b] = a
	if g.gtin[a] == "" {
		g.gtin[a] = g.gtin[b]
	}
	for k, vs := range g.specs[b] {
		if g.specs[a] == nil {
			g.specs[a] = map[string][]float64{}
		}
		for _, v := range vs {
			if !slices.Contains(g.specs[a][k], v) {
				g.specs[a][k] = append(g.specs[a][k], v)
			}
		}
	}
	for c := range g.colours[b] {
		if g.colours[a] == nil {
			g.colours[a] = map[string]bool{}
		}
		g.colours[a][c] = true
	}
	g.specs[b], g.colours[b] = nil, nil
}

// linkBy joins items that share a non-empty key. With veto, a join that
// would merge different products is refused, and a key shared by groups
// with different barcodes is ambiguous and links nothing: a part number that
// two barcoded products carry cannot tell which of them a third listing is.
func (g *groups) linkBy(key func(Item) string, veto bool) {
	members := map[string][]int{}
	var keys []string
	for i, it := range g.items {
		k := key(it)
		if k == "" {
			continue
		}
		if _, ok := members[k]; !ok {
			keys = append(keys, k)
		}
		members[k] = append(members[k], i)
	}
	for _, k := range keys {
		m := members[k]
		if len(m) < 2 || (veto && g.ambiguous(m)) {
			continue
		}
		for _, i := range m[1:] {
			g.union(m[0], i, veto)
		}
	}
}

// ambiguous reports whether the items' groups carry more than one barcode.
func (g *groups) ambiguous(items []int) bool {
	seen := ""
	for _, i := range items {
		if b := g.gtin[g.find(i)]; b != "" {
			if seen != "" && seen != b {
				return true
			}
			seen = b
		}
	}
	return false
}

func (g *groups) result() [][]int {
	byRoot := map[int]int{}
	var out [][]int
	for i := range g.items {
		r := g.find(i)
		n, ok := byRoot[r]
		if !ok {
			n = len(out)
			byRoot[r] = n
			out = append(out, nil)
		}
		out[n] = append(out[n], i)
	}
	return out
}
