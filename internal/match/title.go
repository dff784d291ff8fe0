package match

import (
	"strings"
	"unicode/utf8"

	"productsearch/internal/classify"
	"productsearch/internal/lexer"
)

// chunk is one whitespace-separated run of a folded title, with the
// punctuation around it trimmed: "wh-1000xm5", "15.6", "mxcr3b/a".
type chunk struct {
	text string
	fit  bool // in the part of the title that names another device ("for iPhone 15")
	// inch marks a number written with an inch sign after it (`15.6"`).
	inch bool
	// brk marks a chunk that starts a new clause (after a comma, a bar, a
	// bracket or a dash between spaces).
	brk bool
	// plus marks a chunk written with a "+" glued to its end ("S23+").
	plus bool
	// slash marks a chunk after a lone "/" ("ht-s40r / b").
	slash bool
	// added marks a chunk after a lone "+", what a product comes with
	// ("EOS 80D + 18-135mm").
	added bool
}

// foldTitle lower-cases a title and maps the Unicode punctuation retailers
// use onto ASCII (lexer.FoldText); other letters and digits are kept, lower
// case, and every other rune becomes a space.
func foldTitle(s string) string {
	var buf [256]byte
	b := lexer.FoldText(s, buf[:0], lexer.FoldLetters|lexer.FoldTimes)
	decimalCommas(b)
	return string(b)
}

// undoubled returns a folded title without the repeat a shop's feed
// writes after a slash ("mwh 2622 mb/mwh 2622 mb"): the text after the
// title's only slash, when the text before it ends in the same words. Read
// as written, the slash glues the repeat's first word onto the code before
// it ("mb/mwh").
func undoubled(folded string) string {
	before, after, ok := strings.Cut(folded, "/")
	after = strings.TrimSpace(after)
	if !ok || after == "" || strings.Contains(after, "/") {
		return folded
	}
	before = strings.TrimRight(before, " ")
	if rest, ok := strings.CutSuffix(before, after); ok && (rest == "" || rest[len(rest)-1] == ' ') {
		return before
	}
	return folded
}

// decimalCommas writes as points, in place, the commas that mark a decimal
// ("15,6-inch", "2,5\"", "39,62 cm"): a comma between a number of up to
// three digits and one or two digits, where a thousands comma has three
// ("20,000mAh") and a list ends in no digit either side.
func decimalCommas(b []byte) {
	for i := 1; i+1 < len(b); i++ {
		if b[i] != ',' || !isDigitByte(b[i-1]) || !isDigitByte(b[i+1]) {
			continue
		}
		j := i - 1
		for j > 0 && isDigitByte(b[j-1]) {
			j--
		}
		k := i + 1
		for k < len(b) && isDigitByte(b[k]) {
			k++
		}
		if i-j <= 3 && k-i-1 <= 2 && (j == 0 || b[j-1] != ',' && b[j-1] != '.') && (k == len(b) || b[k] != ',') {
			b[i] = '.'
		}
	}
}

// clauseBreak reports whether a punctuation byte ends a chunk and starts a
// new clause.
func clauseBreak(c byte) bool {
	switch c {
	case ',', ';', '|', '(', ')', '[', ']', '{', '}', '!', '?', '"', '\'':
		return true
	}
	return false
}

// chunker groups the tokens of a folded title into chunks.
type chunker struct {
	folded                 string
	out                    []chunk
	start, end             int // the byte range of the chunk being read; start < 0 when none
	fit, brk, slash, added bool
}

// extend adds the bytes from..to to the chunk being read.
func (c *chunker) extend(from, to int) {
	if c.start < 0 {
		c.start = from
	}
	c.end = to
}

// flush ends the chunk being read.
func (c *chunker) flush() {
	if c.start < 0 {
		return
	}
	raw := c.folded[c.start:c.end]
	t := strings.Trim(raw, "-/.+:&#*~_=<>")
	c.start = -1
	if t == "" {
		switch raw {
		case "/":
			c.slash = true
		case "+":
			c.added = true
		}
		return
	}
	inch := false
	if isDigitByte(t[len(t)-1]) {
		k := c.end
		for k < len(c.folded) && c.folded[k] == ' ' {
			k++
		}
		inch = k < len(c.folded) && (c.folded[k] == '"' || c.folded[k] == '\'')
	}
	// "S23+", and "Hero3+:" with punctuation after the plus; not a
	// standard's ("HDR10+").
	end := strings.TrimRight(raw, "-/.:&#*~_=<>")
	plus := strings.HasSuffix(end, "+") && !strings.HasSuffix(end, "++") && end[:len(end)-1] == t && t != "copilot" &&
		!strings.HasPrefix(t, "hdr")
	if c.brk {
		c.fit = false // "Case for iPhone 15 - Black": the colour is the case's
	}
	if fitWord(t, c.out) {
		c.fit = true
	}
	c.out = append(c.out, chunk{text: t, fit: c.fit, inch: inch, brk: c.brk, plus: plus, slash: c.slash, added: c.added})
	c.brk, c.slash, c.added = false, false, false
}

