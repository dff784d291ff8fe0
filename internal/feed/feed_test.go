package feed

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fixedNow is the reading time of the fixture tests.
var fixedNow = time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC)

// jsonlFields is the field mapping of testdata/feed.jsonl.
var jsonlFields = map[string]string{
	"id": "sku", "title": "name", "price": "pricing.now", "sale_price": "pricing.sale",
	"currency": "pricing.currency", "availability": "in_stock", "stock": "stock",
	"link": "url", "image_link": "images", "gtin": "ean", "brand": "brand.name",
	"category_path": "categories", "condition": "condition", "last_updated": "meta.updated",
	"delivery_time": "delivery.text", "model_number": "attrs.model",
}

// outcome is one result of Open or Next, as stored in a golden file.
type outcome struct {
	Record    map[string]any `json:"record,omitempty"`
	RowError  *rowOutcome    `json:"row_error,omitempty"`
	Fatal     string         `json:"fatal,omitempty"`
	OpenError string         `json:"open_error,omitempty"`
}

type rowOutcome struct {
	Row    int    `json:"row"`
	Reason string `json:"reason"`
	Error  string `json:"error"`
}

// recordMap holds the non-empty fields of a record.
func recordMap(rec Record) map[string]any {
	m := map[string]any{}
	v := reflect.ValueOf(rec)
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			if f.String() != "" {
				m[v.Type().Field(i).Name] = f.String()
			}
		case reflect.Int:
			m[v.Type().Field(i).Name] = float64(f.Int())
		}
	}
	return m
}

// readAll opens src and reads it to the end, recording every outcome.
func readAll(t testing.TB, src Source, opt Options) []outcome {
	t.Helper()
	r, err := OpenWith(context.Background(), src, opt)
	if err != nil {
		return []outcome{{OpenError: err.Error()}}
	}
	defer r.Close()
	return drain(t, r)
}

func drain(t testing.TB, r *Reader) []outcome {
	t.Helper()
	var out []outcome
	lastRow := 0
	for range 1_000_000 {
		rec, err := r.Next()
		var rowErr *RowError
		switch {
		case err == nil:
			if rec.Row <= lastRow {
				t.Fatalf("row %d after row %d", rec.Row, lastRow)
			}
			lastRow = rec.Row
			out = append(out, outcome{Record: recordMap(rec)})
		case errors.As(err, &rowErr):
			if rowErr.Row <= lastRow {
				t.Fatalf("row error %d after row %d", rowErr.Row, lastRow)
			}
			lastRow = rowErr.Row
			out = append(out, outcome{RowError: &rowOutcome{rowErr.Row, rowErr.Reason, rowErr.Err.Error()}})
		case err == io.EOF:
			return out
		default:
			out = append(out, outcome{Fatal: err.Error()})
			if _, again := r.Next(); again == nil || again.Error() != err.Error() {
				t.Fatalf("Next after fatal error %q returned %v", err, again)
			}
			return out
		}
	}
	t.Fatal("reader did not end")
	return nil
}

