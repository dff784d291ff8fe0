// Package match groups retailer listings that describe the same product and
// decides, for one pair of listings, whether they are the same product.
//
// Evidence, strongest first:
//
//   - the same GTIN (a barcode is the product; different barcodes are
//     different products);
//   - the same brand and normalised manufacturer part number or model
//     number, from the identifier fields or found in the titles
//     ("WH-1000XM5", "KD-55X80L", "SM-S921B", "82XF001UUK", "MXCR3B/A"):
//     letters and digits, at least four characters, not a spec ("16GB",
//     "144Hz") nor a standard or component ("USB3", "RTX4070", "i7-13700H"),
//     folded for hyphens, spaces, case and region suffixes; a processor
//     number ("i7-8700K", "Ryzen 7 1700X", "Xeon E5520") is a component of
//     a device but the model code of a listing that names no device, and
//     then every letter of it counts ("8700K" is not "8700");
//   - title evidence within a block of listings of the same brand and
//     category: the titles' words weighted by rarity agree, with the same
//     variant words and model-line numbers; a title that names no model (no
//     code, no model-line number: "washing machine") fits every product of
//     its kind and joins none on title evidence.
//
// Two listings of one retailer never join, not even under one title: a shop
// lists a product once, and the rows it gives one title are items the title
// does not tell apart (a processor's tray and box, kits for different
// machines, a part number the title leaves out).
//
// Every link other than the GTIN is refused when the two products it would
// join differ in a hard configuration detail: different barcodes, different
// manufacturer part numbers, a stated spec (RAM, storage, screen size, ...),
// the colour, a model-line number ("Pro 5" and "Pro 6", "Gen 2" and "Gen 3",
// "i5" and "i7", "RTX 4060" and "RTX 4070") or, for title evidence, a
// variant word ("Pro" and "Pro Max", "S23" and "S23+", "Mini", "Lite"), a
// stated measure, an accessory against a device, accessories of different
// devices, an edition (bundle, upgrade, academic, remanufactured, a kit or
// multi-pack part number, a camera with a lens against the body) against the
// product, the colour letters of a code ("BK" and "WH"), a paper size or a
// platform (Mac and Windows). On title evidence a listing also stays out of
// a product whose titles state a configuration detail (RAM, storage,
// processor, graphics) it leaves open. A key that would join listings into
// groups that refuse each other is ambiguous and links nothing: a part
// number that two barcoded products share, a title that matches the black
// and the white phone. Precision comes first: a wrong merge puts one
// product's price on another.
//
// The pair decision (Same, Compare, Matcher.Compare) applies the same
// evidence and vetoes to one pair; the pair benchmarks judge it. Each rule
// of it is a named predicate, and Matcher.Explain returns the decision with
// its trace: every rule applied, in order, what it read of both listings
// and its outcome. Only Explain records a trace; grouping and Compare pay
// nothing for it.
//
// Work is near-linear in the number of listings: listings meet only through
// shared keys or, for title evidence, through their rarest words or a model
// code (whole or spelt in pieces: "CNSL 3033") within a block, and only
// listings without a barcode look for title matches. Past the barcodes,
// each brand is matched on its own, so the listings' profiles are held for
// one brand at a time; a model code of eight characters or more joins the
// brands that carry it into one set, since retailers file a product under
// its series or start a title with its code.
package match

import (
	"runtime"
	"slices"
	"strings"
	"unicode"
	"unique"
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
	// Category is the listing's catalog category, or "" when unknown. Title
	// evidence is weighed only between listings of one brand and category.
	Category string
	// Accessory marks a listing classified as an accessory: on title
	// evidence, an accessory is never the device of its category.
	Accessory bool
	// BrandGuessed marks a Brand read from the title's first word, which a
	// listing that gives no brand may start with or not ("Tarjeta SD
	// 32GB", "Kamera IP 5010L"): against another brand it keeps two
	// listings apart only when their titles share no model code.
	BrandGuessed bool
	// Description is the retailer's prose. In a pair decision (Same,
	// Compare, Matcher), a model code it names supports a match with a
	// listing whose title or identifiers carry that code; it never keeps
	// two listings apart. Group does not read it.
	Description string
}

