package match

import "testing"

// BenchmarkDecide measures the pair decision on listings without barcodes,
// each against the twelve after it, as title evidence compares candidates.
func BenchmarkDecide(b *testing.B) {
	items := benchItems(5000)
	for i := range items {
		items[i].GTIN = ""
	}
	m := NewMatcher(items, Options{})
	profiles := make([]profile, len(items))
	for i := range items {
		profiles[i] = profileOf(items[i], m.opt)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range profiles {
			for j := i + 1; j < len(profiles) && j <= i+maxCandidates; j++ {
				m.decide(&profiles[i], &profiles[j], nil)
			}
		}
	}
}

// BenchmarkProfile measures reading a listing.
func BenchmarkProfile(b *testing.B) {
	items := benchItems(5000)
	b.ReportAllocs()
	for b.Loop() {
		for i := range items {
			profileOf(items[i], Options{descriptions: true})
		}
	}
}
