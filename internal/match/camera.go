package match

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"productsearch/internal/classify"
)

// A lens is named by its focal length or range and its aperture ("70-300mm
// f/4-5.6", "50mm f/1.8G"): both ends of a zoom and the aperture are its
// identity, and the aperture is no model code. A camera's generation is a
// Roman numeral after its model, written apart or glued on ("a7R II",
// "A7RII", "Mark III", "MkIII").

// sharedLens reports whether two titles name one lens: both state a focal
// length and an aperture, and the same ones ("EF 24-70mm f/2.8L II" and
// "24-70 mm F2.8L II"; a zoom named by its widest aperture alone agrees with
// its range). With the brand, they are a lens's name; a camera
// sold with that lens is another product.
func sharedLens(p, q *profile) bool {
	if p.edition&edLensKit != 0 || q.edition&edLensKit != 0 {
		// A camera with the lens is not the lens, and two cameras
		// with one lens are not one camera ("EOS 800D" and "77D", each
		// with an 18-135mm).
		return false
	}
	lens := func(s slot) bool { return s.key == "#mm" || s.key == "#f" }
	in := func(s slot, slots []slot) bool {
		return slices.ContainsFunc(slots, func(t slot) bool {
			return t == s || s.key == "#f" && t.key == "#f" && apertureStart(s.num, t.num)
		})
	}
	var kp, kq int
	for _, s := range p.slots {
		if lens(s) {
			kp |= lensKey(s.key)
			if !in(s, q.slots) {
				return false
			}
		}
	}
	for _, s := range q.slots {
		if lens(s) {
			kq |= lensKey(s.key)
			if !in(s, p.slots) {
				return false
			}
		}
	}
	return kp == 3 && kq == 3
}

// sharedRange reports whether two titles name one zoom's focal range, both
// its ends, whether or not both state its aperture.
func sharedRange(p, q *profile) bool {
	var np, nq, shared int
	for _, s := range p.slots {
		if s.key == "#mm" {
			np++
			if slices.Contains(q.slots, s) {
				shared++
			}
		}
	}
	for _, s := range q.slots {
		if s.key == "#mm" {
			nq++
		}
	}
	return np == 2 && nq == 2 && shared == 2
}

// lensKey is a bit for each of a lens's measures: its focal length and its
// aperture.
func lensKey(k string) int {
	if k == "#f" {
		return 2
	}
	return 1
}

// gluedNumerals are the Roman numerals of a generation, longest first.
var gluedNumerals = []string{"viii", "vii", "iii", "iv", "vi", "ii"}

// splitNumerals returns the chunks with a generation's Roman numeral glued
// to a model's name written apart: "a7rii" as "a7r ii", "x100vi" as "x100
// vi", "mkiii" as "mk iii" (see cutNumeral), "z 7ii" as "z 7 ii"; and a lens's aperture glued to
// its focal range: "xc15-45mmf3.5-5.6" as "xc15-45mm f3.5-5.6"; and an
// edition's word glued to the name ("d780body" as "d780 body", see
// cutEditionWord). It returns cs itself when no chunk has one.
func splitNumerals(cs []chunk) []chunk {
	return splitEach(cs, func(i int) []string {
		c := cs[i]
		name, num := cutNumeral(c.text)
		if num == "" && i > 0 && len(cs[i-1].text) == 1 && isLetterByte(cs[i-1].text[0]) {
			name, num = numberNumeral(c.text) // "Z 7II": the line's letter written apart
		}
		if num == "" {
			name, num = cutAperture(c.text)
		}
		if num == "" {
			name, num = cutEditionWord(c.text)
		}
		if num == "" {
			return nil
		}
		return []string{name, num}
	})
}

// cutEditionWord splits a camera's edition word ("body", "kit") glued to
// its model's name ("D780Body") from it, or returns "" for the word: the
// name holds a digit and two characters or more.
func cutEditionWord(t string) (name, word string) {
	for _, w := range [...]string{"body", "kit"} {
		if name, ok := strings.CutSuffix(t, w); ok && len(name) >= 2 && strings.ContainsAny(name, "0123456789") && !strings.ContainsAny(name, "-/") {
			return name, w
		}
	}
	return t, ""
}

