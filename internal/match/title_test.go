package match

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJoinedParts covers the words shops join with hyphens or slashes that
// read on their own, and the codes that stay whole.
func TestJoinedParts(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"pro/256g/silver/4gb", []string{"pro", "256g", "silver", "4gb"}},
		{"pro-tropical", []string{"pro", "tropical"}},
		{"green-64g-m2003j6b2g", []string{"green", "64g", "m2003j6b2g"}},
		{"srs-xb100/blue", []string{"srs-xb100", "blue"}}, // a colour after a code
		{"mb13-red-see-v2", nil},                          // a colour between a code's pieces
		{"dtse9g2/64gb", nil},                             // a part number's storage
		{"wh-1000xm5", nil},                               // a code
		{"x-t3", nil},                                     // a line's letter and model
		{"sm-a105f/ds", nil},                              // a part number and its market
		{"128gb-black", []string{"128gb", "black"}},       // a storage and a colour
		{"s20-plus", []string{"s20", "plus"}},             // a variant's word
		{"fe-28-70mm", nil},                               // a mount's letters: no word of their own
		{"plus", nil},                                     // no hyphen or slash
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, joinedParts(tt.in)); diff != "" {
			t.Errorf("joinedParts(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// FuzzJoinedParts checks that the parts of a chunk are its pieces, in
// order, with nothing lost but the hyphens and slashes between them.
func FuzzJoinedParts(f *testing.F) {
	for _, s := range []string{"pro/256g/silver/4gb", "green-64g-m2003j6b2g", "srs-xb100/blue", "--/pro//", "a-b-c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts := joinedParts(s)
		if parts == nil {
			return
		}
		strip := func(s string) string { return strings.NewReplacer("-", "", "/", "").Replace(s) }
		if got, want := strip(strings.Join(parts, "")), strip(s); got != want {
			t.Errorf("joinedParts(%q) = %q: pieces %q, want %q", s, parts, got, want)
		}
		for _, p := range parts {
			if p == "" {
				t.Errorf("joinedParts(%q) = %q: an empty part", s, parts)
			}
		}
	})
}

// TestUnglueBrand covers a brand a shop glues to the model after it.
func TestUnglueBrand(t *testing.T) {
	tests := []struct {
		title, brand string
		want         []string
	}{
		{"samsungue50tu8500u 4k", "samsung", []string{"samsung", "ue50tu8500u", "4k"}},
		{"Brand New LGOLED55BX6LB 55\"", "lg", []string{"brand", "new", "lg", "oled55bx6lb", "55"}},
		{"SAMSUNGGalaxyS9+ 128gb", "samsung", []string{"samsung", "galaxys9", "128gb"}},
		{"samsungs tv", "samsung", []string{"samsungs", "tv"}},          // no digit: a word
		{"lgbt flag 2", "lg", []string{"lgbt", "flag", "2"}},            // no digit glued on
		{"acme x100 body", "", []string{"acme", "x100", "body"}},        // no brand
		{"samsung55nu8000", "samsung", []string{"samsung", "55nu8000"}}, // a code that starts with the size
		{"samsung2 cable", "samsung", []string{"samsung2", "cable"}},    // a number alone is no code
		{"samsung2020 model", "samsung", []string{"samsung2020", "model"}},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range unglueBrand(chunks(foldTitle(tt.title)), tt.brand) {
			got = append(got, c.text)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("unglueBrand(%q, %q) mismatch (-want +got):\n%s", tt.title, tt.brand, diff)
		}
	}
}

// TestUndoubled covers the repeat a shop's feed writes after a slash.
func TestUndoubled(t *testing.T) {
	tests := []struct{ in, want string }{
		{"acme zwh 2622 mb/zwh 2622 mb", "acme zwh 2622 mb"},
		{"acme zr 28stm/zr 28stm", "acme zr 28stm"},
		{"acme zat28371gb/zat28371gb", "acme zat28371gb"},
		{"acme zwh 2622 mb / zwh 2622 mb", "acme zwh 2622 mb"},
		{"acme zwh 2622 mb/zwh 2621 mb", "acme zwh 2622 mb/zwh 2621 mb"}, // two codes
		{"acme ztq 60 fb/b 60 fb", "acme ztq 60 fb/b 60 fb"},             // not on a word's start
		{"acme zt 6/5 kg 1200/1200", "acme zt 6/5 kg 1200/1200"},         // two slashes
		{"acme zt 6kg/", "acme zt 6kg/"},                                 // nothing after
		{"acme zt 6kg", "acme zt 6kg"},                                   // no slash
	}
	for _, tt := range tests {
		if got := undoubled(tt.in); got != tt.want {
			t.Errorf("undoubled(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzUndoubled checks that undoubled only cuts a title's tail, and only
// where a slash starts it.
func FuzzUndoubled(f *testing.F) {
	for _, s := range []string{"a b/a b", "x/x", "a / b", "/", "a b/ a b ", "6/5 kg/kg"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := undoubled(s)
		if got == s {
			return
		}
		if !strings.HasPrefix(s, got) {
			t.Fatalf("undoubled(%q) = %q: not a prefix", s, got)
		}
		if tail := strings.TrimLeft(s[len(got):], " "); !strings.HasPrefix(tail, "/") {
			t.Errorf("undoubled(%q) = %q: the cut tail %q starts with no slash", s, got, tail)
		}
	})
}
