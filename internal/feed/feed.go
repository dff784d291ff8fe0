// Package feed reads retailer product feeds as a stream of records.
//
// Four formats are understood: Awin-style CSV datafeeds (awin_csv), Google
// Merchant Center RSS 2.0 or Atom XML (google_xml), Google Merchant Center
// tab-separated files (google_tsv) and JSON Lines with a configured field
// mapping (jsonl). Each format decodes into its own struct first; one adapter
// per format turns that into the shared Record, which holds the raw text of
// each field, trimmed. Turning a Record into a catalog listing is the job of
// package normalize.
//
// A feed is a file path or an http(s) URL, plain or gzip-compressed (detected
// by its magic bytes). Reading is streaming: memory use does not depend on the
// size of the feed.
package feed

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// The feed formats.
const (
	FormatAwinCSV   = "awin_csv"
	FormatGoogleXML = "google_xml"
	FormatGoogleTSV = "google_tsv"
	FormatJSONL     = "jsonl"
)

var formats = [...]string{FormatAwinCSV, FormatGoogleXML, FormatGoogleTSV, FormatJSONL}

// Formats returns the names of the supported feed formats.
func Formats() []string { return slices.Clone(formats[:]) }

// Source says where a retailer's feed is and how to read it. It is embedded
// in the indexer's retailers.yaml, one per retailer.
type Source struct {
	Format   string `yaml:"format"`             // awin_csv | google_xml | google_tsv | jsonl
	Location string `yaml:"location"`           // file path or http(s) URL
	AuthEnv  string `yaml:"auth_env,omitempty"` // env var holding the Authorization header value sent on http(s) fetches
	// Fields is used by jsonl only: Record field name (see FieldNames) -> key
	// in each JSON object; dot paths reach nested keys ("pricing.now").
	Fields map[string]string `yaml:"fields,omitempty"`
}