// chunks splits a folded title into chunks, runs of the lexer's tokens with
// no space between them, broken at clause punctuation, and marks the clause
// that names another device: everything after "for", "compatible with",
// "fits", "suitable for", "designed for" or "works with". A thousands comma
// breaks a clause here as any comma does ("20,000mAh").
func chunks(folded string) []chunk {
	var tb [96]lexer.Token
	toks := lexer.Lex(folded, tb[:0])
	c := chunker{folded: folded, out: make([]chunk, 0, len(folded)/5+1), start: -1}
	for k, t := range toks {
		from, to := int(t.Start), int(t.End)
		if t.Gap {
			c.flush()
			// " - " and " | " break a clause.
			if t.Start > 0 && t.Kind == lexer.Symbol && (t.Sym == '-' || t.Sym == '|') && k+1 < len(toks) && toks[k+1].Gap {
				c.brk = true
			}
		}
		switch {
		case t.Kind == lexer.Symbol && clauseBreak(t.Sym):
			c.flush()
			c.brk = true
		case t.Kind == lexer.Symbol && t.Sym == '+' && k+1 < len(toks) && !toks[k+1].Gap && toks[k+1].Kind != lexer.Symbol:
			// "8GB RAM+128GB": two figures, not one code; "S23+" keeps
			// its plus.
			c.flush()
		case t.Kind == lexer.Number && strings.IndexByte(folded[from:to], ',') >= 0:
			comma := from + strings.IndexByte(folded[from:to], ',')
			c.extend(from, comma)
			c.flush()
			c.brk = true
			c.extend(comma+1, to)
		default:
			c.extend(from, to)
		}
	}
	c.flush()
	return c.out
}

// fitWord reports whether the chunk t, following the chunks before, starts
// the clause naming the device an accessory fits.
func fitWord(t string, before []chunk) bool {
	prev := ""
	if n := len(before); n > 0 {
		prev = before[n-1].text
	}
	switch t {
	case "for":
		return true
	case "fits":
		return true
	case "compatible":
		return !classify.SupportedStandard(prev) // not "G-Sync compatible"
	case "with":
		return prev == "compatible" || prev == "works" || prev == "use"
	}
	return false
}

func isDigitByte(c byte) bool  { return '0' <= c && c <= '9' }
func isLetterByte(c byte) bool { return 'a' <= c && c <= 'z' }

// splitWords splits a chunk into lower-case alphanumeric runs, reading the
// lexer's tokens of it: glued words, numbers and letters outside ASCII form
// a run, and a decimal point stays inside a number ("15.6", "1.2.3").
func splitWords(t string, out []string) []string {
	var tb [32]lexer.Token
	toks := lexer.Lex(t, tb[:0])
	start := -1
	for k, tok := range toks {
		alnum := tok.Kind != lexer.Symbol || tok.Sym >= utf8.RuneSelf ||
			tok.Sym == '.' && start >= 0 && !tok.Gap && toks[k-1].Kind == lexer.Number &&
				k+1 < len(toks) && !toks[k+1].Gap && toks[k+1].Kind == lexer.Number
		switch {
		case alnum && start >= 0 && tok.Gap:
			out = append(out, t[start:toks[k-1].End])
			start = int(tok.Start)
		case alnum && start < 0:
			start = int(tok.Start)
		case !alnum && start >= 0:
			out = append(out, t[start:toks[k-1].End])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, t[start:toks[len(toks)-1].End])
	}
	return out
}

// alnumOnly drops everything but letters and digits from s.
func alnumOnly(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isDigitByte(c) || isLetterByte(c) {
			b.WriteByte(c)
		} else if 'A' <= c && c <= 'Z' {
			b.WriteByte(c + 'a' - 'A')
		}
	}
	return b.String()
}