// Group partitions items into products and returns the groups as index lists.
// Each group is sorted ascending and groups are ordered by their first index,
// so the result is deterministic for a given input order.
func Group(items []Item) [][]int {
	return GroupWith(items, Options{})
}

// GroupWith is Group with options.
func GroupWith(items []Item, opt Options) [][]int {
	groups, _ := GroupSource(Items(items), opt) // Items.Read never fails
	return groups
}

// GroupSource is GroupWith over the listings of src; it fails only when a
// listing cannot be read.
func GroupSource(src Source, opt Options) ([][]int, error) {
	g, err := newGroups(src, opt)
	if err != nil {
		return nil, err
	}
	// Strongest evidence first, so vetoes see the richest groups. Barcodes
	// and links may join listings of any brand. Keys are gathered before
	// any join, so g.gtin is still each listing's own barcode.
	g.linkBy(nil, func(i int, emit func(string)) { emit(g.gtin[i]) }, false)
	g.linkBy(nil, func(i int, emit func(string)) { emit(g.link[i]) }, false)
	g.link = nil
	// Every other link joins listings of one brand, so each brand (with the
	// listings its groups already hold) is matched on its own, its
	// listings read and profiled for it alone: memory follows the largest
	// brand, not the catalog. Long codes shared across brands come last.
	done := make(chan struct{})
	defer close(done)
	next, free := g.readAhead(g.partitions(), maxReadAhead, done)
	for r := range next {
		switch {
		case r.err != nil:
			return nil, r.err
		case r.unread:
			if err := g.readProfiles(r.part); err != nil {
				return nil, err
			}
		default:
			free <- g.use(r.partRead)
		}
		part := r.part
		g.linkBy(part, func(i int, emit func(string)) { it := g.item(i); emit(partKey(it.Brand, it.MPN)) }, true)
		g.linkBy(part, func(i int, emit func(string)) { it := g.item(i); emit(partKey(it.Brand, it.ModelNumber)) }, true)
		g.linkCodes(part)
		g.linkTitles(part)
	}
	if err := g.linkBridges(); err != nil {
		return nil, err
	}
	g.release()
	return g.result(), nil
}

// minBridgeCode is the length of a model code that names one product
// whatever brand a retailer files it under ("KGN34NW3AG", "WVG30462GB").
const minBridgeCode = 8

// bridgeCode returns the longest model code of a listing's own that is
// long enough to join listings of different brands, or "": a retailer may
// file a product under its series ("Serie 4 KGN34XL35G") or start its
// title with the code.
func bridgeCode(p *profile) string {
	best := ""
	for _, c := range p.codes {
		if c.kind == codeStrong && !c.fit && !c.cpu && len(c.s) >= minBridgeCode && len(c.s) > len(best) &&
			strings.ContainsFunc(c.s, unicode.IsLetter) && digitCount(c.s) >= 2 {
			best = c.s
		}
	}
	return best
}

// partKey is the blocking key for a brand and part number, or "" when the
// part number is too weak to identify a product.
func partKey(brand, part string) string {
	p := NormalizePart(part)
	if brand == "" || len(p) < 4 || !strings.ContainsFunc(p, unicode.IsDigit) {
		return ""
	}
	return strings.ToLower(brand) + "\x00" + p
}