// numberNumeral splits a model's number and a generation's numeral glued
// to it ("7ii" of "Z 7II") into the two, or returns "" for the numeral.
func numberNumeral(t string) (name, num string) {
	for _, n := range gluedNumerals {
		if name, ok := strings.CutSuffix(t, n); ok && name != "" && len(name) <= 3 && isNumber(name) {
			return name, n
		}
	}
	return t, ""
}

// cutAperture splits a chunk that is a lens's focal range and aperture run
// together ("xc15-45mmf3.5-5.6", "18-55mmf/3.5-5.6") into the two, or
// returns "" for the aperture.
func cutAperture(t string) (zoom, f string) {
	i := strings.Index(t, "mmf")
	if i < 0 || !focalRange(t[mountLetters(t):i+2]) || aperture(t[i+2:]) == "" {
		return t, ""
	}
	return t[:i+2], t[i+2:]
}

// cutNumeral splits a chunk that ends in a generation's numeral glued to a
// model's short name ("a7rii", "x100vi", "rx100iii", "mkii", or as a maker
// writes it, "a7m3") into the name and the numeral. The name is up to three
// letters, up to three digits and a letter: an appliance's code ends in
// letters of its own ("G4263VI", "MO20DSII": fully integrated, a finish)
// and stays whole.
func cutNumeral(t string) (name, num string) {
	for _, n := range gluedNumerals {
		name, ok := strings.CutSuffix(t, n)
		if !ok {
			continue
		}
		if name == "mk" || cameraName.MatchString(name) {
			return name, n
		}
		return "", ""
	}
	// A maker's "M" and the generation's digit ("a7m3", "rx100m7",
	// "a7rm4"): the same numeral.
	if n := len(t); n >= 4 && t[n-2] == 'm' && cameraName.MatchString(t[:n-2]) {
		for _, num := range gluedNumerals {
			if romanDigit(num) == t[n-1:] {
				return t[:n-2], num
			}
		}
	}
	return "", ""
}

// cameraName matches a camera's short model name a numeral is glued to:
// "a7", "a7r", "x100", "rx100".
var cameraName = regexp.MustCompile(`^[a-z]{1,3}[0-9]{1,3}[a-z]?$`)

// lensCount returns how many lenses a title's main clause names by their
// focal lengths ("with 18-45mm & 55-210mm lenses": two).
func lensCount(cs []chunk) int {
	n := 0
	for i, c := range cs {
		if c.fit {
			continue
		}
		if lensAt(cs, i) {
			n++
		}
	}
	return n
}

// lensAt reports whether chunk i of a title names a lens by its focal
// length: a zoom's range, or a prime's length with its aperture.
func lensAt(cs []chunk, i int) bool {
	return zoomAt(cs, i) || primeAt(cs, i)
}

// zoomAt reports whether chunk i of a title is a zoom lens's focal range,
// with its unit or without, a mount's letters glued on or not ("18-55mm",
// "xf18-55mm").
func zoomAt(cs []chunk, i int) bool {
	return focalRange(withUnit(cs, i))
}

// primeAt reports whether chunk i of a title is a prime lens's focal
// length with its aperture right after it, a mount's letters glued on or
// not ("27mm f/2.8", "XF23mm F2", "35 mm f1.8"). Without the aperture a
// length in millimetres is as often a film's format ("35mm film camera")
// or a filter's thread.
func primeAt(cs []chunk, i int) bool {
	t := cs[i].text
	t = t[mountLetters(t):]
	next := i + 1
	if n, ok := strings.CutSuffix(t, "mm"); ok {
		t = n
	} else if next < len(cs) && cs[next].text == "mm" {
		next++
	} else {
		return false
	}
	whole, frac, _ := strings.Cut(t, ".")
	if whole == "" || len(whole) > 3 || !isNumber(whole) || frac != "" && !isNumber(frac) || next >= len(cs) {
		return false
	}
	m := apertureMatch(cs[next].text)
	return m != nil && leadingNumber(m[2]) <= maxAperture
}

