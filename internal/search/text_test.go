package search

import (
	"slices"
	"testing"
)

// TestLexPartsAreTheirOwn checks that the words lex returns share no
// writable memory: their parts share one backing array, and appending to
// one word's parts must not change the next word's.
func TestLexPartsAreTheirOwn(t *testing.T) {
	for _, text := range []string{
		"Sony WH-1000XM5 Wireless Headphones",
		"20,000mAh Power Bank 65W USB-C",
		"Men's 1.2.3 firmware 1.99,142 S 24 Ultra",
		`Samsung 55" 4K QLED TV, Galaxy S24+`,
	} {
		words := lex(text)
		want := make([][]string, len(words))
		for i, w := range words {
			want[i] = slices.Clone(w.parts)
		}
		for i := range words {
			_ = append(words[i].parts, "overwritten")
		}
		for i, w := range words {
			if !slices.Equal(w.parts, want[i]) {
				t.Errorf("lex(%q): word %d parts %q changed to %q by appending to another word", text, i, want[i], w.parts)
			}
		}
	}
}

// TestLexParts pins the parts read from spellings where a part is not a
// plain run of the text (a dropped thousands comma or apostrophe).
func TestLexParts(t *testing.T) {
	for _, tc := range []struct {
		text string
		want [][]string
	}{
		{"20,000mAh", [][]string{{"20000mah"}}},
		{"1,000GB SSD", [][]string{{"1000gb"}, {"ssd"}}},
		{"Men's", [][]string{{"mens"}}},
		{"1.99,142", [][]string{{"1.99"}, {"142"}}},
		{"1.2.3", [][]string{{"1.2.3"}}},
		{"WH-1000XM5", [][]string{{"wh", "1000xm5"}}},
		{"USB-C, 65W", [][]string{{"usb", "c"}, {"65w"}}},
	} {
		var got [][]string
		for _, w := range lex(tc.text) {
			got = append(got, w.parts)
		}
		if !slices.EqualFunc(got, tc.want, slices.Equal[[]string]) {
			t.Errorf("lex(%q) parts = %q, want %q", tc.text, got, tc.want)
		}
	}
}
