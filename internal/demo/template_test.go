package demo

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mapValuer answers placeholders from fixed values: the key is the
// placeholder name, or "name:mod" when a modifier is given. nums holds the
// numbers spec placeholders state.
type mapValuer struct {
	values map[string]string
	nums   map[string]float64
}

func (m mapValuer) value(name, mod string) (string, [numAttrs]float64) {
	key := name
	if mod != "" {
		key += ":" + mod
	}
	text := m.values[key]
	var stated [numAttrs]float64
	if attr := attrByPlaceholder(name); attr >= 0 && text != "" {
		stated[attr] = m.nums[name]
	}
	return text, stated
}

// TestTemplateRender runs the data-driven suite in testdata/templates.json.
func TestTemplateRender(t *testing.T) {
	b, err := os.ReadFile("testdata/templates.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name     string             `json:"name"`
		Template string             `json:"template"`
		Values   map[string]string  `json:"values"`
		Nums     map[string]float64 `json:"nums"`
		Want     string             `json:"want"`
		Stated   map[string]float64 `json:"stated"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("testdata/templates.json holds no cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			tpl, err := parseTemplate(c.Template)
			if err != nil {
				t.Fatalf("parseTemplate: %v", err)
			}
			r := tpl.render(mapValuer{c.Values, c.Nums})
			if r.text != c.Want {
				t.Errorf("text mismatch (-want +got):\n%s", cmp.Diff(c.Want, r.text))
			}
			stated := map[string]float64{}
			for a, v := range r.stated {
				if v > 0 {
					stated[attrNames[a]] = v
				}
			}
			if diff := cmp.Diff(c.Stated, stated); diff != "" {
				t.Errorf("stated attributes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseTemplateErrors(t *testing.T) {
	tests := []struct {
		name, template, wantErr string
	}{
		{"unclosed placeholder", "{brand", "unclosed {"},
		{"unmatched brace", "brand}", "unmatched }"},
		{"unclosed group", "{brand}[ - {colour}", "unclosed ["},
		{"unmatched bracket", "{brand}]", "unmatched ]"},
		{"empty placeholder", "{brand} {}", "bad placeholder"},
		{"empty name with modifier", "{:in}", "bad placeholder"},
		{"group inside placeholder", "{br[and}", "bad placeholder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseTemplate(tt.template)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseTemplate(%q) error = %v, want one containing %q", tt.template, err, tt.wantErr)
			}
		})
	}
}

func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{
		"{brand} {name} {screen} Laptop ({ram} RAM, {storage} SSD)[ - {colour}]",
		"[[{a}]{b:c}]", "{", "]", "[", "{}", "{a:}", "plain text",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tpl, err := parseTemplate(s)
		if err != nil {
			return
		}
		r := tpl.render(mapValuer{values: map[string]string{"brand": "B", "ram": "8GB"}, nums: map[string]float64{"ram": 8}})
		if strings.Contains(r.text, "  ") {
			t.Errorf("render(%q) = %q holds a double space", s, r.text)
		}
	})
}
