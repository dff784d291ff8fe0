package demo

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// feedWriter writes one feed format.
type feedWriter interface {
	begin() error
	row(l *listing) error
	end() error
}

// feedFile is a feed being written: to a temporary file beside its final
// name, optionally gzip-compressed, renamed into place on commit.
type feedFile struct {
	f     *os.File
	fileW *bufio.Writer
	gz    *gzip.Writer
	w     *bufio.Writer // where the format writer writes
	path  string
}

func createFeed(path string, compress bool) (*feedFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	ff := &feedFile{f: f, path: path, fileW: bufio.NewWriterSize(f, 256<<10)}
	if compress {
		ff.gz, _ = gzip.NewWriterLevel(ff.fileW, gzip.BestSpeed) // BestSpeed is a valid level
		ff.w = bufio.NewWriterSize(ff.gz, 256<<10)
	} else {
		ff.w = ff.fileW
	}
	return ff, nil
}

// commit flushes and closes the file and renames it into place.
func (ff *feedFile) commit() error {
	if ff.gz != nil {
		if err := ff.w.Flush(); err != nil {
			return err
		}
		if err := ff.gz.Close(); err != nil {
			return err
		}
	}
	if err := ff.fileW.Flush(); err != nil {
		return err
	}
	if err := ff.f.Chmod(0o644); err != nil {
		return err
	}
	if err := ff.f.Close(); err != nil {
		return err
	}
	return os.Rename(ff.f.Name(), ff.path)
}

// abort closes and removes the temporary file.
func (ff *feedFile) abort() {
	ff.f.Close()
	os.Remove(ff.f.Name())
}

func newFeedWriter(format string, w *bufio.Writer, s *shop) feedWriter {
	switch format {
	case fmtAwinCSV:
		return &awinWriter{w: w}
	case fmtGoogleXML:
		return &xmlWriter{w: w, s: s}
	case fmtGoogleTSV:
		return &tsvWriter{w: w}
	}
	return &jsonlWriter{w: w}
}

// awinColumns is the header of an Awin CSV datafeed, in order.
var awinColumns = [...]string{
	"aw_product_id", "merchant_product_id", "product_name", "search_price", "store_price",
	"rrp_price", "currency", "in_stock", "stock_quantity", "delivery_time", "aw_deep_link",
	"merchant_deep_link", "merchant_image_url", "aw_image_url", "ean", "product_GTIN", "mpn",
	"model_number", "brand_name", "merchant_category", "category_name", "description",
	"dimensions", "condition", "last_updated", "colour",
}

type awinWriter struct {
	w      *bufio.Writer
	fields [len(awinColumns)]string
}

func (a *awinWriter) begin() error {
	_, err := a.w.WriteString(strings.Join(awinColumns[:], ",") + "\n")
	return err
}

func (a *awinWriter) row(l *listing) error {
	price := money(l.price)
	if l.priceText != "" {
		price = strings.TrimSpace(l.priceText)
	}
	rrp, inStock, qty := "", "0", ""
	if l.was > 0 {
		rrp = money(l.was)
	}
	if l.inStock {
		inStock = "1"
	}
	if l.qty >= 0 {
		qty = strconv.Itoa(l.qty)
	}
	category := l.path
	if i := strings.LastIndex(category, " > "); i >= 0 {
		category = category[i+3:]
	}
	awLink := l.link
	if strings.HasPrefix(awLink, "https://") {
		awLink += "?utm_source=awin&utm_medium=affiliate"
	}
	a.fields = [len(awinColumns)]string{
		l.awID, l.merchantID, l.title, price, price, rrp, l.currency, inStock, qty, l.delivery,
		awLink, l.link, l.image, l.image, l.gtin, l.gtin, l.mpn, l.mpn, l.brand, l.path,
		category, l.desc, l.p.dims, l.condition, l.updated.Format(time.DateTime), l.colour,
	}
	f := a.fields[:]
	if l.reject == RejectMalformed {
		switch l.malformed {
		case 0: // cut short: fewer fields than the header
			f = f[:14]
		default: // title written unquoted with a comma and a stray quote
			for i, v := range f {
				if i > 0 {
					a.w.WriteByte(',')
				}
				if i == 2 {
					a.w.WriteString(strings.ReplaceAll(v, ",", " ") + `, incl. 2 Year "Care+" Warranty`)
					continue
				}
				writeCSVField(a.w, v)
			}
			return a.w.WriteByte('\n')
		}
	}
	for i, v := range f {
		if i > 0 {
			a.w.WriteByte(',')
		}
		writeCSVField(a.w, v)
	}
	return a.w.WriteByte('\n')
}

