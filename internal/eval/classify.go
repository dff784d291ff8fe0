package eval

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/normalize"
)

// ClassifyCase is one listing and the category it belongs in.
type ClassifyCase struct {
	Line         int
	Title        string
	CategoryPath string
	TaxonomyID   string // Google product category id or path
	Brand        string
	// Want is one of the 19 categories, or "" for a listing outside them.
	Want string
	// WantType is "product" or "accessory", or "" when the file does not say.
	WantType catalog.ProductType
}

const classifyColumns = `columns title, category (the expected category: one of the 19 names, or "none"), ` +
	`optionally category_path (the retailer's category), taxonomy (Google product category), brand and ` +
	`product_type (product or accessory)`

// ReadClassify reads listings labelled with their expected category.
func ReadClassify(r io.Reader) ([]ClassifyCase, error) {
	t, err := readTable(r, []string{"title", "category"}, classifyColumns)
	if err != nil {
		return nil, err
	}
	out := make([]ClassifyCase, 0, len(t.rows))
	for i := range t.rows {
		c := ClassifyCase{Line: t.line[i], Title: t.get(i, "title"), CategoryPath: t.get(i, "category_path"),
			TaxonomyID: t.get(i, "taxonomy"), Brand: t.get(i, "brand")}
		want := t.get(i, "category")
		switch {
		case strings.EqualFold(want, "none"):
		case catalog.IsCategory(want):
			c.Want = want
		default:
			return nil, fmt.Errorf("line %d: category %q is neither one of the 19 (%s) nor \"none\"", c.Line, want,
				strings.Join(catalog.Categories(), ", "))
		}
		switch pt := catalog.ProductType(strings.ToLower(t.get(i, "product_type"))); pt {
		case "", catalog.TypeProduct, catalog.TypeAccessory:
			c.WantType = pt
		default:
			return nil, fmt.Errorf("line %d: product_type %q is neither product nor accessory", c.Line, pt)
		}
		out = append(out, c)
	}
	return out, nil
}

// Confusion counts listings of one expected category put in another.
type Confusion struct {
	Want  string `json:"expected"`
	Got   string `json:"got"`
	Count int    `json:"count"`
}

// ClassifyResult scores classification.
type ClassifyResult struct {
	Titles       int     `json:"titles"`
	Correct      int     `json:"correct"`
	Accuracy     float64 `json:"accuracy"`
	TypeJudged   int     `json:"type_judged,omitempty"`
	TypeCorrect  int     `json:"type_correct,omitempty"`
	TypeAccuracy float64 `json:"type_accuracy,omitempty"`
	// Confusions lists the most frequent wrong categories, most frequent
	// first (at most ten).
	Confusions []Confusion       `json:"confusions"`
	Errors     []ClassifyError   `json:"-"`
	PerClass   map[string][2]int `json:"-"` // expected category -> {correct, total}
}

// ClassifyError is one wrongly classified listing.
type ClassifyError struct {
	Line        int
	Title       string
	Want, Got   string
	WantT, GotT catalog.ProductType
}

// Classify classifies every listing and compares it with the expected
// category ("none" for outside the 19).
func Classify(cases []ClassifyCase) ClassifyResult {
	res := ClassifyResult{Titles: len(cases), PerClass: map[string][2]int{}}
	conf := map[[2]string]int{}
	for _, c := range cases {
		got := classify.Listing(classify.Input{Title: c.Title, CategoryPath: c.CategoryPath, TaxonomyID: c.TaxonomyID,
			Brand: normalize.Brand(c.Brand)})
		pc := res.PerClass[label(c.Want)]
		pc[1]++
		ok := got.Category == c.Want
		if ok {
			res.Correct++
			pc[0]++
		} else {
			conf[[2]string{label(c.Want), label(got.Category)}]++
		}
		res.PerClass[label(c.Want)] = pc
		typeOK := true
		if c.WantType != "" {
			res.TypeJudged++
			typeOK = got.Type == c.WantType
			if typeOK {
				res.TypeCorrect++
			}
		}
		if !ok || !typeOK {
			res.Errors = append(res.Errors, ClassifyError{Line: c.Line, Title: c.Title, Want: label(c.Want),
				Got: label(got.Category), WantT: c.WantType, GotT: got.Type})
		}
	}
	if res.Titles > 0 {
		res.Accuracy = float64(res.Correct) / float64(res.Titles)
	}
	if res.TypeJudged > 0 {
		res.TypeAccuracy = float64(res.TypeCorrect) / float64(res.TypeJudged)
	}
	for k, n := range conf {
		res.Confusions = append(res.Confusions, Confusion{Want: k[0], Got: k[1], Count: n})
	}
	slices.SortFunc(res.Confusions, func(a, b Confusion) int {
		return cmp.Or(b.Count-a.Count, strings.Compare(a.Want, b.Want), strings.Compare(a.Got, b.Got))
	})
	if len(res.Confusions) > 10 {
		res.Confusions = res.Confusions[:10]
	}
	if res.Confusions == nil {
		res.Confusions = []Confusion{}
	}
	return res
}

// label names a category for reports: "none" for outside the 19.
func label(cat string) string {
	if cat == "" {
		return "none"
	}
	return cat
}
