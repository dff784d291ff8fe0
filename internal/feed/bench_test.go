package feed

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// writeAwinCSV writes an Awin-style CSV feed of n rows and returns its size.
func writeAwinCSV(tb testing.TB, path string, n int) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "aw_product_id,merchant_product_id,product_name,search_price,rrp_price,currency,in_stock,stock_quantity,delivery_time,aw_deep_link,merchant_deep_link,merchant_image_url,ean,mpn,brand_name,merchant_category,description,last_updated,colour")
	for i := range n {
		fmt.Fprintf(w, "%d,SKU-%07d,\"Example 15.6\"\" Laptop %d, 16GB RAM, 512GB SSD\",%d.99,%d.99,GBP,1,%d,Next day,https://www.awin1.com/pclick.php?p=%d,https://shop.example.co.uk/p/SKU-%07d,https://img.example.co.uk/SKU-%07d.jpg,50%011d,MPN-%d,Example,Computing > Laptops,\"A fast laptop, with a long battery life and a bright screen.\",2025-06-01 09:30:00,Silver\n",
			i, i, i, 300+i%900, 400+i%900, i%50, i, i, i, i, i)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}

// BenchmarkAwinCSV reads a generated 100,000-row Awin CSV feed from a file.
func BenchmarkAwinCSV(b *testing.B) {
	const rows = 100_000
	path := filepath.Join(b.TempDir(), "feed.csv")
	size := writeAwinCSV(b, path, rows)
	src := Source{Format: FormatAwinCSV, Location: path}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		r, err := Open(context.Background(), src)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		r.Close()
		if n != rows {
			b.Fatalf("read %d rows, want %d", n, rows)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(rows), "rows/op")
}
