package match

import (
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// maxKeyGroups is the most groups one code key may join; a code shared by
// more is a model line, not a product.
const maxKeyGroups = 16

// linkCodes joins listings of one brand that name the same model code in a
// title or an identifier field. A code that ends in a few letters after its
// last digit ("DHTS217B") also meets the code without them, and the pair
// decision then judges the letters.
func (g *groups) linkCodes(part []int) {
	members := map[string][]int{}
	var order []string
	add := func(k string, i int) {
		list, ok := members[k]
		if !ok {
			order = append(order, k)
		}
		if n := len(list); n > 0 && list[n-1] == i {
			return
		}
		members[k] = append(list, i)
	}
	for _, i := range part {
		p := g.profile(i)
		if c := g.bridgeOf(i); c != "" {
			add("\x00"+c, i) // one code under two brands
		}
		if p.brand == "" {
			continue
		}
		b := g.brandOf(i) + "\x00"
		for _, c := range p.codes {
			if c.kind != codeStrong || c.fit {
				continue
			}
			add(b+c.s, i)
			if st := linkStem(c); st != "" {
				add(b+st, i)
			}
		}
	}
	// A brand's codes first, then the codes that bridge brands: a bridge
	// then meets the groups its brand's listings already form, not each
	// listing alone, of which there may be more than one key joins.
	for _, bridge := range []bool{false, true} {
		for _, k := range order {
			if m := members[k]; len(m) >= 2 && strings.HasPrefix(k, "\x00") == bridge {
				g.merge(m, false)
			}
		}
	}
}

// linkStem returns the stem a strong code also links by in linkCodes (the
// code without the few letters after its last digit), or "".
func linkStem(c code) string {
	if st := stem(c.s); len(st) >= 4 && st != c.s && len(c.s)-len(st) <= 3 && !c.cpu {
		return st
	}
	return ""
}

// Title evidence: listings meet through their prefixWords rarest title
// words (the words of two titles that agree cannot all be common), or
// through a model code, whole or spelt in pieces (see codeKeys), within a
// block of one brand and category.
const (
	prefixWords   = 4
	maxPosting    = 256
	maxCandidates = 12
)

// linkTitles joins a partition's listings on title evidence. Only groups without a
// barcode look for matches (two barcodes already decide), never within one
// retailer (a shop lists a product once; two similar listings of one shop
// are variants).
func (g *groups) linkTitles(part []int) {
	type posting struct {
		block int32
		word  string
	}
	index := map[posting][]int{}
	blockIDs := map[[2]string]int32{}
	// Listings are counted by their place in the partition (k for
	// part[k]), so that the work is the partition's size.
	blocks := make([]int32, len(part))
	prefixes := make([][]string, len(part))
	var seekers []int
	for k, i := range part {
		p := g.profile(i)
		if p.brand == "" || !p.hasTitle {
			continue
		}
		b := [2]string{g.brandOf(i), p.category}
		id, ok := blockIDs[b]
		if !ok {
			id = int32(len(blockIDs))
			blockIDs[b] = id
		}
		blocks[k] = id
		prefixes[k] = g.m.blockKeys(p)
		for _, w := range prefixes[k] {
			key := posting{id, w}
			if len(index[key]) < maxPosting {
				index[key] = append(index[key], k)
			}
		}
		if g.gtin[g.find(i)] == "" {
			seekers = append(seekers, k)
		}
	}
	// Judge in parallel against the groups as they stand (root holds each
	// listing's group), then merge in seeker order.
	root := make([]int, len(part))
	for k, i := range part {
		root[k] = g.find(i)
	}
	partners := make([][]int, len(seekers))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(seekers)/500))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			j := judge{g: g, root: root, stamp: make([]int32, len(part)), count: make([]int8, len(part))}
			for n := w; n < len(seekers); n += workers {
				y := seekers[n]
				partners[n] = j.partners(part, y, prefixes[y], func(w string) []int { return index[posting{blocks[y], w}] })
			}
		})
	}
	wg.Wait()
	for n, y := range seekers {
		if len(partners[n]) > 0 {
			g.merge(append([]int{part[y]}, partners[n]...), true)
		}
	}
}

// judge finds a seeker's title matches; one judge per goroutine.
type judge struct {
	g *groups
	// Indexed by the listing's place in the partition (g.local):
	root  []int   // each listing's group when judging began
	stamp []int32 // stamp[x] == y+1: count[x] belongs to seeker y
	count []int8  // rare words listing x shares with the seeker
	cands []int
	seen  []int
}

