package feed

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addFixtures seeds a fuzz target with the testdata files whose names start
// with prefix, plus extra inputs.
func addFixtures(f *testing.F, prefix string, extra ...string) {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", prefix+"*"))
	if err != nil {
		f.Fatal(err)
	}
	if len(files) == 0 {
		f.Fatalf("no fixtures match %s*", prefix)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// fuzzFeed reads data as a feed of src.Format and checks the reader's
// contract: no panic, increasing row numbers, RowErrors with a reason, an end
// (io.EOF or a fatal error that repeats).
func fuzzFeed(t *testing.T, src Source, data []byte) {
	r, err := NewReader(bytes.NewReader(data), src)
	if err != nil {
		if r != nil {
			t.Fatal("NewReader returned both a reader and an error")
		}
		return
	}
	defer r.Close()
	last := 0
	// Every outcome consumes input; deflate expands at most 1032:1.
	limit := (len(data) + 2) * 1032
	for range limit {
		rec, err := r.Next()
		var rowErr *RowError
		switch {
		case err == nil:
			if rec.Row <= last {
				t.Fatalf("record row %d after row %d", rec.Row, last)
			}
			last = rec.Row
		case errors.As(err, &rowErr):
			if rowErr.Row <= last || rowErr.Reason == "" || rowErr.Err == nil {
				t.Fatalf("bad row error after row %d: %#v", last, rowErr)
			}
			last = rowErr.Row
		case err == io.EOF:
			return
		default:
			if _, again := r.Next(); again == nil || again.Error() != err.Error() {
				t.Fatalf("fatal error %q not repeated: %v", err, again)
			}
			return
		}
	}
	t.Fatalf("reader returned more than %d outcomes for %d input bytes", limit, len(data))
}

func FuzzAwinCSV(f *testing.F) {
	addFixtures(f, "awin",
		"product_name,search_price,aw_product_id\n",
		"product_name,search_price,aw_product_id\na,1,2\n\"b\nc\",\"3\",4",
		"product_name|search_price|aw_product_id\n\"x|y\"|1|2\n",
		"product_name,search_price,aw_product_id\n\"unterminated,1,2\nx,y,z\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFeed(t, Source{Format: FormatAwinCSV}, data)
	})
}

func FuzzGoogleXML(f *testing.F) {
	addFixtures(f, "google",
		`<rss><channel><item><g:id>1</g:id></item></channel></rss>`,
		`<feed><entry><link href="x"/><g:shipping><g:max_transit_time>2</g:max_transit_time></g:shipping></entry></feed>`,
		`<?xml version="1.0" encoding="windows-1252"?><rss><item><title>`+"\x80"+`</title></item></rss>`,
		`<rss><item><g:sale_price_effective_date>2020-01-01/2021-01-01</g:sale_price_effective_date></item>`,
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFeed(t, Source{Format: FormatGoogleXML}, data)
	})
}

func FuzzGoogleTSV(f *testing.F) {
	addFixtures(f, "google",
		"id\ttitle\tprice\n1\ta\t1\n",
		"id\ttitle\tprice\tshipping(country:price:max_transit_time)\n1\t\"a\"\"b\"\t1\tGB:0:1,US\n",
		"id\ttitle\tprice\r\n\r\n1\t2\r\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFeed(t, Source{Format: FormatGoogleTSV}, data)
	})
}

func FuzzJSONL(f *testing.F) {
	addFixtures(f, "feed",
		`{"sku":"1","name":"a","pricing":{"now":1}}`,
		`{"sku":[1,[2]],"categories":[{"a":1}],"name":null}`+"\n\n"+`{"pricing.now":"x"}`,
		strings.Repeat(" ", 10)+"\n{}\n[]\n\"s\"\n1e400\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFeed(t, Source{Format: FormatJSONL, Fields: jsonlFields}, data)
	})
}
