package match

// tvs is the catalog's category of televisions, whose model codes give
// their screen size.
const tvs = "TVs"

// Screen sizes, in inches, that a television's model code gives.
const (
	minScreenCode = 19
	maxScreenCode = 99
)

// readScreenCode reads the screen size a television's own model code
// gives: its letters, the size in two digits, then a letter ("OLED55C46LA",
// "QE65Q80C", "KD55X85L", "55A6KTUK", "TX50MX800B"). A title that names the
// model and another that states the size ("OLED B3 65 inch") then agree on
// it or not, as two stated sizes do.
func (p *profile) readScreenCode() {
	for _, c := range p.codes {
		if c.kind != codeStrong || c.fit {
			continue
		}
		if size := screenOfCode(c.s); size != "" {
			p.addSlot("#in", size, false)
		}
	}
}

// screenOfCode returns the screen size a television's model code gives, or
// "": up to four letters, two digits of a size between minScreenCode and
// maxScreenCode, then a letter.
func screenOfCode(s string) string {
	i := 0
	for i < len(s) && i < 5 && isASCIILetter(s[i]) {
		i++
	}
	if i > 4 || i+3 > len(s) || !isDigitByte(s[i]) || !isDigitByte(s[i+1]) || !isASCIILetter(s[i+2]) {
		return ""
	}
	size := int(s[i]-'0')*10 + int(s[i+1]-'0')
	if size < minScreenCode || size > maxScreenCode {
		return ""
	}
	return s[i : i+2]
}
