package match

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// codeKind says how much a model code identifies a product.
type codeKind uint8

const (
	// codeWeak: a number of five or more digits in a title ("483921"): an
	// item number as often as not, so it supports a match but never refutes
	// one.
	codeWeak codeKind = iota + 1
	// codeLine: a word with a small number glued on ("Book4", "iPhone15",
	// "Zenbook14"): it names a model line, so it supports a match that
	// the titles' variant words and numbers allow.
	codeLine
	// codeStrong: a part or model number ("WH-1000XM5", "KD-55X80L") from a
	// title or an identifier field.
	codeStrong
)

// code is one normalised model code of a listing.
type code struct {
	s    string // NormalizePart form
	kind codeKind
	fit  bool // named after "for": the code of the device an accessory fits
	// field marks a code from an identifier field (MPN, model number) rather
	// than the title; mpn, a code from the manufacturer part number.
	field, mpn bool
	// last marks a code that is the last word of its title.
	last bool
	// cpu marks a processor number read as the listing's own code (see
	// readProcessor): every letter of it names the model.
	cpu bool
	// series is the series a processor number is read after ("FX", "A4"),
	// or "": one number names processors of different series.
	series string
	// colours is the colour a name written after the code states
	// ("JBLGO4BLACK", "srs-xb100/blue"), or 0.
	colours colourSet
	// gen is the generation a model's code gives after an "M" glued on
	// ("DSCRX100" of "DSC-RX100M3": "3"), or "".
	gen string
}

// NormalizePart folds a manufacturer part or model number so that spelling
// differences between retailers vanish: case, spaces, hyphens, dots and
// slashes are dropped, and a trailing region suffix is removed: Apple's
// "B/A", "LL/A", "ZP/A" and plain "/A", "-UK", "-GB", "/EU" forms, and a
// dual-SIM market's "/DS".
func NormalizePart(s string) string {
	s = strings.TrimSpace(s)
	if n := regionSuffix(s); n > 0 && len(s)-n >= 4 {
		s = s[:len(s)-n]
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		case 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			b.WriteRune(r)
		case r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteString(strings.ToUpper(string(r)))
		}
	}
	return b.String()
}