// partners returns the listings the seeker part[y] matches on title
// evidence (posting gives places in part): among the listings that share at
// least two of its rare words (one, if it has one), those sharing the most,
// one per group, at most maxCandidates groups.
func (j *judge) partners(part []int, y int, prefix []string, posting func(string) []int) []int {
	g := j.g
	j.cands = j.cands[:0]
	words := 0
	for _, w := range prefix {
		hit := int8(keyHit(w))
		if hit == 1 {
			words++
		}
		for _, x := range posting(w) {
			if x == y || g.item(part[x]).Retailer == g.item(part[y]).Retailer {
				continue
			}
			if j.stamp[x] != int32(y+1) {
				j.stamp[x], j.count[x] = int32(y+1), 0
				j.cands = append(j.cands, x)
			}
			j.count[x] = min(j.count[x]+hit, 100)
		}
	}
	need := int8(keysNeeded(words))
	ry := j.root[y]
	j.cands = slices.DeleteFunc(j.cands, func(x int) bool { return j.count[x] < need || j.root[x] == ry })
	slices.SortStableFunc(j.cands, func(a, b int) int { return int(j.count[b]) - int(j.count[a]) })
	j.seen = j.seen[:0]
	var out []int
	for _, x := range j.cands {
		rx := j.root[x]
		if slices.Contains(j.seen, rx) {
			continue
		}
		if len(j.seen) == maxCandidates {
			break
		}
		j.seen = append(j.seen, rx)
		if d := g.m.decide(&g.prof[x], &g.prof[y], nil); d.Same && !leavesOpen(&g.prof[x], &g.prof[y]) {
			out = append(out, part[x])
		}
	}
	return g.fewStated(out, &g.prof[y])
}

// minStatedShops is the fewest listings of other shops that state a
// storage a phone's listing leaves open, for that listing to join them: a
// storage one other shop lists is no sign that the phone comes in no other.
const minStatedShops = 2

// fewStated returns a seeker's partners less those that state the storage
// its title leaves open, when fewer than minStatedShops do.
func (g *groups) fewStated(out []int, y *profile) []int {
	stated := 0
	for _, i := range out {
		if leavesOpen(y, g.profile(i)) {
			stated++
		}
	}
	if stated == 0 || stated >= minStatedShops {
		return out
	}
	return slices.DeleteFunc(out, func(i int) bool { return leavesOpen(y, g.profile(i)) })
}

// leavesOpen reports whether a phone's listing leaves open the storage the
// seeker's states ("mob/acme vela 40" against "acme vela 40 128gb"): it
// may be any of the phone's storages, so it joins only when it seeks
// itself, where every storage it meets is weighed and two that refuse each
// other leave it out (see merge).
func leavesOpen(x, y *profile) bool {
	if x.category != phones {
		return false
	}
	_, xs := x.specs["storage_gb"]
	_, ys := y.specs["storage_gb"]
	return ys && !xs
}

// blockKeys returns the keys a listing meets others by in its title block:
// its rarest words and its model-code keys.
func (m *Matcher) blockKeys(p *profile) []string {
	return append(m.rarest(p.words), codeKeys(p)...)
}

// keyHit is what sharing a title block's key counts toward a candidate: a
// word 1, a model code 2, so that a model code alone makes one.
func keyHit(k string) int {
	if strings.HasPrefix(k, codeKeyMark) {
		return 2
	}
	return 1
}

// keysNeeded is the count of shared keys (see keyHit) a seeker with words
// rare words needs of a candidate: two, or one if it has one.
func keysNeeded(words int) int {
	return max(1, min(2, words))
}

// codeKeyMark starts a title block's posting key that is a model code,
// not a word.
const codeKeyMark = "\x01"