// lensAfterWith reports whether a title sells a camera "with" a zoom lens
// ("Z30 vlogging camera with Nikkor Z DX 16-50mm lens", "X-T20 Body with
// XF18-55mm", "EOS 80D + 18-135mm"): a kit, though the title calls the
// camera no mirrorless or SLR one, or names its body. A compact names its
// built-in zoom without "with" ("Lumix TZ99 Compact Camera, 24-720mm Lens").
func lensAfterWith(cs []chunk) bool {
	_, _, ok := lensClause(cs)
	return ok
}

// lensClause returns where the clause that sells a camera "with" a zoom
// lens (see withWord, or after a lone "+") starts, the chunk of the zoom's focal range
// that ends it, and whether the main clause has one.
func lensClause(cs []chunk) (from, zoom int, ok bool) {
	from = -1
	for i, c := range cs {
		if c.fit {
			return 0, 0, false
		}
		switch {
		case withWord(c.text) || c.added:
			from = i
		case c.brk:
			from = -1
		}
		if lensAt(cs, i) {
			return from, i, from >= 0
		}
	}
	return 0, 0, false
}

// withWord reports whether a title's word sells what follows with the
// product, in English, German, Italian, Spanish or French: "with", "w/"
// (read as "w", its slash trimmed), "incl.", "inkl.", "mit", "con",
// "avec", and "and" ("K-70 and DA 18-55mm WR lens").
func withWord(w string) bool {
	switch strings.TrimSuffix(w, ".") {
	case "with", "w", "inc", "incl", "including", "inkl", "inklusive", "mit", "con", "avec", "and":
		return true
	}
	return false
}

// kitName returns the name a title gives the kit, combo, bundle, edition or
// package a camera is sold in: the word before "kit", "combo", "bundle",
// "edition" or "package" in its main clause ("creator" of "Content Creator
// Kit", "adventure" of "Adventure Combo"), or "standard" ending it, or ""
// when it names none. Two listings of one device in kits of other
// names, or one in a kit and one of the body alone, are other products
// (see editionsDiffer). A kit named by
// its lens or as the camera itself ("18-55mm lens kit", "digital camera
// kit") is the lens rules' to judge.
func kitName(cs []chunk) string {
	for i := 1; i < len(cs); i++ {
		c := cs[i]
		if c.fit {
			break
		}
		if c.text == "standard" && standardLast(cs[i+1:]) {
			return c.text // "action camera standard": the kit of least
		}
		if !kitWord(c.text) {
			continue
		}
		name := cs[i-1].text
		if focalRange(name) || strings.HasSuffix(name, "mm") || cameraWord(name) || lensLetters(name) ||
			i+1 < len(cs) && !cs[i+1].brk && lensAfter(cs, i+1) {
			return "" // "Kit 18-55mm", "kit mit ef s 18 55mm": a kit named by its lens
		}
		if !lettersOnly(name) {
			switch {
			case !strings.ContainsAny(name, "0123456789") || isNumber(name):
				return ""
			case c.text == "kit":
				return c.text // "A6000 Kit": the model's kit, unnamed
			}
			return name // "4K Edition"
		}
		switch name {
		case "lens", "lenses", "camera", "cameras", "camcorder", "body", "with", "and", "a", "the":
			return ""
		}
		if c.text == "bundle" || classify.NamesKind(name) {
			// A shop's bundle of extras ("tripod bundle", "32gb memory card
			// kit", "black bundle inc bag") is the camera's offer (see
			// editionsDiffer), no kit of a name of its own.
			return ""
		}
		return name
	}
	return ""
}

// maxLensLead is the most words a lens's name starts with before its
// focal range: "with", a mount's letters as a site prints them ("ef s",
// "af p dx").
const maxLensLead = 4

// lensAfter reports whether a lens starts at chunk i: its focal range, or
// a "with" word and a mount's letters before it ("mit ef s 18 55mm").
func lensAfter(cs []chunk, i int) bool {
	for j := i; j < len(cs) && j < i+maxLensLead+1; j++ {
		if j > i && cs[j].brk {
			return false
		}
		if lensAt(cs, j) {
			return true
		}
		t := cs[j].text
		if !withWord(t) && !lensLead(t) && !mountPiece(t) {
			return false
		}
	}
	return false
}

