package feed

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// awinColumn indexes the Awin datafeed columns the reader uses.
type awinColumn int

const (
	awAwProductID awinColumn = iota
	awMerchantProductID
	awProductName
	awSearchPrice
	awStorePrice
	awRRPPrice
	awProductPriceOld
	awCurrency
	awInStock
	awStockStatus
	awStockQuantity
	awDeliveryTime
	awAwDeepLink
	awMerchantDeepLink
	awMerchantImageURL
	awAwImageURL
	awEAN
	awProductGTIN
	awUPC
	awMPN
	awModelNumber
	awBrandName
	awMerchantProductCategoryPath
	awMerchantCategory
	awCategoryName
	awDescription
	awProductShortDescription
	awDimensions
	awCondition
	awLastUpdated
	awColour
	awColor
	awNumColumns
)

// awinColumns are the header names of the awinColumn values, lower-case.
var awinColumns = [awNumColumns]string{
	"aw_product_id", "merchant_product_id", "product_name", "search_price",
	"store_price", "rrp_price", "product_price_old", "currency", "in_stock",
	"stock_status", "stock_quantity", "delivery_time", "aw_deep_link",
	"merchant_deep_link", "merchant_image_url", "aw_image_url", "ean",
	"product_gtin", "upc", "mpn", "model_number", "brand_name",
	"merchant_product_category_path", "merchant_category", "category_name",
	"description", "product_short_description", "dimensions", "condition",
	"last_updated", "colour", "color",
}

// awinProduct is one data row of an Awin datafeed, by column.
type awinProduct [awNumColumns]string

// record adapts an Awin row to a Record. Where Awin has alternative columns
// the first non-empty one wins: merchant_product_id then aw_product_id,
// search_price then store_price, rrp_price then product_price_old,
// merchant_deep_link then aw_deep_link, merchant_image_url then
// aw_image_url, ean then product_GTIN then upc, merchant_product_category_path
// then merchant_category then category_name, description then
// product_short_description, in_stock then stock_status, colour then color.
func (p *awinProduct) record(row int) Record {
	first := func(cols ...awinColumn) string {
		for _, c := range cols {
			if p[c] != "" {
				return p[c]
			}
		}
		return ""
	}
	return Record{
		Row:          row,
		ID:           first(awMerchantProductID, awAwProductID),
		Title:        p[awProductName],
		Description:  first(awDescription, awProductShortDescription),
		Price:        first(awSearchPrice, awStorePrice),
		RRP:          first(awRRPPrice, awProductPriceOld),
		Currency:     p[awCurrency],
		Availability: first(awInStock, awStockStatus),
		Stock:        p[awStockQuantity],
		DeliveryTime: p[awDeliveryTime],
		Link:         first(awMerchantDeepLink, awAwDeepLink),
		ImageLink:    first(awMerchantImageURL, awAwImageURL),
		GTIN:         first(awEAN, awProductGTIN, awUPC),
		MPN:          p[awMPN],
		ModelNumber:  p[awModelNumber],
		Brand:        p[awBrandName],
		Colour:       first(awColour, awColor),
		CategoryPath: first(awMerchantProductCategoryPath, awMerchantCategory, awCategoryName),
		Condition:    p[awCondition],
		Dimensions:   p[awDimensions],
		LastUpdated:  p[awLastUpdated],
	}
}

// awinDecoder reads an Awin CSV datafeed. The delimiter (comma, tab, pipe or
// semicolon, all offered by Awin) is taken from the header line.
type awinDecoder struct {
	csv   *csv.Reader
	width int               // number of header columns
	index [awNumColumns]int // field index of each known column, -1 when absent
	row   int
}

func newAwinDecoder(br *bufio.Reader) (*awinDecoder, error) {
	d := &awinDecoder{csv: csv.NewReader(br)}
	d.csv.Comma = sniffDelimiter(br)
	d.csv.FieldsPerRecord = -1
	d.csv.ReuseRecord = true
	header, err := d.csv.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("awin_csv feed is empty: no header row")
	}
	if err != nil {
		return nil, fmt.Errorf("awin_csv header: %w", err)
	}
	d.width = len(header)
	for i := range d.index {
		d.index[i] = -1
	}
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = strings.ToLower(field(h))
		for c, name := range awinColumns {
			if names[i] == name && d.index[c] < 0 {
				d.index[c] = i
			}
		}
	}
	var missing []string
	if d.index[awProductName] < 0 {
		missing = append(missing, "product_name")
	}
	if d.index[awSearchPrice] < 0 && d.index[awStorePrice] < 0 {
		missing = append(missing, "search_price (or store_price)")
	}
	if d.index[awMerchantProductID] < 0 && d.index[awAwProductID] < 0 {
		missing = append(missing, "merchant_product_id (or aw_product_id)")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("awin_csv header lacks required columns: %s; found %s", strings.Join(missing, ", "), listNames(names))
	}
	return d, nil
}

func (d *awinDecoder) next() (Record, error) {
	fields, err := d.csv.Read()
	if errors.Is(err, io.EOF) {
		return Record{}, io.EOF
	}
	d.row++
	var parseErr *csv.ParseError
	if errors.As(err, &parseErr) {
		return Record{}, &RowError{Row: d.row, Reason: ReasonBadCSVRow, Err: err}
	}
	if err != nil {
		return Record{}, err
	}
	if len(fields) != d.width {
		line, _ := d.csv.FieldPos(0)
		return Record{}, &RowError{Row: d.row, Reason: ReasonFieldCount,
			Err: fmt.Errorf("line %d has %d fields, the header has %d", line, len(fields), d.width)}
	}
	var p awinProduct
	for c, i := range d.index {
		if i >= 0 {
			p[c] = field(fields[i])
		}
	}
	return p.record(d.row), nil
}

// sniffDelimiter picks the delimiter of a delimited file from its first line:
// whichever of comma, tab, pipe and semicolon occurs most often outside
// quotes, comma on a tie or when none occurs. It waits only for the bytes of
// the first line (at most the buffer size).
func sniffDelimiter(br *bufio.Reader) rune {
	var head []byte
	for n := 1; ; {
		b, err := br.Peek(n)
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			head = b[:i]
			break
		}
		if err != nil || len(b) >= br.Size() {
			head = b
			break
		}
		n = max(len(b)+1, br.Buffered())
	}
	var counts [4]int
	delims := [4]byte{',', '\t', '|', ';'}
	quoted := false
	for _, b := range head {
		if b == '"' {
			quoted = !quoted
			continue
		}
		if quoted {
			continue
		}
		for i, d := range delims {
			if b == d {
				counts[i]++
			}
		}
	}
	best := 0
	for i := range counts {
		if counts[i] > counts[best] {
			best = i
		}
	}
	return rune(delims[best])
}

// listNames shows header names in an error, at most 20 of them.
func listNames(names []string) string {
	if len(names) == 0 {
		return "no columns"
	}
	const most = 20
	if len(names) > most {
		return strings.Join(names[:most], ", ") + fmt.Sprintf(" and %d more", len(names)-most)
	}
	return strings.Join(names, ", ")
}