func (a *awinWriter) end() error { return nil }

// writeCSVField writes one CSV field, quoted when it holds a comma, a quote,
// a line break or surrounding spaces.
func writeCSVField(w *bufio.Writer, v string) {
	if v == "" || (!strings.ContainsAny(v, ",\"\r\n") && v[0] != ' ' && v[len(v)-1] != ' ') {
		w.WriteString(v)
		return
	}
	w.WriteByte('"')
	w.WriteString(strings.ReplaceAll(v, `"`, `""`))
	w.WriteByte('"')
}

type xmlWriter struct {
	w *bufio.Writer
	s *shop
}

func (x *xmlWriter) begin() error {
	fmt.Fprintf(x.w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:g=\"http://base.google.com/ns/1.0\">\n<channel>\n")
	x.el(1, "title", x.s.Name+" product feed")
	x.el(1, "link", "https://www."+x.s.Domain+"/")
	x.el(1, "description", "Products of "+x.s.Name+" for Google Merchant Center")
	return nil
}

// el writes <name>text</name> on its own line, indented by depth.
func (x *xmlWriter) el(depth int, name, text string) {
	for range depth {
		x.w.WriteString("  ")
	}
	x.w.WriteByte('<')
	x.w.WriteString(name)
	x.w.WriteByte('>')
	escapeXML(x.w, text)
	x.w.WriteString("</")
	x.w.WriteString(name)
	x.w.WriteString(">\n")
}

// escapeXML writes text with the five XML special characters escaped, the
// way encoding/xml.EscapeText does for them. Feed text holds no control
// characters.
func escapeXML(w *bufio.Writer, text string) {
	last := 0
	for i := 0; i < len(text); i++ {
		var esc string
		switch text[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		default:
			continue
		}
		w.WriteString(text[last:i])
		w.WriteString(esc)
		last = i + 1
	}
	w.WriteString(text[last:])
}

func (x *xmlWriter) row(l *listing) error {
	x.w.WriteString("  <item>\n")
	x.el(2, "g:id", l.merchantID)
	x.el(2, "title", l.title)
	x.el(2, "description", l.desc)
	x.el(2, "link", l.link)
	x.el(2, "g:image_link", l.image)
	avail := "out of stock"
	if l.inStock {
		avail = "in stock"
	}
	x.el(2, "g:availability", avail)
	price, sale := googlePrices(l)
	x.el(2, "g:price", price)
	if sale != "" {
		x.el(2, "g:sale_price", sale)
	}
	x.el(2, "g:brand", l.brand)
	if l.gtin != "" {
		x.el(2, "g:gtin", l.gtin)
	}
	if l.mpn != "" {
		x.el(2, "g:mpn", l.mpn)
	}
	x.el(2, "g:condition", l.condition)
	x.el(2, "g:google_product_category", strconv.Itoa(l.p.dept.Google))
	x.el(2, "g:product_type", l.path)
	if l.qty >= 0 {
		x.el(2, "g:quantity", strconv.Itoa(l.qty))
	}
	if l.colour != "" {
		x.el(2, "g:color", l.colour)
	}
	x.w.WriteString("    <g:shipping>\n")
	x.el(3, "g:country", "GB")
	x.el(3, "g:service", "Standard")
	x.el(3, "g:price", shippingPrice(l)+" GBP")
	x.w.WriteString("    </g:shipping>\n")
	_, err := x.w.WriteString("  </item>\n")
	return err
}

func (x *xmlWriter) end() error {
	_, err := x.w.WriteString("</channel>\n</rss>\n")
	return err
}

// googlePrices returns g:price and g:sale_price: with a was price, g:price
// is the was price and the sale price is what the buyer pays.
func googlePrices(l *listing) (price, sale string) {
	if l.priceText != "" {
		return strings.TrimSpace(l.priceText), ""
	}
	if l.was > 0 {
		return money(l.was) + " " + l.currency, money(l.price) + " " + l.currency
	}
	return money(l.price) + " " + l.currency, ""
}

// shippingPrice is free over £40, else a flat fee.
func shippingPrice(l *listing) string {
	if l.price >= 4000 {
		return "0.00"
	}
	return "3.99"
}

