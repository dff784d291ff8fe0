package match

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A lens's focal range and aperture as titles write them: with a hyphen or
// without, with the unit on each end or none, a lens mount's letters glued
// on ("XF18-55mm"), as comparison sites print them ("18 55mm", "f/4 5.6").

// apertureChunk matches a lens's aperture: "f/2.8", "f4-5.6l", "f/1.8g",
// "f1.4", with the maker's letters after it.
var apertureChunk = regexp.MustCompile(`^f(/?)([0-9]{1,2}(?:\.[0-9])?(?:-[0-9]{1,2}(?:\.[0-9])?)?)[a-z]{0,2}$`)

// apertureMatch is apertureChunk's submatches of t, or nil; most title
// chunks fail its first letter, so the expression runs only on those that
// pass it.
func apertureMatch(t string) []string {
	if !strings.HasPrefix(t, "f") {
		return nil
	}
	return apertureChunk.FindStringSubmatch(t)
}

// apertureLetters returns the letters a lens's maker glues on after its
// aperture ("g" of "f/1.8G", "d" of "f1.8D", "l" of "f/2.8L"), or "":
// lenses of one focal length and aperture that differ in them are two
// lenses.
func apertureLetters(t string) string {
	if aperture(t) == "" {
		return ""
	}
	end := len(t)
	for end > 0 && isLetterByte(t[end-1]) {
		end--
	}
	return t[end:]
}

// maxAperture is the largest f-number a lens is named by.
const maxAperture = 32

// aperture returns the aperture a chunk of a title states ("4-5.6" for
// "f/4-5.6"), or "". Without a slash it must be a decimal or a range
// ("f2.8", "f4-5.6"): "F60" is a model's name, "f4" a model's as often.
func aperture(t string) string {
	m := apertureMatch(t)
	if m == nil || m[1] == "" && !strings.ContainsAny(m[2], ".-") || leadingNumber(m[2]) > maxAperture {
		return ""
	}
	return m[2]
}

// joinRanges writes, in place, a lens's focal range and aperture range that
// a title gives with a space for the hyphen, as shops' listings on
// comparison sites do ("18 55mm", "f/4 5.6"), or with each end's unit
// ("24 mm 70 mm"), the way other titles write them ("18-55mm", "f/4-5.6",
// "24-70mm"). The ranges must read as lenses' do: a
// focal range's long end is half as long again as its short end or more,
// from 4mm; an aperture range's second f-number is the larger.
func joinRanges(cs []chunk) []chunk {
	out := cs[:0]
	for i := 0; i < len(cs); i++ {
		c := cs[i]
		next := func(k int) bool { return i+k < len(cs) && !cs[i+k].brk && !cs[i+k].slash && c.fit == cs[i+k].fit }
		switch {
		case next(1) && cs[i+1].text == "mm" && next(2):
			// "24 mm 70 mm", "24 mm 70mm": each end with its unit.
			long := cs[i+2].text
			n := 3
			if next(3) && cs[i+3].text == "mm" && !strings.HasSuffix(long, "mm") {
				long, n = long+"mm", 4
			}
			if j, ok := joinedRange(c.text, long); ok {
				c.text = j
				i += n - 1
			}
		case next(2) && cs[i+2].text == "mm" && isNumber(cs[i+1].text):
			// "18 55 mm": a range that lost its hyphen, the unit apart.
			if j, ok := joinedRange(c.text, cs[i+1].text+"mm"); ok {
				c.text = j
				i += 2
			}
		case next(1) && bareRange(cs, i, out):
			// "18 55 IS STM", "kit 18 55 75 300": a range that lost its
			// hyphen and unit, beside a lens's words.
			c.text += "-" + cs[i+1].text + "mm"
			i++
		case next(1):
			if j, ok := joinedRange(c.text, cs[i+1].text); ok {
				c.text = j
				i++
			}
		}
		out = append(out, c)
	}
	return out
}

// bareRange reports whether chunks i and i+1 are two plain numbers that
// make a zoom's focal range (see joinedRange) beside a lens's words: a
// lens's letters after them ("18 55 IS STM", "16 50 kit"), or before them
// a kit, a lens, a lens mount's letters or another range (out holds the
// chunks before, ranges joined).
func bareRange(cs []chunk, i int, out []chunk) bool {
	if !twoNumbersRange(cs[i].text, cs[i+1].text) {
		return false
	}
	if i+2 < len(cs) && !cs[i+2].brk && lensLetters(firstWord(cs[i+2].text)) {
		return true
	}
	// Two zooms' ranges in a row: "D5600 18 55 70 300".
	if i+3 < len(cs) && !cs[i+2].brk && !cs[i+3].brk && twoNumbersRange(cs[i+2].text, cs[i+3].text) {
		return true
	}
	if n := len(out); n > 0 && !cs[i].brk {
		return lensLead(out[n-1].text)
	}
	return false
}

// lensLead reports whether a word before a bare range makes the range a
// lens's: a kit, a lens, "with" ("w" of "w/"), a lens mount's or series'
// letters, or another range ("kit 18-55", "w/ 15-45", "ef-s 18 55",
// "18-55 55-250").
func lensLead(prev string) bool {
	switch prev {
	case "kit", "lens", "lenses", "with", "w", "ef-s", "dx", "nikkor", "zuiko", "vario", "pz", "zoom":
		return true
	}
	return slices.Contains(lensMounts[:], prev) || focalRange(prev)
}

