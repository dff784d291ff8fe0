package eval

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"productsearch/internal/match"
)

func TestZZDebugLosses(t *testing.T) {
	want := os.Getenv("LOSSCLASS")
	if want == "" {
		t.Skip()
	}
	f, _ := os.Open("../../../shared/datasets/clustering/pricerunner-dev.csv")
	offers, _ := ReadClusters(f)
	r := Clusters(offers, match.Options{IgnoreColour: true})
	m := match.NewMatcher(r.items, r.opt)
	var lines []string
	for _, os := range r.Split {
		for x, a := range os {
			for _, b := range os[x+1:] {
				if a.Group != b.Group && lossOf(r, m, a, b) == want {
					d := m.Explain(r.items[a.index], r.items[b.index])
					var tr []string
					for _, s := range d.Trace {
						tr = append(tr, s.String())
					}
					lines = append(lines, fmt.Sprintf("%s\n  A %s\n  B %s\n  %s", a.Category, describe(r.items[a.index]), describe(r.items[b.index]), strings.Join(tr, "\n  ")))
				}
			}
		}
	}
	rand.New(rand.NewSource(1)).Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	for _, l := range lines[:min(400, len(lines))] {
		fmt.Println(l)
	}
}