// mountPiece reports whether a word is a piece of a lens mount's letters
// as a comparison site prints them apart ("s" of "ef s", "p" of "af p
// dx").
func mountPiece(w string) bool {
	switch w {
	case "s", "m", "af", "p", "fx", "e", "z", "m.zuiko", "g":
		return true
	}
	return false
}

// kitWord reports whether a word names what a device is sold in: a kit,
// combo, bundle, edition or package.
func kitWord(w string) bool {
	switch w {
	case "kit", "combo", "bundle", "edition", "package":
		return true
	}
	return false
}

// standardLast reports whether the chunks after "standard" end the main
// clause with colour words at most: the standard package, not a "standard
// zoom lens".
func standardLast(rest []chunk) bool {
	for _, c := range rest {
		if c.fit {
			return true
		}
		if colourWords[c.text] == "" {
			return false
		}
	}
	return true
}

// lensMotor returns the focus motor a word names on a lens ("usm", "stm"),
// or "": a maker sells one focal range with either, as two lenses.
func lensMotor(w string) string {
	switch w {
	case "usm", "stm":
		return w
	}
	return ""
}

// generationsDiffer reports whether two titles both write one model code as
// a word of its own and a roman numeral right after it in one title only,
// or different numerals: "RX100" and "RX100 II" are the first and the
// second of a line. A numeral elsewhere compares only against another
// numeral (see romanGeneration).
func generationsDiffer(p, q *profile) bool {
	for _, c := range p.codes {
		if c.kind != codeStrong || c.fit {
			continue
		}
		gp, inP := codeGeneration(p, c.s)
		gq, inQ := codeGeneration(q, c.s)
		if inP && inQ && gp != gq {
			return true
		}
	}
	return false
}

// codeLineConflict reports whether two listings that share a model code
// name different models of its line: model-line numbers that differ
// (lengths false leaves out measures a code's model gives in many ways),
// unless the code is as long as a part number, which names one model and
// makes a series or a speed two shops write differently one shop's slip;
// or generations written right after the code (see generationsDiffer).
func codeLineConflict(p, q *profile, ev codeEv, lengths bool) bool {
	return slotsConflict(p.slots, q.slots, p.hasFit && q.hasFit, lengths) && (ev.longest < minBridgeCode || storagesDiffer(p, q)) ||
		generationsDiffer(p, q) || generationsDiffer(q, p)
}

// storagesDiffer reports whether two phones' titles state storages none
// of which the other states: a phone's model number ("M1903C3EG",
// "SM-G960F") names every storage it is sold with, so a long code both
// share does not make them one phone.
func storagesDiffer(p, q *profile) bool {
	if p.category != phones || q.category != phones || p.acc || q.acc {
		return false
	}
	gb := func(s slot) bool { return s.key != "#gb" }
	a, b := slices.DeleteFunc(slices.Clone(p.slots), gb), slices.DeleteFunc(slices.Clone(q.slots), gb)
	return len(a) > 0 && len(b) > 0 && slotsConflict(a, b, false, true)
}

// markedCode returns the model's code and generation a code gives with an
// "M" and a digit glued on after its number, as a maker numbers a line's
// generations ("DSCRX100M3" is the "DSC-RX100 III", "ILCE7M4" the fourth
// "ILCE-7"), and whether it does.
func markedCode(c code) (base, gen string, ok bool) {
	n := len(c.s)
	if c.kind != codeStrong || n < 6 || c.s[n-2] != 'M' || c.s[n-1] < '2' || c.s[n-1] > '9' || !isDigitByte(c.s[n-3]) ||
		!strings.ContainsFunc(c.s[:n-2], unicode.IsLetter) {
		return "", "", false
	}
	return c.s[:n-2], c.s[n-1:], true
}

// writesCode reports whether a title's part is code s, or s with a series'
// letters in front, or s without them ("DSCRX100" and "RX100").
func writesCode(part, s string) bool {
	if part == s {
		return true
	}
	long, short := part, s
	if len(long) < len(short) {
		long, short = short, long
	}
	pre, ok := strings.CutSuffix(long, short)
	return ok && pre != "" && lettersOnly(pre) && digitCount(short) >= 2
}

