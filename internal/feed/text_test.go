package feed

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCP1252(t *testing.T) {
	tests := []struct {
		b    byte
		want rune
	}{
		{'A', 'A'}, {0x7F, 0x7F}, {0x80, '€'}, {0x81, utf8.RuneError}, {0x8D, utf8.RuneError},
		{0x8F, utf8.RuneError}, {0x90, utf8.RuneError}, {0x92, '’'}, {0x99, '™'}, {0x9D, utf8.RuneError},
		{0x9F, 'Ÿ'}, {0xA0, 0xA0}, {0xA3, '£'}, {0xFF, 'ÿ'},
	}
	for _, tt := range tests {
		if got := cp1252(tt.b); got != tt.want {
			t.Errorf("cp1252(%#x) = %q, want %q", tt.b, got, tt.want)
		}
	}
}

// TestCharsetReaderMatchesField checks that an XML feed's Windows-1252 body
// and a CSV field read every byte as the same character.
func TestCharsetReaderMatchesField(t *testing.T) {
	var in []byte
	for b := 0x21; b < 0x100; b++ {
		in = append(in, byte(b))
	}
	r, err := charsetReader("Windows-1252", strings.NewReader(string(in)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, b := range in {
		want.WriteRune(cp1252(b))
	}
	if string(got) != want.String() {
		t.Errorf("reader = %q\nwant     %q", got, want.String())
	}
	if _, err := charsetReader("shift_jis", strings.NewReader("")); err == nil {
		t.Error("charsetReader accepted shift_jis")
	}
}
