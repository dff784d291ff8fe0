package lexer

import "testing"

var benchTitles = []string{
	"ASUS ROG Strix G16 Gaming Laptop, 16\" QHD+ 240Hz, Intel Core i9-14900HX, RTX 4070 8GB, 32GB DDR5, 1TB SSD",
	"Samsung 55\" QE55Q60D QLED 4K HDR Smart TV (2024)",
	"Anker PowerCore 20,000mAh Power Bank, 65W USB-C PD – Black",
	"TP-Link Archer AX55 AX3000 Dual-Band Wi‑Fi 6 Router",
}

func BenchmarkFoldLex(b *testing.B) {
	var fb [256]byte
	var tb [96]Token
	for b.Loop() {
		for _, s := range benchTitles {
			text := FoldText(s, fb[:0], FoldCurrency|FoldTimes)
			_ = Lex(string(text), tb[:0])
		}
	}
}

func BenchmarkReadQuantity(b *testing.B) {
	var fb [256]byte
	text := string(FoldText(benchTitles[0], fb[:0], FoldCurrency|FoldTimes))
	toks := Lex(text, nil)
	for b.Loop() {
		for i := range toks {
			ReadQuantity(text, toks, i)
		}
	}
}

func BenchmarkSplitNumberUnit(b *testing.B) {
	words := []string{"16gb", "15.6in", "rtx4070", "65w", "qled"}
	for b.Loop() {
		for _, w := range words {
			SplitNumberUnit(w)
		}
	}
}
