package match

import "strings"

// romanNumerals writes the Roman numerals II to VIII among words as digits
// ("Diablo IV", "Mark III", "Xperia 1 VI"), in place. I, V and X are
// letters as often.
func romanNumerals(ws []string) []string {
	for i, w := range ws {
		if d := romanDigit(w); d != "" {
			ws[i] = d
		}
	}
	return ws
}

// romanDigit returns the digit a word romanNumerals reads as a Roman
// numeral stands for, or "".
func romanDigit(w string) string {
	switch w {
	case "ii":
		return "2"
	case "iii":
		return "3"
	case "iv":
		return "4"
	case "vi":
		return "6"
	case "vii":
		return "7"
	case "viii":
		return "8"
	}
	return ""
}

// romanGeneration returns the generation a roman numeral at chunk i gives
// right after a number, a model's code or a lens's aperture ("2" of "Z6
// II", "6" of "Xperia 10 VI", "3" of "f/1.8 III"), or "".
func (p *profile) romanGeneration(cs []chunk, i int) string {
	if i == 0 || !strings.ContainsAny(cs[i-1].text, "0123456789") {
		return ""
	}
	return p.generationValue(cs[i].text)
}

// generationValue returns the generation a word after a model's number
// writes: a roman numeral ("iii") or a Mark written short ("m3", "mk3",
// "mkiii"), or "".
func (p *profile) generationValue(w string) string {
	if g := p.romanValue(w); g != "" {
		return g
	}
	for _, mark := range [...]string{"mk", "m"} {
		if n, ok := strings.CutPrefix(w, mark); ok && n != "" {
			if len(n) == 1 && n[0] >= '2' && n[0] <= '9' {
				return n
			}
			return p.romanValue(n)
		}
	}
	return ""
}

// romanValue returns the number a lower-case roman numeral II to VIII
// writes ("3" of "iii"), "V" only in a phone's or a camera's title (see
// romanFive), or "".
func (p *profile) romanValue(w string) string {
	if w == "v" && p.romanFive() {
		return "5"
	}
	return romanDigit(w)
}

// romanFive reports whether a "V" after a number is a generation in roman
// numerals ("Xperia 5 V"), as in a phone's or a camera's title, not volts,
// which a charger or a battery states.
func (p *profile) romanFive() bool {
	return !p.acc && (p.category == phones || p.category == cameras)
}

// romanPlaces returns, as bits, the places among ws of the words
// romanNumerals reads as Roman numerals; past the 64th none is marked.
func romanPlaces(ws []string) uint64 {
	var places uint64
	for k, w := range ws {
		if romanDigit(w) != "" {
			places |= 1 << k // a shift past 63 gives 0
		}
	}
	return places
}
