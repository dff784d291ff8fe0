package lexer

import "testing"

func TestOneSlip(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"logitch", "logitech", true},      // a letter dropped
		{"pansaonic", "panasonic", true},   // neighbours swapped
		{"phillips", "philips", true},      // a letter added
		{"sennheiser", "sennhaiser", true}, // a letter changed
		{"xsony", "sony", true},            // a letter added in front
		{"sony", "sony", false},            // the same word
		{"samsung", "samsong1", false},     // two slips
		{"panasonic", "pioneer", false},    // another word
		{"", "a", true},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := OneSlip(tt.a, tt.b); got != tt.want {
			t.Errorf("OneSlip(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := OneSlip(tt.b, tt.a); got != tt.want {
			t.Errorf("OneSlip(%q, %q) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

// FuzzOneSlip checks OneSlip against the edit distance it stands for: any
// two words, symmetric, never a slip between equal words or words more
// than one letter apart in length, and one letter changed is always one.
func FuzzOneSlip(f *testing.F) {
	f.Add("logitch", "logitech")
	f.Add("pansaonic", "panasonic")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		got := OneSlip(a, b)
		if got != OneSlip(b, a) {
			t.Fatalf("OneSlip(%q, %q) is not symmetric", a, b)
		}
		if got && (a == b || len(a)-len(b) > 1 || len(b)-len(a) > 1) {
			t.Fatalf("OneSlip(%q, %q) = true", a, b)
		}
		if len(a) > 0 {
			c := []byte(a)
			c[len(c)/2] ^= 1
			if !OneSlip(a, string(c)) {
				t.Fatalf("OneSlip(%q, %q): one letter changed is no slip", a, c)
			}
		}
	})
}
