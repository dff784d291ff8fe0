package eval

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
)

// ExtractCase is one title and the attributes it states.
type ExtractCase struct {
	Line  int
	Title string
	// Category is the listing's category; "" means the title is classified
	// first, as the indexer does.
	Category  string
	Accessory bool
	// Truth holds the value the title states for each scored attribute; a
	// scored attribute missing from Truth is one the title does not state.
	Truth map[string]float64
	// Scored lists the attributes the file judges.
	Scored []string
}

var extractColumns = "columns title, optionally category, and one or more attribute columns named " +
	strings.Join(catalog.AttributeNames(), ", ") + " (empty = the title states nothing)"

// ReadExtract reads titles and the attribute values they state.
func ReadExtract(r io.Reader) ([]ExtractCase, error) {
	t, err := readTable(r, []string{"title"}, extractColumns)
	if err != nil {
		return nil, err
	}
	var scored []string
	for _, name := range catalog.AttributeNames() {
		if t.has(name) {
			scored = append(scored, name)
		}
	}
	if len(scored) == 0 {
		return nil, fmt.Errorf("no attribute column; expected %s", extractColumns)
	}
	out := make([]ExtractCase, 0, len(t.rows))
	for i := range t.rows {
		c := ExtractCase{Line: t.line[i], Title: t.get(i, "title"), Category: t.get(i, "category"), Scored: scored}
		if c.Category != "" && !catalog.IsCategory(c.Category) {
			return nil, fmt.Errorf("line %d: category %q is not one of the 19 (%s)", c.Line, c.Category,
				strings.Join(catalog.Categories(), ", "))
		}
		if v := strings.ToLower(t.get(i, "product_type")); v == string(catalog.TypeAccessory) {
			c.Accessory = true
		}
		for _, name := range scored {
			s := t.get(i, name)
			if s == "" {
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v <= 0 || math.IsInf(v, 0) {
				return nil, fmt.Errorf("line %d: %s = %q is not a positive number", c.Line, name, s)
			}
			if c.Truth == nil {
				c.Truth = map[string]float64{}
			}
			c.Truth[name] = v
		}
		out = append(out, c)
	}
	return out, nil
}

// phoneSpecsColumns describes the phone-specs file.
const phoneSpecsColumns = `columns model (the listing title), ram and storage ("8 GB RAM, 128 GB inbuilt")`

var (
	phoneCapRe    = regexp.MustCompile(`([\d.]+)\s*(GB|MB|TB)\s+(RAM|inbuilt)`)
	titleStatesRe = regexp.MustCompile(`(?i)\d\s*(GB|TB)\b`)
)

// ReadPhoneSpecs reads the phone-specs smartphones.csv as an extract
// evaluation of phone titles: a title that states a capacity ("(4GB RAM +
// 128GB)") is judged against the ram and storage columns; a title that
// states none must yield neither.
func ReadPhoneSpecs(r io.Reader) ([]ExtractCase, error) {
	t, err := readTable(r, []string{"model", "ram", "storage"}, phoneSpecsColumns)
	if err != nil {
		return nil, err
	}
	scored := []string{catalog.MemoryGB, catalog.StorageGB}
	out := make([]ExtractCase, 0, len(t.rows))
	for i := range t.rows {
		c := ExtractCase{Line: t.line[i], Title: t.get(i, "model"), Category: string(catalog.Phones), Scored: scored}
		if titleStatesRe.MatchString(c.Title) {
			for _, col := range []string{t.get(i, "ram"), t.get(i, "storage")} {
				for _, m := range phoneCapRe.FindAllStringSubmatch(col, -1) {
					v, err := strconv.ParseFloat(m[1], 64)
					if err != nil {
						continue
					}
					switch m[2] {
					case "TB":
						v *= 1000
					case "MB":
						v /= 1024
					}
					name := catalog.MemoryGB
					if m[3] == "inbuilt" {
						name = catalog.StorageGB
					}
					if c.Truth == nil {
						c.Truth = map[string]float64{}
					}
					c.Truth[name] = v
				}
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// AttrScore scores one attribute.
type AttrScore struct {
	Stated    int     `json:"stated"`   // titles that state it
	Read      int     `json:"read"`     // titles it was read from
	Correct   int     `json:"correct"`  // read and equal to the truth
	Wrong     int     `json:"wrong"`    // read with another value than the title states
	Invented  int     `json:"invented"` // read from a title that states none
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
}

// ExtractResult scores extraction per attribute.
type ExtractResult struct {
	Titles     int                   `json:"titles"`
	Attributes map[string]*AttrScore `json:"attributes"`
	Errors     []ExtractError        `json:"-"`
}

// ExtractError is one wrong, invented or missed value.
type ExtractError struct {
	Line      int
	Title     string
	Category  string
	Attribute string
	Got, Want float64 // 0 = none
}

// Extract reads every title and scores the values against the truth.
func Extract(cases []ExtractCase) ExtractResult {
	res := ExtractResult{Titles: len(cases), Attributes: map[string]*AttrScore{}}
	for _, c := range cases {
		ctx := extract.Context{Category: c.Category, Accessory: c.Accessory}
		if c.Category == "" {
			cls := classify.Listing(classify.Input{Title: c.Title})
			ctx = extract.Context{Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory}
		}
		got := extract.Title(c.Title, ctx)
		for _, name := range c.Scored {
			s := res.Attributes[name]
			if s == nil {
				s = &AttrScore{}
				res.Attributes[name] = s
			}
			want, stated := c.Truth[name]
			v, read := got[name]
			if stated {
				s.Stated++
			}
			if read {
				s.Read++
			}
			switch {
			case read && stated && math.Abs(v-want) < 1e-6:
				s.Correct++
				continue
			case read && stated:
				s.Wrong++
			case read:
				s.Invented++
			case !stated:
				continue
			}
			res.Errors = append(res.Errors, ExtractError{Line: c.Line, Title: c.Title, Category: ctx.Category,
				Attribute: name, Got: v, Want: want})
		}
	}
	for _, s := range res.Attributes {
		s.Precision, s.Recall, _ = prf(s.Correct, s.Read-s.Correct, s.Stated-s.Correct)
		if s.Read == 0 {
			s.Precision = 1
		}
	}
	return res
}

// attributeOrder lists the scored attributes in the catalog's order.
func (r ExtractResult) attributeOrder() []string {
	var out []string
	for _, name := range catalog.AttributeNames() {
		if _, ok := r.Attributes[name]; ok {
			out = append(out, name)
		}
	}
	return slices.Clip(out)
}

// allAttributes lists the attribute names of the default table.
func allAttributes() []string { return catalog.AttributeNames() }
