package classify

import (
	"slices"
	"strconv"

	"productsearch/internal/catalog"
)

// match is one phrase of the cue table found in a text.
type match struct {
	cue        cue
	start, end int // word span
	clause     int
	ctype      clauseType
	featured   bool // reads as a feature of another product ("512GB SSD", "backlit keyboard")
}

// matchCues finds the phrases of the cue table in ws, longest first and left
// to right; a phrase never spans two clauses.
func matchCues(ws []word, out []match) []match {
	for i := 0; i < len(ws); {
		var best cue
		n := 0
		candidates(ws[i].text, func(list []indexed) bool {
			for _, e := range list {
				if len(e.words) > n && phraseAt(ws, i, e.words) {
					best, n = e.cue, len(e.words)
					return true
				}
			}
			return false
		})
		if n == 0 {
			i++
			continue
		}
		out = append(out, match{
			cue: best, start: i, end: i + n, clause: ws[i].clause, ctype: ws[i].ctype,
			featured: featured(ws, i, i+n),
		})
		i += n
	}
	return out
}

// bundledExtras marks as what comes in the box (clWith) the accessories a
// title names after a device and a detail of the device's own configuration
// in one clause, as a comparison site prints "iPhone 11 64GB + Case" once
// its "+" is gone: "iphone 11 64gb yellow case", "z6 body camera bag",
// "43 inch 4k tv wall bracket". A storage size, a camera's body or a
// screen's size belongs to a device, not to the case or bag that fits it,
// whose title names the device's model alone ("iPhone 11 case").
func bundledExtras(ws []word, ms []match) {
	for d, m := range ms {
		if m.cue.kind != kDevice || m.ctype != clMain && m.ctype != clOther {
			continue
		}
		configured := false
		from := m.start
		for from > 0 && ws[from-1].clause == m.clause {
			from-- // the detail may come first: "43 inch 4k smart tv"
		}
		for j := d + 1; j < len(ms); j++ {
			a := ms[j]
			if a.clause != m.clause {
				break
			}
			for k := from; k < a.start && !configured; k++ {
				configured = deviceDetail(ws, k)
			}
			from = a.start
			if a.cue.kind == kAccessory && configured {
				// A clause of its own after every other, as "+" or "with"
				// would have started.
				extra := ms[len(ms)-1].clause + 1
				for x := j; x < len(ms) && ms[x].clause == m.clause; x++ {
					ms[x].ctype, ms[x].clause = clWith, extra
				}
				return
			}
		}
	}
}

// deviceDetail reports whether word k states a detail of a device's own
// configuration: a storage size ("64gb", "128 gb", "64g"), a camera's body
// or a screen's size ("43 inch", "55in").
func deviceDetail(ws []word, k int) bool {
	w := ws[k].text
	if w == "body" {
		return true
	}
	n := 0
	for n < len(w) && w[n] >= '0' && w[n] <= '9' {
		n++
	}
	if n == 0 {
		return false
	}
	unit, apart := w[n:], false
	if unit == "" && k+1 < len(ws) && ws[k+1].clause == ws[k].clause {
		unit, apart = ws[k+1].text, true
	}
	switch unit {
	case "gb", "tb", "go", "inch":
		return true
	case "g":
		// "64g" as a storage's size; "5g" is a network, which a case's
		// title names too ("Galaxy S20 5G case").
		return storageSize(w[:n])
	case "in":
		// "55in"; written apart, only a television's size ("2 in 1").
		return !apart || len(w[:n]) >= 2
	}
	return false
}

// storageSize reports whether a number is a phone's or tablet's storage
// size in GB (up to 512GB, as "g" after it writes it short).
func storageSize(n string) bool {
	v, err := strconv.Atoi(n)
	return err == nil && strconv.Itoa(v) == n && v < 1024 && catalog.StorageSize(float64(v))
}

// phraseAt reports whether the pattern words p match ws from i within one
// clause.
func phraseAt(ws []word, i int, p []string) bool {
	if i+len(p) > len(ws) {
		return false
	}
	for k, pw := range p {
		if ws[i+k].clause != ws[i].clause || !wordMatches(ws[i+k].text, pw) {
			return false
		}
	}
	return true
}

