package match

import (
	"strconv"
	"strings"

	"productsearch/internal/catalog"
	"productsearch/internal/lexer"
)

// mergeFractions returns the chunks with fractions written as decimals:
// "3-1/2" is "3.5", and "8" followed by "1/2" one chunk "8.5". It returns
// cs itself when the title has no fraction.
func mergeFractions(cs []chunk) []chunk {
	var out []chunk
	for i := 0; i < len(cs); i++ {
		c := cs[i]
		whole, frac, ok := strings.Cut(c.text, "-")
		if !ok {
			whole, frac = "", c.text
		}
		v, isFrac := fractionOf(frac)
		merge := false
		switch {
		case isFrac && whole != "" && isNumber(whole) && !strings.Contains(whole, "."):
			v += float64(leadingNumber(whole)) // "3-1/2"
		case isFrac:
			isFrac = false // a lone fraction ("1/2": a ratio as often), or "A-1/2"
		case isNumber(c.text) && !strings.Contains(c.text, ".") && !modelYear(c.text) && i+1 < len(cs) && !cs[i+1].brk:
			// "2 1/2": the whole number and the fraction; a model's year
			// is none ("Y7 2018 2/16 GB": memory and storage).
			if f, ok := fractionOf(cs[i+1].text); ok {
				v, isFrac, merge = f+float64(leadingNumber(c.text)), true, true
			}
		}
		if !isFrac {
			if out != nil {
				out = append(out, c)
			}
			continue
		}
		if out == nil {
			out = make([]chunk, i, len(cs))
			copy(out, cs[:i])
		}
		if merge {
			c.inch = cs[i+1].inch
			i++
		}
		c.text = strconv.FormatFloat(v, 'f', -1, 64)
		out = append(out, c)
	}
	if out == nil {
		return cs
	}
	return out
}

// fractionOf reads a proper fraction with a common denominator: "1/2",
// "3/4", "7/16".
func fractionOf(t string) (float64, bool) {
	a, b, ok := strings.Cut(t, "/")
	if !ok || a == "" || b == "" || len(a) > 2 || len(b) > 2 || digitCount(a) != len(a) || digitCount(b) != len(b) {
		return 0, false
	}
	n, d := leadingNumber(a), leadingNumber(b)
	switch d {
	case 2, 3, 4, 5, 8, 16, 32:
	default:
		return 0, false
	}
	if n == 0 || n >= d {
		return 0, false
	}
	return float64(n) / float64(d), true
}

