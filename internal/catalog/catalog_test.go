package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestBuildAttribute(t *testing.T) {
	src := func(names ...string) []Source {
		out := make([]Source, len(names))
		for i, n := range names {
			out[i] = Source{Retailer: n, Field: FieldTitle}
		}
		return out
	}
	tests := []struct {
		name string
		obs  []Observation
		want Attribute
		ok   bool
	}{
		{name: "none", obs: nil, ok: false},
		{name: "one retailer infers", obs: []Observation{{"B", 16}}, want: Attribute{Status: Inferred, Value: 16, Sources: src("B")}, ok: true},
		{name: "one retailer twice is still inferred", obs: []Observation{{"B", 16}, {"B", 16}}, want: Attribute{Status: Inferred, Value: 16, Sources: src("B")}, ok: true},
		{name: "two retailers confirm", obs: []Observation{{"B", 16}, {"A", 16}}, want: Attribute{Status: Confirmed, Value: 16, Sources: src("A", "B")}, ok: true},
		{
			name: "different values conflict, a retailer may appear under both",
			obs:  []Observation{{"A", 16}, {"B", 8}, {"A", 8}},
			want: Attribute{Status: Conflicting, Values: []StatedValue{{Value: 8, Sources: src("A", "B")}, {Value: 16, Sources: src("A")}}},
			ok:   true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := BuildAttribute(tt.obs)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("BuildAttribute mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStated(t *testing.T) {
	a, _ := BuildAttribute([]Observation{{"A", 16}, {"B", 8}})
	if diff := cmp.Diff([]float64{8, 16}, a.Stated()); diff != "" {
		t.Errorf("Stated mismatch (-want +got):\n%s", diff)
	}
	b, _ := BuildAttribute([]Observation{{"A", 15.6}})
	if diff := cmp.Diff([]float64{15.6}, b.Stated()); diff != "" {
		t.Errorf("Stated mismatch (-want +got):\n%s", diff)
	}
}

func TestCategories(t *testing.T) {
	if n := len(Categories()); n != 19 {
		t.Fatalf("%d categories, want 19", n)
	}
	for _, c := range []string{"Phones", "TVs", "Cables & Chargers"} {
		if !IsCategory(c) {
			t.Errorf("IsCategory(%q) = false", c)
		}
	}
	for _, c := range []string{"Smartphones", "Televisions", "phones", ""} {
		if IsCategory(c) {
			t.Errorf("IsCategory(%q) = true", c)
		}
	}
}

func sampleSnapshot(n int) *Snapshot {
	stock := 3
	when := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	s := &Snapshot{Manifest: Manifest{SyncTime: when, Offers: n, Categories: map[string]int{"Laptops": n}}}
	for i := range n {
		id := "p" + strings.Repeat("x", i%5) + string(rune('a'+i%26))
		s.Products = append(s.Products, Product{
			ID: id, Title: "Lenovo IdeaPad Slim 5 14\" 16GB RAM 512GB SSD", Brand: "Lenovo", Price: 649.99, Currency: Currency,
			Availability: LowStock, Stock: &stock, Category: "Laptops", ProductType: TypeProduct,
			Attributes: map[string]Attribute{MemoryGB: {Status: Inferred, Value: 16, Sources: []Source{{"Voltline", FieldTitle}}}},
			Provenance: Provenance{Source: "Voltline", LastUpdated: when}, PurchaseURL: "https://www.example.co.uk/p/1",
			OfferCount: 1, Offers: []Offer{{ID: "voltline-1", Source: "Voltline", Title: "t", Price: 649.99, Currency: Currency,
				Availability: LowStock, PurchaseURL: "https://www.example.co.uk/p/1", LastUpdated: when}},
		})
	}
	return s
}

func TestSnapshotRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog.snapshot")
	want := sampleSnapshot(1000)
	if err := WriteSnapshot(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	want.Manifest.Format, want.Manifest.Version, want.Manifest.Products = SnapshotFormat, SnapshotVersion, 1000
	if len(got.Manifest.BodySHA256) != 64 {
		t.Errorf("manifest checksum = %q, want 64 hex digits", got.Manifest.BodySHA256)
	}
	want.Manifest.BodySHA256 = got.Manifest.BodySHA256
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	if m, _ := filepath.Glob(path + ".*.tmp"); len(m) > 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
}

func TestReadSnapshotRejectsDamage(t *testing.T) {
	dir, data := writtenSample(t)
	// legacy is the file as written before snapshots carried a checksum.
	legacy := regexp.MustCompile(`,"body_sha256":"[0-9a-f]{64}"`).ReplaceAllString(string(data), "")
	if legacy == string(data) {
		t.Fatal("the manifest carries no body_sha256")
	}
	// overwritten has a few bytes in the middle of a title replaced: the
	// file stays well-formed and would load with a garbled title.
	mid := strings.Index(string(data[len(data)/2:]), "IdeaPad") + len(data)/2
	overwritten := string(data[:mid]) + "IdeaPXX" + string(data[mid+7:])
	tests := []struct {
		name, content string
		wantIs        error  // with errors.Is, when set
		wantErr       string // in the message otherwise
	}{
		{name: "empty", content: "", wantErr: "empty file"},
		{name: "not a snapshot", content: `{"format":"other"}` + "\n", wantErr: "not a snapshot"},
		{name: "future version", content: `{"format":"productsearch-snapshot","version":99}` + "\n", wantErr: "version 99"},
		{name: "bytes overwritten", content: overwritten, wantIs: ErrChecksum},
		{name: "truncated", content: string(data[:len(data)/2]), wantIs: ErrChecksum},
		{name: "bad line", content: strings.Replace(string(data), `"price":649.99`, `"price":"x"`, 1), wantIs: ErrChecksum},
		{name: "checksum altered", content: strings.Replace(string(data), `"body_sha256":"`, `"body_sha256":"0`, 1)[:len(data)] + "\n", wantIs: ErrChecksum},
		{name: "legacy truncated", content: legacy[:len(legacy)/2], wantErr: "truncated"},
		{name: "legacy bad line", content: strings.Replace(legacy, `"price":649.99`, `"price":"x"`, 1), wantErr: "line 2:"},
		{name: "legacy empty lines", content: strings.Replace(legacy, "}\n{", "}\n\n{", 2), wantErr: "file has 12"},
		{name: "legacy empty product line", content: emptyLine(legacy, 2), wantErr: "line 3:"},
		{name: "legacy extra product", content: legacy + legacy[strings.Index(legacy, "\n")+1:], wantErr: "file has 20"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, fmt.Sprintf("case%d", i))
			if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadSnapshot(p)
			switch {
			case tt.wantIs != nil && !errors.Is(err, tt.wantIs):
				t.Errorf("ReadSnapshot error = %v, want %v", err, tt.wantIs)
			case tt.wantIs == nil && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("ReadSnapshot error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// emptyLine returns content with line i (from 0) emptied.
func emptyLine(content string, i int) string {
	lines := strings.Split(content, "\n")
	lines[i] = ""
	return strings.Join(lines, "\n")
}

// TestReadSnapshotLegacy reads a snapshot written before the checksum
// existed: it loads, unverified.
func TestReadSnapshotLegacy(t *testing.T) {
	dir, data := writtenSample(t)
	path := filepath.Join(dir, "legacy.snapshot")
	legacy := regexp.MustCompile(`,"body_sha256":"[0-9a-f]{64}"`).ReplaceAll(data, nil)
	if err := os.WriteFile(path, legacy, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Products) != 10 || s.Manifest.BodySHA256 != "" {
		t.Errorf("legacy snapshot read as %d products with checksum %q, want 10 and none", len(s.Products), s.Manifest.BodySHA256)
	}
}

func BenchmarkReadSnapshot(b *testing.B) {
	path := filepath.Join(b.TempDir(), "catalog.snapshot")
	if err := WriteSnapshot(path, sampleSnapshot(26000)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ReadSnapshot(path); err != nil {
			b.Fatal(err)
		}
	}
}

// writtenSample writes a ten-product sample snapshot into a temporary
// directory and returns the directory and the file's bytes.
func writtenSample(t *testing.T) (dir string, data []byte) {
	t.Helper()
	dir = t.TempDir()
	path := filepath.Join(dir, "catalog.snapshot")
	if err := WriteSnapshot(path, sampleSnapshot(10)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, data
}