// twoNumbersRange reports whether two plain numbers make a zoom's focal
// range: the long end half as long again as the short end or more, from
// 4mm to maxFocalLength.
func twoNumbersRange(a, b string) bool {
	if len(a) > 3 || len(b) < 2 || len(b) > 4 || !plainNumber(a) || !plainNumber(b) {
		return false
	}
	short, long := leadingNumber(a), leadingNumber(b)
	return short >= 4 && 2*long >= 3*short && long <= maxFocalLength
}

// maxFocalLength is the longest focal length a zoom's range reaches in
// millimetres (a 150-600mm or 200-800mm lens).
const maxFocalLength = 1200

// lensMounts are the letters of lens mounts, longest first where one
// starts another.
var lensMounts = [...]string{"efs", "efm", "rfs", "xf", "xc", "ef", "rf", "fe", "dt"}

// mountStarts holds the first letters of lensMounts.
var mountStarts = func() (starts [256]bool) {
	for _, m := range lensMounts {
		starts[m[0]] = true
	}
	return starts
}()

// mountLetters returns the length of the letters of a lens mount that
// start t right before a digit ("xf" of "xf18-55mm", "efs" of
// "efs18-55mm"), or 0.
func mountLetters(t string) int {
	if t == "" || !mountStarts[t[0]] {
		return 0 // most chunks: no mount starts with their first letter
	}
	for _, m := range lensMounts {
		if len(t) > len(m) && strings.HasPrefix(t, m) && isDigitByte(t[len(m)]) {
			return len(m)
		}
	}
	return 0
}

// joinedRange returns a and b written as one range ("18-55mm",
// "f/4-5.6", a mount's letters kept: "xf18-55mm"), or false when they make
// none (see joinRanges).
func joinedRange(a, b string) (string, bool) {
	if n := mountLetters(a); n > 0 {
		j, ok := joinedRange(a[n:], b)
		return a[:n] + j, ok
	}
	if long, ok := strings.CutSuffix(b, "mm"); ok && len(a) <= 3 && digitCount(a) == len(a) && len(long) <= 4 &&
		digitCount(long) == len(long) && a != "" && long != "" {
		short, l := leadingNumber(a), leadingNumber(long)
		return a + "-" + b, short >= 4 && 2*l >= 3*short
	}
	m := apertureMatch(a)
	if m == nil || m[1] == "" || strings.Contains(m[2], "-") || !isNumber(b) {
		return "", false
	}
	lo, err1 := strconv.ParseFloat(m[2], 64)
	hi, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || hi <= lo || hi > maxAperture || len(m[0]) != len(a) || strings.ContainsFunc(a[len("f/")+len(m[2]):], unicode.IsLetter) {
		return "", false
	}
	return a + "-" + b, true
}

// apertureAt returns the aperture chunk i of a title states: one aperture
// reads, or a bare f-number right after a focal length ("70-200mm F4 L",
// "35 mm F2"), where no model is named so.
func apertureAt(cs []chunk, i int) string {
	if a := aperture(cs[i].text); a != "" || i == 0 {
		return a
	}
	m := apertureMatch(cs[i].text)
	if m == nil || leadingNumber(m[2]) > maxAperture {
		return ""
	}
	prev := cs[i-1].text
	if prev == "mm" && i > 1 {
		prev = cs[i-2].text + "mm"
	}
	if n, ok := strings.CutSuffix(prev, "mm"); ok && (isNumber(n) || focalRange(prev)) {
		return m[2]
	}
	return ""
}

// withUnit returns chunk i of a title, a focal range, with the "mm"
// written apart after it ("24-70 mm" as "24-70mm"). A chunk without a
// hyphen holds no range and is returned as it is.
func withUnit(cs []chunk, i int) string {
	t := cs[i].text
	if strings.IndexByte(t, '-') < 0 {
		return t
	}
	t = t[mountLetters(t):] // "XF18-55mm" is the 18-55mm
	if strings.HasSuffix(t, "mm") {
		return t
	}
	if i+1 < len(cs) && cs[i+1].text == "mm" {
		return t + "mm"
	}
	// A bare range a lens's letters or aperture follow, or after a "+", a
	// lens's word or mount, or another lens's range, is a focal range too
	// ("18-55 IS STM kit", "18-55 f/3.5-5.6", "+ 18-55", "EF-S 18-55",
	// "kit 18-55 & 75-300").
	if t != "" && isDigitByte(t[0]) && strings.IndexByte(t, '-') > 0 && focalRange(t+"mm") &&
		(cs[i].added || i+1 < len(cs) && !cs[i+1].brk && (lensLetters(firstWord(cs[i+1].text)) || aperture(cs[i+1].text) != "") ||
			i > 0 && !cs[i].brk && (lensLead(cs[i-1].text) || lensLead(lastWord(cs[i-1].text)) || focalRange(withUnit(cs, i-1)))) {
		return t + "mm"
	}
	return t
}

// lensLetters reports whether a word after a bare range names a lens: its
// motor, stabiliser or series letters, or "lens" and "kit".
func lensLetters(w string) bool {
	switch w {
	case "is", "stm", "usm", "vr", "dc", "oss", "ois", "hsm", "asph", "wr", "af", "ii", "iii", "kit", "lens", "lenses":
		return true
	}
	return false
}

// focalEnds returns the two ends of a zoom lens's focal range that chunk i
// of a title states ("70-300mm", "24-70 mm"), or false.
func focalEnds(cs []chunk, i int) (short, long string, ok bool) {
	t := withUnit(cs, i)
	if !focalRange(t) {
		return "", "", false
	}
	short, long, _ = strings.Cut(strings.TrimSuffix(t, "mm"), "-")
	return short, long, true
}