// regionSuffix returns the length of the region suffix that ends s, or 0:
// up to two letters and "/A" ("B/A", "LL/A", "/A"), "/XAA"-style codes, or
// "-UK", "-GB", "-EU" after "-", "/" or a space.
func regionSuffix(s string) int {
	n := len(s)
	if n >= 2 && s[n-2] == '/' && (s[n-1] == 'A' || s[n-1] == 'a') {
		k := n - 2
		for k > 0 && n-2-k < 2 && isASCIILetter(s[k-1]) {
			k--
		}
		return n - k
	}
	// Samsung's "/XAA", "/XEU": a slash, X and two letters.
	if n >= 4 && s[n-4] == '/' && (s[n-3] == 'X' || s[n-3] == 'x') && isASCIILetter(s[n-2]) && isASCIILetter(s[n-1]) {
		return 4
	}
	if n >= 3 {
		switch strings.ToUpper(s[n-2:]) {
		case "UK", "GB", "EU":
			if c := s[n-3]; c == '-' || c == '/' || c == ' ' {
				return 3
			}
		case "DS":
			if s[n-3] == '/' {
				return 3 // "SM-N986B/DS": the dual-SIM market's
			}
		}
	}
	return 0
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// Prefixes of standards, versions and component names that look like model
// codes but name no product, by how many digits follow them: "USB3",
// "DDR5", "BT5", "IP68" (versions: up to two digits); "RTX4070", "RX7800XT"
// (graphics: up to four digits and letters); "AX3000", "AC1200" (Wi-Fi
// classes: three to five digits); "H264", "N4500" (up to four digits; of
// "H" and "X", a codec's "26" and a digit: "H35", "X100" are models).
var (
	versionPrefixes = []string{
		"USB", "HDMI", "LPDDR", "GDDR", "DDR", "PCIE", "WIFI", "BT", "CAT", "PS", "DECT", "IPX", "IP", "WIN",
		"IOS", "ANDROID", "UHS", "UFS", "MP", "LTE", "RJ", "QI", "WPA", "SATA", "NVME", "PD", "GEN",
		"TYPE", "DP", "HDR", "XBOX", "WII", "SWITCH", "GALAXY", "IPHONE", "IPAD", "PIXEL", "MACBOOK",
		"IMAC", "OFFICE", "WINDOWS", "CORE", "SERIES", "MARK", "MK", "MPEG", "POE", "DVB", "DAB",
	}
	gpuPrefixes    = []string{"RTX", "GTX", "GTS", "GT", "RX", "ARC", "RADEON", "QUADRO", "HD"}
	classPrefixes  = []string{"AXE", "AX", "AC", "BE", "N", "PC", "PC2", "PC3", "PC4"}
	encodePrefixes = []string{"H", "X", "N", "HEVC", "ATX", "LGA", "FCLGA", "SKT", "SOCKET", "AM", "VESA", "IEEE", "ISO", "ANSI"}
)

// standardName reports whether a normalised token is a standard, version or
// component name rather than a model code.
func standardName(s string) bool {
	for _, p := range versionPrefixes {
		// "USB3", "IP68"; "CAT5E", "CAT6A", "WIFI6E".
		if rest, ok := strings.CutPrefix(s, p); ok && rest != "" && len(rest) <= 3 && leadingDigits(rest) >= 1 &&
			leadingDigits(rest) <= 2 && (len(rest) == leadingDigits(rest) || (p == "CAT" || p == "WIFI") && len(rest)-leadingDigits(rest) == 1) {
			return true
		}
	}
	for _, p := range gpuPrefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			d := leadingDigits(rest)
			if d >= 3 && d <= 4 && len(rest)-d <= 2 && digitCount(rest) == d {
				return true
			}
		}
	}
	for _, p := range classPrefixes {
		// Wi-Fi classes are rated speeds in steps of 50: "AC1200", "AX3000";
		// "N50-640" is a desktop.
		if rest, ok := strings.CutPrefix(s, p); ok && len(rest) >= 3 && len(rest) <= 6 && digitCount(rest) == len(rest) &&
			(strings.HasPrefix(p, "PC") || strings.HasSuffix(rest, "00") || strings.HasSuffix(rest, "50")) {
			return true
		}
	}
	for _, p := range encodePrefixes {
		if rest, ok := strings.CutPrefix(s, p); ok && rest != "" && len(rest) <= 4 && digitCount(rest) == len(rest) &&
			(p != "H" && p != "X" || len(rest) == 3 && strings.HasPrefix(rest, "26")) {
			return true
		}
	}
	return false
}

// wordLike reports whether letters read as a word ("book", "watch",
// "iphone") rather than an abbreviation ("hdrux", "sxda", "dslr"): a vowel,
// and no run of three consonants but the common "tch", "sch", "str", "ght",
// "nch", "rch" and "ndr".
func wordLike(l string) bool {
	if !strings.ContainsAny(l, "aeiouy") {
		return false
	}
	run := 0
	for i := 0; i < len(l); i++ {
		if strings.IndexByte("aeiouy", l[i]) >= 0 {
			run = 0
			continue
		}
		run++
		if run >= 3 {
			switch l[i-2 : i+1] {
			case "tch", "sch", "str", "ght", "nch", "rch", "ndr", "thr", "chr", "phr", "shr", "spr", "scr":
			default:
				return false
			}
		}
	}
	return true
}

func leadingDigits(s string) int {
	n := 0
	for n < len(s) && isDigitByte(s[n]) {
		n++
	}
	return n
}

// cpuWords come before a processor's model number ("Core i5 1235U",
// "Celeron N4500", "Ryzen 7 7840HS").
var cpuWords = map[string]bool{
	"core": true, "ryzen": true, "celeron": true, "pentium": true, "ultra": true, "i3": true, "i5": true,
	"i7": true, "i9": true, "processor": true, "intel": true, "amd": true, "snapdragon": true, "athlon": true,
	"xeon": true, "dimensity": true, "helio": true, "exynos": true, "cpu": true, "apple": true,
	"radeon": true, "geforce": true, "rtx": true, "gtx": true, "arc": true, "quadro": true, "graphics": true,
	"mediatek": true, "unisoc": true, "kirin": true, "tensor": true, "bionic": true,
}