// isNumber reports whether w is a number ("15", "15.6").
func isNumber(w string) bool {
	if w == "" {
		return false
	}
	dot := false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case isDigitByte(c):
		case c == '.' && !dot && i > 0 && i < len(w)-1:
			dot = true
		default:
			return false
		}
	}
	return true
}

// letterDigits splits "s23" into "s" and "23"; ok is false when w is not
// letters followed by digits.
func letterDigits(w string) (letters, digits string, ok bool) {
	i := 0
	for i < len(w) && isLetterByte(w[i]) {
		i++
	}
	if i == 0 || i == len(w) {
		return "", "", false
	}
	for j := i; j < len(w); j++ {
		if !isDigitByte(w[j]) {
			return "", "", false
		}
	}
	return w[:i], w[i:], true
}

// unitWords follow a number that measures something rather than naming a
// model: "16 GB", "55 inch", "2 pack".
var unitWords = map[string]bool{
	"gb": true, "tb": true, "mb": true, "kb": true, "gig": true, "inch": true, "inches": true, "in": true, "hz": true,
	"khz": true, "mhz": true, "ghz": true, "w": true, "watt": true, "watts": true, "kw": true, "mp": true,
	"megapixel": true, "megapixels": true, "mm": true, "cm": true, "m": true, "metre": true, "metres": true,
	"meter": true, "meters": true, "ft": true, "feet": true, "foot": true, "mah": true, "v": true, "volt": true,
	"volts": true, "x": true, "pack": true, "pk": true, "pcs": true, "pc": true, "piece": true, "pieces": true,
	"sheets": true, "sheet": true, "pages": true, "page": true, "port": true, "ports": true, "channel": true,
	"ch": true, "disc": true, "discs": true, "hour": true, "hours": true, "hr": true, "hrs": true, "year": true,
	"years": true, "yr": true, "month": true, "months": true, "day": true, "days": true, "min": true,
	"mins": true, "minute": true, "minutes": true, "sec": true, "mbps": true, "gbps": true, "db": true,
	"lb": true, "lbs": true, "oz": true, "g": true, "kg": true, "l": true, "ml": true, "litre": true,
	"cu": true, "p": true, "k": true, "fps": true, "ms": true, "nm": true, "rpm": true, "dpi": true,
	"ppm": true, "bit": true, "bits": true, "way": true, "button": true, "buttons": true, "key": true,
	"keys": true, "outlet": true, "outlets": true, "cup": true, "cups": true, "count": true, "ct": true,
	"slot": true, "slots": true, "bay": true, "bays": true, "core": true, "cores": true, "stage": true,
	"speed": true, "speeds": true, "zone": true, "zones": true, "person": true, "player": true,
	"players": true, "user": true, "users": true, "device": true, "devices": true, "handset": true,
	"handsets": true, "seater": true, "degree": true, "deg": true, "percent": true, "ah": true, "wh": true,
	"va": true, "amp": true, "amps": true, "a": true, "lumens": true, "lm": true, "th": true, "st": true,
	"nd": true, "rd": true, "ply": true, "roll": true, "rolls": true, "sided": true, "tab": true, "pt": true,
	"point": true, "colour": true, "color": true, "colours": true, "colors": true, "digit": true,
	"litres": true, "liter": true, "liters": true, "ltr": true, "ltrs": true, "place": true, "places": true,
	"spin": true,
}

// versionWords come before a number that is a version, a standard or a
// count rather than an item number: "USB 3.0", "Windows 11", "pack 24".
var versionWords = map[string]bool{
	"usb": true, "bluetooth": true, "bt": true, "hdmi": true, "wifi": true, "fi": true, "wi": true,
	"windows": true, "win": true, "android": true, "ios": true, "macos": true, "version": true, "v": true,
	"displayport": true, "dp": true, "thunderbolt": true, "pcie": true, "express": true, "sata": true,
	"ddr": true, "lpddr": true, "gddr": true, "dect": true, "class": true, "cat": true, "category": true,
	"ipx": true, "ip": true, "uhs": true, "office": true, "qi": true, "type": true, "lightning": true,
	"h": true, "x": true, "rev": true, "ver": true, "edition": true, "pd": true, "quick": true, "charge": true,
	"mp": true, "the": true, "of": true, "and": true, "or": true, "to": true, "up": true, "only": true,
	"rtx": true, "gtx": true, "gts": true, "gt": true, "rx": true, "radeon": true, "geforce": true, "arc": true,
	"core": true, "ultra": true, "ryzen": true, "i": true, "celeron": true, "pentium": true, "athlon": true,
	"snapdragon": true, "dimensity": true, "helio": true, "exynos": true, "tensor": true, "bionic": true,
	"intel": true, "amd": true, "processor": true, "cpu": true, "gpu": true, "nvidia": true, "quadro": true,
	"apple": true, "m": true, "a": true, "pack": true, "set": true, "kit": true, "x4": true, "x2": true,
	"ps": true, "playstation": true, "xbox": true, "no": true, "number": true,
	"step": true, "level": true, "grade": true, "size": true, "approx": true, "over": true, "under": true,
	"from": true, "by": true, "at": true, "in": true, "on": true, "with": true,
}