// groups is a union-find over the listings of a Source that tracks, per
// root, the evidence that vetoes a merge: the barcode, the spec values and
// colours its members state, and its members. What it keeps of every
// listing is what the whole set shares; the listings themselves, their
// profiles and their groups' spec values and colours are held for the
// partition being matched only.
type groups struct {
	src     Source
	n       int
	m       *Matcher
	opt     Options
	parent  []int32
	gtin    []string                   // per root: the group's barcode, if any
	members map[int][]int              // per root of more than one member: its members
	config  []configSet                // per root: the configuration details its titles state
	colour  []name                     // per listing: its colour
	brand   []name                     // per listing: its brand folded for blocking
	bridges []bridge                   // the listings with a long model code that joins its brand's partition to another's, in order
	boiler  map[string]map[string]bool // per retailer: its boilerplate words (see shopWords)
	link    []string                   // per listing, until links are followed: its Item.Link

	// The partition being matched: its listings and their profiles
	// (items[local[i]] and prof[local[i]] are listing i's), and, per root
	// of its groups, the spec values and colours they state, read when
	// first needed.
	part    []int
	items   []Item
	prof    []profile
	local   []int32
	specs   map[int]map[string][]float64
	colours map[int]map[string]bool
}

func newGroups(src Source, opt Options) (*groups, error) {
	n := src.Len()
	g := &groups{
		src:     src,
		n:       n,
		m:       &Matcher{opt: opt, scorer: embeddedScorer()},
		opt:     opt,
		parent:  make([]int32, n),
		gtin:    make([]string, n),
		members: map[int][]int{},
		config:  make([]configSet, n),
		colour:  make([]name, n),
		brand:   make([]name, n),
		link:    make([]string, n),
		local:   make([]int32, n),
	}
	rarity := n >= minCorpusForRarity
	// A first reading of every listing gives the word frequencies and what
	// is kept of each (barcode, link, colour, configuration, brand); the
	// profiles themselves are read again, one partition at a time. Each
	// worker counts the words of its blocks of listings on its own.
	workers := min(runtime.GOMAXPROCS(0), max(1, n/1000))
	sketch := opt
	sketch.sketch = true
	dfs := make([]map[string]int32, workers)
	shops := make([]shopWords, workers)
	for w := range dfs {
		dfs[w] = map[string]int32{}
		shops[w] = shopWords{}
	}
	bridges := make([][]bridge, workers)
	err := g.readBlocks(nil, workers, func(w, i int, it *Item) {
		p := profileOf(*it, sketch)
		g.gtin[i], g.link[i] = it.GTIN, it.Link
		g.colour[i], g.config[i] = nameOf(p.colour), p.config
		if c := bridgeCode(&p); c != "" {
			bridges[w] = append(bridges[w], bridge{i: int32(i), code: strings.Clone(c)})
		}
		if p.brand != "" {
			g.brand[i] = nameOf(brandAlias(p.brand))
		}
		if !rarity {
			return
		}
		shops[w].add(it.Retailer, p.words)
		df := dfs[w]
		for _, word := range p.words {
			if n, ok := df[word]; ok {
				df[word] = n + 1
			} else {
				// The word is a slice of the listing's title: keep a
				// copy, not the title.
				df[strings.Clone(word)] = 1
			}
		}
	})
	if err != nil {
		return nil, err
	}
	g.bridges = slices.Concat(bridges...)
	slices.SortFunc(g.bridges, func(a, b bridge) int { return int(a.i - b.i) })
	if rarity {
		g.m.df = dfs[0]
		for _, df := range dfs[1:] {
			for word, n := range df {
				g.m.df[word] += n
			}
		}
		g.m.n = n
		for _, s := range shops[1:] {
			shops[0].merge(s)
		}
		g.boiler = shops[0].boilerplate(g.m.df)
	}
	for i := range n {
		g.parent[i] = int32(i)
		g.local[i] = -1
	}
	return g, nil
}

// A name is a brand or colour as groups keeps it for every listing: one
// copy per distinct name; the zero name is none.
type name = unique.Handle[string]

func nameOf(s string) name {
	if s == "" {
		return name{}
	}
	return unique.Make(s)
}

// brandOf returns listing i's brand folded for blocking, or "".
func (g *groups) brandOf(i int) string {
	if g.brand[i] == (name{}) {
		return ""
	}
	return g.brand[i].Value()
}

// colourOf returns listing i's colour, or "".
func (g *groups) colourOf(i int) string {
	if g.colour[i] == (name{}) {
		return ""
	}
	return g.colour[i].Value()
}