// markOf returns the generation a title gives after "Mark" ("Mark II":
// "2"), or "". Where no model code decides, a title without one names the
// first of a line: "EOS 6D Mark II" and "EOS 6D" are two cameras (a part
// number outranks it: "Memory Stick PRO Duo Mark 2 MSMT4G").
func markOf(p *profile) string {
	return slotNumber(p, "mark")
}

// marksDiffer reports whether two titles, one of which writes "Mark",
// give a line different generations: "Mark III" is the "III" another
// title writes without it ("E-M10 Mark III", "E-M10 III"), and "EOS 6D
// Mark II" is not the "EOS 6D".
func marksDiffer(p, q *profile) bool {
	mp, mq := markOf(p), markOf(q)
	if mp == mq {
		return false
	}
	gen := func(p *profile, mark string) string {
		if mark != "" {
			return mark
		}
		return slotNumber(p, "#gen")
	}
	return gen(p, mp) != gen(q, mq)
}

// firstOfLine reports whether q names the first of the line whose later
// generation p names: q writes the short name p's numeral follows and no
// generation of its own. "Nikon Z6" is the first Z6, not the "Z6 II", as
// "EOS 6D" is not the "EOS 6D Mark II" (see marksDiffer).
func firstOfLine(p, q *profile) bool {
	if p.genAfter == "" || slotNumber(q, "#gen") != "" || markOf(q) != "" || slotNumber(q, p.genAfter) != "" ||
		slices.ContainsFunc(q.codes, func(c code) bool { return c.gen != "" }) {
		return false
	}
	ws := q.words[:q.nMain]
	for k, w := range ws {
		if w == p.genAfter || k+1 < len(ws) && w+ws[k+1] == p.genAfter { // "Z 6" too
			return true
		}
	}
	return false
}

// slotNumber returns the number a title gives model-line word key, or "".
func slotNumber(p *profile, key string) string {
	for _, s := range p.slots {
		if s.key == key {
			return s.num
		}
	}
	return ""
}

// codeGeneration returns the generation a title writes in roman numerals
// right after code s ("2" of "RX100 II", "" for none), and whether the
// title writes s as a word of its own, with or without a series' letters in
// front ("DSC-RX100 III" writes "RX100").
func codeGeneration(p *profile, s string) (string, bool) {
	if i := slices.IndexFunc(p.codes, func(c code) bool { return c.s == s && c.gen != "" }); i >= 0 {
		return p.codes[i].gen, true
	}
	k := slices.IndexFunc(p.parts, func(part string) bool { return writesCode(part, s) })
	if k < 0 {
		return "", false
	}
	if k+1 < len(p.parts) && (p.parts[k+1] == "MARK" || p.parts[k+1] == "MK") {
		k++ // "E-M10 Mark III" is the "E-M10 III"
	}
	if k+1 < len(p.parts) {
		return p.generationValue(strings.ToLower(p.parts[k+1])), true
	}
	return "", true
}

// modelBeforeLens reports whether a title names a model of its own, a
// short code with a digit or a generation's numeral, before its first focal
// range: a camera and the zoom it is sold with ("EOS 2000D 18-55mm IS II",
// "A6000 16-50mm Lens", "Alpha 7 III 28-70mm OSS Lens"). A lens writes its
// own code and generation after its range ("70-300mm Di LD Macro A17",
// "70-200mm f/2.8L IS III").
func (p *profile) modelBeforeLens(cs []chunk) bool {
	for i, c := range cs {
		if c.fit || lensAt(cs, i) {
			return false
		}
		if p.romanGeneration(cs, i) != "" {
			return true
		}
		n := NormalizePart(c.text)
		if len(n) <= maxModelName && digitCount(n) > 0 &&
			slices.ContainsFunc(p.codes, func(k code) bool { return k.kind >= codeLine && !k.fit && k.s == n }) {
			return true
		}
	}
	return false
}

