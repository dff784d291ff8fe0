package feed

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// jsonlObject is one product of a JSON Lines feed: the decoded object, with
// numbers kept as their JSON text.
type jsonlObject map[string]any

// jsonlMapping says where one Record field is found in each object.
type jsonlMapping struct {
	field string   // Record field name
	key   string   // the configured key, tried as a whole first
	path  []string // the key split at dots, for nested objects
}

// jsonlDecoder reads one JSON object per line, blank lines skipped.
type jsonlDecoder struct {
	lines    lineReader
	mappings []jsonlMapping
	row      int
}

func newJSONLDecoder(br *bufio.Reader, fields map[string]string, opt Options) *jsonlDecoder {
	d := &jsonlDecoder{lines: lineReader{br: br, max: opt.MaxLineBytes}}
	for _, name := range fieldNames {
		if key := strings.TrimSpace(fields[name]); key != "" {
			d.mappings = append(d.mappings, jsonlMapping{field: name, key: key, path: strings.Split(key, ".")})
		}
	}
	return d
}

func (d *jsonlDecoder) next() (Record, error) {
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
			return Record{}, &RowError{Row: d.row, Reason: ReasonLineTooLong, Err: fmt.Errorf("line longer than %d bytes", d.lines.max)}
		}
		obj, err := decodeObject(line)
		if err != nil {
			return Record{}, &RowError{Row: d.row, Reason: ReasonBadJSON, Err: err}
		}
		rec, err := obj.record(d.row, d.mappings)
		if err != nil {
			return Record{}, &RowError{Row: d.row, Reason: ReasonBadField, Err: err}
		}
		return rec, nil
	}
}

func decodeObject(line []byte) (jsonlObject, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var obj jsonlObject
	if err := dec.Decode(&obj); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, fmt.Errorf("line holds a JSON %s, want an object", typeErr.Value)
		}
		return nil, err
	}
	if obj == nil {
		return nil, errors.New("line holds null, want an object")
	}
	if rest := bytes.TrimSpace(line[dec.InputOffset():]); len(rest) > 0 {
		return nil, errors.New("line holds more than one JSON value")
	}
	return obj, nil
}

// record adapts an object to a Record by the field mappings.
func (o jsonlObject) record(row int, mappings []jsonlMapping) (Record, error) {
	rec := Record{Row: row}
	for _, m := range mappings {
		v, ok := o.lookup(m)
		if !ok {
			continue
		}
		s, err := jsonText(v, m.field == "category_path")
		if err != nil {
			return Record{}, fmt.Errorf("%s (key %q): %w", m.field, m.key, err)
		}
		*rec.field(m.field) = field(s)
	}
	return rec, nil
}

// lookup finds the value of a mapping: the key as a whole, else its dot path
// through nested objects.
func (o jsonlObject) lookup(m jsonlMapping) (any, bool) {
	if v, ok := o[m.key]; ok {
		return v, true
	}
	if len(m.path) < 2 {
		return nil, false
	}
	var cur any = map[string]any(o)
	for _, part := range m.path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// jsonText turns a JSON value into field text: strings as they are, numbers
// as written, booleans as "true"/"false", null as empty. An array gives its
// first non-empty element, or with join all of them joined by " > " (a
// category path). An object is an error: the mapping should name a key
// inside it.
func jsonText(v any, join bool) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	case bool:
		if v {
			return "true", nil
		}
		return "false", nil
	case []any:
		var parts []string
		for _, e := range v {
			if _, nested := e.([]any); nested {
				return "", errors.New("holds nested arrays")
			}
			s, err := jsonText(e, false)
			if err != nil {
				return "", err
			}
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			if !join {
				return s, nil
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " > "), nil
	case map[string]any:
		return "", errors.New(`holds an object: map a key inside it, e.g. "outer.inner"`)
	}
	return "", fmt.Errorf("holds an unexpected %T", v)
}
