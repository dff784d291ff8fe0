package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"productsearch/internal/catalog"
)

// Reasons a feed row is meant to be rejected by the indexer.
const (
	RejectNotNew       = "not_new"       // refurbished, renewed or pre-owned
	RejectNonGBP       = "non_gbp"       // priced in another currency
	RejectBadPrice     = "bad_price"     // price missing, zero or not a number
	RejectMalformed    = "malformed"     // the record cannot be parsed
	RejectMissingTitle = "missing_title" // empty title
	RejectBadURL       = "bad_url"       // product link is not an absolute http(s) URL
)

var rejectReasons = [...]string{
	RejectNotNew, RejectNonGBP, RejectBadPrice, RejectMalformed, RejectMissingTitle, RejectBadURL,
}

// RejectReasons returns the reject reasons in a fixed order.
func RejectReasons() []string { return slices.Clone(rejectReasons[:]) }

// TruthRow is the ground truth of one feed row: the true product it lists,
// that product's specs, the specs its title states and whether the row is
// meant to be rejected. truth.jsonl holds one per feed row, retailer by
// retailer in feed order.
type TruthRow struct {
	Retailer   string `json:"retailer"`    // retailer name
	MerchantID string `json:"merchant_id"` // the row's id in the feed
	Row        int    `json:"row"`         // 1-based record number in the feed, header not counted
	Product    string `json:"product"`     // stable key of the true product
	// Model is the key of the product's model with its colours together:
	// Product without the colour.
	Model       string              `json:"model,omitempty"`
	Category    string              `json:"category"`
	ProductType catalog.ProductType `json:"product_type"`
	Title       string              `json:"title"` // the title as written in the feed
	// Attributes are the true product's specs: its configuration, and specs
	// its name states ("Fire TV Stick 4K"). Accessories have none: the specs
	// in "Case for iPhone 15 Pro 256GB" belong to the phone.
	Attributes map[string]float64 `json:"attributes"`
	// TitleAttributes are the specs this row's title states, a deliberately
	// wrong value included: the reference for reading specs from titles.
	TitleAttributes map[string]float64 `json:"title_attributes"`
	// WrongSpec names the attribute whose stated value differs from the true
	// one, when the title states one deliberately wrong.
	WrongSpec string `json:"wrong_spec,omitempty"`
	// Duplicate marks a second listing of a product by the same retailer.
	Duplicate bool   `json:"duplicate,omitempty"`
	Reject    string `json:"reject"` // empty, or one of RejectReasons
}

// ReadTruth reads a truth.jsonl file written by Generate.
func ReadTruth(path string) ([]TruthRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read truth: %w", err)
	}
	defer f.Close()
	rows, err := decodeTruth(f)
	if err != nil {
		return nil, fmt.Errorf("read truth %s: %w", path, err)
	}
	return rows, nil
}

// decodeTruth reads truth rows, one JSON object per line, and checks each.
func decodeTruth(r io.Reader) ([]TruthRow, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var rows []TruthRow
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var t TruthRow
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: more than one JSON value", n)
		}
		if err := t.check(); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		rows = append(rows, t)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return rows, nil
}

// check reports what is wrong with a truth row, if anything.
func (t *TruthRow) check() error {
	var errs []error
	if t.Retailer == "" || t.MerchantID == "" || t.Product == "" {
		errs = append(errs, errors.New("retailer, merchant_id and product are required"))
	}
	if t.Row < 1 {
		errs = append(errs, fmt.Errorf("row %d is not a 1-based record number", t.Row))
	}
	if !catalog.IsCategory(t.Category) {
		errs = append(errs, fmt.Errorf("category %q is not one of the 19", t.Category))
	}
	if t.ProductType != catalog.TypeProduct && t.ProductType != catalog.TypeAccessory {
		errs = append(errs, fmt.Errorf("product_type %q is not product or accessory", t.ProductType))
	}
	if t.Reject != "" && !slices.Contains(rejectReasons[:], t.Reject) {
		errs = append(errs, fmt.Errorf("reject %q is not one of %v", t.Reject, rejectReasons))
	}
	for _, m := range []map[string]float64{t.Attributes, t.TitleAttributes} {
		for k, v := range m {
			if !catalog.IsAttribute(k) || v <= 0 {
				errs = append(errs, fmt.Errorf("attribute %s=%v: want one of the seven names with a positive value", k, v))
			}
		}
	}
	return errors.Join(errs...)
}

// appendJSON appends t as one line of JSON.
func (t *TruthRow) appendJSON(b []byte) ([]byte, error) {
	line, err := json.Marshal(t)
	if err != nil {
		return b, fmt.Errorf("encode truth row %d: %w", t.Row, err)
	}
	b = append(b, line...)
	return append(b, '\n'), nil
}