// specUnits are the units a measure's number may carry ("16GB", "65W",
// "1400SPIN"); "X" is a count ("4X").
var specUnits = []string{"GB", "TB", "MB", "KB", "GHZ", "MHZ", "KHZ", "HZ", "W", "WATT", "WATTS", "KW", "MAH", "MP",
	"MM", "CM", "FT", "FEET", "FOOT", "IN", "INCH", "INCHES", "V", "VA", "K", "X", "PK", "PACK", "PCS", "MBPS", "GBPS",
	"DB", "LB", "LBS", "OZ", "KG", "ML", "FPS", "MS", "NM", "RPM", "UPM", "SPIN", "KWH", "DPI", "PPM", "BIT", "CH", "TH",
	"ST", "ND", "RD", "AH", "WH", "LM", "PT", "YR", "YRS", "HR", "HRS", "MIN", "GEN", "PORT", "WAY", "KM", "MPH", "CU",
	"SHEETS", "PAGES", "CT", "QT", "GAL", "AWG", "MIL", "CORE", "PLY", "L", "LT", "LTR", "LTRS", "LITRE", "LITRES",
	"LITER", "LITERS"}

// specCode matches a normalised token that is a measure, not a code:
// "16GB", "144HZ", "1080P", "2X16GB", "3840X2160", "65W", "287L", "1400SPIN",
// and video modes, a resolution and a frame rate: "4K60", "1080P120".
var specCode = regexp.MustCompile(`^(?:[0-9]{1,2}K[0-9]{2,3}(?:P|FPS)?|(?:720|1080|1440|2160)P[0-9]{2,3}|[0-9]+(?:X[0-9]+)?(?:` +
	strings.Join(specUnits, "|") + `)?|[0-9]{1,3}M|(?:480|576|720|1080|1440|2160|4320)[PI])$`)

// specUnitSet holds specUnits.
var specUnitSet = func() map[string]bool {
	m := make(map[string]bool, len(specUnits))
	for _, u := range specUnits {
		m[u] = true
	}
	return m
}()

// isSpecCode reports whether specCode matches s. Most tokens are told
// without it: a measure starts with digits, and what follows them is
// nothing, a unit, or starts with one of the letters specCode's other
// forms take there (a dimension's or count's X, a video mode's K or P, a
// length's M, a scan's P or I).
func isSpecCode(s string) bool {
	n := 0
	for n < len(s) && isDigitByte(s[n]) {
		n++
	}
	if n == 0 {
		return false
	}
	rest := s[n:]
	if rest == "" || specUnitSet[rest] {
		return true
	}
	switch rest[0] {
	case 'X', 'K', 'P', 'M', 'I':
		return specCode.MatchString(s)
	}
	return false
}

// cpuCode matches a processor's model number: "155H", "7840HS", "1235U",
// "N4500", "N100".
var cpuCode = regexp.MustCompile(`^(?:[0-9]{3,5}[A-Z]{0,2}|[A-Z][0-9]{3,4}[A-Z]?)$`)

// minRegionCode is the shortest model code whose two digits after a slash
// name a market ("55PUS6262/12"); after a shorter one they name another
// model ("HERO4/3").
const minRegionCode = 6

