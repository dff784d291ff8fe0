package eval

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"productsearch/internal/match"
)

// Record is one side of a candidate pair: attribute names and values in the
// order the file gives them.
type Record struct {
	Attrs []Attr
}

// Attr is one attribute of a Record.
type Attr struct {
	Name, Value string
}

// Get returns the value of the first attribute with one of the names, or "".
func (r Record) Get(names ...string) string {
	for _, n := range names {
		for _, a := range r.Attrs {
			if a.Name == n {
				return a.Value
			}
		}
	}
	return ""
}

// Pair is one labelled candidate pair.
type Pair struct {
	Line  int
	A, B  Record
	Match bool
}

// pairFormat describes the pair format for error messages.
const pairFormat = `one pair per line: "COL <attr> VAL <value> ...<TAB>COL <attr> VAL <value> ...<TAB><0|1>" ` +
	`(attrs: name or title, brand or manufacturer, modelno, price, category, description)`

// ReadPairs reads labelled pairs in the Ditto / ER-Magellan serialisation.
func ReadPairs(r io.Reader) ([]Pair, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	var out []Pair
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r\n")
		if strings.TrimSpace(text) == "" {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 3 {
			return nil, fmt.Errorf("line %d: want 3 tab-separated fields, got %d; expected %s", line, len(cols), pairFormat)
		}
		a, err := parseRecord(cols[0])
		if err != nil {
			return nil, fmt.Errorf("line %d, left record: %w; expected %s", line, err, pairFormat)
		}
		b, err := parseRecord(cols[1])
		if err != nil {
			return nil, fmt.Errorf("line %d, right record: %w; expected %s", line, err, pairFormat)
		}
		var m bool
		switch strings.TrimSpace(cols[2]) {
		case "1":
			m = true
		case "0":
		default:
			return nil, fmt.Errorf("line %d: label %q is not 0 or 1; expected %s", line, cols[2], pairFormat)
		}
		out = append(out, Pair{Line: line, A: a, B: b, Match: m})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read pairs: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no pairs found; expected %s", pairFormat)
	}
	return out, nil
}

// parseRecord reads "COL name VAL value COL price VAL 12.5".
func parseRecord(s string) (Record, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "COL ") {
		return Record{}, fmt.Errorf("record does not start with COL")
	}
	var r Record
	for _, part := range strings.Split(" "+s, " COL ")[1:] {
		name, value, ok := strings.Cut(part, " VAL")
		if !ok {
			return Record{}, fmt.Errorf("attribute %q has no VAL", strings.TrimSpace(part))
		}
		r.Attrs = append(r.Attrs, Attr{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	}
	return r, nil
}

// PairResult counts the decisions on labelled pairs.
type PairResult struct {
	Pairs          int     `json:"pairs"`
	Matches        int     `json:"matches"`
	TruePositives  int     `json:"true_positives"`
	FalsePositives int     `json:"false_positives"`
	FalseNegatives int     `json:"false_negatives"`
	Precision      float64 `json:"precision"`
	Recall         float64 `json:"recall"`
	F1             float64 `json:"f1"`
	// Errors lists the wrong decisions; Reasons counts the decisions by
	// their evidence, right and wrong.
	Errors  []PairError       `json:"-"`
	Reasons map[string][2]int `json:"-"`

	matcher *match.Matcher // the matcher that judged the pairs, to explain its errors
}

// PairError is one wrong decision.
type PairError struct {
	Line     int            `json:"line"`
	Match    bool           `json:"match"` // the truth
	Decision match.Decision `json:"decision"`
	A        match.Item     `json:"a"`
	B        match.Item     `json:"b"`
}

// Pairs decides every pair with one matcher whose word rarities come from
// all the records in the file.
func Pairs(pairs []Pair, opt match.Options) PairResult {
	m, items := pairMatcher(pairs, opt)
	res := PairResult{Pairs: len(pairs), Reasons: map[string][2]int{}, matcher: m}
	for i, p := range pairs {
		d := m.Compare(items[i][0], items[i][1])
		if p.Match {
			res.Matches++
		}
		right := d.Same == p.Match
		c := res.Reasons[reasonKey(d)]
		if right {
			c[0]++
		} else {
			c[1]++
			res.Errors = append(res.Errors, PairError{Line: p.Line, Match: p.Match, Decision: d, A: items[i][0], B: items[i][1]})
		}
		res.Reasons[reasonKey(d)] = c
		switch {
		case d.Same && p.Match:
			res.TruePositives++
		case d.Same:
			res.FalsePositives++
		case p.Match:
			res.FalseNegatives++
		}
	}
	res.Precision, res.Recall, res.F1 = prf(res.TruePositives, res.FalsePositives, res.FalseNegatives)
	return res
}

// pairMatcher returns the pairs' listings and a matcher whose word
// rarities come from all the distinct records in the pairs.
func pairMatcher(pairs []Pair, opt match.Options) (*match.Matcher, [][2]match.Item) {
	items := make([][2]match.Item, len(pairs))
	var corpus []match.Item
	seen := map[string]bool{}
	for i, p := range pairs {
		for k, r := range []Record{p.A, p.B} {
			it := pairItem(r)
			items[i][k] = it
			key := fmt.Sprint(r.Attrs)
			if !seen[key] {
				seen[key] = true
				corpus = append(corpus, it)
			}
		}
	}
	return match.NewMatcher(corpus, opt), items
}

func reasonKey(d match.Decision) string {
	if d.Same {
		return "same:" + d.Reason
	}
	return "different:" + d.Reason
}

// prf returns precision, recall and F1 from counts; an empty denominator
// gives 0.
func prf(tp, fp, fn int) (p, r, f float64) {
	if tp+fp > 0 {
		p = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		r = float64(tp) / float64(tp+fn)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}