// bridge is a listing's long model code that may join listings of
// different brands (bridgeCode).
type bridge struct {
	i    int32
	code string
}

// bridgeOf returns listing i's bridge code, or "".
func (g *groups) bridgeOf(i int) string {
	k, ok := slices.BinarySearchFunc(g.bridges, int32(i), func(b bridge, i int32) int { return int(b.i - i) })
	if !ok {
		return ""
	}
	return g.bridges[k].code
}

// partitions returns the sets of listings that can be matched apart from
// each other: the listings of one brand, with every listing their groups
// hold so far. Each set is in ascending order; sets without a brand are
// left out (only a long code, linkBridges, can join them).
func (g *groups) partitions() [][]int {
	uf := make([]int32, g.n)
	for i := range uf {
		uf[i] = int32(i)
	}
	find := func(i int32) int32 {
		for uf[i] != i {
			uf[i] = uf[uf[i]]
			i = uf[i]
		}
		return i
	}
	unite := func(a, b int32) {
		a, b = find(a), find(b)
		if a != b {
			uf[max(a, b)] = min(a, b)
		}
	}
	first := map[name]int32{}
	for i := range g.n {
		if b := g.brand[i]; b != (name{}) {
			if f, ok := first[b]; ok {
				unite(f, int32(i))
			} else {
				first[b] = int32(i)
			}
		}
		unite(int32(g.find(i)), int32(i))
	}
	index := map[int32]int{}
	var parts [][]int
	branded := []bool{}
	for i := range g.n {
		r := find(int32(i))
		k, ok := index[r]
		if !ok {
			k = len(parts)
			index[r] = k
			parts = append(parts, nil)
			branded = append(branded, false)
		}
		parts[k] = append(parts[k], i)
		branded[k] = branded[k] || g.brand[i] != (name{})
	}
	out := parts[:0]
	for k, part := range parts {
		if branded[k] && len(part) > 1 {
			out = append(out, part)
		}
	}
	return out
}

// linkBridges joins, by the long code they share, listings that
// partitions() left in different partitions (bridgeCode: a code filed under
// two brands, or under none). The listings holding such a code, with every
// member of their groups, are read as one more partition, so that a bridge
// weighs the groups each brand formed. Partitions are not joined by these
// codes: a few listings filed under another brand would chain brands into
// one partition whose profiles are all held at once.
func (g *groups) linkBridges() error {
	holders := map[string][]int{}
	var codes []string
	for _, b := range g.bridges {
		i, c := int(b.i), b.code
		if _, ok := holders[c]; !ok {
			codes = append(codes, c)
		}
		holders[c] = append(holders[c], i)
	}
	var part []int
	seen := map[int]bool{}
	live := codes[:0]
	for _, c := range codes {
		items := holders[c]
		if len(items) < 2 || !g.apart(items) {
			continue
		}
		live = append(live, c)
		for _, i := range items {
			for _, m := range g.membersOf(g.find(i)) {
				if !seen[m] {
					seen[m] = true
					part = append(part, m)
				}
			}
		}
	}
	if len(live) == 0 {
		return nil
	}
	slices.Sort(part)
	if err := g.readProfiles(part); err != nil {
		return err
	}
	for _, c := range live {
		g.merge(holders[c], false)
	}
	return nil
}

// apart reports whether items are in more than one group.
func (g *groups) apart(items []int) bool {
	r := g.find(items[0])
	for _, i := range items[1:] {
		if g.find(i) != r {
			return true
		}
	}
	return false
}

// specsOf returns the spec values the group rooted at r states; a listing
// on its own states its title's.
func (g *groups) specsOf(r int) map[string][]float64 {
	if m, ok := g.specs[r]; ok {
		return m
	}
	var m map[string][]float64
	for _, i := range g.membersOf(r) {
		for k, v := range g.item(i).Specs {
			m = addSpec(m, k, v)
		}
	}
	if _, many := g.members[r]; many {
		g.specs[r] = m
	}
	return m
}

