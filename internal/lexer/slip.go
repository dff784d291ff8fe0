package lexer

// OneSlip reports whether two words differ by one slip of the keyboard: a
// letter changed, added or dropped, or two neighbours swapped ("logitch"
// and "logitech", "pansaonic" and "panasonic"). Equal words are no slip.
func OneSlip(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if a == b || len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		if a[i+1:] == b[i+1:] {
			return true // one letter changed
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // two swapped
	}
	return a[i:] == b[i+1:] // one letter added
}