func TestFixtures(t *testing.T) {
	tests := []struct {
		file, format, golden string
		fields               map[string]string
	}{
		{"awin.csv", FormatAwinCSV, "awin", nil},
		{"awin.csv.gz", FormatAwinCSV, "awin", nil},
		{"awin_truncated.csv.gz", FormatAwinCSV, "awin_truncated", nil},
		{"awin_pipe.csv", FormatAwinCSV, "awin_pipe", nil},
		{"awin_missing_columns.csv", FormatAwinCSV, "awin_missing_columns", nil},
		{"awin_cp1252.csv", FormatAwinCSV, "awin_cp1252", nil},
		{"awin_unterminated.csv", FormatAwinCSV, "awin_unterminated", nil},
		{"awin_empty.csv", FormatAwinCSV, "awin_empty", nil},
		{"google.xml", FormatGoogleXML, "google_xml", nil},
		{"google.xml.gz", FormatGoogleXML, "google_xml", nil},
		{"google_truncated.xml", FormatGoogleXML, "google_truncated", nil},
		{"google_atom.xml", FormatGoogleXML, "google_atom", nil},
		{"google_undeclared.xml", FormatGoogleXML, "google_undeclared", nil},
		{"google_latin1.xml", FormatGoogleXML, "google_latin1", nil},
		{"google_broken.xml", FormatGoogleXML, "google_broken", nil},
		{"google_html.xml", FormatGoogleXML, "google_html", nil},
		{"google_empty.xml", FormatGoogleXML, "google_empty", nil},
		{"google.tsv", FormatGoogleTSV, "google_tsv", nil},
		{"google.tsv.gz", FormatGoogleTSV, "google_tsv", nil},
		{"google_subattr.tsv", FormatGoogleTSV, "google_subattr", nil},
		{"google_missing_columns.tsv", FormatGoogleTSV, "google_missing_columns", nil},
		{"feed.jsonl", FormatJSONL, "jsonl", jsonlFields},
		{"feed.jsonl.gz", FormatJSONL, "jsonl", jsonlFields},
		{"no_such_file.csv", FormatAwinCSV, "no_such_file", nil},
	}
	written := map[string]bool{} // golden files rewritten by -update
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src := Source{Format: tt.format, Location: filepath.Join("testdata", tt.file), Fields: tt.fields}
			got := readAll(t, src, Options{Now: fixedNow})
			path := filepath.Join("testdata", "golden", tt.golden+".json")
			if *update && !written[tt.golden] {
				written[tt.golden] = true
				var data bytes.Buffer
				enc := json.NewEncoder(&data)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				if err := enc.Encode(got); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, data.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("golden file (run with -update to create): %v", err)
			}
			var want []outcome
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("golden file %s: %v", path, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	ok := map[string]string{"id": "sku", "title": "name", "price": "pricing.now"}
	tests := []struct {
		name string
		src  Source
		want []string // substrings of the error; none for a valid source
	}{
		{"awin file", Source{Format: FormatAwinCSV, Location: "feeds/awin.csv.gz"}, nil},
		{"google url", Source{Format: FormatGoogleXML, Location: "https://example.co.uk/feed.xml", AuthEnv: "FEED_TOKEN"}, nil},
		{"tsv", Source{Format: FormatGoogleTSV, Location: "/data/g.tsv"}, nil},
		{"jsonl", Source{Format: FormatJSONL, Location: "x.jsonl", Fields: ok}, nil},
		{"unknown format", Source{Format: "csv", Location: "x"}, []string{`format "csv" is not supported`, "awin_csv, google_xml, google_tsv, jsonl"}},
		{"empty format", Source{Location: "x"}, []string{`format "" is not supported`}},
		{"no location", Source{Format: FormatAwinCSV}, []string{"location is empty"}},
		{"blank location", Source{Format: FormatAwinCSV, Location: "  "}, []string{"location is empty"}},
		{"ftp", Source{Format: FormatAwinCSV, Location: "ftp://example.com/f.csv"}, []string{`scheme "ftp" is not supported`}},
		{"url without host", Source{Format: FormatAwinCSV, Location: "https:///f.csv"}, []string{"has no host"}},
		{"bad auth env", Source{Format: FormatAwinCSV, Location: "x", AuthEnv: "1TOKEN"}, []string{`auth_env "1TOKEN"`}},
		{"auth env with dash", Source{Format: FormatAwinCSV, Location: "x", AuthEnv: "MY-TOKEN"}, []string{`auth_env "MY-TOKEN"`}},
		{"jsonl without fields", Source{Format: FormatJSONL, Location: "x"}, []string{"fields.id, fields.title, fields.price"}},
		{"jsonl without price", Source{Format: FormatJSONL, Location: "x", Fields: map[string]string{"id": "a", "title": "b"}}, []string{"jsonl needs fields.price"}},
		{"jsonl unknown field", Source{Format: FormatJSONL, Location: "x", Fields: map[string]string{"id": "a", "title": "b", "price": "c", "cost": "d"}},
			[]string{"fields.cost is not a record field", "id, title, description, price, sale_price"}},
		{"jsonl empty key", Source{Format: FormatJSONL, Location: "x", Fields: map[string]string{"id": "a", "title": "b", "price": "c", "brand": ""}}, []string{"fields.brand is empty"}},
		{"jsonl bad path", Source{Format: FormatJSONL, Location: "x", Fields: map[string]string{"id": "a", "title": "b", "price": "c..d"}}, []string{"empty path segment"}},
		{"fields on csv", Source{Format: FormatAwinCSV, Location: "x", Fields: ok}, []string{"fields is only used by the jsonl format"}},
		{"several problems", Source{Format: "xml"}, []string{"format", "location is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.src.Validate()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate() = nil, want an error with %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate() = %q, want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestLineTooLong(t *testing.T) {
	long := strings.Repeat("x", 200)
	tests := []struct {
		name   string
		src    Source
		input  string
		reason []string // per outcome: "" for a record, else the row error reason
	}{
		{"jsonl", Source{Format: FormatJSONL, Fields: jsonlFields},
			`{"sku":"1","name":"a","pricing":{"now":1}}` + "\n" + `{"sku":"2","name":"` + long + `"}` + "\n" + `{"sku":"3","name":"c"}`,
			[]string{"", ReasonLineTooLong, ""}},
		{"jsonl last line", Source{Format: FormatJSONL, Fields: jsonlFields},
			`{"sku":"1"}` + "\n" + long,
			[]string{"", ReasonLineTooLong}},
		{"tsv", Source{Format: FormatGoogleTSV},
			"id\ttitle\tprice\n1\ta\t1\n2\t" + long + "\t2\n3\tc\t3\n",
			[]string{"", ReasonLineTooLong, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.src.Location = "input"
			r, err := newReader(context.Background(), io.NopCloser(strings.NewReader(tt.input)), tt.src, Options{MaxLineBytes: 100}.withDefaults(), "input")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range drain(t, r) {
				switch {
				case o.Record != nil:
					got = append(got, "")
				case o.RowError != nil:
					got = append(got, o.RowError.Reason)
				default:
					got = append(got, "fatal: "+o.Fatal)
				}
			}
			if diff := cmp.Diff(tt.reason, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDefaultLineLimit reads a jsonl line just over 1 MiB with the default
// limit, between two good lines.
func TestDefaultLineLimit(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"sku":"1","name":"a","pricing":{"now":1}}` + "\n")
	b.WriteString(`{"sku":"2","name":"` + strings.Repeat("y", DefaultMaxLineBytes) + `"}` + "\n")
	b.WriteString(`{"sku":"3","name":"` + strings.Repeat("z", DefaultMaxLineBytes-100) + `","pricing":{"now":3}}` + "\n")
	r, err := NewReader(&b, Source{Format: FormatJSONL, Fields: jsonlFields})
	if err != nil {
		t.Fatal(err)
	}
	out := drain(t, r)
	if len(out) != 3 || out[0].Record == nil || out[1].RowError == nil || out[1].RowError.Reason != ReasonLineTooLong || out[2].Record == nil {
		t.Fatalf("got %d outcomes, want record, line_too_long, record: %+v", len(out), out)
	}
	if got := out[2].Record["Price"]; got != "3" {
		t.Errorf("third record price = %v, want 3", got)
	}
}

func TestNextAfterEndAndClose(t *testing.T) {
	r, err := Open(context.Background(), Source{Format: FormatAwinCSV, Location: "testdata/awin_pipe.csv"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 2 {
		t.Errorf("read %d records, want 2", n)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next after the end = %v, want io.EOF", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Open(ctx, Source{Format: FormatAwinCSV, Location: "testdata/awin.csv"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Next(); err != nil {
		t.Fatalf("first Next: %v", err)
	}
	cancel()
	if _, err := r.Next(); !errors.Is(err, context.Canceled) {
		t.Errorf("Next after cancel = %v, want context.Canceled", err)
	}
}

func TestNewReaderRejectsBadFormat(t *testing.T) {
	if _, err := NewReader(strings.NewReader(""), Source{Format: "xlsx"}); err == nil || !strings.Contains(err.Error(), "awin_csv, google_xml") {
		t.Errorf("NewReader(xlsx) = %v, want an error listing the formats", err)
	}
	if _, err := NewReader(strings.NewReader("\x1f\x8bnot gzip"), Source{Format: FormatAwinCSV}); err == nil || !strings.Contains(err.Error(), "not gzip-decodable") {
		t.Errorf("NewReader(bad gzip) = %v, want not gzip-decodable", err)
	}
}

func TestSaleActive(t *testing.T) {
	now := fixedNow
	tests := []struct {
		window string
		want   bool
	}{
		{"", true},
		{"garbage", true},
		{"2025-06-01T00:00+01:00/2025-06-30T23:59+01:00", true},
		{"2025-06-11T00:00Z/2025-06-30T00:00Z", false},
		{"2025-01-01T00:00:00Z/2025-06-10T12:00:00Z", false},
		{"2025-01-01/2025-12-31", true},
		{"2025-01-01T00:00-0800/2025-12-31T00:00-0800", true},
		{"nonsense/2030-01-01", true},
		{"2020-01-01/nonsense", true},
	}
	for _, tt := range tests {
		t.Run(tt.window, func(t *testing.T) {
			if got := saleActive(tt.window, now); got != tt.want {
				t.Errorf("saleActive(%q) = %v, want %v", tt.window, got, tt.want)
			}
		})
	}
}

func TestDelivery(t *testing.T) {
	tests := []struct {
		name string
		item googleItem
		want string
	}{
		{"none", googleItem{}, ""},
		{"free only", googleItem{Shipping: []googleShipping{{Country: "GB", Price: "0 GBP"}}}, "Free delivery"},
		{"paid, no times", googleItem{Shipping: []googleShipping{{Country: "GB", Price: "4.99 GBP"}}}, ""},
		{"transit range", googleItem{Shipping: []googleShipping{{MinTransitTime: "2", MaxTransitTime: "4", Price: "3.95 GBP"}}}, "Delivery in 2-4 business days"},
		{"handling and transit", googleItem{Shipping: []googleShipping{{MinHandlingTime: "0", MaxHandlingTime: "1", MinTransitTime: "1", MaxTransitTime: "3", Price: "£0.00"}}}, "Free delivery in 1-4 business days"},
		{"one day", googleItem{Shipping: []googleShipping{{MaxTransitTime: "1"}}}, "Delivery in 1 business day"},
		{"handling only", googleItem{MaxHandling: "2"}, "Dispatched within 2 business days"},
		{"min handling only", googleItem{MinHandling: "1"}, "Dispatched within 1 business day"},
		{"free with handling", googleItem{MaxHandling: "1", Shipping: []googleShipping{{Price: "0.00 GBP"}}}, "Free delivery, dispatched within 1 business day"},
		{"uk preferred", googleItem{Shipping: []googleShipping{{Country: "US", MaxTransitTime: "9"}, {Country: "UK", MaxTransitTime: "2"}}}, "Delivery in 2 business days"},
		{"bad numbers", googleItem{Shipping: []googleShipping{{MinTransitTime: "x", MaxTransitTime: "-1"}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.item.delivery(); got != tt.want {
				t.Errorf("delivery() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestField(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"  plain  ", "plain"},
		{"£1,299.00", "£1,299.00"},
		{"\xa31,299.00", "£1,299.00"},
		{"Switch\x99 \x96 OLED", "Switch™ – OLED"},
		{"caf\xe9", "café"},
		{"\x81", "\uFFFD"},
		{"\t\r\n x \n", "x"},
	}
	for _, tt := range tests {
		t.Run(strconv.Quote(tt.in), func(t *testing.T) {
			if got := field(tt.in); got != tt.want {
				t.Errorf("field(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSniffDelimiter(t *testing.T) {
	tests := []struct {
		header string
		want   rune
	}{
		{"a,b,c\n", ','},
		{"a\tb\tc\n", '\t'},
		{"a|b|c\n", '|'},
		{"a;b;c\n", ';'},
		{`"a,b";c;d` + "\n", ';'},
		{"single\n", ','},
		{"", ','},
		{"a,b|c\n", ','},
	}
	for _, tt := range tests {
		t.Run(strconv.Quote(tt.header), func(t *testing.T) {
			if got := sniffDelimiter(newBufReader(tt.header)); got != tt.want {
				t.Errorf("sniffDelimiter(%q) = %q, want %q", tt.header, got, tt.want)
			}
		})
	}
}

func newBufReader(s string) *bufio.Reader {
	return bufio.NewReaderSize(strings.NewReader(s), 4096)
}

// TestImports keeps net/http out of the feed package except its fetch code.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "fetch.go" {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "net/http" {
				t.Errorf("%s imports net/http; only fetch.go may", f)
			}
		}
	}
}
