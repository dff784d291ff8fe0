package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/feed"
)

func TestLargestFirst(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, size int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rs := []Retailer{
		{Name: "small", Source: feed.Source{Location: file("small.csv", 10)}},
		{Name: "large", Source: feed.Source{Location: file("large.csv", 300)}},
		{Name: "fetched", Source: feed.Source{Location: "https://feeds.example.com/products.xml"}},
		{Name: "middle", Source: feed.Source{Location: file("middle.csv", 100)}},
		{Name: "also small", Source: feed.Source{Location: file("small2.csv", 10)}},
	}
	var got []string
	for _, i := range largestFirst(rs) {
		got = append(got, rs[i].Name)
	}
	// Fetched feeds first, then files by size, ties in the order given.
	want := []string{"fetched", "large", "middle", "small", "also small"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reading order (-want +got):\n%s", diff)
	}
}