// addSpec adds value v of spec k to m, made when nil, unless m holds it.
func addSpec(m map[string][]float64, k string, v float64) map[string][]float64 {
	if m == nil {
		m = map[string][]float64{}
	}
	if !slices.Contains(m[k], v) {
		m[k] = append(m[k], v)
	}
	return m
}

// addColour adds colour c to m, made when nil.
func addColour(m map[string]bool, c string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[c] = true
	return m
}

// coloursOf returns the colours the group rooted at r states.
func (g *groups) coloursOf(r int) map[string]bool {
	if m, ok := g.colours[r]; ok {
		return m
	}
	var m map[string]bool
	for _, i := range g.membersOf(r) {
		if c := g.colourOf(i); c != "" {
			m = addColour(m, c)
		}
	}
	if _, many := g.members[r]; many {
		g.colours[r] = m
	}
	return m
}

func (g *groups) find(i int) int {
	x := int32(i)
	for g.parent[x] != x {
		g.parent[x] = g.parent[g.parent[x]]
		x = g.parent[x]
	}
	return int(x)
}

// membersOf returns the items of the group rooted at r.
func (g *groups) membersOf(r int) []int {
	if m, ok := g.members[r]; ok {
		return m
	}
	return []int{r}
}

// vetoed reports whether the groups rooted at a and b are different
// products: they carry different barcodes, a spec both state has no value in
// common, or their colours have none in common.
func (g *groups) vetoed(a, b int) bool {
	if g.gtin[a] != "" && g.gtin[b] != "" && g.gtin[a] != g.gtin[b] {
		return true
	}
	_, manyA := g.members[a]
	_, manyB := g.members[b]
	if !manyA && !manyB {
		// Two single listings: compare them directly.
		ca, cb := g.colourOf(a), g.colourOf(b)
		return specsConflict(g.item(a).Specs, g.item(b).Specs) || ca != "" && cb != "" && ca != cb
	}
	sa, sb := g.specsOf(a), g.specsOf(b)
	for k, va := range sa {
		vb, ok := sb[k]
		if !ok {
			continue
		}
		if !slices.ContainsFunc(va, func(x float64) bool { return slices.Contains(vb, x) }) {
			return true
		}
	}
	ca, cb := g.coloursOf(a), g.coloursOf(b)
	if len(ca) > 0 && len(cb) > 0 {
		for c := range ca {
			if cb[c] {
				return false
			}
		}
		return true
	}
	return false
}

// maxPairChecks bounds the member pairs compared when two groups meet.
const maxPairChecks = 24

// refused reports whether the groups rooted at a and b are different
// products: vetoed, or some pair of their members refuses each other: a
// brand, a part number, a model-line number ("i5" and "i7" under one
// "15-fa1") unless a part number binds them, and, with title set, a variant
// word, a measure or the device an accessory fits.
func (g *groups) refused(a, b int, title bool) bool {
	if g.vetoed(a, b) {
		return true
	}
	if title && g.config[a] != g.config[b] {
		// One states a configuration detail the other leaves open ("RTX
		// 4090" against no graphics): on title evidence alone, it could be
		// another configuration.
		return true
	}
	ma, mb := g.membersOf(a), g.membersOf(b)
	if g.shareRetailer(ma, mb) {
		return true
	}
	for x, i := range ma {
		if x == maxPairChecks {
			break
		}
		for y, j := range mb {
			if y == maxPairChecks {
				break
			}
			p, q := g.profile(i), g.profile(j)
			ev := codeEvidence(p, q)
			if hardVeto(p, q, ev, nil) != "" || ev.conflict {
				return true
			}
			switch {
			case ev.part:
			case ev.strong || !title:
				if codeLineConflict(p, q, ev, !ev.strong) || nameVariant(p, q, ev) {
					return true
				}
			case g.m.titleVeto(p, q, nil) != "" || (!namesModel(p) || !namesModel(q)) && !sameTitle(p, q):
				return true
			}
		}
	}
	return false
}