// codeKeys returns the model codes a listing meets others through within
// its title block, besides its rarest words: its own strong codes, and the
// codes two or three neighbouring pieces of its title spell ("CNSL 3033",
// "RPD 10457 JKK"), or four (see fourPieces), each also without the
// letters after its last digit and without a revision number (see
// revision: "RLAAV22K1" meets "RLAAV22K"). The pair decision then judges the codes; this only puts
// "CNSL 3033" and "CNSL3033" side by side, which share no word.
func codeKeys(p *profile) []string {
	var out []string
	key := func(k string) {
		if !slices.Contains(out, codeKeyMark+k) {
			out = append(out, codeKeyMark+k)
		}
	}
	add := func(c string) {
		for _, k := range []string{c, stem(c), revisionBase(c)} {
			if len(k) >= 4 {
				key(k)
			}
		}
	}
	for _, c := range p.codes {
		if c.kind == codeStrong && !c.fit {
			add(c.s)
		}
	}
	for _, k := range afterSeries(p) {
		key(k)
	}
	// A model line and its generation ("X6" of "Poco X6 Pro", "iphone 16"),
	// so that titles whose rarest words are a shop's own ("brilliant
	// display blazing speed") still meet.
	for _, c := range p.codes {
		if c.kind == codeLine && !c.fit {
			key(c.s)
		}
	}
	// A model's short name of a letter and a digit ("Moto G7", "Z 6"),
	// too short for a code, which a title beside a part number shares
	// with fewer rare words than it needs.
	if p.category == phones || p.category == cameras || p.category == tvs {
		for _, name := range slices.Sorted(maps.Keys(shortNames(p))) {
			key(strings.ToUpper(name))
		}
	}
	for _, k := range seriesKeys(p) {
		key(k)
	}
	for _, sl := range p.slots {
		if lineSlot(sl) {
			key(sl.key + "=" + sl.num)
			if p.category == cameras && len(sl.key) >= 3 && lettersOnly(sl.key) && plainNumber(sl.num) {
				// A camera's "Alpha 6000" meets "A6000" (see initialPieces).
				add(strings.ToUpper(sl.key[:1]) + sl.num)
			}
		}
	}
	for i, first := range p.parts {
		if first == "" || !isLetterByte(first[0]|0x20) {
			continue
		}
		joined := first
		for k := i + 1; k < len(p.parts) && k <= i+3 && p.parts[k] != ""; k++ {
			joined += p.parts[k]
			if k == i+3 && !fourPieces(p.parts[i:k+1], joined) {
				break
			}
			if len(joined) >= 5 && digitCount(joined) >= 2 && digitCount(joined) < len(joined) {
				add(joined)
			}
		}
	}
	return out
}

