package api

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

// openapiFragments are the parts of openapi.yaml written from the
// attribute table: each pattern's second group is replaced by the text the
// table gives.
func openapiFragments(attrs *catalog.AttributeTable) []struct {
	re   *regexp.Regexp
	text string
} {
	units := make([]string, attrs.Len())
	for i := range attrs.Len() {
		d := attrs.At(i)
		units[i] = fmt.Sprintf("%s (%s)", d.Name, d.UnitDoc)
	}
	return []struct {
		re   *regexp.Regexp
		text string
	}{
		{regexp.MustCompile(`(?m)(^    AttributeName:\n      type: string\n      enum: \[)([^\]\n]*)\]$`),
			strings.Join(attrs.Names(), ", ")},
		{regexp.MustCompile(`(?m)(^ +the attribute names, in their units:\n +)(.*)\.$`), strings.Join(units, ", ")},
	}
}

// writeFragments rewrites the table's fragments of an OpenAPI document.
func writeFragments(t *testing.T, doc []byte, attrs *catalog.AttributeTable) []byte {
	t.Helper()
	for _, f := range openapiFragments(attrs) {
		loc := f.re.FindSubmatchIndex(doc)
		if loc == nil {
			t.Fatalf("openapi.yaml has no fragment matching %s", f.re)
		}
		doc = append(append(append([]byte{}, doc[:loc[4]]...), f.text...), doc[loc[5]:]...)
	}
	return doc
}

// TestOpenAPIFacts keeps the attribute names and units of openapi.yaml
// equal to the attribute table (-update rewrites them) and checks the
// categories and the constraints example against the catalog.
func TestOpenAPIFacts(t *testing.T) {
	attrs := catalog.DefaultAttributes()
	const path = "openapi.yaml"
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := writeFragments(t, file, attrs)
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if diff := cmp.Diff(string(want), string(file)); diff != "" {
		t.Errorf("openapi.yaml is out of date with the attribute table (run go test ./internal/api -run TestOpenAPIFacts -update); "+
			"mismatch (-want +got):\n%s", diff)
	}
	doc := loadDoc(t)
	enum := func(name string) []string {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil {
			t.Fatalf("schema %s missing", name)
		}
		var out []string
		for _, v := range ref.Value.Enum {
			out = append(out, fmt.Sprint(v))
		}
		return out
	}
	if diff := cmp.Diff(catalog.Categories(), enum("Category")); diff != "" {
		t.Errorf("Category enum mismatch (-want +got):\n%s", diff)
	}
	param := doc.Paths.Find("/api/search").Get.Parameters.GetByInAndName("query", "constraints")
	if param == nil {
		t.Fatal("parameter constraints of /api/search missing")
	}
	var example map[string]map[string]float64
	if err := json.Unmarshal([]byte(fmt.Sprint(param.Example)), &example); err != nil {
		t.Fatalf("constraints example %v: %v", param.Example, err)
	}
	for name, ops := range example {
		d := attrs.Lookup(name)
		if d == nil {
			t.Errorf("constraints example names %s, which is not an attribute", name)
			continue
		}
		if diff := cmp.Diff(map[string]float64{d.ExampleOp: d.Example}, ops); diff != "" {
			t.Errorf("constraints example for %s mismatch (-want +got):\n%s", name, diff)
		}
	}
}

// TestOpenAPIFragments rewrites the fragments for a table with another
// attribute: both places name it, and nothing else changes.
func TestOpenAPIFragments(t *testing.T) {
	defs := append(catalog.DefaultAttributes().Defs(),
		catalog.AttributeDef{Name: "battery_mah", UnitDoc: "mAh", ExampleOp: catalog.OpGte})
	attrs, err := catalog.NewAttributeTable(defs...)
	if err != nil {
		t.Fatal(err)
	}
	file := OpenAPI()
	got := string(writeFragments(t, file, attrs))
	for _, want := range []string{
		"enum: [memory_gb, storage_gb, screen_in, resolution_p, refresh_hz, power_w, wifi_gen, battery_mah]\n",
		"wifi_gen (generation, 6E = 6.5), battery_mah (mAh).\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten openapi.yaml lacks %q", want)
		}
	}
	if d := len(got) - len(file); d != len(", battery_mah")+len(", battery_mah (mAh)") {
		t.Errorf("rewriting changed %d bytes more than the new attribute", d)
	}
}
