package feed

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// tsvDecoder reads a Google Merchant Center tab-separated feed: a header row
// of attribute names, then one product per line. Fields hold no tabs or line
// breaks; a field wrapped in double quotes is unquoted ("" inside is one ").
type tsvDecoder struct {
	lines    lineReader
	opt      Options
	names    []string // normalised attribute name per column
	shipping []string // sub-attributes of the shipping column, from its header
	row      int
	fields   [][]byte
}

func newTSVDecoder(br *bufio.Reader, opt Options) (*tsvDecoder, error) {
	d := &tsvDecoder{lines: lineReader{br: br, max: opt.MaxLineBytes}, opt: opt}
	var header []byte
	for {
		line, tooLong, err := d.lines.next()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("google_tsv feed is empty: no header row")
		}
		if err != nil {
			return nil, fmt.Errorf("google_tsv header: %w", err)
		}
		if tooLong {
			return nil, fmt.Errorf("google_tsv header is longer than %d bytes", opt.MaxLineBytes)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			header = line
			break
		}
	}
	var probe googleItem
	for _, raw := range bytes.Split(header, []byte("\t")) {
		name, sub := tsvColumnName(unquote(raw))
		if name == "shipping" && d.shipping == nil {
			d.shipping = sub
		}
		if name != "shipping" && probe.slot(name, true) == nil {
			name = "" // a column the reader does not use
		}
		d.names = append(d.names, name)
	}
	var missing []string
	for _, want := range []string{"id", "title", "price"} {
		if !slices.Contains(d.names, want) {
			missing = append(missing, want)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("google_tsv header lacks required columns: %s; found %s", strings.Join(missing, ", "), listNames(headerNames(header)))
	}
	return d, nil
}

func (d *tsvDecoder) next() (Record, error) {
	for {
		line, tooLong, err := d.lines.next()
		if err != nil {
			return Record{}, err
		}
		if !tooLong && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		d.row++
		if tooLong {
			return Record{}, &RowError{Row: d.row, Reason: ReasonLineTooLong, Err: fmt.Errorf("line longer than %d bytes", d.opt.MaxLineBytes)}
		}
		d.fields = d.fields[:0]
		for f := range bytes.SplitSeq(line, []byte("\t")) {
			d.fields = append(d.fields, f)
		}
		if len(d.fields) != len(d.names) {
			return Record{}, &RowError{Row: d.row, Reason: ReasonFieldCount,
				Err: fmt.Errorf("%d fields, the header has %d", len(d.fields), len(d.names))}
		}
		var it googleItem
		for i, name := range d.names {
			switch name {
			case "":
			case "shipping":
				it.Shipping = parseShipping(unquote(d.fields[i]), d.shipping)
			default:
				it.set(name, false, unquote(d.fields[i]))
			}
		}
		return it.record(d.row, d.opt.Now), nil
	}
}

// tsvColumnName normalises a header name: lower case, no "g:" prefix, spaces
// and hyphens as underscores ("Image Link" is image_link). A parenthesised
// suffix lists sub-attributes: "shipping(country:price)".
func tsvColumnName(h string) (name string, sub []string) {
	h = strings.ToLower(strings.TrimSpace(h))
	if open := strings.IndexByte(h, '('); open >= 0 && strings.HasSuffix(h, ")") {
		for s := range strings.SplitSeq(h[open+1:len(h)-1], ":") {
			sub = append(sub, strings.ReplaceAll(strings.TrimSpace(s), " ", "_"))
		}
		h = strings.TrimSpace(h[:open])
	}
	h = strings.TrimPrefix(h, "g:")
	h = strings.NewReplacer(" ", "_", "-", "_").Replace(h)
	return h, sub
}

// unquote returns a TSV field as text, without surrounding double quotes.
func unquote(b []byte) string {
	s := field(string(b))
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = strings.TrimSpace(strings.ReplaceAll(s[1:len(s)-1], `""`, `"`))
	}
	return s
}

func headerNames(header []byte) []string {
	var names []string
	for raw := range bytes.SplitSeq(header, []byte("\t")) {
		names = append(names, unquote(raw))
	}
	return names
}
