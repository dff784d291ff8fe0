package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewAttributeTable(t *testing.T) {
	ok := AttributeDef{Name: "battery_mah", Example: 5000, ExampleOp: OpGte}
	tests := []struct {
		name    string
		defs    []AttributeDef
		wantErr string
	}{
		{"valid", []AttributeDef{ok}, ""},
		{"empty table", nil, ""},
		{"no name", []AttributeDef{{ExampleOp: OpGte}}, "attribute 0 has no name"},
		{"twice", []AttributeDef{ok, ok}, "attribute battery_mah is defined twice"},
		{"bad example operator", []AttributeDef{{Name: "x", ExampleOp: "gt"}}, `example operator "gt"`},
		{"query form without operator", []AttributeDef{{Name: "x", ExampleOp: OpEq, Query: QueryForms{Inch: true}}},
			`query operator ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, err := NewAttributeTable(tt.defs...)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
			case err == nil && table.Len() != len(tt.defs):
				t.Fatalf("Len = %d, want %d", table.Len(), len(tt.defs))
			}
		})
	}
}

// TestDefaultAttributes checks the default table: the interface's seven
// names in order, and every fact the service derives present.
func TestDefaultAttributes(t *testing.T) {
	table := DefaultAttributes()
	want := []string{"memory_gb", "storage_gb", "screen_in", "resolution_p", "refresh_hz", "power_w", "wifi_gen"}
	if diff := cmp.Diff(want, table.Names()); diff != "" {
		t.Fatalf("names mismatch (-want +got):\n%s", diff)
	}
	if _, err := NewAttributeTable(table.Defs()...); err != nil {
		t.Fatalf("the default table does not pass NewAttributeTable: %v", err)
	}
	for _, d := range table.Defs() {
		t.Run(d.Name, func(t *testing.T) {
			for field, empty := range map[string]bool{
				"label": d.Label == "", "hint": d.Hint == "", "doc": d.Doc == "", "example": d.Example <= 0,
				"aliases": len(d.Aliases) == 0, "suggestions": len(d.Suggestions) == 0,
				"display": d.Display.Prefix == "" && d.Display.Suffix == "",
			} {
				if empty {
					t.Errorf("no %s", field)
				}
			}
			if !table.Has(d.Name) || table.Lookup(d.Name).Name != d.Name || table.At(table.Index(d.Name)).Name != d.Name {
				t.Errorf("lookups of %s disagree", d.Name)
			}
		})
	}
	if table.Has("battery_mah") || table.Lookup("battery_mah") != nil || table.Index("battery_mah") != -1 {
		t.Error("an unknown name is found")
	}
}

func TestCategoryWords(t *testing.T) {
	all := AllCategories()
	if len(all) != 19 {
		t.Fatalf("%d categories, want 19", len(all))
	}
	seen := map[Category]bool{}
	for _, c := range all {
		if seen[c] || !c.Valid() || len(c.Words()) == 0 {
			t.Errorf("category %q: duplicate, invalid or without words", c)
		}
		seen[c] = true
	}
	tests := []struct {
		c    Category
		word string
		want bool
	}{
		{Laptops, "notebook", true},
		{Laptops, "laptop", true},
		{Networking, "router", true},
		{CablesChargers, "charger", true},
		{Laptops, "router", false},
		{Laptops, "", false},
		{Category("Smartphones"), "phone", false},
	}
	for _, tt := range tests {
		if got := tt.c.HasWord(tt.word); got != tt.want {
			t.Errorf("%s.HasWord(%q) = %t, want %t", tt.c, tt.word, got, tt.want)
		}
	}
	for _, name := range []string{"Smartphones", "Televisions", "laptops", ""} {
		if IsCategory(name) {
			t.Errorf("IsCategory(%q) = true", name)
		}
	}
}
