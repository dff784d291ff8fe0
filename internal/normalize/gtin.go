package normalize

import "strings"

// GTIN validates a barcode (EAN-8, UPC-A, EAN-13 or GTIN-14) and returns it
// as 14 digits, zero-padded. Spaces and hyphens are ignored. It reports
// false for other lengths, a wrong check digit, all zeros, numbers that
// name no trade item (GS1 prefixes 02, 04 and 20-29 for restricted
// circulation, which shops assign internally and which would merge
// unrelated products; 05 and 99 for coupons) and spreadsheet damage such
// as "5.0123E+12", which cannot be recovered.
func GTIN(s string) (string, bool) {
	digits := strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '-' || r == '\u00a0':
			return -1
		case r >= '0' && r <= '9':
			return r
		}
		return 'x'
	}, s)
	switch len(digits) {
	case 8, 12, 13, 14:
	default:
		return "", false
	}
	if strings.ContainsRune(digits, 'x') || strings.Trim(digits, "0") == "" {
		return "", false
	}
	g := strings.Repeat("0", 14-len(digits)) + digits
	sum := 0
	for i := range 13 {
		d := int(g[i] - '0')
		if i%2 == 0 {
			d *= 3
		}
		sum += d
	}
	if (10-sum%10)%10 != int(g[13]-'0') {
		return "", false
	}
	if g[0] == '0' && len(digits) > 8 && restrictedPrefix(g[1:3]) {
		return "", false
	}
	return g, true
}

// restrictedPrefix reports whether the first two digits of a GTIN-13 mark a
// restricted circulation number or a coupon.
func restrictedPrefix(p string) bool {
	return p[0] == '2' || p == "02" || p == "04" || p == "05" || p == "99"
}
