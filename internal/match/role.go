package match

import (
	"regexp"
	"slices"
	"strings"
)

// A processor's model number is a component in a device ("laptop with Core
// i7 1255U") but the identity of a processor sold on its own ("Core i7
// 8700K", "Ryzen 7 1700X", "Xeon E5520"). Its role decides: in a listing
// that names no device, the processor number is the listing's model code,
// and every letter of it counts ("8700K" and "8700" are two processors,
// "E5-2620 v3" and "v4" two generations).

// processorNumber matches a processor number after its family words:
// "8700K", "7800X3D", "1700X", "E5520", "G4560", "E52620".
var processorNumber = regexp.MustCompile(`^(?:[0-9]{3,5}[A-Z]{0,2}(?:3D)?|[A-Z][0-9]{3,5}[A-Z]{0,2})$`)

// tierNumber matches a processor number written with its tier or series
// glued on: "I7-8700K", "I78700K", "FX-6300", "A10-9700".
var tierNumber = regexp.MustCompile(`^(I[3579]|FX|A(?:4|6|8|10|12))([0-9]{4}[A-Z]{0,2})$`)

// familyAfter matches a processor number that its family word may follow:
// four digits and a suffix of up to two letters ("1800X", "8350").
var familyAfter = regexp.MustCompile(`^[0-9]{4}[A-Z]{0,2}$`)

// seriesNumber reports whether a processor series word is part of the
// processors' names: one number names processors of different series
// ("FX 6300" and "A4 6300", six cores and two), while a tier ("i7", "Ryzen
// 7") goes with one number alone ("8700K" is an i7).
func seriesNumber(w string) bool {
	switch strings.ToLower(w) {
	case "fx", "a4", "a6", "a8", "a10", "a12":
		return true
	}
	return false
}

// familySeries returns the series a processor family word gives the
// number after it, or "": families number their processors on their own,
// so "FX 8350" and "Opteron 8350" are two processors. "Core" and its tiers
// give none ("eight core 1700X" is a count; a Core number carries its
// tier's generation).
func familySeries(w string) string {
	switch {
	case seriesNumber(w):
		return strings.ToUpper(w)
	case strings.HasPrefix(w, "ryzen"):
		return "RYZEN"
	}
	switch w {
	case "xeon", "pentium", "celeron", "athlon", "threadripper", "epyc", "opteron", "phenom", "sempron":
		return strings.ToUpper(w)
	}
	return ""
}

// processorFamily are the words a processor number follows ("Core i7
// 7700", "Ryzen 7 1700X", "Xeon E5520", "Pentium G4560").
var processorFamily = map[string]bool{
	"i3": true, "i5": true, "i7": true, "i9": true, "ryzen": true, "xeon": true, "pentium": true, "celeron": true,
	"athlon": true, "threadripper": true, "epyc": true, "opteron": true, "phenom": true, "sempron": true,
	"core": true, "fx": true, "a4": true, "a6": true, "a8": true, "a10": true, "a12": true, "ryzen3": true,
	"ryzen5": true, "ryzen7": true, "ryzen9": true,
}

// processorHosts name a device a processor sits in.
var processorHosts = []string{
	"laptop", "notebook", "pc", "computer", "tablet", "phone", "smartphone", "chromebook", "workstation",
	"ultrabook", "macbook", "imac", "console", "motherboard", "nuc",
}

// readProcessor adds, to a listing that names no device nor a computer's
// configuration, the processor
// numbers of its main clause as its own model codes. A processor sold on
// its own is classed a component (an accessory of computers); the numbers
// it fits come after "for" and are left alone.
func (p *profile) readProcessor(cs []chunk) {
	if slices.ContainsFunc(p.words[:p.nMain], func(w string) bool { return slices.Contains(processorHosts, w) }) {
		return
	}
	// A title stating RAM, storage or graphics sells a computer ("Y700
	// i7-6700HQ 12GB 1TB GTX960M").
	_, mem := p.specs["memory_gb"]
	_, sto := p.specs["storage_gb"]
	if mem || sto || slices.ContainsFunc(p.slots, func(s slot) bool { return s.key == "gpu" || s.key == "#gb" || s.key == "#tb" }) {
		return
	}
	read := false
	for i, c := range cs {
		if c.fit {
			break
		}
		n, series, ok := processorOf(cs, i)
		if !ok {
			continue
		}
		// "E5-2620 v4": the generation is part of the number.
		if i+1 < len(cs) && generationWord(cs[i+1].text) {
			n += strings.ToUpper(cs[i+1].text)
		}
		if !slices.ContainsFunc(p.codes, func(c code) bool { return c.cpu && c.s == n }) {
			p.codes = append(p.codes, code{s: n, kind: codeStrong, cpu: true, series: series})
		}
		read = true
	}
	if read {
		p.edition |= processorPack(p.words[:p.nMain], p.codes)
		p.processorGeneration(cs)
	}
}

// generationWord reports whether a chunk is a processor generation: "v4".
func generationWord(s string) bool {
	return len(s) == 2 && (s[0] == 'v' || s[0] == 'V') && isDigitByte(s[1])
}

