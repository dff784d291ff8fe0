package demo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

func TestReadTruthFixture(t *testing.T) {
	rows, err := ReadTruth("testdata/truth/valid.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 10 {
		t.Fatalf("ReadTruth read %d rows, want 10", len(rows))
	}
	reasons := map[string]bool{}
	for _, r := range rows {
		reasons[r.Reject] = true
	}
	for _, want := range []string{"", RejectNotNew, RejectBadPrice} {
		if !reasons[want] {
			t.Errorf("fixture lacks a row with reject %q", want)
		}
	}
}

func TestReadTruthErrors(t *testing.T) {
	good := `{"retailer":"Voltline","merchant_id":"1","row":1,"product":"p","category":"Laptops","product_type":"product","title":"t","attributes":{},"title_attributes":{},"reject":""}`
	tests := []struct {
		name, content, wantErr string
	}{
		{"not JSON", "{nope", "line 1"},
		{"unknown field", strings.Replace(good, `"title":"t"`, `"titel":"t"`, 1), "unknown field"},
		{"bad category", strings.Replace(good, "Laptops", "Notebooks", 1), "category"},
		{"bad product type", strings.Replace(good, `"product_type":"product"`, `"product_type":"device"`, 1), "product_type"},
		{"error names the line", good + "\n" + strings.Replace(good, `"retailer":"Voltline"`, `"retailer":""`, 1), "line 2"},
		{"bad reject", strings.Replace(good, `"reject":""`, `"reject":"used"`, 1), "reject"},
		{"row not 1-based", strings.Replace(good, `"row":1`, `"row":0`, 1), "row 0"},
		{"unknown attribute", strings.Replace(good, `"attributes":{}`, `"attributes":{"ram_gb":8}`, 1), "ram_gb"},
		{"negative attribute", strings.Replace(good, `"title_attributes":{}`, `"title_attributes":{"memory_gb":-8}`, 1), "memory_gb"},
		{"missing product", strings.Replace(good, `"product":"p"`, `"product":""`, 1), "required"},
		{"two values on a line", good + good, "more than one JSON value"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".jsonl")
			if err := os.WriteFile(path, []byte(tt.content+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadTruth(path)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ReadTruth error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
	if _, err := ReadTruth(filepath.Join(dir, "absent.jsonl")); err == nil {
		t.Error("ReadTruth of a missing file succeeded")
	}
	path := filepath.Join(dir, "blank-lines.jsonl")
	if err := os.WriteFile(path, []byte("\n"+good+"\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if rows, err := ReadTruth(path); err != nil || len(rows) != 1 {
		t.Errorf("ReadTruth with blank lines = %d rows, %v; want 1 row", len(rows), err)
	}
}

// TestTruthAppendJSON checks the hand-written encoder against encoding/json.
func TestTruthAppendJSON(t *testing.T) {
	tests := []TruthRow{
		{Retailer: "Harbour Electronics", MerchantID: "123", Row: 7, Product: "lg-oled-c3-55", Category: "TVs",
			ProductType: catalog.TypeProduct, Title: `LG OLED55C36LC 55" Smart 4K <TV> & "more"`,
			Attributes:      map[string]float64{catalog.ScreenIn: 55, catalog.ResolutionP: 2160, catalog.RefreshHz: 120},
			TitleAttributes: map[string]float64{catalog.ScreenIn: 55}},
		{Retailer: "Northgate Tech", MerchantID: "NG1", Row: 1, Product: "p", Category: "Cables & Chargers",
			ProductType: catalog.TypeAccessory, Title: "tab\there\nnew line \\ back \x01 ctl – é",
			Attributes: map[string]float64{}, TitleAttributes: map[string]float64{catalog.WifiGen: 6.5},
			WrongSpec: catalog.WifiGen, Duplicate: true, Reject: RejectMalformed},
	}
	for _, want := range tests {
		t.Run(want.Retailer, func(t *testing.T) {
			line, err := want.appendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			if line[len(line)-1] != '\n' {
				t.Fatalf("line does not end with a newline: %q", line)
			}
			var got TruthRow
			if err := json.Unmarshal(line, &got); err != nil {
				t.Fatalf("encoding/json cannot read %s: %v", line, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzDecodeTruth(f *testing.F) {
	b, err := os.ReadFile("testdata/truth/valid.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("{}\n")
	f.Add(`{"row":-1}`)
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := decodeTruth(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, r := range rows {
			if err := r.check(); err != nil {
				t.Errorf("decodeTruth accepted a row that fails check: %v", err)
			}
		}
	})
}