// afterSeries returns the model names a title's codes give after a series'
// letters and a hyphen ("RX100" of "DSC-RX100M7", "TZ90" of
// "DC-TZ90EB-K"), without a generation or market letters glued on, which
// other titles give alone ("RX100 VII", "Lumix TZ90").
func afterSeries(p *profile) []string {
	var out []string
	for _, c := range p.codes {
		if c.kind != codeStrong || c.fit {
			continue
		}
		lc := strings.ToLower(c.s)
		for _, w := range p.words[:p.nMain] {
			at := strings.Index(lc, w)
			if at <= 0 || len(w) < 3 || !lettersOnly(lc[:at]) || !isLetterByte(w[0]) || digitCount(w) == 0 {
				continue
			}
			if name, _ := cutNumeral(w); name != "" {
				w = name
			}
			if n := strings.ToUpper(stem(w)); len(n) >= 3 && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// rarest returns up to prefixWords of a title's words, rarest first (ties
// in word order).
func (m *Matcher) rarest(words []string) []string {
	var buf [prefixWords + 1]string
	var dfs [prefixWords + 1]int32
	n := 0
	for _, w := range words {
		if isStopWord(w) {
			continue
		}
		d := m.df[w]
		k := n
		for k > 0 && dfs[k-1] > d {
			k--
		}
		if k >= prefixWords {
			continue
		}
		copy(buf[k+1:n+1], buf[k:n])
		copy(dfs[k+1:n+1], dfs[k:n])
		buf[k], dfs[k] = w, d
		n = min(n+1, prefixWords)
	}
	return slices.Clone(buf[:n])
}

// merge joins the groups of items that agree with each other. The groups
// are compared pair by pair (with title, on title evidence too); a group
// that agrees with none of the others is left out, since it joins none of
// them and says nothing of how they agree ("... lens engineered for
// performance" beside six shops' "... lens"). The rest fall apart into
// components of groups that agree, judged each on its own (see
// joinAgreeing): a code several sizes of a model share joins each size's
// listings. A group that agrees with two that refuse each other is
// ambiguous and joins neither of them: a listing without a colour that
// matches the black and the white phone.
func (g *groups) merge(items []int, title bool) {
	var all []int
	for _, i := range items {
		if r := g.find(i); !slices.Contains(all, r) {
			all = append(all, r)
		}
	}
	if len(all) < 2 || len(all) > maxKeyGroups {
		return
	}
	var agree [maxKeyGroups][maxKeyGroups]bool
	for a := range all {
		for b := a + 1; b < len(all); b++ {
			if !g.refused(all[a], all[b], title) {
				agree[a][b], agree[b][a] = true, true
			}
		}
	}
	// The groups that agree with some other, and how they agree.
	var roots []int
	var at [maxKeyGroups]int
	for a := range all {
		if slices.Contains(agree[a][:len(all)], true) {
			at[len(roots)] = a
			roots = append(roots, all[a])
		}
	}
	n := len(roots)
	if n < 2 {
		return
	}
	ok := func(a, b int) bool { return agree[at[a]][at[b]] }
	// Groups that agree fall apart into components that refuse each other
	// (a model's sizes under its series' code); each is judged on its own.
	var comp [maxKeyGroups]int
	for a := range n {
		comp[a] = -1
	}
	for a := range n {
		if comp[a] >= 0 {
			continue
		}
		comp[a] = a
		stack := []int{a}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for y := range n {
				if comp[y] < 0 && ok(x, y) {
					comp[y] = a
					stack = append(stack, y)
				}
			}
		}
	}
	for c := range n {
		var members []int
		for a := range n {
			if comp[a] == c {
				members = append(members, a)
			}
		}
		if len(members) >= 2 {
			g.joinAgreeing(roots, members, ok, title)
		}
	}
}

// joinAgreeing joins the groups of one component of merge's agreement
// (members index roots; ok says which agree). All agreeing, they become
// one; otherwise the groups that agree with every other become one, and a
// group that agrees with exactly one other, which agrees with it alone,
// joins it.
func (g *groups) joinAgreeing(roots, members []int, ok func(a, b int) bool, title bool) {
	n := len(members)
	degree := make([]int, n)
	complete := true
	for i, a := range members {
		for _, b := range members {
			if a != b && ok(a, b) {
				degree[i]++
			}
		}
		complete = complete && degree[i] == n-1
	}
	if complete {
		for _, a := range members[1:] {
			g.joinRoots(roots[members[0]], roots[a], title)
		}
		return
	}
	// The groups that agree with every other are one product whatever the
	// others are: two listings of one shop that refuse each other leave
	// the rest to join.
	core := -1
	for i, a := range members {
		if degree[i] != n-1 {
			continue
		}
		if core < 0 {
			core = a
			continue
		}
		g.joinRoots(roots[core], roots[a], title)
	}
	for i, a := range members {
		if degree[i] != 1 {
			continue
		}
		for j := i + 1; j < n; j++ {
			if b := members[j]; ok(a, b) && degree[j] == 1 {
				g.joinRoots(roots[a], roots[b], title)
			}
		}
	}
	g.joinTwins(roots, members, ok, title)
}

// joinTwins settles the groups of a component that joinAgreeing left
// apart: two groups join when a listing of each has the same title as one
// of the other (see twins) and the groups either is twin to agree with
// each other. Three shops' "... 12mb l3 processor" and the same shops'
// "... 12mb smart cache processor" under one code are two products, each
// shop's pair refusing; a listing without a colour, or a barcode, whose
// title two that refuse each other share joins neither.
func (g *groups) joinTwins(roots, members []int, ok func(a, b int) bool, title bool) {
	twins := make([][]int, len(roots))
	for _, a := range members {
		var of []int
		for _, b := range members {
			ra, rb := g.find(roots[a]), g.find(roots[b])
			if ra != rb && ok(a, b) && g.twins(ra, rb) {
				of = append(of, b)
			}
		}
		if agreeAll(of, ok) {
			twins[a] = of
		}
	}
	for _, a := range members {
		for _, b := range twins[a] {
			if a < b && slices.Contains(twins[b], a) {
				g.joinRoots(roots[a], roots[b], title)
			}
		}
	}
}

// agreeAll reports whether every two of the groups agree.
func agreeAll(groups []int, ok func(a, b int) bool) bool {
	for x, a := range groups {
		for _, b := range groups[x+1:] {
			if !ok(a, b) {
				return false
			}
		}
	}
	return true
}

// twins reports whether a listing of the group rooted at a and one of the
// group rooted at b have the same title words.
func (g *groups) twins(a, b int) bool {
	ma, mb := g.membersOf(a), g.membersOf(b)
	for _, i := range ma[:min(len(ma), maxPairChecks)] {
		for _, j := range mb[:min(len(mb), maxPairChecks)] {
			if p, q := g.profile(i), g.profile(j); len(p.words) >= 2 && slices.Equal(p.words, q.words) {
				return true
			}
		}
	}
	return false
}

// joinRoots joins two groups unless, as they stand now, they refuse each
// other.
func (g *groups) joinRoots(a, b int, title bool) {
	a, b = g.find(a), g.find(b)
	if a == b || g.refused(a, b, title) {
		return
	}
	g.join(a, b)
}

// longPieced is the length from which a code may be spelt in four pieces
// ("HMT 75 G 451", "KU 15 RA 60"): four neighbouring pieces that run
// together into a code that long are no chance.
const longPieced = 8

// fourPieces reports whether four neighbouring pieces of a title may spell
// code: a long one, which the pieces start with its series' letters, with
// no word among them ("HMT 75 G 451", "HSZ 12 A1 D"; not "i5 8400 P CPU",
// "MB 6 KERNE 6").
func fourPieces(pieces []string, code string) bool {
	if len(code) < longPieced || !lettersOnly(pieces[0]) {
		return false
	}
	for _, w := range pieces {
		if len(w) > 3 && lettersOnly(w) {
			return false
		}
	}
	return true
}