// codeOf returns the code a title chunk spells, if any. prev and prev2 are
// the two chunks before it.
func codeOf(t, prev, prev2 string) (code, bool) {
	if !strings.ContainsAny(t, "0123456789") || len(t) < 3 {
		return code{}, false // every code has a digit
	}
	// "srs-xb100/blue": a colour after a slash is no part of the code.
	var colours colourSet
	if i := strings.LastIndexByte(t, '/'); i > 0 && colourWords[t[i+1:]] != "" {
		colours = colourBit(colourWords[t[i+1:]])
		t = t[:i]
	} else if i > 0 && len(t)-i <= 4 && lettersOnly(t[i+1:]) {
		// "srsxb100/r", "scpmx802/blk": letters after a slash are a colour.
		colours = slashColour(t[i+1:])
	} else if j := strings.LastIndexByte(t, '-'); i < 0 && j > 0 && len(t)-j == 2 && hyphenColour(t[j+1:]) != 0 &&
		len(alnumOnly(t[:j])) >= minRegionCode {
		// "dc-tz90eb-k", "dc-tz90eb-s": a colour's letter after a hyphen
		// ends a long code.
		colours = hyphenColour(t[j+1:])
		t = t[:j]
	} else if i > 0 && len(t)-i == 3 && isNumber(t[i+1:]) && len(alnumOnly(t[:i])) >= minRegionCode {
		// "55pus6262/12": two digits after a slash name the market a
		// model is made for.
		t = t[:i]
	}
	s, named := trimColour(NormalizePart(t))
	colours |= named
	if gigabytes(s) {
		return code{}, false // "256g": a phone's storage written short
	}
	if len(s) == 3 && strings.ContainsFunc(s, unicode.IsDigit) && strings.ContainsFunc(s, unicode.IsLetter) &&
		!isSpecCode(s) && !standardName(s) && !cpuWords[prev] {
		return code{s: s, kind: codeLine}, true // "Z50", "R10", "S23": a short model name
	}
	if len(s) < 4 || len(s) > 24 {
		return code{}, false
	}
	hasLetter, hasDigit := false, false
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			hasDigit = true
		} else {
			hasLetter = true
		}
	}
	if !hasDigit || joinedWords(strings.ToLower(s)) {
		return code{}, false
	}
	if (cpuWords[prev] || cpuWords[prev2] && isNumber(prev)) && (!hasLetter || cpuCode.MatchString(s)) {
		return code{}, false // "RTX 4070", "Core Ultra 7 155H"
	}
	if !hasLetter {
		switch {
		case len(s) < 5 || strings.Contains(t, ".") && !strings.Contains(t, "-"):
			return code{}, false
		case len(s) >= 7:
			return code{s: s, kind: codeStrong}, true // a part number: "010-02641-12", "kit 0101256300"
		case versionWords[prev]:
			return code{}, false // "Windows 10", "Pack 24"
		}
		return code{s: s, kind: codeWeak}, true
	}
	if isSpecCode(s) || measureCode(s) || measureRun(s) || speedCode(s) || strings.HasPrefix(s, "80211") || standardName(s) ||
		s == "RS232" || s == "RS485" || s == "RS422" {
		return code{}, false
	}
	// "i7-13700H", "i5-1235U".
	if len(s) >= 2 && s[0] == 'I' && (s[1] == '3' || s[1] == '5' || s[1] == '7' || s[1] == '9') {
		return code{}, false
	}
	// A word with a small number glued on names a model line, not a model:
	// "Book4", "Watch6", "iPhone15", "Pixel8"; "DC-TZ99", with a separator,
	// and "SRSXB13", whose letters are no word, are codes.
	kind := codeStrong
	if l, d, ok := letterDigits(strings.ToLower(s)); ok && len(l) >= 3 && len(d) <= 2 && len(s) == len(alnumOnly(t)) &&
		!strings.ContainsAny(t, "-/.") && wordLike(l) {
		kind = codeLine
	}
	// A processor: "155H", "7840HS", "N4500" after "Core", "Ryzen 7", "Celeron".
	if (cpuWords[prev] || cpuWords[prev2]) && cpuCode.MatchString(s) {
		return code{}, false
	}
	return code{s: s, kind: kind, colours: colours}, true
}

// joinedWords reports whether a token is two words joined by one digit, a
// shop's or a product's name rather than a code: "optics4birding",
// "back2school". Each word has three letters or more and reads as a word.
func joinedWords(s string) bool {
	i := strings.IndexFunc(s, unicode.IsDigit)
	if i < 3 || i+4 > len(s) || isDigitByte(s[i+1]) {
		return false
	}
	l, r := s[:i], s[i+1:]
	return lettersOnly(l) && lettersOnly(r) && wordLike(l) && wordLike(r)
}

