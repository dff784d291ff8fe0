package search

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

// encodingJSON encodes v as encoding/json does with HTML escaping off.
func encodingJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func sampleProduct() *catalog.Product {
	stock := 3
	at := time.Date(2025, 6, 1, 8, 30, 15, 123000000, time.UTC)
	src := func(r string) catalog.Source { return catalog.Source{Retailer: r, Field: catalog.FieldTitle} }
	return &catalog.Product{
		ID: "p-1", Title: `Dell XPS 13 "Plus" <OLED> & more` + "\t\u2028", Brand: "Dell", Price: 1199.99, Currency: "GBP",
		Availability: catalog.LowStock, Stock: &stock, DeliveryTime: "2-3 days", ImageURL: "https://img.example/a.jpg?x=1&y=2",
		Category: "Laptops", ProductType: catalog.TypeProduct,
		Specs: catalog.Specs{Description: "Intel Core Ultra 7\nbacklit keyboard", ModelNumber: "XPS9340"},
		Attributes: map[string]catalog.Attribute{
			catalog.ScreenIn:  {Status: catalog.Inferred, Value: 13.4, Sources: []catalog.Source{src("Currys")}},
			catalog.MemoryGB:  {Status: catalog.Confirmed, Value: 16, Sources: []catalog.Source{src("Argos"), src("Currys")}},
			catalog.StorageGB: {Status: catalog.Conflicting, Values: []catalog.StatedValue{{Value: 512, Sources: []catalog.Source{src("Argos")}}, {Value: 1000, Sources: []catalog.Source{src("Currys")}}}},
		},
		Provenance:  catalog.Provenance{Source: "Currys", LastUpdated: at},
		PurchaseURL: "https://currys.example/p/1", OfferCount: 2,
		Offers: []catalog.Offer{
			{ID: "c-1", Source: "Currys", Title: "Dell XPS 13", Price: 1199.99, Currency: "GBP", Availability: catalog.LowStock, Stock: &stock,
				DeliveryTime: "2-3 days", PurchaseURL: "https://currys.example/p/1", ImageURL: "https://img.example/a.jpg", LastUpdated: at},
			{ID: "a-1", Source: "Argos", Title: "Dell XPS 13 16GB 512GB", Price: 1249, Currency: "GBP", Availability: catalog.InStock,
				PurchaseURL: "https://argos.example/p/1", LastUpdated: at.Add(-time.Hour)},
		},
	}
}

func TestAppendProductMatchesEncodingJSON(t *testing.T) {
	p := sampleProduct()
	minimal := &catalog.Product{ID: "m", Title: "Minimal", Price: 0.5, Currency: "GBP", Availability: catalog.InStock,
		Category: "Mice", ProductType: catalog.TypeAccessory, Attributes: map[string]catalog.Attribute{}, Offers: []catalog.Offer{},
		Provenance: catalog.Provenance{Source: "Box"}, PurchaseURL: "https://box.example/m"}
	for _, p := range []*catalog.Product{p, minimal} {
		want := encodingJSON(t, p)
		if got := AppendProduct(nil, p); !bytes.Equal(got, want) {
			t.Errorf("AppendProduct(%s) =\n%s\nwant\n%s", p.ID, got, want)
		}
	}
}