// tsvColumns is the header of a Google TSV feed, in order.
var tsvColumns = [...]string{
	"id", "title", "description", "link", "image_link", "availability", "price", "sale_price",
	"brand", "gtin", "mpn", "condition", "google_product_category", "product_type", "quantity",
	"shipping", "color",
}

type tsvWriter struct {
	w      *bufio.Writer
	fields [len(tsvColumns)]string
}

func (t *tsvWriter) begin() error {
	_, err := t.w.WriteString(strings.Join(tsvColumns[:], "\t") + "\n")
	return err
}

// tsvClean replaces tabs and line breaks, which a TSV value cannot hold.
var tsvClean = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

func (t *tsvWriter) row(l *listing) error {
	avail := "out of stock"
	if l.inStock {
		avail = "in stock"
	}
	price, sale := googlePrices(l)
	qty := ""
	if l.qty >= 0 {
		qty = strconv.Itoa(l.qty)
	}
	t.fields = [len(tsvColumns)]string{
		l.merchantID, l.title, l.desc, l.link, l.image, avail, price, sale, l.brand, l.gtin, l.mpn,
		l.condition, strconv.Itoa(l.p.dept.Google), l.path, qty, "GB:::" + shippingPrice(l) + " GBP", l.colour,
	}
	for i := range t.fields {
		t.fields[i] = tsvClean.Replace(t.fields[i])
	}
	f := t.fields[:]
	if l.reject == RejectMalformed {
		switch l.malformed {
		case 0: // cut short
			f = f[:9]
		default: // a tab inside the title splits it into two columns
			f[1] = strings.Replace(f[1], " ", "\t", 1)
		}
	}
	for i, v := range f {
		if i > 0 {
			t.w.WriteByte('\t')
		}
		t.w.WriteString(v)
	}
	return t.w.WriteByte('\n')
}

func (t *tsvWriter) end() error { return nil }

// pixelItem is one line of PixelPort's JSON Lines feed.
type pixelItem struct {
	SKU   string `json:"sku"`
	Name  string `json:"name"`
	Brand struct {
		Name string `json:"name"`
	} `json:"brand"`
	Pricing struct {
		Now      string `json:"now"`
		Was      string `json:"was"`
		Currency string `json:"currency"`
	} `json:"pricing"`
	Stock struct {
		Status   string `json:"status"`
		Qty      *int   `json:"qty,omitempty"`
		Delivery string `json:"delivery"`
	} `json:"stock"`
	Links struct {
		Product string `json:"product"`
		Image   string `json:"image"`
	} `json:"links"`
	IDs struct {
		EAN string `json:"ean"`
		MPN string `json:"mpn"`
	} `json:"ids"`
	Category    []string `json:"category"`
	Colour      string   `json:"colour"`
	Updated     string   `json:"updated"`
	Description string   `json:"description"`
}

type jsonlWriter struct {
	w   *bufio.Writer
	buf strings.Builder
	enc *json.Encoder
}

func (j *jsonlWriter) begin() error {
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return nil
}

func (j *jsonlWriter) row(l *listing) error {
	var it pixelItem
	it.SKU, it.Name, it.Brand.Name = l.merchantID, l.title, l.brand
	it.Pricing.Now, it.Pricing.Currency = money(l.price), l.currency
	if l.priceText != "" {
		it.Pricing.Now = strings.TrimSpace(l.priceText)
	}
	if l.was > 0 {
		it.Pricing.Was = money(l.was)
	}
	it.Stock.Status = "out_of_stock"
	if l.inStock {
		it.Stock.Status = "in_stock"
	}
	if l.qty >= 0 {
		q := l.qty
		it.Stock.Qty = &q
	}
	it.Stock.Delivery = l.delivery
	it.Links.Product, it.Links.Image = l.link, l.image
	it.IDs.EAN, it.IDs.MPN = l.gtin, l.mpn
	it.Category = strings.Split(l.path, " > ")
	it.Colour = l.colour
	it.Updated = l.updated.UTC().Format(time.RFC3339)
	it.Description = l.desc
	j.buf.Reset()
	if err := j.enc.Encode(&it); err != nil {
		return err
	}
	line := j.buf.String()
	if l.reject == RejectMalformed { // the line breaks off mid-object
		cut := len(line) * 3 / 5
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "\n"
	}
	_, err := j.w.WriteString(line)
	return err
}

func (j *jsonlWriter) end() error { return nil }