// fieldCodes returns the codes of an identifier field (MPN, model number):
// the whole field when it reads as one code ("WH-1000XM5", "sc-pmx802 /
// eb", "48213"), else the chunks that do ("ultra hd smart tv 55" names
// none). A leading brand name is dropped ("HP 3YM62AE").
func fieldCodes(field, brand string, out []code) []code {
	if !strings.ContainsAny(field, "0123456789") {
		if s := NormalizePart(field); letterCode(field, s) {
			return appendCode(out, code{s: s, kind: codeStrong, field: true})
		}
		return out // every other code has a digit
	}
	if !strings.ContainsAny(field, " \t") {
		// One token, the usual part number: "WH1000XM5B.CE7", "MXCR3B/A".
		s, colours := trimColour(NormalizePart(field))
		hasLetter := strings.ContainsFunc(s, unicode.IsLetter)
		if len(s) >= 4 && len(s) <= 24 && !(hasLetter && (isSpecCode(s) || measureCode(s))) {
			return appendCode(out, code{s: s, kind: codeStrong, field: true, colours: colours})
		}
		if cd, ok := codeOf(strings.ToLower(field), "", ""); ok && len(cd.s) == 3 {
			// "G29": a short model name, as a title's.
			cd.field = true
			return appendCode(out, cd)
		}
		return out
	}
	f := strings.TrimSpace(foldTitle(field))
	if f == "" {
		return out
	}
	if b := strings.ToLower(brand); b != "" {
		if rest, ok := strings.CutPrefix(f, b+" "); ok {
			f = rest
		}
	}
	cs := chunks(f)
	if len(cs) <= 3 && !slices.ContainsFunc(cs, func(c chunk) bool { return len(c.text) >= 4 && lettersOnly(c.text) }) {
		s, colours := trimColour(NormalizePart(f))
		hasDigit := strings.ContainsFunc(s, unicode.IsDigit)
		hasLetter := strings.ContainsFunc(s, unicode.IsLetter)
		if len(s) >= 4 && len(s) <= 24 && hasDigit && !(hasLetter && (isSpecCode(s) || measureCode(s))) {
			return appendCode(out, code{s: s, kind: codeStrong, field: true, colours: colours})
		}
	}
	for i, c := range cs {
		prev, prev2 := "", ""
		if i > 0 {
			prev = cs[i-1].text
		}
		if i > 1 {
			prev2 = cs[i-2].text
		}
		if cd, ok := codeOf(c.text, prev, prev2); ok {
			cd.kind, cd.field = codeStrong, true
			out = appendCode(out, cd)
		}
	}
	return out
}

// minFieldLetters is the fewest letters of a part number of letters alone.
const minFieldLetters = 4

