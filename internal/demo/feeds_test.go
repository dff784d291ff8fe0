package demo

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// feedRow is one record of a generated feed as a strict reader sees it.
type feedRow struct {
	malformed          bool
	id, title, price   string // price as written, with the currency for Google feeds
	sale, currency     string
	link, gtin, mpn    string
	brand, condition   string
	availability, qty  string
	category, taxonomy string
}

// readFeed reads a generated feed with a strict reader for its format: a
// record the reader cannot take apart is marked malformed, and reading
// carries on with the next record.
func readFeed(t *testing.T, path, format string) []feedRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	var rows []feedRow
	switch format {
	case fmtAwinCSV:
		rows, err = readAwin(b)
	case fmtGoogleXML:
		rows, err = readGoogleXML(b)
	case fmtGoogleTSV:
		rows, err = readTSV(b)
	case fmtJSONL:
		rows, err = readJSONL(b)
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func readAwin(b []byte) ([]feedRow, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	var rows []feedRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			rows = append(rows, feedRow{malformed: true})
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(rec) != len(header) {
			rows = append(rows, feedRow{malformed: true, id: rec[col["merchant_product_id"]]})
			continue
		}
		f := func(name string) string { return rec[col[name]] }
		rows = append(rows, feedRow{
			id: f("merchant_product_id"), title: f("product_name"), price: f("search_price"),
			currency: f("currency"), link: f("merchant_deep_link"), gtin: f("ean"), mpn: f("mpn"),
			brand: f("brand_name"), condition: f("condition"), availability: f("in_stock"),
			qty: f("stock_quantity"), category: f("merchant_category"), sale: f("rrp_price"),
		})
	}
}

// googleItem is an RSS item with Google's g: namespace.
type googleItem struct {
	ID           string `xml:"http://base.google.com/ns/1.0 id"`
	Title        string `xml:"title"`
	Link         string `xml:"link"`
	Price        string `xml:"http://base.google.com/ns/1.0 price"`
	SalePrice    string `xml:"http://base.google.com/ns/1.0 sale_price"`
	Availability string `xml:"http://base.google.com/ns/1.0 availability"`
	Brand        string `xml:"http://base.google.com/ns/1.0 brand"`
	GTIN         string `xml:"http://base.google.com/ns/1.0 gtin"`
	MPN          string `xml:"http://base.google.com/ns/1.0 mpn"`
	Condition    string `xml:"http://base.google.com/ns/1.0 condition"`
	Taxonomy     string `xml:"http://base.google.com/ns/1.0 google_product_category"`
	ProductType  string `xml:"http://base.google.com/ns/1.0 product_type"`
	Quantity     string `xml:"http://base.google.com/ns/1.0 quantity"`
}

func readGoogleXML(b []byte) ([]feedRow, error) {
	var doc struct {
		Items []googleItem `xml:"channel>item"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	rows := make([]feedRow, len(doc.Items))
	for i, it := range doc.Items {
		rows[i] = feedRow{id: it.ID, title: it.Title, link: it.Link, price: it.Price, sale: it.SalePrice,
			availability: it.Availability, brand: it.Brand, gtin: it.GTIN, mpn: it.MPN,
			condition: it.Condition, taxonomy: it.Taxonomy, category: it.ProductType, qty: it.Quantity}
	}
	return rows, nil
}

func readTSV(b []byte) ([]feedRow, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	if !sc.Scan() {
		return nil, errors.New("no header")
	}
	header := strings.Split(sc.Text(), "\t")
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	var rows []feedRow
	for sc.Scan() {
		rec := strings.Split(sc.Text(), "\t")
		if len(rec) != len(header) {
			rows = append(rows, feedRow{malformed: true, id: rec[0]})
			continue
		}
		f := func(name string) string { return rec[col[name]] }
		rows = append(rows, feedRow{id: f("id"), title: f("title"), link: f("link"), price: f("price"),
			sale: f("sale_price"), availability: f("availability"), brand: f("brand"), gtin: f("gtin"),
			mpn: f("mpn"), condition: f("condition"), taxonomy: f("google_product_category"),
			category: f("product_type"), qty: f("quantity")})
	}
	return rows, sc.Err()
}

func readJSONL(b []byte) ([]feedRow, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var rows []feedRow
	for sc.Scan() {
		var it pixelItem
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&it); err != nil {
			rows = append(rows, feedRow{malformed: true})
			continue
		}
		qty := ""
		if it.Stock.Qty != nil {
			qty = strings.TrimSpace(string(mustJSON(*it.Stock.Qty)))
		}
		rows = append(rows, feedRow{id: it.SKU, title: it.Name, price: it.Pricing.Now, sale: it.Pricing.Was,
			currency: it.Pricing.Currency, link: it.Links.Product, gtin: it.IDs.EAN, mpn: it.IDs.MPN,
			brand: it.Brand.Name, availability: it.Stock.Status, qty: qty, category: strings.Join(it.Category, " > ")})
	}
	return rows, sc.Err()
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
