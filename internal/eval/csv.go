package eval

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// table is a CSV file read by column name.
type table struct {
	cols map[string]int
	rows [][]string
	line []int // line of each row
}

// readTable reads a CSV file with a header row. Every name in required must
// be a column; the error for a file in another shape names the columns
// expected (want describes them).
func readTable(r io.Reader, required []string, want string) (*table, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("empty file; expected a CSV file with a header row: %s", want)
	}
	if err != nil {
		return nil, fmt.Errorf("read header: %w; expected a CSV file with a header row: %s", err, want)
	}
	t := &table{cols: map[string]int{}}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if _, dup := t.cols[h]; !dup {
			t.cols[h] = i
		}
	}
	var missing []string
	for _, name := range required {
		if _, ok := t.cols[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no column %s in header %q; expected %s", strings.Join(missing, ", "), header, want)
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read CSV: %w", err)
		}
		line, _ := cr.FieldPos(0)
		t.rows = append(t.rows, rec)
		t.line = append(t.line, line)
	}
	if len(t.rows) == 0 {
		return nil, fmt.Errorf("no rows after the header; expected %s", want)
	}
	return t, nil
}

// has reports whether the table has a column.
func (t *table) has(name string) bool {
	_, ok := t.cols[name]
	return ok
}

// get returns row i's value in the column, or "" when the column or the
// cell is missing.
func (t *table) get(i int, name string) string {
	c, ok := t.cols[name]
	if !ok || c >= len(t.rows[i]) {
		return ""
	}
	return strings.TrimSpace(t.rows[i][c])
}