// letterCode reports whether an identifier field without digits is a part
// number of letters alone, s normalised: one token of four or more letters
// that read as no word ("HAC-A-FSSKA", "HDH-S-GAZAA"). A word is a
// retailer's filler ("Black", "Generic", "Unbranded").
func letterCode(field, s string) bool {
	if len(s) < minFieldLetters || len(s) > 24 || strings.ContainsAny(strings.TrimSpace(field), " \t") || !lettersOnly(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return !wordLike(strings.ToLower(s))
}

// hyphenColour returns the colour a letter after a code's last hyphen names
// ("K" black, "S" silver, "W" white), or 0.
func hyphenColour(s string) colourSet {
	if s == "k" {
		return colourBit("black")
	}
	return colourLetters(strings.ToUpper(s))
}

// slashColour returns the colours that letters written after a slash at the
// end of a code name ("/B", "/BLK"), or 0.
func slashColour(s string) colourSet {
	return colourLetters(strings.ToUpper(s))
}

// trimColour drops a colour name written at the end of a code after its
// last digit and returns the colour: "JBLGO4BLACK" is "JBLGO4", black.
func trimColour(s string) (string, colourSet) {
	for _, c := range []string{"BLACK", "WHITE", "SILVER", "BLUE", "GREEN", "PINK", "PURPLE", "GRAY", "GREY", "RED",
		"ORANGE", "YELLOW", "GOLD", "NAVY"} {
		if rest, ok := strings.CutSuffix(s, c); ok && len(rest) >= 4 && isDigitByte(rest[len(rest)-1]) {
			return rest, colourLetters(c)
		}
	}
	return s, 0
}

// measureRun reports whether a normalised token is two or more measures
// written together, each a number and its unit: a washer dryer's loads
// ("6KG5KG", from "6kg/5kg"), a freezer's capacity per day ("20KG24H").
func measureRun(s string) bool {
	n := 0
	for s != "" {
		d := leadingDigits(s)
		if d == 0 {
			return false
		}
		end := d
		for end < len(s) && !isDigitByte(s[end]) {
			end++
		}
		// "H" is hours only after a measure: "24H" alone may be a model.
		unit := s[d:end]
		if end == d || !isSpecCode(s[:end]) && !unitWords[strings.ToLower(unit)] && (unit != "H" || n == 0) {
			return false
		}
		// "P" and "K" are a resolution's ("1080P", "4K"), not any
		// number's: "65P635K" is a model.
		if unit == "K" && d > 1 || unit == "P" && !isSpecCode(s[:end]) {
			return false
		}
		// Grams are never glued to another measure: "55A6G" is a
		// television's size and model ("A6G"), not 55 amps and 6 grams.
		// Nor is a sound's level ever four digits of decibels: "55V5863DB"
		// is a television's code, not 55 volts and 5863 decibels.
		if unit == "G" || strings.EqualFold(unit, "DB") && d > 3 {
			return false
		}
		s, n = s[end:], n+1
	}
	return n >= 2
}

// pieceCode returns the model code a lone letter and the chunk after it
// spell when the chunk is a short number with letters glued on that make
// no word and no unit ("r 28stm", "r 843slm": "R28STM"); read alone, such
// a chunk is a measure (see measureCode).
func pieceCode(prev, t string) (code, bool) {
	d := leadingDigits(t)
	if len(prev) != 1 || !isLetterByte(prev[0]) || d == 0 || d > 3 || len(t)-d < 2 {
		return code{}, false
	}
	l := t[d:]
	for i := 0; i < len(l); i++ {
		if !isLetterByte(l[i]) {
			return code{}, false
		}
	}
	if wordLike(l) || unitWords[l] || isSpecCode(NormalizePart(t)) {
		return code{}, false
	}
	return code{s: NormalizePart(prev + t), kind: codeStrong}, true
}

// seriesPrefixed returns the whole model code a title spells as a series'
// letters and a code that starts with a digit ("hmt 84m451", "hf 15m552":
// "HMT84M451"), so that it meets the code written whole; the letters are
// two to four that make no word.
func seriesPrefixed(prev string, c code) (string, bool) {
	if c.kind != codeStrong || c.field || c.s == "" || !isDigitByte(c.s[0]) || len(prev) < 2 || len(prev) > 4 {
		return "", false
	}
	for i := 0; i < len(prev); i++ {
		if !isLetterByte(prev[i]) {
			return "", false
		}
	}
	if wordLike(prev) || unitWords[prev] || isStopWord(prev) {
		return "", false
	}
	return NormalizePart(prev) + c.s, true
}

// kitSuffixed returns the part number a title spells as a long number and
// the suffix piece after it ("588062 b21", "654782 l21": "588062B21"), as
// another title writes it whole ("588062-B21"); the suffix tells a kit from
// its siblings, so it is read as part of the number. The number has five
// to seven digits, the piece one letter and two or three digits.
func kitSuffixed(prev, t string) (string, bool) {
	if len(prev) < 5 || len(prev) > 7 || !isNumber(prev) || strings.Contains(prev, ".") ||
		len(t) < 3 || len(t) > 4 || !isLetterByte(t[0]) || digitCount(t) != len(t)-1 {
		return "", false
	}
	return NormalizePart(prev + t), true
}

// measureCode reports whether a normalised token is a number and a word:
// "4GANG", "2METRE", "12CHANNEL", "360DEGREE". Three digits before letters
// that are no unit make a model's code ("504PLONG", "519RAA").
func measureCode(s string) bool {
	d := leadingDigits(s)
	return d > 0 && d <= 3 && len(s)-d >= 3 && digitCount(s) == d && (d <= 2 || unitWords[strings.ToLower(s[d:])])
}

// appendCode adds c to cs unless it is there already.
func appendCode(cs []code, c code) []code {
	for i, x := range cs {
		if x.s == c.s {
			if c.kind > x.kind {
				cs[i].kind = c.kind
			}
			if !c.fit {
				cs[i].fit = false
			}
			if c.field {
				cs[i].field = true
			}
			if c.mpn {
				cs[i].mpn = true
			}
			cs[i].colours |= c.colours
			return cs
		}
	}
	return append(cs, c)
}

// codeRelation says how two codes relate.
type codeRelation uint8

const (
	codesUnrelated codeRelation = iota // different shapes: a part number and a model name
	codesDiffer                        // the same shape, different codes
	codesVariant                       // the same model, different trailing letters (a colour): "SRSXB100P", "SRSXB100W"
	codesWithin                        // a short model name inside a longer code: "Z50" in "Z50BODY", "90D" in "EOS90DBODY"
	codesEqual                         // the same code, or one with a short letter suffix or a prefix
)

// relate compares two codes. Codes are equal when they are the same, when
// one is the other with up to three letters appended (six to one of seven
// or more characters; a colour or region:
// "DHTS217B" and "DHTS217", "5666C002AA" and "5666C002", "PMA600NEBK" and
// "PMA600NE"), or when one is the other with a series name in front
// ("COOLPIXP950BK" and "P950"). They are variants when they agree up to
// the last digit and then end in different letters; they differ when they
// have the same pattern of letter and digit runs ("BX750MI" and "BX950MI"),
// and are unrelated otherwise. Different trailing letters that can name one
// colour ("BK" and "BL", "SIL" and "SL") are the same code, and so are
// numbers that differ in leading zeros ("00200638" and "200638").
func relate(a, b string) codeRelation {
	if a == b {
		return codesEqual
	}
	if digitCount(a) == len(a) && digitCount(b) == len(b) && strings.TrimLeft(a, "0") == strings.TrimLeft(b, "0") {
		return codesEqual // "00200638" and "200638": a part number without its leading zeros
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if pre, ok := strings.CutSuffix(b, a); ok && len(pre) <= maxDigitPrefix && digitCount(pre) == len(pre) &&
		len(a) >= minPrefixedCode && !isDigitByte(a[0]) && digitCount(a) >= 2 {
		return codesEqual // "51MF1700AA001" and "MF1700AA001": a packaging prefix
	}
	if i := strings.Index(b, a); i >= 0 && len(a) >= 4 {
		pre, post := b[:i], b[i+len(a):]
		// Up to three letters after the code, six after a long one
		// ("SM-S921B" and "SM-S921BZKDEUB": colour and region).
		tail := len(post) <= 3 || len(post) <= 6 && len(a) >= 7 && pre == ""
		// A series name in front: three letters or more, two before a
		// long code ("MB-MC512KAEU") or before a code of letters and two
		// digits or more ("DC-TZ90", "KD-55X85L").
		front := pre == "" || digitCount(a) >= 2 && (len(pre) >= 3 || len(a) >= 8 || len(pre) == 2 && digitCount(a) < len(a))
		if tail && front && lettersOnly(pre) && lettersOnly(post) && !packSuffix(post) {
			return codesEqual
		}
	}
	if pre, ok := strings.CutSuffix(b, a); ok && len(a) == 3 && len(pre) >= minLineName && lettersOnly(pre) && !isDigitByte(a[0]) && isDigitByte(a[2]) {
		return codesEqual // "GALAXYA50" and "A50": a line's name glued before a short model name
	}
	if i := strings.Index(b, a); i >= 0 && len(a) >= 3 && digitCount(a) >= 2 && len(b) <= len(a)+8 {
		pre, post := b[:i], b[i+len(a):]
		if lettersOnly(pre) && lettersOnly(post) && (pre == "" || isDigitByte(a[0])) && (post == "" || isDigitByte(a[len(a)-1])) &&
			!packSuffix(post) {
			return codesWithin
		}
	}
	sa, sb := stem(a), stem(b)
	if sa == sb && sa != "" && len(a)-len(sa) <= 3 && len(b)-len(sb) <= 3 {
		// Colour letters for one colour: "YAS209BK" and "YAS209BL",
		// "AS301SIL" and "AS301SL".
		if colourLetters(a[len(sa):])&colourLetters(b[len(sb):]) != 0 && len(sa) >= 4 {
			return codesEqual
		}
		return codesVariant
	}
	if runPattern(a) == runPattern(b) {
		return codesDiffer
	}
	return codesUnrelated
}

// minLineName is the fewest letters of a line's name glued before a short
// model name ("GALAXY" of "GALAXYA50") for the two to be one code.
const minLineName = 4

// A long part number may carry up to two digits in front that another
// retailer leaves out ("51MF1700AA001" and "MF1700AA001").
const (
	maxDigitPrefix  = 2
	minPrefixedCode = 8
)

// packSuffix reports whether the letters after a code make it a kit or a
// multi-pack of the product: "TLPA7017KIT", "DECOX20DUO".
func packSuffix(s string) bool {
	switch s {
	case "KIT", "PK", "DUO", "TRI", "SET", "BND":
		return true
	}
	return false
}

// stem returns a code up to its last digit: "SRSXB100" for "SRSXB100P".
func stem(s string) string {
	i := strings.LastIndexFunc(s, unicode.IsDigit)
	return s[:i+1]
}

func lettersOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			return false
		}
	}
	return true
}

func digitCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) {
			n++
		}
	}
	return n
}

// runPattern returns the pattern of letter (L) and digit (D) runs of a code:
// "KD55X80L" is "LDLDL".
func runPattern(s string) string {
	var b [24]byte
	n := 0
	var last byte
	for i := 0; i < len(s) && n < len(b); i++ {
		k := byte('L')
		if isDigitByte(s[i]) {
			k = 'D'
		}
		if k != last {
			b[n] = k
			n++
			last = k
		}
	}
	return string(b[:n])
}

// joinRevisions writes, in place, a model number's revision digit that a
// title sets after a slash ("BHWD149/1", "BHWM129/2") glued to the number,
// as other titles write it ("BHWD1491"). The number is letters and three
// or more digits: "HERO4/3" lists two models.
func joinRevisions(cs []chunk) []chunk {
	for i := range cs {
		num, rev, ok := strings.Cut(cs[i].text, "/")
		if !ok || len(rev) != 1 || !isDigitByte(rev[0]) {
			continue
		}
		if l, d, ok := letterDigits(num); ok && len(l) >= 2 && len(d) >= 3 {
			cs[i].text = num + rev
		}
	}
	return cs
}

// revisionBase returns code c without the revision number revision reads
// glued to letters ("RLAAV22K" of "RLAAV22K1"), or "". A digit after
// digits ("LINDO1000") is read as a revision only against a code the pair
// gives.
func revisionBase(c string) string {
	for n := 1; n <= 2 && n < len(c); n++ {
		if base := c[:len(c)-n]; !isDigitByte(base[len(base)-1]) && revision(base, c) {
			return base
		}
	}
	return ""
}

// minLetterRevision is the shortest code ending in letters that a revision
// number is glued to ("RLAAV22K1"); a shorter one with a digit more is as
// often another model.
const minLetterRevision = 6

// revision reports whether code b is code a with a revision number glued
// on: a model number of letters and three or more digits and one digit
// more ("BHWD149" and "BHWD1491", "BHWD149/1" as joinRevisions writes it),
// or a code of six or more characters that ends in letters and one digit
// more ("RLAAV22K" and "RLAAV22K1", "RFG23UERS1"), or two where the title
// sets them apart ("RZAAV22K.1.1").
func revision(a, b string) bool {
	rev, ok := strings.CutPrefix(b, a)
	if !ok || rev == "" || digitCount(rev) != len(rev) {
		return false
	}
	if l, d, ok := letterDigits(strings.ToLower(a)); ok && len(rev) == 1 {
		return len(l) >= 2 && len(d) >= 3
	}
	return len(a) >= minLetterRevision && !isDigitByte(a[len(a)-1]) && digitCount(a) > 0 &&
		(len(rev) == 1 || len(rev) == 2 && len(a) > minLetterRevision)
}
