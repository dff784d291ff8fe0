package eval

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"productsearch/internal/match"
)

// FILE=csv IDS="id1,id2;id3,id4" explains pairs; CA=cluster CB=cluster explains all cross pairs
// (first 3 unless ALL=1); TR=1 prints traces.
func TestZZCross(t *testing.T) {
	f, err := os.Open(os.Getenv("FILE"))
	if err != nil {
		t.Skip("no FILE")
	}
	offers, err := ReadClusters(f)
	if err != nil {
		t.Fatal(err)
	}
	opt := match.Options{IgnoreColour: true}
	res := Clusters(offers, opt)
	for i := range offers {
		offers[i].index = i
	}
	corpus := res.items
	m := match.NewMatcher(corpus, opt)
	byID := map[string]int{}
	for i, o := range offers {
		byID[o.ID] = i
	}
	show := func(a, b int) {
		d := m.Explain(res.items[a], res.items[b])
		fmt.Printf("%v %s %.2f | %s | %s\n", d.Same, d.Reason, d.Score, offers[a].Title, offers[b].Title)
		if os.Getenv("TR") != "" {
			for _, s := range d.Trace {
				fmt.Printf("    %s\n", s)
			}
		}
	}
	if ids := os.Getenv("IDS"); ids != "" {
		for _, p := range strings.Split(ids, ";") {
			x := strings.Split(p, ",")
			show(byID[x[0]], byID[x[1]])
		}
	}
	if ca, cb := os.Getenv("CA"), os.Getenv("CB"); ca != "" {
		if cb == "" {
			cb = ca
		}
		n := 0
		for i, a := range offers {
			for j, b := range offers {
				if a.Cluster == ca && b.Cluster == cb && (ca != cb || i < j) {
					if n < 3 || os.Getenv("ALL") != "" {
						show(i, j)
					}
					n++
				}
			}
		}
	}
}

// FILE=csv: for every wrong merge, the cross-cluster pairs the pair decision joins.
func TestZZMerges(t *testing.T) {
	f, err := os.Open(os.Getenv("FILE"))
	if err != nil {
		t.Skip("no FILE")
	}
	offers, err := ReadClusters(f)
	if err != nil {
		t.Fatal(err)
	}
	opt := match.Options{IgnoreColour: true}
	res := Clusters(offers, opt)
	m := match.NewMatcher(res.items, opt)
	for gi, g := range res.Merged {
		fmt.Printf("== merge %d (%d wrong pairs)\n", gi, res.MergedPairs[gi])
		n := 0
		for x, a := range g {
			for _, b := range g[x+1:] {
				if a.Cluster == b.Cluster {
					continue
				}
				d := m.Compare(res.items[a.index], res.items[b.index])
				if d.Same && n < 4 {
					n++
					fmt.Printf("  %s %.2f | %s [%s] | %s [%s]\n", d.Reason, d.Score, a.Title, a.ID, b.Title, b.ID)
				}
			}
		}
		if n == 0 {
			fmt.Println("  (no pair joins: grouping chain)")
			for _, a := range g {
				fmt.Printf("    %s %s %s\n", a.Cluster, a.ID, a.Title)
			}
		}
	}
}

// FILE=csv OUT=path: writes "offer_id cluster group title" of every offer.
func TestZZDump(t *testing.T) {
	f, err := os.Open(os.Getenv("FILE"))
	if err != nil {
		t.Skip("no FILE")
	}
	offers, err := ReadClusters(f)
	if err != nil {
		t.Fatal(err)
	}
	var items []match.Item
	res := Clusters(offers, match.Options{IgnoreColour: true})
	items = res.items
	groups := match.GroupWith(items, match.Options{IgnoreColour: true})
	out, _ := os.Create(os.Getenv("OUT"))
	defer out.Close()
	for g, ms := range groups {
		for _, i := range ms {
			fmt.Fprintf(out, "%s\t%s\t%d\t%s\n", offers[i].ID, offers[i].Cluster, g, offers[i].Title)
		}
	}
}

// FILE=csv CLASS=prefix: the missed pairs of a class, one per line with the items' brands.
func TestZZLoss(t *testing.T) {
	f, err := os.Open(os.Getenv("FILE"))
	if err != nil {
		t.Skip("no FILE")
	}
	offers, err := ReadClusters(f)
	if err != nil {
		t.Fatal(err)
	}
	opt := match.Options{IgnoreColour: true}
	r := Clusters(offers, opt)
	m := match.NewMatcher(r.items, opt)
	seen := map[string]bool{}
	for _, os_ := range r.Split {
		for x, a := range os_ {
			for _, b := range os_[x+1:] {
				if a.Group == b.Group {
					continue
				}
				c := lossOf(r, m, a, b)
				if !strings.HasPrefix(c, os.Getenv("CLASS")) {
					continue
				}
				ia, ib := r.items[a.index], r.items[b.index]
				k := ia.Brand + "|" + ib.Brand
				if seen[k] && os.Getenv("ALL") == "" {
					continue
				}
				seen[k] = true
				fmt.Printf("%s [%s g=%v] %s | [%s g=%v] %s\n", c, ia.Brand, ia.BrandGuessed, a.Title, ib.Brand, ib.BrandGuessed, b.Title)
			}
		}
	}
}

// FILE=csv OUT=path: "offer_id cluster group namesModel brand category retailer title".
func TestZZDumpX(t *testing.T) {
	f, err := os.Open(os.Getenv("FILE"))
	if err != nil {
		t.Skip("no FILE")
	}
	offers, err := ReadClusters(f)
	if err != nil {
		t.Fatal(err)
	}
	opt := match.Options{IgnoreColour: true}
	res := Clusters(offers, opt)
	items := res.items
	m := match.NewMatcher(items, opt)
	groups := match.GroupWith(items, opt)
	out, _ := os.Create(os.Getenv("OUT"))
	defer out.Close()
	for g, ms := range groups {
		for _, i := range ms {
			fmt.Fprintf(out, "%s\t%s\t%d\t%v\t%s\t%s\t%s\t%s\n", offers[i].ID, offers[i].Cluster, g, m.NamesModel(items[i]), items[i].Brand, items[i].Category, items[i].Retailer, offers[i].Title)
		}
	}
}

// FILE=csv: titles whose brand is guessed or empty.
func TestZZBrandless(t *testing.T) {
	f, err := os.Open(os.Getenv("FILE"))
	if err != nil {
		t.Skip("no FILE")
	}
	offers, err := ReadClusters(f)
	if err != nil {
		t.Fatal(err)
	}
	res := Clusters(offers, match.Options{IgnoreColour: true})
	for i, it := range res.items {
		if it.Brand == "" || it.BrandGuessed {
			fmt.Printf("%s\t%s\t%v\t%s\n", offers[i].Cluster, it.Brand, it.BrandGuessed, it.Title)
		}
	}
}