func TestAppendProductEmptyCollections(t *testing.T) {
	p := &catalog.Product{ID: "x", Title: "X", Currency: "GBP"}
	var got map[string]any
	if err := json.Unmarshal(AppendProduct(nil, p), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{}, got["attributes"]); diff != "" {
		t.Errorf("attributes mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{}, got["offers"]); diff != "" {
		t.Errorf("offers mismatch (-want +got):\n%s", diff)
	}
}

func TestAppendLiteProduct(t *testing.T) {
	p := sampleProduct()
	type lite struct {
		ID           string               `json:"id"`
		Title        string               `json:"title"`
		Brand        string               `json:"brand,omitempty"`
		Price        float64              `json:"price"`
		Currency     string               `json:"currency"`
		Availability catalog.Availability `json:"availability"`
		ImageURL     string               `json:"image_url,omitempty"`
		PurchaseURL  string               `json:"purchase_url"`
		OfferCount   int                  `json:"offer_count"`
	}
	for _, p := range []*catalog.Product{p, {ID: "n", Title: "No brand", Currency: "GBP", Availability: catalog.OutOfStock, PurchaseURL: "u"}} {
		want := encodingJSON(t, lite{p.ID, p.Title, p.Brand, p.Price, p.Currency, p.Availability, p.ImageURL, p.PurchaseURL, p.OfferCount})
		if got := AppendLiteProduct(nil, p); !bytes.Equal(got, want) {
			t.Errorf("AppendLiteProduct(%s) =\n%s\nwant\n%s", p.ID, got, want)
		}
	}
}

func TestProductJSONSplit(t *testing.T) {
	pj := NewProductJSON(sampleProduct())
	if !bytes.Equal(pj.Full, AppendProduct(nil, sampleProduct())) {
		t.Errorf("Full differs from AppendProduct")
	}
	if !bytes.HasPrefix(pj.Full[pj.Split:], []byte(`,"provenance":`)) {
		t.Errorf("Split does not point at provenance: %s", pj.Full[pj.Split:])
	}
	if !bytes.Equal(pj.Lite, AppendLiteProduct(nil, sampleProduct())) {
		t.Errorf("Lite differs from AppendLiteProduct")
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " backslash \ slash /`, "<html> & 'single'", "tab\tnl\ncr\rbs\bff\f",
		"\x00\x01\x1f\x7f", "é ü 日本 😀", "\u2028\u2029", "bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate"} {
		want := encodingJSON(t, s)
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestAppendFloat(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.1, 799, 1199.99, 6.5, 1e20, 1e21, 1.5e21, 1e-6, 1e-7, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64, -2.5e-9} {
		want := encodingJSON(t, f)
		if got := appendFloat(nil, f); !bytes.Equal(got, want) {
			t.Errorf("appendFloat(%g) = %s, want %s", f, got, want)
		}
	}
	if got := string(appendFloat(nil, math.NaN())); got != "0" {
		t.Errorf("appendFloat(NaN) = %s, want 0", got)
	}
}

func TestResultJSON(t *testing.T) {
	p := sampleProduct()
	q := &catalog.Product{ID: "q", Title: "Q", Currency: "GBP", Availability: catalog.InStock, PurchaseURL: "https://q.example",
		Attributes: map[string]catalog.Attribute{catalog.WifiGen: {Status: catalog.Inferred, Value: 6}}}
	cons := Constraints{catalog.StorageGB: {Gte: ptr(512)}, catalog.MemoryGB: {Gte: ptr(16), Lte: ptr(32)}}
	liteP := `{"id":"p-1","title":"Dell XPS 13 \"Plus\" <OLED> & more\t\u2028","brand":"Dell","price":1199.99,"currency":"GBP",` +
		`"availability":"low_stock","image_url":"https://img.example/a.jpg?x=1&y=2","purchase_url":"https://currys.example/p/1","offer_count":2`
	tests := []struct {
		name string
		res  Result
		want string
	}{
		{"empty", Result{}, `{"products":[],"total":0}`},
		{"lite without constraints", Result{Products: []Hit{{Product: p}}, Total: 7, Lite: true}, `{"products":[` + liteP + `}],"total":7}`},
		{"lite with constraints", Result{
			Products: []Hit{
				{Product: p, ConstraintStatus: map[string]string{catalog.MemoryGB: StatusMatched, catalog.StorageGB: StatusUnverified}},
				{Product: q, ConstraintStatus: map[string]string{catalog.MemoryGB: StatusUnverified, catalog.StorageGB: StatusUnverified}},
			},
			Total: 1, Constraints: cons, ExcludedByConstraints: 4, UnverifiedTotal: 9, CandidatesTruncated: true, Lite: true},
			`{"products":[` + liteP + `,"constraint_status":{"memory_gb":"matched","storage_gb":"unverified"},` +
				`"attributes":{"memory_gb":{"status":"confirmed","value":16},"storage_gb":{"status":"conflicting","values":[{"value":512},{"value":1000}]}}},` +
				`{"id":"q","title":"Q","price":0,"currency":"GBP","availability":"in_stock","purchase_url":"https://q.example","offer_count":0,` +
				`"constraint_status":{"memory_gb":"unverified","storage_gb":"unverified"},"attributes":{}}],` +
				`"total":1,"constraints":{"memory_gb":{"gte":16,"lte":32},"storage_gb":{"gte":512}},"excluded_by_constraints":4,"unverified_total":9,"candidates_truncated":true}`},
		{"constraints without truncation", Result{Constraints: Constraints{catalog.ScreenIn: {Eq: ptr(15.6)}}},
			`{"products":[],"total":0,"constraints":{"screen_in":{"eq":15.6}},"excluded_by_constraints":0,"unverified_total":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.res.AppendJSON(nil)
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Result JSON mismatch (-want +got):\n%s", diff)
			}
			if pre := tt.res.AppendJSON([]byte("prefix")); string(pre) != "prefix"+tt.want {
				t.Errorf("AppendJSON does not append to dst")
			}
			// encoding/json escapes <, > and & in a Marshaler's output; the
			// value is the same.
			marshalled, err := json.Marshal(tt.res)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal(marshalled, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &b); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(b, a); diff != "" {
				t.Errorf("json.Marshal differs from AppendJSON (-append +marshal):\n%s", diff)
			}
		})
	}
}

// TestResultJSONFull checks that a full product with constraints is the
// product object with constraint_status added, and that precomputed and
// on-the-fly encodings agree.
func TestResultJSONFull(t *testing.T) {
	p := sampleProduct()
	status := map[string]string{catalog.MemoryGB: StatusMatched}
	cons := Constraints{catalog.MemoryGB: {Gte: ptr(8)}}
	for _, pj := range []*ProductJSON{nil, NewProductJSON(p)} {
		res := Result{Products: []Hit{{Product: p, ConstraintStatus: status, JSON: pj}}, Total: 1, Constraints: cons}
		var got struct {
			Products []map[string]any `json:"products"`
		}
		if err := json.Unmarshal(res.AppendJSON(nil), &got); err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := json.Unmarshal(encodingJSON(t, p), &want); err != nil {
			t.Fatal(err)
		}
		want["constraint_status"] = map[string]any{catalog.MemoryGB: StatusMatched}
		if diff := cmp.Diff(want, got.Products[0]); diff != "" {
			t.Errorf("full product with constraints mismatch (-want +got):\n%s", diff)
		}
		if !strings.Contains(string(res.AppendJSON(nil)), `"attributes":{`) {
			t.Errorf("attributes missing")
		}
	}
}

// TestAppendProductJSON checks products encoded one after another into
// one buffer: each equals its encoding on its own, and appending to the
// buffer (or to a returned slice) changes no earlier product's bytes.
func TestAppendProductJSON(t *testing.T) {
	a, b := sampleProduct(), sampleProduct()
	b.ID, b.Title, b.Offers = "p-other", "Another \"quoted\" title", nil
	var buf []byte
	var got []ProductJSON
	for _, p := range []*catalog.Product{a, b, a} {
		var pj ProductJSON
		pj, buf = AppendProductJSON(buf, p)
		got = append(got, pj)
	}
	_ = append(got[0].Full, "XX"...)
	_ = append(got[1].Lite, "YY"...)
	buf = append(buf, "ZZ"...)
	for i, p := range []*catalog.Product{a, b, a} {
		want := NewProductJSON(p)
		if string(got[i].Full) != string(want.Full) || string(got[i].Lite) != string(want.Lite) || got[i].Split != want.Split {
			t.Errorf("product %d: encoded in one buffer differs from on its own:\n%s\n%s", i, got[i].Full, want.Full)
		}
	}
	if len(buf) != len(got[0].Full)+len(got[0].Lite)+len(got[1].Full)+len(got[1].Lite)+len(got[2].Full)+len(got[2].Lite)+2 {
		t.Errorf("buffer holds %d bytes", len(buf))
	}
}