// featured reports whether the phrase ws[start:end] describes a feature of
// another product: it follows a figure or a feature word ("512GB SSD",
// "50MP camera", "backlit keyboard", "Copilot+ PC") or is followed by
// "included", "slot" or "port".
func featured(ws []word, start, end int) bool {
	if start > 0 && ws[start-1].clause == ws[start].clause {
		p := ws[start-1].text
		if p[0] >= '0' && p[0] <= '9' {
			return true
		}
		switch p {
		case "backlit", "illuminated", "built", "builtin", "integrated", "dual", "triple", "quad", "front", "rear",
			"main", "selfie", "hd", "fhd", "uhd", "full", "stereo", "dolby", "harman", "kardon", "fast", "super",
			"rapid", "turbo", "uk", "us", "qwerty", "azerty", "copilot", "wide", "ultrawide", "telephoto", "macro",
			"periscope", "leica", "zeiss", "hasselblad", "mp", "onboard", "internal", "upgraded", "upgradeable",
			"expandable", "hybrid", "touch", "ai", "voice":
			return true
		}
	}
	if end < len(ws) && ws[end].clause == ws[start].clause {
		switch ws[end].text {
		case "included", "inc", "incl", "slot", "slots", "port", "ports", "support", "supported", "ready", "bay":
			return true
		}
	}
	return false
}

// head picks the match that names what a text is: the last strong phrase of
// its main clause, or a weak accessory or power phrase after it ("iPad
// stylus", "TV remote"); a strong accessory before the device names the
// device it fits ("Strap Apple Watch 45mm", "Case Band Galaxy Watch7");
// when the main clause names nothing, the first clause that does. A main
// clause that names only weak phrases yields to a later clause that names a
// strong one ("ASUS TUF Gaming A15 | 15.6 Inch Gaming Laptop"), and among
// weak phrases one that is not a feature of another product wins
// ("Gaming Notebook ... 512GB SSD"). Phrases in "with ..." and "without
// ..." clauses never count.
func head(ms []match) (int, bool) {
	clause := -1
	for _, m := range ms {
		if m.cue.kind == kNeutral || m.ctype == clWith || m.ctype == clNeg {
			continue
		}
		if clause == -1 || m.clause < clause {
			clause = m.clause
		}
	}
	if clause == -1 {
		return 0, false
	}
	strong, weak := clauseHead(ms, clause)
	if strong == -1 {
		// Only weak phrases: a later clause with a strong one names the
		// product.
		for _, m := range ms {
			if m.clause > clause && m.ctype == clOther && m.cue.kind != kNeutral && !m.cue.weak {
				if s, _ := clauseHead(ms, m.clause); s != -1 {
					return s, true
				}
			}
		}
		return weak, true
	}
	h := strong
	if ms[h].cue.kind == kDevice {
		weakAcc := -1
		for i := 0; i < strong; i++ {
			m := ms[i]
			if m.clause == clause && m.cue.kind == kAccessory {
				if m.cue.weak {
					weakAcc = i
				} else {
					h = i
				}
			}
		}
		if h == strong && weakAcc != -1 {
			h = weakAcc
		}
		// "iPad mini (6th generation) ZUGU Alpha Case - Sage": a case,
		// cover or protector named in a later clause. (A watch's band is
		// part of the watch: only accessories of any device count.)
		if h == strong {
			for i := strong + 1; i < len(ms); i++ {
				m := ms[i]
				if m.clause > clause && m.ctype == clOther && m.cue.kind == kAccessory && !m.cue.weak && m.cue.cat == "" {
					h = i
					break
				}
			}
		}
	}
	for i := strong + 1; i < len(ms); i++ {
		m := ms[i]
		if m.clause == clause && m.cue.weak && !m.featured &&
			(m.cue.kind == kAccessory || m.cue.kind == kPower) {
			h = i
		}
	}
	return h, true
}

