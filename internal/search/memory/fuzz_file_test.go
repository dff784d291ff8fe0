package memory_test

import (
	"context"
	"os"
	"testing"

	"productsearch/internal/search/memory"
	"productsearch/internal/search/searchtest"
)

// FuzzIndexFile opens damaged index files: the bytes are changed and the
// checksums made to match again, so that the checks behind them are
// reached. Opening yields an error (and the snapshot is indexed instead)
// or an index that searches and finds products without reading out of
// range.
func FuzzIndexFile(f *testing.F) {
	s, err := searchtest.Fixture("catalog")
	if err != nil {
		f.Fatal(err)
	}
	path := writeIndexed(f, s, memory.Options{})
	good, err := os.ReadFile(memory.IndexPath(path))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint32(0), uint32(0), byte(0), false)
	f.Add(uint32(900), uint32(4), byte(0xff), false)
	f.Add(uint32(100), uint32(8), byte(0x7f), false)
	f.Add(uint32(3000), uint32(1), byte(1), true)
	reqs := []string{"query=laptop&constraints={\"memory_gb\":{\"gte\":16}}", "category=Phones&lite=true&product_type=product",
		"query=sony+case&sort=price_desc", "brand=apple&constraints={\"storage_gb\":{\"eq\":128}}&lite=true"}
	f.Fuzz(func(t *testing.T, at, n uint32, x byte, cut bool) {
		b := append([]byte(nil), good...)
		at %= uint32(len(b))
		end := min(uint64(at)+uint64(n%64), uint64(len(b)))
		if cut {
			b = b[:at]
		} else {
			for i := at; uint64(i) < end; i++ {
				b[i] ^= x
			}
		}
		memory.Reseal(b)
		if err := os.WriteFile(memory.IndexPath(path), b, 0o644); err != nil {
			t.Fatal(err)
		}
		e, fl, err := memory.Open(path, memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !fl.Mapped {
			return
		}
		ctx := context.Background()
		for _, q := range reqs {
			res, err := e.Search(ctx, searchtest.MustParse(t, q))
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Products {
				_, _ = h.Item()
			}
			_ = res.AppendJSON(nil)
		}
		for _, p := range s.Products {
			_, _, _ = e.ProductJSON(ctx, p.ID)
		}
	})
}