// processorGeneration gives a processor number read without its generation
// the one the title states elsewhere: in a part number that ends with the
// number and its generation ("BX80677E31230V6" beside "E3-1230"), or as a
// word of its own ("Xeon E3-1230 ... Processor v6"). A generation after a
// socket names the socket's ("LGA2011 v3").
func (p *profile) processorGeneration(cs []chunk) {
	gen := ""
	for i := 1; i < len(cs) && !cs[i].fit; i++ {
		prev := strings.ToLower(cs[i-1].text)
		if generationWord(cs[i].text) && !socketWord(prev, false) && !socketNumber(prev) {
			gen = strings.ToUpper(cs[i].text)
		}
	}
	for k, c := range p.codes {
		if !c.cpu {
			continue
		}
		if _, g := cutGeneration(c.s); g != "" {
			continue
		}
		g := gen
		for _, d := range p.codes {
			if !d.cpu && len(d.s) >= minPackPart {
				if _, tail, ok := strings.Cut(d.s, c.s); ok && generationWord(tail) {
					g = tail
				}
			}
		}
		p.codes[k].s += g
	}
}

// socketNumber reports whether a word is a socket's number, alone or
// after an "S": "2011", "s2011".
func socketNumber(w string) bool {
	w = strings.TrimPrefix(w, "s")
	return len(w) == 4 && digitCount(w) == 4
}

// processorPack returns whether a processor's title sells its tray ("OEM",
// "Tray") or its box ("Boxed", "Retail", a cooler), or 0; a title that says
// both says neither. The makers' part numbers say it too: a boxed
// processor's starts "BX80" or ends "BOX" or "WOF" (in its box without a
// fan), a tray's starts "CM80".
func processorPack(words []string, codes []code) edition {
	var e edition
	for _, w := range words {
		switch w {
		case "oem", "tray":
			e |= edTray
		case "box", "boxed", "retail", "cooler", "wraith":
			e |= edBoxed
		}
	}
	for _, c := range codes {
		switch {
		case c.cpu || c.kind != codeStrong || len(c.s) < minPackPart:
		case strings.HasPrefix(c.s, "BX80") || strings.HasSuffix(c.s, "BOX") || strings.HasSuffix(c.s, "WOF"):
			e |= edBoxed
		case strings.HasPrefix(c.s, "CM80"):
			e |= edTray
		}
	}
	if e == edTray|edBoxed {
		return 0
	}
	return e
}

// minPackPart is the shortest processor part number whose letters say
// box or tray.
const minPackPart = 10

// processorTiers are the words between a processor's family and its
// number: a tier ("Core Ultra 7 155H", "Ryzen 5 2600", "Xeon Gold 6130",
// "Xeon W 2133"), a generation or core count ("Pentium Dual Core G4600",
// "Athlon II X3 455", "Phenom X4 9650"), the sockets a server processor
// takes ("Xeon DP L5420") or the kind ("Ryzen 5 CPU 2600X").
var processorTiers = map[string]bool{
	"ultra": true, "gold": true, "silver": true, "bronze": true, "platinum": true, "w": true, "e": true,
	"phi": true, "dual": true, "quad": true, "cpu": true, "processor": true, "prozessor": true,
	"up": true, "dp": true, "mp": true, // sockets: "Xeon DP L5420"
	"ii": true, "x2": true, "x3": true, "x4": true, "x6": true, "x8": true,
}

// maxTierWords is the most words read between a processor's family and its
// number.
const maxTierWords = 3

// afterFamily returns the processor family word chunk i of a title
// follows, directly or across tier words, and whether there is one.
func afterFamily(cs []chunk, i int) (string, bool) {
	for j := i - 1; j >= 0 && j >= i-1-maxTierWords; j-- {
		w := lastWord(cs[j].text)
		switch {
		case processorFamily[w]:
			return w, true
		case processorTiers[w] || len(w) == 1 && isDigitByte(w[0]) || socketWord(w, j == i-1):
		default:
			return "", false
		}
	}
	return "", false
}

// socketWord reports whether w names a processor's socket ("AM4",
// "LGA1151", or "socket" before its number), which a title may put between
// the family and the number ("Ryzen 7 Sockel AM4 1700"). Right before the
// number, "socket" does not: "Socket 1151" is the socket's number.
func socketWord(w string, last bool) bool {
	switch w {
	case "socket", "sockel", "skt":
		return !last
	}
	for _, p := range [...]string{"am", "lga", "fclga"} {
		if rest, ok := strings.CutPrefix(w, p); ok && rest != "" && digitCount(rest) == len(rest) {
			return true
		}
	}
	return false
}

// processorOf returns the processor number chunk i of a title spells: a
// number glued to its tier ("i7-8700k") or one after a family word ("core
// i7 8700k", "ryzen 7 1700x", "xeon e5520"), and the series it names
// ("FX", "A4"), or "".
func processorOf(cs []chunk, i int) (num, series string, ok bool) {
	n, gen := cutGeneration(NormalizePart(cs[i].text))
	num, series, ok = processorNumberOf(cs, i, n)
	return num + gen, series, ok
}

