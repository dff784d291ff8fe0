package eval

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"productsearch/internal/match"
)

// CA, CB clusters; ALL=1 prints every pair; EX=reason prints pairs decided with that reason.
func TestZZCross(t *testing.T) {
	f, _ := os.Open(os.Getenv("FILE"))
	offers, _ := ReadClusters(f)
	opt := match.Options{IgnoreColour: true}
	r := Clusters(offers, opt)
	m := match.NewMatcher(r.items, opt)
	ca, cb := os.Getenv("CA"), os.Getenv("CB")
	for i, a := range offers {
		if a.Cluster != ca {
			continue
		}
		for j, b := range offers {
			if b.Cluster != cb || j <= i && ca == cb {
				continue
			}
			d := m.Compare(r.items[i], r.items[j])
			if d.Same && os.Getenv("EX") == "" || os.Getenv("ALL") != "" || os.Getenv("EX") != "" && d.Reason == os.Getenv("EX") {
				fmt.Printf("%v %s %.2f | %s | %s\n", d.Same, d.Reason, d.Score, strings.TrimSpace(a.Title), b.Title)
				if os.Getenv("TR") != "" {
					for _, st := range m.Explain(r.items[i], r.items[j]).Trace {
						fmt.Printf("    %+v\n", st)
					}
				}
			}
		}
	}
}