// letterGeneration reports whether a word after a model line's name names
// its generation in letters, as a number would ("iPhone X", "iPhone XS",
// "iPhone XR", "iPhone SE"; "Xperia X", "Xperia XZ", "Xperia XA"): "SE", or
// an X alone or with a letter after it, not a size ("XL").
func letterGeneration(w string) bool {
	switch {
	case w == "se" || w == "x":
		return true
	case len(w) == 2 && w[0] == 'x' && isLetterByte(w[1]):
		return w != "xl"
	}
	return false
}

// variants is a set of variant words, one bit each.
type variants uint32

// variantWords name a model's variant: "iPhone 15 Pro" and "iPhone 15 Pro
// Max" are different products, and so are "Galaxy S23" and "Galaxy S23+".
// The words from "play" on name a variant only right after a model's name
// (see nameVariantWord).
var variantWords = map[string]variants{
	"pro": 1 << 0, "max": 1 << 1, "plus": 1 << 2, "mini": 1 << 3, "lite": 1 << 4, "ultra": 1 << 5,
	"air": 1 << 6, "fe": 1 << 7, "se": 1 << 8, "neo": 1 << 9, "xl": 1 << 10, "slim": 1 << 11,
	"xr": 1 << 12, "xs": 1 << 13, "edge": 1 << 14, "prime": 1 << 15,
	"play": 1 << 16, "power": 1 << 17, "compact": 1 << 18, "active": 1 << 19, "stylus": 1 << 20,
	"fusion": 1 << 21, "turbo": 1 << 22, "premier": 1 << 23, "flip": 1 << 24, "fold": 1 << 25, "premium": 1 << 26, "session": 1 << 27,
}

// firstNameVariant is the bit of the first variant word that names a
// variant only right after a model's name.
const firstNameVariant variants = 1 << 16

// nameVariantWord reports whether w names a variant only right after a
// model's name ("Moto G6 Play", "Edge 60 Stylus", "Xperia Z5 Compact"):
// elsewhere it describes the product ("compact microwave", "power bank",
// "plug and play").
func nameVariantWord(w string) bool {
	return variantWords[w] >= firstNameVariant
}