// cutGeneration splits a generation glued to a processor number ("2630v4")
// from it: "2630", "V4".
func cutGeneration(n string) (string, string) {
	if k := len(n) - 2; k >= 3 && n[k] == 'V' && isDigitByte(n[k+1]) && isDigitByte(n[k-1]) {
		return n[:k], n[k:]
	}
	return n, ""
}

// processorNumberOf returns the processor number n, chunk i of a title,
// spells, as processorOf does.
func processorNumberOf(cs []chunk, i int, n string) (num, series string, ok bool) {
	if m := tierNumber.FindStringSubmatch(n); m != nil {
		if seriesNumber(m[1]) {
			return m[2], m[1], true
		}
		return m[2], "", true
	}
	if strings.Contains(cs[i].text, ".") || !processorNumber.MatchString(n) {
		return "", "", false // "0.71x", a measure
	}
	if isSpecCode(n) {
		// A number with a unit's letters ("512GB", "100W") is a measure;
		// "8700K" and "1700X" are processors.
		if suffix := n[len(stem(n)):]; suffix != "" && suffix != "K" && suffix != "X" {
			return "", "", false
		}
	}
	prev, prev2 := "", ""
	if i > 0 {
		prev = lastWord(cs[i-1].text)
	}
	if i > 1 {
		prev2 = lastWord(cs[i-2].text)
	}
	if fam, tier, ok := gluedTier(prev); ok {
		prev, prev2 = tier, fam // "xeone5 2650", "corei5 6300": written apart
	}
	if len(prev) == 3 && strings.HasPrefix(prev, "fx") && isDigitByte(prev[2]) {
		return n, "FX", true // "FX6 6300": the series and its count of cores
	}
	if seriesNumber(prev) {
		return n, strings.ToUpper(prev), true
	}
	if fam, ok := afterFamily(cs, i); ok {
		return n, familySeries(fam), true
	}
	if prev2 == "core" && processorTier(prev) {
		return n, "", true
	}
	// "1800X Ryzen", "8350 FX": a shop that writes the family after the
	// number; a number of four digits, as processors of those families are.
	if i+1 < len(cs) && !cs[i+1].brk && processorFamily[firstWord(cs[i+1].text)] && familyAfter.MatchString(n) {
		return n, familySeries(firstWord(cs[i+1].text)), true
	}
	// "Xeon E5 2690": the series before the number.
	if len(prev) == 2 && prev[0] == 'e' && isDigitByte(prev[1]) && processorFamily[prev2] && isNumber(n) {
		return strings.ToUpper(prev) + n, "", true
	}
	return "", "", false
}

// gluedTier splits a family word glued to its tier ("corei5", "xeone5")
// into the two.
func gluedTier(w string) (family, tier string, ok bool) {
	for _, f := range [...]string{"core", "xeon"} {
		if t, found := strings.CutPrefix(w, f); found && processorTier(t) {
			return f, t, true
		}
	}
	return "", "", false
}

// processorTier reports whether w is a tier or series written after a
// family word: "i5", "e5".
func processorTier(w string) bool {
	return len(w) == 2 && (w[0] == 'i' || w[0] == 'e') && isDigitByte(w[1])
}

// graphicsNames are the graphics lines whose names other products share:
// "GT 1030" and Liebherr's "GT 6122" freezer, "RX 580" and Sony's "RX100"
// camera. "RTX" and "GTX" name graphics only.
var graphicsNames = []string{"gt", "rx", "arc", "mx"}

// graphicsWords in a title say it names graphics processors.
var graphicsWords = []string{"geforce", "nvidia", "radeon", "graphics", "gpu", "vram", "quadro", "gddr5", "gddr6", "gddr6x"}

// readGraphics keeps a graphics name that other products share ("RX100")
// as a graphics processor only in a computer's title or one that speaks of
// graphics; elsewhere it is the listing's model code: a camera's, a
// freezer's.
func (p *profile) readGraphics() {
	if configuredToOrder(p.category) || p.category == gaming ||
		slices.ContainsFunc(p.words, func(w string) bool { return slices.Contains(graphicsWords, w) }) {
		return
	}
	kept := p.slots[:0]
	for _, s := range p.slots {
		key, fit := strings.CutPrefix(s.key, "@")
		i := slices.IndexFunc(graphicsNames, func(n string) bool {
			return strings.HasPrefix(s.num, n) && len(s.num) > len(n) && isDigitByte(s.num[len(n)])
		})
		switch {
		case key != "gpu" || i < 0:
			kept = append(kept, s)
		case slices.Contains(p.words, s.num):
			// Written as one word: a model's code.
			p.codes = appendCode(p.codes, code{s: NormalizePart(s.num), kind: codeStrong, fit: fit})
		default:
			// Written apart: a model line's name and number ("Realme GT 7").
			s.key = strings.TrimSuffix(s.key, "gpu") + graphicsNames[i]
			s.num = s.num[len(graphicsNames[i]):]
			kept = append(kept, s)
		}
	}
	p.slots = kept
}