// clauseHead returns the last strong phrase of a clause and its last weak
// one, preferring a weak phrase that is no feature of another product; -1
// when there is none.
func clauseHead(ms []match, clause int) (strong, weak int) {
	strong, weak = -1, -1
	weakFeatured := -1
	for i, m := range ms {
		if m.clause != clause || m.cue.kind == kNeutral {
			continue
		}
		switch {
		case !m.cue.weak:
			strong = i
		case m.featured:
			weakFeatured = i
		default:
			weak = i
		}
	}
	if weak == -1 {
		weak = weakFeatured
	}
	return strong, weak
}

// analyze reads what a text says from its cue matches. A path segment
// (segment true) that names two categories ("TV & Audio", "Phones &
// Tablets") names neither.
func analyze(ws []word, ms []match, segment bool) verdict {
	h, ok := head(ms)
	if !ok {
		return verdict{}
	}
	m := ms[h]
	c := m.cue
	v := verdict{found: true, strong: !c.weak}
	switch c.kind {
	case kDevice:
		v.cat, v.acc = c.cat, accNo
		if segment && segmentAmbiguous(ms) {
			return verdict{found: true, acc: accNo} // devices, but of which category?
		}
		if m.ctype == clFor {
			v.acc = accYes // "Spigen for iPhone 15": made for the device it names
		}
	case kAccessory:
		implied := c.cat
		if segment && c.guess {
			implied = ""
		}
		var strongFit bool
		v.cat, strongFit = fitCategory(ms, h, implied)
		if c.guess && !segment {
			// A remote or a bracket only guesses its device: one the title
			// names, even weakly ("DJI FPV Remote Controller"), wins.
			if cat, strong := fitCategory(ms, h, ""); cat != "" {
				v.cat, strongFit = cat, strong || strongFit
			}
		}
		v.acc, v.strong, v.holds = accYes, v.strong && strongFit, c.holds
	case kGeneric:
		var strongFit bool
		v.cat, strongFit = fitCategory(ms, h, "")
		v.acc, v.strong = accYes, strongFit
		if segment && m.start > 0 && ws[m.start-1].text == "and" &&
			slices.ContainsFunc(ms[:h], func(x match) bool { return x.cue.kind == kDevice }) {
			v.acc = accUnknown // "Mobile Phones & Accessories", but not "Straps & Accessories"
		}
	case kComponent:
		v.cat, v.acc = c.cat, accYes
		if cat, _ := fitCategory(ms, h, ""); c.weak && cat == catLaptops {
			v.cat = catLaptops
		}
	case kPower:
		if cat, _ := fitCategory(ms, h, ""); cat == catGaming && c.charging {
			v.cat, v.acc = catGaming, accYes // a controller charging station
		} else {
			v.cat, v.acc, v.power = catCables, accNo, true
		}
	case kOutside:
		v.outside = true
	}
	return v
}

// segmentAmbiguous reports whether a path segment names devices of two
// categories.
func segmentAmbiguous(ms []match) bool {
	first := ""
	for _, m := range ms {
		if m.cue.kind != kDevice {
			continue
		}
		if first == "" {
			first = m.cue.cat
		} else if m.cue.cat != first {
			return true
		}
	}
	return false
}

// fitCategory finds the category of the device an accessory at ms[h] fits:
// a strong device named after "for", else one named beside it, else
// anywhere in the text outside "with ..." clauses; failing that, the
// accessory's own category (implied), else a weakly named device. It
// reports whether the answer rests on more than a weak word.
func fitCategory(ms []match, h int, implied string) (string, bool) {
	pick := func(ok func(m match) bool) string {
		for i, m := range ms {
			if i != h && m.cue.kind == kDevice && ok(m) {
				return m.cue.cat
			}
		}
		return ""
	}
	usable := func(m match) bool { return m.ctype != clWith && m.ctype != clNeg }
	if cat := pick(func(m match) bool { return !m.cue.weak && m.ctype == clFor }); cat != "" {
		return cat, true
	}
	if cat := pick(func(m match) bool { return !m.cue.weak && m.clause == ms[h].clause }); cat != "" {
		return cat, true
	}
	if cat := pick(func(m match) bool { return !m.cue.weak && usable(m) }); cat != "" {
		return cat, true
	}
	if implied != "" {
		return implied, true
	}
	return pick(usable), false
}