// notVariant reports whether a variant word at chunk i is a feature, not a
// model's variant: "Ultra HD", "Mini DisplayPort", "Windows 11 Pro", "Core
// Ultra 7", "Snapdragon X Plus", "up to max".
func notVariant(cs []chunk, i int, w string) bool {
	next, prev, prev2 := "", "", ""
	if i+1 < len(cs) {
		next = cs[i+1].text
	}
	if i > 0 {
		prev = cs[i-1].text
	}
	if i > 1 {
		prev2 = cs[i-2].text
	}
	switch w {
	case "ultra":
		switch next {
		case "hd", "uhd", "wide", "widescreen", "slim", "thin", "light", "lightweight", "fast", "bright",
			"portable", "compact", "low", "high", "quiet", "long", "speed", "fine", "soft", "sharp", "clear",
			"sensitive", "durable", "silent", "5", "7", "9":
			return true
		}
		if prev == "core" || prev == "intel" {
			return true
		}
	case "mini":
		switch next {
		case "displayport", "dp", "usb", "hdmi", "jack", "pc", "led", "display", "sd", "plug", "speaker",
			"size", "tripod", "stand", "mini":
			return true
		}
	case "pro", "plus", "max", "se":
		switch prev {
		case "windows", "win", "office", "microsoft", "x", "copilot", "elite", "up", "to", "vista", "xp":
			return true
		}
		if prev2 == "windows" || prev2 == "win" || prev2 == "snapdragon" {
			return true
		}
		if w == "max" && (next == "" || isNumber(next) || strings.HasSuffix(next, "gb") || strings.HasSuffix(next, "w")) &&
			(prev == "" || prev == "supports") {
			return true
		}
		if w == "max" && prev != "" && isDigitByte(prev[0]) {
			return true // "65-in. max"
		}
	case "neo":
		return next == "qled" // "Neo QLED" is a kind of screen
	case "fe":
		// "FE 28-70mm", "FE 50mm f/1.8": a lens mount's letters before
		// a focal length, not the "Galaxy S20 FE".
		if i+1 < len(cs) {
			_, _, rng := focalEnds(cs, i+1)
			_, u, ok := digitsUnit(next)
			return rng || ok && u == "mm"
		}
	case "air":
		switch next {
		case "fryer", "purifier", "conditioner", "pump", "filter", "flow", "cooler", "cooled", "vent":
			return true
		}
	case "slim":
		switch next {
		case "fit", "design", "profile", "case", "cover", "body", "lightweight", "and":
			return true
		}
		switch prev {
		case "ultra", "super", "extra", "very":
			return true
		}
	case "xl":
		// "Pixel 3 XL" and "Pixel 9 Pro XL" are models; "XL capacity" a
		// feature.
		return !afterModelName(prev, prev2, false)
	case "compact", "premium":
		// "compact system camera", "premium compact camera": the kind of
		// camera, not the "Xperia XZ2 Compact" or "XZ Premium".
		switch next {
		case "camera", "cameras", "system", "digital", "zoom", "travel", "compact", "vlog", "vlogger", "vlogging",
			"full", "mirrorless", "csc", "superzoom", "bridge", "fotocamera", "kamera", "digitalkamera", "systemkamera":
			// ... and "compact vlog camera", "compact full frame".
			return true
		}
	case "power":
		switch next {
		case "bank", "supply", "adapter", "adaptor", "cable", "cord", "lead", "station", "pack", "delivery", "strip",
			"button", "saving", "tool", "tools", "brick", "unit", "kit":
			return true
		}
	}
	return nameVariantWord(w) && !afterModelName(prev, prev2, true)
}

// afterModelName reports whether a word follows a model's name: prev, or
// prev2 before a variant word prev, is a number or a code of letters and
// digits that is no measure nor a network, or a generation in letters
// ("G6 Play", "Pixel 9 Pro XL", "Xperia XZ Premium"; not "800W compact",
// "4G Max"); with short set, a whole number or code of up to maxShortName
// characters ("Edge 60 Stylus"; not "3.8 turbo", nor "R272WM compact
// microwave": a part number's next word describes it).
func afterModelName(prev, prev2 string, short bool) bool {
	model := func(w string) bool {
		if letterGeneration(w) && w != "x" {
			return true // "Xperia XZ Premium"
		}
		if !strings.ContainsAny(w, "0123456789") || networkGeneration(w) != "" ||
			short && (len(w) > maxShortName && !lineNumberGlued(w) || strings.Contains(w, ".")) {
			return false
		}
		_, _, unit := digitsUnit(w)
		return !unit
	}
	return model(prev) || variantWords[prev] != 0 && model(prev2)
}

// lineNumberGlued reports whether w is a line's name and its number of
// one or two digits run together ("hero5", "mate20"), which a variant's
// word after names as it does after the two written apart ("HERO5
// Session" and "Hero 5 Session").
func lineNumberGlued(w string) bool {
	l, d, ok := letterDigits(w)
	return ok && len(l) >= 3 && len(d) <= 2 && wordLike(l)
}

// isStopWord reports whether w carries no weight in a title comparison.
func isStopWord(w string) bool {
	switch w {
	case "the", "and", "with", "for", "of", "in", "a", "an", "to", "by", "on", "new", "inc", "ltd",
		"uk", "version", "edition", "genuine", "official", "brand", "latest", "model", "-", "&", "w", "from",
		"x", "+", "or", "only", "free", "sim", "unlocked", "used", "refurbished", "good", "excellent":
		return true
	}
	return false
}

// splitJoined returns the chunks with the words a shop joins with hyphens
// or slashes written apart where one of them is a variant's word, a colour
// or a storage ("pro/256g/silver/4gb", "note 9 pro-tropical
// green-64g-m2003j6b2g"), so each reads as a word of its own; codes
// ("wh-1000xm5", "x-t3", "sm-a105f/ds") stay whole. It returns cs itself
// when no chunk has such a word.
func splitJoined(cs []chunk) []chunk {
	return splitEach(cs, func(i int) []string { return joinedParts(cs[i].text) })
}

