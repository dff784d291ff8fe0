package search

import "testing"

func BenchmarkAnalyze(b *testing.B) {
	queries := []string{"asus rog 16gb ram 1tb ssd rtx 4070 gaming laptop", `samsung 55" 4k qled tv`,
		"wi-fi 6e router", "sony wh-1000xm5 headphones", "20,000mAh power bank 65W"}
	for b.Loop() {
		for _, q := range queries {
			Analyze(q, "")
		}
	}
}

func BenchmarkTitleTerms(b *testing.B) {
	title := "ASUS ROG Strix G16 Gaming Laptop, 16\" QHD+ 240Hz, Intel Core i9-14900HX, RTX 4070 8GB, 32GB DDR5, 1TB SSD"
	for b.Loop() {
		TitleTerms(title)
	}
}
