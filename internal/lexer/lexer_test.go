package lexer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// lexString folds and lexes s and writes each token compactly: words and
// numbers as their text, symbols quoted, a leading '_' for a gap.
func lexString(s string, mode Fold) string {
	text := string(FoldText(s, nil, mode))
	var b strings.Builder
	for i, t := range Lex(text, nil) {
		if i > 0 {
			b.WriteByte(' ')
		}
		if t.Gap {
			b.WriteByte('_')
		}
		switch t.Kind {
		case Symbol:
			b.WriteString("'" + string([]byte{t.Sym}) + "'")
		default:
			b.WriteString(text[t.Start:t.End])
		}
	}
	return b.String()
}

func TestLex(t *testing.T) {
	tests := []struct {
		in   string
		mode Fold
		want string
	}{
		{"ASUS ROG 16GB", 0, "_asus _rog _16 gb"},
		{"8GBRAM 128GBROM 1TBSSD", 0, "_8 gb _ram _128 gb _rom _1 tb _ssd"},
		{"16GB RAM GBRAM 16 GBRAM", 0, "_16 gb _ram _gbram _16 _gbram"},
		{"16gbrams 16mbram", 0, "_16 gbrams _16 mbram"},
		{"RTX4070 15.6\" 20,000mAh", 0, "_rtx 4070 _15.6 '\"' _20,000 mah"},
		{"2×16GB", FoldTimes, "_2 x 16 gb"},
		{"2×16GB", 0, "_2 _16 gb"},
		{"£199 – €5", FoldCurrency, "_'$' 199 _'-' _'$' 5"},
		{"£199", 0, "_199"},
		{"Pokémon 55″", 0, "_pok _mon _55 '\"'"},
		{"Pokémon", FoldLetters, "_pok '\xc3' '\xa9' mon"},
		{"Men’s 1,0000", 0, "_men ''' s _1 ',' 0000"},
		{"1.2.3", 0, "_1.2 '.' 3"},
		{"Pokémon ÉCRAN", FoldLetters | FoldAccents, "_pokemon _ecran"},
		{"a\x01–™b", FoldKeep, "_a '\x01' '-' '\xe2' '\x84' '\xa2' b"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, lexString(tt.in, tt.mode)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestQuantitySpellings shows that the spellings of one amount read alike.
func TestQuantitySpellings(t *testing.T) {
	tests := []struct {
		want      Quantity // normalised (Norm)
		spellings []string
	}{
		{Quantity{Value: 1000, Unit: GB}, []string{"1TB", "1 TB", "1tb", "1-TB", "1,000GB", "1000 gb", "1000GB"}},
		{Quantity{Value: 16, Unit: GB}, []string{"16GB", "16 GB", "16gb", "16-GB", "16 Gb"}},
		{Quantity{Value: 15.6, Unit: Inch, Dec: true}, []string{`15.6"`, "15.6″", "15.6”", "15.6''", "15.6in", "15.6 inch",
			"15.6-inch", "15.6 Inches", "15.6-in"}},
		{Quantity{Value: 144, Unit: Hz}, []string{"144Hz", "144 hz", "144-Hz", "0.144kHz"}},
		{Quantity{Value: 65, Unit: W}, []string{"65W", "65 W", "65 watts", "65-Watt", "65watt"}},
		{Quantity{Value: 20000, Unit: MAh}, []string{"20,000mAh", "20000 mAh", "20000MAH"}},
	}
	for _, tt := range tests {
		for _, s := range tt.spellings {
			t.Run(s, func(t *testing.T) {
				text := string(FoldText(s, nil, FoldCurrency|FoldTimes))
				toks := Lex(text, nil)
				q, next, ok := ReadQuantity(text, toks, 0)
				if !ok || next != len(toks) {
					t.Fatalf("ReadQuantity(%q) = %v, %d, %v; want the whole text as a quantity", s, q, next, ok)
				}
				got := q.Norm()
				if tt.want.Unit == Hz && got.Value != tt.want.Value { // 0.144kHz is 144.00000000000003
					got.Value = float64(int(got.Value + 0.5))
				}
				got.Dec = tt.want.Dec
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("mismatch (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestNoQuantity(t *testing.T) {
	for _, s := range []string{"2-in-1", "5in1", "15.6-in 2", "16", "16 GBx", "RTX", "15 in", "16 - GB", `16 "`} {
		t.Run(s, func(t *testing.T) {
			text := string(FoldText(s, nil, 0))
			toks := Lex(text, nil)
			if q, _, ok := ReadQuantity(text, toks, 0); ok {
				t.Errorf("ReadQuantity(%q) = %+v, want none", s, q)
			}
		})
	}
}

func TestSplitNumberUnit(t *testing.T) {
	tests := []struct {
		in   string
		num  string
		unit Unit
		ok   bool
	}{
		{"16gb", "16", GB, true},
		{"15.6in", "15.6", Inch, true},
		{"65watts", "65", W, true},
		{"5000mah", "5000", MAh, true},
		{"4k", "", NoUnit, false},
		{"1.2.3gb", "", NoUnit, false},
		{"gb", "", NoUnit, false},
		{"16", "", NoUnit, false},
	}
	for _, tt := range tests {
		num, u, ok := SplitNumberUnit(tt.in)
		if num != tt.num || u != tt.unit || ok != tt.ok {
			t.Errorf("SplitNumberUnit(%q) = %q, %v, %v; want %q, %v, %v", tt.in, num, u, ok, tt.num, tt.unit, tt.ok)
		}
	}
}

func TestUnitSpelling(t *testing.T) {
	for u := GB; u <= Inch; u++ {
		name := u.String()
		if name == "in" {
			name = "inch"
		}
		if UnitOf(name) != u {
			t.Errorf("UnitOf(%q) = %v, want %v", name, UnitOf(name), u)
		}
	}
}

// checkTokens checks the invariants of a lexed text: tokens are in order,
// do not overlap, cover every byte but spaces, and say what their text is.
func checkTokens(t *testing.T, text string, toks []Token) {
	t.Helper()
	pos := 0
	for k, tok := range toks {
		start, end := int(tok.Start), int(tok.End)
		if start < pos || end <= start || end > len(text) {
			t.Fatalf("token %d spans %d..%d after %d in %q", k, start, end, pos, text)
		}
		if strings.Trim(text[pos:start], " ") != "" {
			t.Fatalf("token %d: bytes %q before it are not spaces", k, text[pos:start])
		}
		if tok.Gap != (start > pos || k == 0) {
			t.Fatalf("token %d: gap %v, text %q", k, tok.Gap, text)
		}
		s := text[start:end]
		switch tok.Kind {
		case Word:
			if strings.Trim(s, "abcdefghijklmnopqrstuvwxyz") != "" {
				t.Fatalf("word %q", s)
			}
		case Number:
			if !IsDigit(s[0]) || !IsDigit(s[len(s)-1]) || tok.Dec != strings.Contains(s, ".") || tok.Num < 0 {
				t.Fatalf("number %q read as %v (dec %v)", s, tok.Num, tok.Dec)
			}
		case Symbol:
			if len(s) != 1 || s[0] != tok.Sym || IsDigit(s[0]) || IsLetter(s[0]) || s[0] == ' ' {
				t.Fatalf("symbol %q", s)
			}
		default:
			t.Fatalf("token %d has kind %v", k, tok.Kind)
		}
		pos = end
	}
	if strings.Trim(text[pos:], " ") != "" {
		t.Fatalf("text %q after the last token", text[pos:])
	}
}

func FuzzLex(f *testing.F) {
	for _, s := range []string{"ASUS ROG Strix G16 16GB RAM 1TB SSD RTX 4070 15.6\" 165Hz", "2×16GB DDR5", "1,000GB",
		"£19.99 – Wi‑Fi 6E", "Pokémon 55″ 4K", "99999999999999999999999999999.5", "1,0001", "15.6-in 2-in-1", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, mode := range []Fold{0, FoldCurrency | FoldTimes, FoldLetters | FoldTimes, FoldLetters | FoldAccents, FoldKeep} {
			folded := FoldText(s, nil, mode)
			if mode&(FoldLetters|FoldKeep) == 0 {
				for _, c := range folded {
					if c >= utf8.RuneSelf || c < ' ' || 'A' <= c && c <= 'Z' {
						t.Fatalf("FoldText(%q, %d) holds %q", s, mode, c)
					}
				}
			}
			// Folding is idempotent on ASCII output.
			if mode&(FoldLetters|FoldKeep) == 0 && string(FoldText(string(folded), nil, mode)) != string(folded) {
				t.Fatalf("FoldText not idempotent on %q", s)
			}
			text := string(folded)
			toks := Lex(text, nil)
			checkTokens(t, text, toks)
			for i := range toks {
				if _, next, ok := ReadQuantity(text, toks, i); ok && (next <= i || next > len(toks)) {
					t.Fatalf("ReadQuantity at %d of %q returned next %d", i, text, next)
				}
			}
		}
		if num, u, ok := SplitNumberUnit(s); ok && (!IsNumber(num) || u == NoUnit) {
			t.Fatalf("SplitNumberUnit(%q) = %q, %v", s, num, u)
		}
	})
}

// TestNoAllocations checks that reading a title into buffers with room
// allocates nothing.
func TestNoAllocations(t *testing.T) {
	title := "ASUS ROG Strix 16\" QHD+ 240Hz, RTX 4070 8GB, 32GB DDR5, 1TB SSD – 20,000mAh ×2 £1,999"
	var fb [256]byte
	var tb, sb [96]Token
	text := string(FoldText(title, fb[:0], FoldCurrency|FoldTimes))
	units := 0
	allocs := testing.AllocsPerRun(100, func() {
		FoldText(title, fb[:0], FoldCurrency|FoldTimes)
		toks := Lex(text, tb[:0])
		for i := range toks {
			if _, _, ok := ReadQuantity(text, toks, i); ok {
				units++
			}
		}
		SplitNumbers(text, toks, sb[:0])
		if _, _, ok := SplitNumberUnit("15.6in"); ok {
			units++
		}
	})
	if units == 0 {
		t.Error("no quantity read")
	}
	if allocs != 0 {
		t.Errorf("%v allocations per title, want 0", allocs)
	}
}