// splitEach returns the chunks with each chunk i that parts cuts in
// pieces (a nil result keeps it whole) written as chunks of its own: the
// first keeps where the chunk stands (after a clause break, a slash, a
// "+"), the last what follows it (an inch mark, a "+" glued on). It
// returns cs itself when parts cuts none.
func splitEach(cs []chunk, parts func(i int) []string) []chunk {
	var out []chunk
	for i, c := range cs {
		ps := parts(i)
		if ps == nil {
			if out != nil {
				out = append(out, c)
			}
			continue
		}
		if out == nil {
			out = make([]chunk, i, len(cs)+len(ps))
			copy(out, cs[:i])
		}
		for k, t := range ps {
			d := c
			d.text = t
			if k > 0 {
				d.brk, d.slash, d.added = false, false, false
			}
			if k < len(ps)-1 {
				d.plus, d.inch = false, false
			}
			out = append(out, d)
		}
	}
	if out == nil {
		return cs
	}
	return out
}

// joinedParts returns chunk t cut at each hyphen or slash next to a word
// that reads on its own (see standsAlone), or nil when it has none.
func joinedParts(t string) []string {
	if !strings.ContainsAny(t, "-/") {
		return nil
	}
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == '/' })
	if len(fields) < 2 {
		return nil
	}
	alone := make([]bool, len(fields))
	any := false
	for k, f := range fields {
		// A colour between two pieces of a code is the code's
		// ("mb13-red-see-v2"), and so is a storage after a part number
		// ("DTSE9G2/64GB" names the 64GB drive).
		alone[k] = standsAlone(f, k == 0 || k == len(fields)-1) && !(k > 0 && storagePiece(f) && partNumberPiece(fields[k-1]))
		any = any || alone[k]
	}
	if !any {
		return nil
	}
	var parts []string
	start := 0 // byte offset of the part being built
	pos := 0
	for k, f := range fields {
		at := strings.Index(t[pos:], f) + pos
		if k > 0 && (alone[k] || alone[k-1]) {
			parts = append(parts, strings.Trim(t[start:at], "-/"))
			start = at
		}
		pos = at + len(f)
	}
	return append(parts, strings.Trim(t[start:], "-/"))
}

// storagePiece reports whether a piece of a chunk is a storage ("64gb",
// "256g").
func storagePiece(f string) bool {
	if gigabytes(f) {
		return true
	}
	d, u, ok := digitsUnit(f)
	return ok && (u == "gb" || u == "tb") && d != ""
}

// partNumberPiece reports whether a piece of a chunk reads as a part number:
// four characters or more, letters and digits.
func partNumberPiece(f string) bool {
	return len(f) >= 4 && strings.ContainsAny(f, "0123456789") && !lettersOnly(f) && !storagePiece(f)
}

// standsAlone reports whether a piece of a hyphenated or slashed chunk is
// a word of its own: a variant's word of three letters or more, a colour
// at either end (end), or a storage ("256g", "64gb").
func standsAlone(f string, end bool) bool {
	if len(f) >= 3 && lettersOnly(f) && (variantWords[f] != 0 || end && colourWords[f] != "") {
		return true
	}
	return storagePiece(f)
}

// unglueBrand returns the chunks with a brand a shop glues to the model
// after it written apart ("samsungue50tu8500u", "lgoled55bx6lb",
// "samsunggalaxys9+": "samsung ue50tu8500u", ...), as other shops write
// them; what follows the brand must hold a digit, and start with a letter
// or be a code of four characters or more with letters and digits
// ("samsung55nu8000"). It returns cs itself when no chunk starts so.
func unglueBrand(cs []chunk, brand string) []chunk {
	if len(brand) < 2 {
		return cs
	}
	return splitEach(cs, func(i int) []string {
		rest, ok := strings.CutPrefix(cs[i].text, brand)
		if !ok || cs[i].fit || len(rest) < 2 || !strings.ContainsAny(rest, "0123456789") ||
			!isLetterByte(rest[0]) && (len(rest) < 4 || lettersOnly(rest) || digitCount(rest) == len(rest)) {
			return nil // "samsung55nu8000" is "samsung 55nu8000"; "jvc2"  no code
		}
		return []string{brand, rest}
	})
}
