package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

// TestOpenAPIFacts checks the facts openapi.yaml repeats against the
// attribute table and the category list, so that the document cannot drift
// from them.
func TestOpenAPIFacts(t *testing.T) {
	doc := loadDoc(t)
	attrs := catalog.DefaultAttributes()
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
	param := doc.Paths.Find("/api/search").Get.Parameters.GetByInAndName("query", "constraints")
	if param == nil {
		t.Fatal("parameter constraints of /api/search missing")
	}
	tests := []struct {
		name string
		want any
		got  any
	}{
		{"AttributeName enum", attrs.Names(), enum("AttributeName")},
		{"Category enum", catalog.Categories(), enum("Category")},
		{"names in the constraints description", true,
			strings.Contains(strings.Join(strings.Fields(param.Description), " "), strings.Join(attrs.Names(), ", "))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("openapi.yaml mismatch (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("constraints example uses the table's examples", func(t *testing.T) {
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
	})
}