// IsURL reports whether the location is an http(s) URL rather than a file.
func (s Source) IsURL() bool {
	l := strings.ToLower(strings.TrimSpace(s.Location))
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// Validate checks the source and returns every problem found, each with what
// to change.
func (s Source) Validate() error {
	var errs []error
	if !slices.Contains(formats[:], s.Format) {
		errs = append(errs, fmt.Errorf("format %q is not supported: use one of %s", s.Format, strings.Join(formats[:], ", ")))
	}
	loc := strings.TrimSpace(s.Location)
	switch {
	case loc == "":
		errs = append(errs, errors.New("location is empty: give a file path or an http(s) URL"))
	case s.IsURL():
		u, err := url.Parse(loc)
		if err != nil {
			errs = append(errs, fmt.Errorf("location is not a valid URL: %w", err))
		} else if u.Host == "" {
			errs = append(errs, fmt.Errorf("location URL %s://... has no host", u.Scheme))
		}
	case strings.Contains(loc, "://"):
		scheme, _, _ := strings.Cut(loc, "://")
		errs = append(errs, fmt.Errorf("location scheme %q is not supported: use a file path or an http(s) URL", scheme))
	}
	if s.AuthEnv != "" && !isEnvName(s.AuthEnv) {
		errs = append(errs, fmt.Errorf("auth_env %q is not an environment variable name (letters, digits and _, not starting with a digit)", s.AuthEnv))
	}
	if s.Format == FormatJSONL {
		errs = append(errs, validateFields(s.Fields)...)
	} else if len(s.Fields) > 0 {
		errs = append(errs, fmt.Errorf("fields is only used by the %s format; remove it for %s", FormatJSONL, s.Format))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("feed source: %w", errors.Join(errs...))
}

func validateFields(fields map[string]string) []error {
	var errs []error
	var missing []string
	for _, name := range []string{"id", "title", "price"} {
		if strings.TrimSpace(fields[name]) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		errs = append(errs, fmt.Errorf("jsonl needs fields.%s mapped to the JSON key that holds it", strings.Join(missing, ", fields.")))
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.Contains(fieldNames[:], name) {
			errs = append(errs, fmt.Errorf("fields.%s is not a record field: use one of %s", name, strings.Join(fieldNames[:], ", ")))
			continue
		}
		key := fields[name]
		if strings.TrimSpace(key) == "" && !slices.Contains(missing, name) {
			errs = append(errs, fmt.Errorf("fields.%s is empty: give the JSON key that holds it", name))
		} else if strings.HasPrefix(key, ".") || strings.HasSuffix(key, ".") || strings.Contains(key, "..") {
			errs = append(errs, fmt.Errorf("fields.%s key %q has an empty path segment: write nested keys as \"outer.inner\"", name, key))
		}
	}
	return errs
}

func isEnvName(s string) bool {
	for i, c := range s {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// Record is one product as a feed states it: the raw text of each field,
// trimmed, with no interpretation beyond choosing between a format's
// alternative columns.
type Record struct {
	Row                             int // 1-based record number within the feed (data rows, header not counted)
	ID, Title, Description          string
	Price, SalePrice, RRP, Currency string // e.g. "£1,299.00", "699.00 GBP", "GBP"
	Availability, Stock             string
	DeliveryTime                    string
	Link, ImageLink                 string
	GTIN, MPN, ModelNumber, Brand   string
	Colour                          string
	CategoryPath                    string // retailer category text: Awin merchant_category / category_name, Google product_type
	TaxonomyID                      string // google_product_category (an id like "328" or a path "Electronics > ...")
	Condition, Dimensions           string
	LastUpdated                     string
}

// fieldNames lists the Record fields a jsonl mapping can fill, in Record order.
var fieldNames = [...]string{
	"id", "title", "description", "price", "sale_price", "rrp", "currency",
	"availability", "stock", "delivery_time", "link", "image_link", "gtin", "mpn",
	"model_number", "brand", "colour", "category_path", "taxonomy_id", "condition",
	"dimensions", "last_updated",
}

// FieldNames returns the Record field names a jsonl mapping can use.
func FieldNames() []string { return slices.Clone(fieldNames[:]) }

// field returns the Record field called name (see FieldNames), or nil.
func (r *Record) field(name string) *string {
	switch name {
	case "id":
		return &r.ID
	case "title":
		return &r.Title
	case "description":
		return &r.Description
	case "price":
		return &r.Price
	case "sale_price":
		return &r.SalePrice
	case "rrp":
		return &r.RRP
	case "currency":
		return &r.Currency
	case "availability":
		return &r.Availability
	case "stock":
		return &r.Stock
	case "delivery_time":
		return &r.DeliveryTime
	case "link":
		return &r.Link
	case "image_link":
		return &r.ImageLink
	case "gtin":
		return &r.GTIN
	case "mpn":
		return &r.MPN
	case "model_number":
		return &r.ModelNumber
	case "brand":
		return &r.Brand
	case "colour":
		return &r.Colour
	case "category_path":
		return &r.CategoryPath
	case "taxonomy_id":
		return &r.TaxonomyID
	case "condition":
		return &r.Condition
	case "dimensions":
		return &r.Dimensions
	case "last_updated":
		return &r.LastUpdated
	}
	return nil
}

// Reasons a row is skipped, the RowError.Reason values.
const (
	ReasonBadCSVRow   = "bad_csv_row"   // CSV syntax error in the row (bare or unterminated quote)
	ReasonFieldCount  = "field_count"   // CSV or TSV row with more or fewer fields than the header
	ReasonBadJSON     = "bad_json"      // jsonl line that is not one JSON object
	ReasonBadField    = "bad_field"     // jsonl mapped key holding an object instead of a value
	ReasonLineTooLong = "line_too_long" // jsonl or TSV line longer than the limit
)

// RowError reports a malformed row. The reader stays usable: the caller counts
// the row and calls Next again.
type RowError struct {
	Row    int    // record number, as Record.Row
	Reason string // short machine key, one of the Reason constants
	Err    error
}

func (e *RowError) Error() string {
	return fmt.Sprintf("row %d: %s: %v", e.Row, e.Reason, e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }

// HTTPError is the fatal error for a feed URL that answers with a status
// other than 2xx.
type HTTPError struct {
	URL        string // the URL without credentials, query or path
	StatusCode int
	Status     string // e.g. "404 Not Found"
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("fetch %s: HTTP status %s", e.URL, e.Status)
}
