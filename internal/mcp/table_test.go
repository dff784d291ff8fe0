package mcp

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

// TestSchemaOfExtendedTable lists search_products over a table with an
// attribute the default table lacks: the constraints of the input and
// output schemas follow the table.
func TestSchemaOfExtendedTable(t *testing.T) {
	defs := append(catalog.DefaultAttributes().Defs(),
		catalog.AttributeDef{Name: "battery_mah", Doc: "Battery capacity in mAh.", Example: 5000, ExampleOp: catalog.OpGte},
		catalog.AttributeDef{Name: "weight_kg", Example: 1, ExampleOp: catalog.OpLte})
	table, err := catalog.NewAttributeTable(defs...)
	if err != nil {
		t.Fatal(err)
	}
	cs := connectInMemory(t, NewServer(fixtureEngine(t), Options{Attributes: table}))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tool map[string]any
	for _, tl := range list.Tools {
		if tl.Name == ToolSearchProducts {
			tool = map[string]any{"in": schemaMap(t, tl.InputSchema), "out": schemaMap(t, tl.OutputSchema)}
		}
	}
	if tool == nil {
		t.Fatal("search_products not listed")
	}
	consProps := func(schema any) map[string]any {
		props := schema.(map[string]any)["properties"].(map[string]any)
		return props["constraints"].(map[string]any)["properties"].(map[string]any)
	}
	tests := []struct {
		name string
		want any
		got  func() any
	}{
		{"input constraint names", len(table.Names()), func() any { return len(consProps(tool["in"])) }},
		{"output constraint names", len(table.Names()), func() any { return len(consProps(tool["out"])) }},
		{"description of a documented attribute", "Battery capacity in mAh. Give eq, or gte and/or lte (both for a range).",
			func() any { return consProps(tool["in"])["battery_mah"].(map[string]any)["description"] }},
		{"description of an undocumented attribute", "weight_kg Give eq, or gte and/or lte (both for a range).",
			func() any { return consProps(tool["in"])["weight_kg"].(map[string]any)["description"] }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