// markLensCodes marks as another device's the part numbers a camera kit's
// title gives its lens, between "with" (or a lone "+") and the lens's
// focal range ("A6000 with SELP1650 16-50mm lens"): the camera's own code
// is the kit's.
func (p *profile) markLensCodes(cs []chunk) {
	from, zoom, ok := lensClause(cs)
	if !ok {
		return
	}
	for _, c := range cs[from:zoom] {
		if !strings.ContainsAny(c.text, "0123456789") {
			continue
		}
		n := NormalizePart(c.text)
		for k := range p.codes {
			if p.codes[k].s == n && p.codes[k].kind == codeStrong && !p.codes[k].cpu {
				p.codes[k].fit = true
			}
		}
	}
}

// markNamedLensCodes marks as fitted, not the camera's own, a code that a
// camera's title writes after its own model's code and names a lens by:
// the word "lens" right after it ("A6100 & SELP1650 lens kit", "ILCE6000
// / and SELP1650 lens"). Two cameras sold with one lens share its code.
func (p *profile) markNamedLensCodes(cs []chunk) {
	own := false
	for i, c := range cs {
		if c.fit {
			return
		}
		n := NormalizePart(c.text)
		k := slices.IndexFunc(p.codes, func(x code) bool { return x.s == n && !x.cpu && !x.fit })
		if k < 0 {
			continue
		}
		if own && i+1 < len(cs) && (cs[i+1].text == "lens" || cs[i+1].text == "objektiv") && p.codes[k].kind == codeStrong {
			p.codes[k].fit = true
		}
		own = true
	}
}

// namesBody reports whether a title's words sell a camera's body: "body",
// German "Gehäuse", French "boîtier", Italian "corpo" or Spanish
// "cuerpo", also as a comparison site prints them without their accents
// ("geh use", "gehause", "bo tier").
func namesBody(words []string) bool {
	for i, w := range words {
		switch {
		case w == "body" || w == "gehäuse" || w == "gehause" || w == "gehaeuse" || w == "boîtier" || w == "boitier" ||
			w == "corpo" || w == "cuerpo":
			return true
		case w == "geh" && i+1 < len(words) && words[i+1] == "use", w == "bo" && i+1 < len(words) && words[i+1] == "tier":
			return true
		}
	}
	return false
}

// readCameraEdition reads whether a title sells a camera with a lens (its
// kit), its body, or a lens alone, and the name of its kit.
func (p *profile) readCameraEdition(cs []chunk) {
	lenses := namesLens(cs, p.words)
	switch {
	case p.acc: // an accessory is no edition of a camera
	case lenses && slices.ContainsFunc(p.words, cameraWord) || lensAfterWith(cs) ||
		lensCount(cs) > 0 && (slices.Contains(p.words[:p.nMain], "kit") || p.modelBeforeLens(cs)):
		// "Camera with 18-55mm lens", "Camera Body with XF18-55mm", "EOS
		// 80D + 18-135mm", "EOS 200D 18-55 IS STM kit", "EOS 2000D
		// 18-55mm IS II".
		p.edition |= edLensKit
		if lensCount(cs) >= 2 {
			p.edition |= edTwinLens
		}
		p.markLensCodes(cs)
	case lenses:
		if !slices.Contains(p.words, "camera") && !slices.Contains(p.words, "camcorder") {
			p.edition |= edLens
		}
	case namesBody(p.words) || namesBody(p.fitWords):
		// Wherever the title says it: "... engineered for performance,
		// body only" is the camera's body, not a device it fits.
		p.edition |= edBody
	}
	if !p.acc && p.category == cameras {
		p.markNamedLensCodes(cs)
		p.kit = kitName(cs)
		if twinKit(p.words[:p.nMain]) {
			p.edition |= edLensKit | edTwinLens
		}
	}
}

// twinKit reports whether a camera's title names its kit of two lenses in
// words: "double zoom kit", "twin lens kit", "dual lens".
func twinKit(words []string) bool {
	for i := 0; i+1 < len(words); i++ {
		switch words[i] {
		case "double", "twin", "dual":
			switch words[i+1] {
			case "zoom", "lens", "lenses", "kit":
				return true
			}
		}
	}
	return false
}
