package catalog

import (
	"os"
	"path/filepath"
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
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	if m, _ := filepath.Glob(path + ".*.tmp"); len(m) > 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
}

func TestReadSnapshotRejectsDamage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.snapshot")
	if err := WriteSnapshot(path, sampleSnapshot(10)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, content, wantErr string
	}{
		{"empty", "", "empty file"},
		{"not a snapshot", `{"format":"other"}` + "\n", "not a snapshot"},
		{"future version", `{"format":"productsearch-snapshot","version":99}` + "\n", "version 99"},
		{"truncated", string(data[:len(data)/2]), "truncated"},
		{"bad line", strings.Replace(string(data), `"price":649.99`, `"price":"x"`, 1), "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.name)
			if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadSnapshot(p)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ReadSnapshot error = %v, want one containing %q", err, tt.wantErr)
			}
		})
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