// leadingNumber returns the value of the digits that start s.
func leadingNumber(s string) int {
	n := 0
	for i := 0; i < len(s) && isDigitByte(s[i]) && i < 9; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// readMeasure records the measure that the number ws[k] of chunk i starts:
// "1350 joules", "2-metre", "400 x 400", `15.6"`; right after another
// number, only one that cannot be its decimal places (see lostFraction;
// model says the number before names a model: "Pixel 4 64 GB").
func (p *profile) readMeasure(cs []chunk, i int, ws []string, k int, model bool) {
	c := cs[i]
	w := ws[k]
	next, next2 := "", ""
	var rest []string
	rest = append(rest, ws[k+1:]...)
	for j := i + 1; j < len(cs) && len(rest) < 6 && !cs[j].brk; j++ {
		rest = splitWords(cs[j].text, rest)
	}
	if len(rest) > 0 {
		next = rest[0]
	}
	if len(rest) > 1 {
		next2 = rest[1]
	}
	// A model's year is no number a measure could be the decimal places or
	// the other side of: "2020 40 HX700" is the 40-inch set.
	prev := numberBefore(cs, i, ws, k)
	prevNum := prev != "" && !modelYear(prev)
	switch {
	case k == len(ws)-1 && c.inch && strings.HasPrefix(c.text, "1/"):
		// `1/2.3"`: the optical format of a camera's sensor, no screen.
	case k == len(ws)-1 && c.inch:
		p.addSlot("#in", w, c.fit)
	case next == "x" && isNumber(next2) && !p.phone():
		// "400 x 400", but not the remnants of fractions ("8-1 2 x 11").
		if !prevNum && !(len(rest) > 2 && isNumber(rest[2])) {
			p.addSlot("#dim", number(w)+"x"+number(next2), c.fit)
		}
	case next == "in" && (next2 == "" || isNumber(next2) || measureUnit(next2) != ""):
		p.addSlot("#in", w, c.fit)
	case next == "v" && p.romanFive():
		// "Xperia 5 V": a fifth generation, not five volts.
	case next != "" && next != "in" && measureUnit(next) != "" && !lostFraction(prev, w, measureUnit(next), model):
		p.addSlot(memoryKey("#"+measureUnit(next), w, next2, rest[min(len(rest), 2):]), w, c.fit)
		if in := screenInches(p, w, measureUnit(next)); in != "" {
			p.addSlot("#in", in, c.fit)
		}
	case len(ws) == 1 && !prevNum && screenSize(p, w) && !unitWords[next] && next != "x":
		// A television's size written without its inch mark, as
		// price-comparison sites give it ("55a6ktuk 55 smart 4k tv").
		p.addSlot("#in", w, c.fit)
	}
}

// lostFraction reports whether number d of a measure in unit u, written
// right after the number prev ("" for none), may be that number's decimal
// places, its point lost ("1 86m"). A whole number of three digits or more
// is a measure of its own ("OnePlus 6 128GB"), and so is memory or storage
// after a model's number (model, the number before it is one: "Redmi Note
// 7 4GB"), and any measure after a model's year ("2020 40 HX700" is the
// 40-inch set) or after a number with decimal places of its own ("6.09
// 32gb" is a screen and a storage).
func lostFraction(prev, d, u string, model bool) bool {
	if prev == "" || modelYear(prev) || strings.Contains(prev, ".") || model && (u == "gb" || u == "tb") {
		return false
	}
	return len(d) <= 2 || strings.Contains(d, ".")
}

// afterNumber reports whether word k of chunk i starts the chunk right
// after a number, in the same clause: "1 86m" and "8 5 x 11" are numbers
// whose decimal point or fraction was lost, no measure of their own. A
// range within one chunk ("70-200mm") is not.
// numberBefore returns the number right before word k of chunk i, in the
// chunk or ending the chunk before it, or "".
func numberBefore(cs []chunk, i int, ws []string, k int) string {
	switch {
	case k > 0 && isNumber(ws[k-1]):
		return ws[k-1]
	case afterNumber(cs, i, k):
		return lastWord(cs[i-1].text)
	}
	return ""
}

func afterNumber(cs []chunk, i, k int) bool {
	return k == 0 && i > 0 && !cs[i].brk && isNumber(lastWord(cs[i-1].text))
}

// digitsUnit splits "24lb" into "24" and "lb", "1.5m" into "1.5" and "m",
// when the letters are a unit.
func digitsUnit(w string) (string, string, bool) {
	d := leadingDigits(w)
	if d == 0 || d == len(w) {
		return "", "", false
	}
	if w[d] == '.' && d+1 < len(w) && isDigitByte(w[d+1]) {
		d += 1 + leadingDigits(w[d+1:]) // "1.5m", "2.5mm"
		if d == len(w) {
			return "", "", false
		}
	}
	u := measureUnit(w[d:])
	return w[:d], u, u != ""
}

// measureUnit returns the canonical unit a word names, or "": the lexer's
// units (lexer.UnitOf) and the measures and counts of other goods.
func measureUnit(w string) string {
	if u := lexer.UnitOf(w); u != lexer.NoUnit {
		return u.String()
	}
	switch w {
	case "ft", "feet", "foot":
		return "ft"
	case "in":
		return "in"
	case "m", "metre", "metres", "meter", "meters":
		return "m"
	case "megapixel", "megapixels":
		return "mp"
	case "lb", "lbs":
		return "lb"
	case "sheet", "sheets":
		return "sheet"
	case "page", "pages":
		return "page"
	case "pack", "pk":
		return "pack"
	case "ch", "channel", "channels":
		return "ch"
	case "port", "ports":
		return "port"
	case "outlet", "outlets":
		return "outlet"
	case "mile", "miles":
		return "mile"
	case "joule", "joules":
		return "joule"
	case "volt", "volts":
		return "v"
	case "diagonal", "pin", "pins":
		return w
	case "oz", "ml", "x", "cu", "ghz", "mhz", "lumens", "dpi", "rpm", "db", "piece", "pcs", "cup", "cups", "disc",
		"way", "va", "amp":
		return w
	}
	return ""
}

// number folds a number for comparison: "2.0" is "2", "07" is "7".
func number(w string) string {
	if strings.Contains(w, ".") {
		w = strings.TrimRight(strings.TrimRight(w, "0"), ".")
	}
	if t := strings.TrimLeft(w, "0"); t != "" {
		return t
	}
	return "0"
}

// measureNumber folds a measure for comparison, keeping whether it was
// stated as a decimal: "07" is "7", "2.50" is "2.5", "4.0" stays "4.0"
// (see aboutEqual).
func measureNumber(w string) string {
	if i := strings.IndexByte(w, '.'); i >= 0 {
		w = strings.TrimRight(w, "0")
		if len(w) == i+1 {
			w += "0"
		}
	}
	if t := strings.TrimLeft(w, "0"); t != "" && t[0] != '.' {
		return t
	}
	if i := strings.IndexByte(w, '.'); i >= 0 {
		return "0" + w[i:]
	}
	return "0"
}

// speedCode reports whether a normalised token is a drive's or card's read
// or write speed: "R100MBS" of "r100MB/s", "W15MBS", "R90MB".
func speedCode(s string) bool {
	if len(s) < 4 || s[0] != 'R' && s[0] != 'W' {
		return false
	}
	d := leadingDigits(s[1:])
	if d == 0 {
		return false
	}
	switch s[1+d:] {
	case "MB", "MBS", "GB", "GBS":
		return true
	}
	return false
}

// gigabytes reports whether a code is a storage's size and a G, as shops
// write a phone's storage short ("128G", "256G"); "2400G" is a processor.
func gigabytes(s string) bool {
	n := len(s)
	if n < 3 || s[n-1] != 'G' && s[n-1] != 'g' {
		return false
	}
	v, err := strconv.Atoi(s[:n-1])
	return err == nil && strconv.Itoa(v) == s[:n-1] && v < 1024 && catalog.StorageSize(float64(v))
}

// memoryKey returns the slot of measure val in gigabytes that the word
// after it labels as memory ("3GB RAM"): "#ram", which another title's
// storage ("32GB") does not contradict; any other key is returned as it
// is. after holds the words after the label: a smaller figure in gigabytes
// right after it, with no label of its own, takes the label instead ("32
// gb ram 4gb 16mp", "64gb / ram 4gb", as a site prints "32 GB, RAM 4GB";
// not "6gb ram 128gb", nor "16gb ram 512gb ssd"), as memory comes smaller
// than storage.
func memoryKey(key, val, next string, after []string) string {
	if key != "#gb" || next != "ram" && next != "memory" {
		return key
	}
	fig, n := "", 0 // the figure after the label, and the words it takes
	switch {
	case len(after) > 0 && gbFigure(after[0]):
		fig, n = after[0][:leadingDigits(after[0])], 1
	case len(after) > 1 && isNumber(after[0]) && measureUnit(after[1]) == "gb":
		fig, n = after[0], 2
	}
	if n > 0 && (len(after) == n || !storageLabel(after[n])) && leadingNumber(fig) < leadingNumber(val) {
		return key
	}
	return "#ram"
}

// gbFigure reports whether a word is a figure in gigabytes ("4gb").
func gbFigure(w string) bool {
	d, u, ok := digitsUnit(w)
	return ok && d != "" && u == "gb"
}

// storageLabel reports whether a word labels the figure before it as
// memory or storage.
func storageLabel(w string) bool {
	switch w {
	case "ram", "rom", "memory", "storage", "ssd", "hdd", "emmc", "internal":
		return true
	}
	return false
}

// wordsAfter returns up to n words after word k of chunk i, in the chunk and
// the chunks after it in its clause.
func wordsAfter(cs []chunk, i int, ws []string, k, n int) []string {
	rest := append([]string(nil), ws[k+1:]...)
	for j := i + 1; j < len(cs) && len(rest) < n && !cs[j].brk; j++ {
		rest = splitWords(cs[j].text, rest)
	}
	return rest[:min(len(rest), n)]
}