// shareRetailer reports whether two groups hold listings of one retailer:
// a shop lists a product once, so two of its listings that model codes or
// titles would join are two products the titles cannot tell apart (kits of
// one processor for different machines), even when their titles are the
// same.
func (g *groups) shareRetailer(ma, mb []int) bool {
	if len(ma) > len(mb) {
		ma, mb = mb, ma
	}
	if len(ma)*len(mb) > 64 {
		// Large groups: a set, so the work stays linear in their sizes.
		seen := make(map[string]bool, len(ma))
		for _, i := range ma {
			if r := g.item(i).Retailer; r != "" {
				seen[r] = true
			}
		}
		for _, j := range mb {
			if seen[g.item(j).Retailer] {
				return true
			}
		}
		return false
	}
	for _, i := range ma {
		r := g.item(i).Retailer
		if r == "" {
			continue
		}
		for _, j := range mb {
			if g.item(j).Retailer == r {
				return true
			}
		}
	}
	return false
}

func (g *groups) union(a, b int, veto bool) {
	a, b = g.find(a), g.find(b)
	if a == b || (veto && g.vetoed(a, b)) {
		return
	}
	g.join(a, b)
}

// join merges the groups rooted at a and b. Within a partition, the spec
// values and colours of the merged group are kept; outside one (barcodes
// and links), they are read from its members when its partition is.
func (g *groups) join(a, b int) {
	if b < a {
		a, b = b, a
	}
	if g.part != nil {
		sa, sb := g.specsOf(a), g.specsOf(b)
		for k, vs := range sb {
			for _, v := range vs {
				sa = addSpec(sa, k, v)
			}
		}
		ca, cb := g.coloursOf(a), g.coloursOf(b)
		for c := range cb {
			ca = addColour(ca, c)
		}
		g.specs[a], g.colours[a] = sa, ca
		delete(g.specs, b)
		delete(g.colours, b)
	}
	g.parent[b] = int32(a)
	if g.gtin[a] == "" {
		g.gtin[a] = g.gtin[b]
	}
	g.members[a] = append(g.membersOf(a), g.membersOf(b)...)
	g.config[a] |= g.config[b]
	delete(g.members, b)
}

// linkBy joins items of among (all items when nil) that share a non-empty
// key. With veto, a join that
// would merge different products is refused, and a key shared by groups
// with different barcodes is ambiguous and links nothing: a part number that
// two barcoded products carry cannot tell which of them a third listing is.
func (g *groups) linkBy(among []int, keys func(i int, emit func(string)), veto bool) {
	members := map[string][]int{}
	var order []string
	g.each(among, func(i int) {
		keys(i, func(k string) {
			if k == "" {
				return
			}
			if _, ok := members[k]; !ok {
				order = append(order, k)
			}
			members[k] = append(members[k], i)
		})
	})
	for _, k := range order {
		m := members[k]
		if len(m) < 2 || (veto && g.ambiguous(m)) {
			continue
		}
		for _, i := range m[1:] {
			g.union(m[0], i, veto)
		}
	}
}

// each calls fn for every listing of among, or of all items when among is
// nil, in ascending order.
func (g *groups) each(among []int, fn func(i int)) {
	if among == nil {
		for i := range g.n {
			fn(i)
		}
		return
	}
	for _, i := range among {
		fn(i)
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
	for i := range g.n {
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

// minSameTitle is the fewest words of a title that, written alike by two
// shops, names one product though it names no model: a brand, a name and
// a kind ("Microsoft Modern Webcam"); a brand and a kind name none. A brand
// guessed from a title's first word may be a kind's word ("frost free
// fridge freezer"), so such a title needs one word more.
const minSameTitle = 3

// sameTitle reports whether two listings' titles are the same words, in
// the same order, and long enough to say more than a product's kind ("Acme
// 60cm freestanding larder fridge white", "Acme Studio Webcam" from two
// shops).
func sameTitle(p, q *profile) bool {
	n := minSameTitle
	if p.guessed || q.guessed {
		n++
	}
	return len(p.words) >= n && sameWords(p.words, q.words)
}
