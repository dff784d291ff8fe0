package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"productsearch/internal/catalog"
)

// MaxConstraintsLen caps the length of the constraints parameter in bytes;
// the longest sensible value (seven names with a range each) is far shorter.
const MaxConstraintsLen = 2048

// The three constraint operators.
const (
	OpEq  = catalog.OpEq
	OpGte = catalog.OpGte
	OpLte = catalog.OpLte
)

// IsZero reports whether the bound has no operator.
func (b Bound) IsZero() bool { return b.Eq == nil && b.Gte == nil && b.Lte == nil }

// String writes the bound as comparisons on name: "memory_gb>=16",
// "screen_in=15.6", "storage_gb>=512,storage_gb<=1000".
func (b Bound) String(name string) string {
	var parts []string
	if b.Eq != nil {
		parts = append(parts, name+"="+formatNumber(*b.Eq))
	}
	if b.Gte != nil {
		parts = append(parts, name+">="+formatNumber(*b.Gte))
	}
	if b.Lte != nil {
		parts = append(parts, name+"<="+formatNumber(*b.Lte))
	}
	return strings.Join(parts, ",")
}

// String writes the constraints in the default table's name order (other
// names after them, alphabetically), separated by spaces.
func (c Constraints) String() string {
	var parts []string
	for _, name := range sortedKeys(catalog.DefaultAttributes(), c) {
		parts = append(parts, c[name].String(name))
	}
	return strings.Join(parts, " ")
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func ptr(f float64) *float64 { return &f }

// exampleValue is a plausible value for an attribute, used in messages.
func exampleValue(d *catalog.AttributeDef) string { return d.ExampleText() }

func constraintExample(d *catalog.AttributeDef) string {
	return fmt.Sprintf(`{"%s":{"%s":%s}}`, d.Name, d.ExampleOp, d.ExampleText())
}

const constraintsShape = `constraints must be a JSON object mapping attribute names to operators, ` +
	`e.g. {"memory_gb":{"gte":16},"screen_in":{"eq":15.6}}`

func validNames(attrs *catalog.AttributeTable) string { return strings.Join(attrs.Names(), ", ") }

// suggestName guesses the attribute a mistaken constraint name means: the
// first whose name is the name in another case, or one of whose aliases
// starts it.
func suggestName(attrs *catalog.AttributeTable, name string) *catalog.AttributeDef {
	n := strings.ToLower(strings.TrimSpace(name))
	if d := attrs.Lookup(n); d != nil {
		return d
	}
	n = strings.NewReplacer("-", "", "_", "", " ", "", ".", "").Replace(n)
	for i := range attrs.Len() {
		d := attrs.At(i)
		for _, alias := range d.Aliases {
			if strings.HasPrefix(n, alias) {
				return d
			}
		}
	}
	return nil
}

// suggestOp guesses the operator a mistaken operator means.
func suggestOp(op string) string {
	switch strings.ToLower(strings.TrimSpace(op)) {
	case "eq", "=", "==", "equals", "equal", "is", "exact", "$eq":
		return OpEq
	case "gte", ">=", "gt", ">", "min", "minimum", "from", "atleast", "at_least", "$gte", "$gt", "ge":
		return OpGte
	case "lte", "<=", "lt", "<", "max", "maximum", "to", "atmost", "at_most", "$lte", "$lt", "le":
		return OpLte
	}
	return ""
}

func unknownNameError(attrs *catalog.AttributeTable, name string) error {
	msg := fmt.Sprintf("unknown constraint name %q: valid names are %s", name, validNames(attrs))
	if s := suggestName(attrs, name); s != nil {
		msg += fmt.Sprintf(" (did you mean %s?)", s.Name)
		return &InvalidError{Message: msg + "; example: " + constraintExample(s)}
	}
	if attrs.Len() == 0 {
		return &InvalidError{Message: msg}
	}
	return &InvalidError{Message: msg + "; example: " + constraintExample(attrs.At(0))}
}

func unknownOpError(d *catalog.AttributeDef, op string) error {
	name := d.Name
	msg := fmt.Sprintf("unknown operator %q in constraints.%s: valid operators are eq, gte, lte", op, name)
	if s := suggestOp(op); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return &InvalidError{Message: fmt.Sprintf("%s; example: %s", msg, constraintExample(d))}
}

// jsonKind describes a JSON token for messages.
func jsonKind(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			return "an array"
		}
		return "an object"
	case string:
		return fmt.Sprintf("the string %q", v)
	case json.Number:
		return "the number " + v.String()
	case bool:
		return fmt.Sprintf("%t", v)
	case nil:
		return "null"
	}
	return "a value of another kind"
}

// ParseConstraints parses the constraints parameter: a JSON object mapping
// attribute names to objects of operators, such as
// {"memory_gb":{"gte":16},"screen_in":{"eq":15.6}}. A blank string means no
// constraints and yields nil. Errors are *InvalidError with a message that
// says what to change. Duplicate names or operators are rejected rather
// than silently resolved. Names are those of the default attribute table.
func ParseConstraints(s string) (Constraints, error) {
	return ParseConstraintsWith(catalog.DefaultAttributes(), s)
}

// ParseConstraintsWith is ParseConstraints for the attributes of a table.
func ParseConstraintsWith(attrs *catalog.AttributeTable, s string) (Constraints, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if len(s) > MaxConstraintsLen {
		return nil, &InvalidError{Message: fmt.Sprintf(
			"constraints is %d bytes long; at most %d are accepted. %s", len(s), MaxConstraintsLen, constraintsShape)}
	}
	if u := strings.ToUpper(s); strings.HasPrefix(u, "%7B") || strings.HasPrefix(u, "%22") {
		return nil, &InvalidError{Message: "constraints arrived still URL-encoded (it starts with " + s[:3] +
			"): it was encoded twice; encode the JSON once. " + constraintsShape}
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	syntax := func(err error) error {
		return &InvalidError{Message: fmt.Sprintf("constraints is not valid JSON (%v). %s", err, constraintsShape)}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, &InvalidError{Message: fmt.Sprintf("%s; got %s", constraintsShape, jsonKind(tok))}
	}
	c := Constraints{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(err)
		}
		name, _ := tok.(string)
		d := attrs.Lookup(name)
		if d == nil {
			return nil, unknownNameError(attrs, name)
		}
		if _, dup := c[name]; dup {
			return nil, &InvalidError{Message: fmt.Sprintf(
				"constraints names %s twice; give each name once, with every operator inside it, e.g. "+
					`{"%s":{"gte":%s,"lte":%s}}`, name, name, exampleValue(d), exampleValue(d))}
		}
		b, err := parseBound(dec, d)
		if err != nil {
			return nil, err
		}
		c[name] = b
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, syntax(err)
	}
	if tok, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, syntax(err)
		}
		return nil, &InvalidError{Message: fmt.Sprintf(
			"constraints has %s after the closing brace; send exactly one JSON object. %s", jsonKind(tok), constraintsShape)}
	}
	if err := c.ValidateWith(attrs); err != nil {
		return nil, err
	}
	return c, nil
}

// parseBound reads the operator object of one constraint name.
func parseBound(dec *json.Decoder, d *catalog.AttributeDef) (Bound, error) {
	name := d.Name
	tok, err := dec.Token()
	if err != nil {
		return Bound{}, &InvalidError{Message: fmt.Sprintf("constraints is not valid JSON (%v). %s", err, constraintsShape)}
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return Bound{}, &InvalidError{Message: fmt.Sprintf(
			"constraints.%s must be an object of operators (eq, gte, lte), e.g. %s; got %s",
			name, constraintExample(d), jsonKind(tok))}
	}
	var b Bound
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Bound{}, &InvalidError{Message: fmt.Sprintf("constraints is not valid JSON (%v). %s", err, constraintsShape)}
		}
		op, _ := tok.(string)
		var slot **float64
		switch op {
		case OpEq:
			slot = &b.Eq
		case OpGte:
			slot = &b.Gte
		case OpLte:
			slot = &b.Lte
		default:
			return Bound{}, unknownOpError(d, op)
		}
		if *slot != nil {
			return Bound{}, &InvalidError{Message: fmt.Sprintf(
				"constraints.%s gives %s twice; give each operator once, e.g. %s", name, op, constraintExample(d))}
		}
		tok, err = dec.Token()
		if err != nil {
			return Bound{}, &InvalidError{Message: fmt.Sprintf("constraints is not valid JSON (%v). %s", err, constraintsShape)}
		}
		num, ok := tok.(json.Number)
		if !ok {
			return Bound{}, &InvalidError{Message: fmt.Sprintf(
				"constraints.%s.%s must be a number (not quoted), e.g. %s; got %s",
				name, op, constraintExample(d), jsonKind(tok))}
		}
		v, err := strconv.ParseFloat(num.String(), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return Bound{}, &InvalidError{Message: fmt.Sprintf(
				"constraints.%s.%s is out of range (%s); give a plain number such as %s",
				name, op, num.String(), exampleValue(d))}
		}
		*slot = ptr(v)
	}
	if _, err := dec.Token(); err != nil {
		return Bound{}, &InvalidError{Message: fmt.Sprintf("constraints is not valid JSON (%v). %s", err, constraintsShape)}
	}
	return b, nil
}

// Validate checks constraints built by a caller (the MCP tool builds them
// from typed arguments) by the same rules as ParseConstraints: known names,
// at least one operator per name, finite non-negative values, gte <= lte,
// and eq within any range given with it. Names are those of the default
// attribute table.
func (c Constraints) Validate() error { return c.ValidateWith(catalog.DefaultAttributes()) }

// ValidateWith is Validate for the attributes of a table.
func (c Constraints) ValidateWith(attrs *catalog.AttributeTable) error {
	for _, name := range sortedKeys(attrs, c) {
		d := attrs.Lookup(name)
		if d == nil {
			return unknownNameError(attrs, name)
		}
		if err := c[name].validate(d); err != nil {
			return err
		}
	}
	return nil
}

func (b Bound) validate(d *catalog.AttributeDef) error {
	name := d.Name
	if b.IsZero() {
		return &InvalidError{Message: fmt.Sprintf(
			"constraints.%s has no operator; give eq, gte or lte, e.g. %s", name, constraintExample(d))}
	}
	for _, o := range []struct {
		op string
		v  *float64
	}{{OpEq, b.Eq}, {OpGte, b.Gte}, {OpLte, b.Lte}} {
		if o.v == nil {
			continue
		}
		if math.IsNaN(*o.v) || math.IsInf(*o.v, 0) {
			return &InvalidError{Message: fmt.Sprintf(
				"constraints.%s.%s must be a finite number such as %s", name, o.op, exampleValue(d))}
		}
		if *o.v < 0 {
			return &InvalidError{Message: fmt.Sprintf(
				"constraints.%s.%s must not be negative (got %s); attribute values are positive, e.g. %s",
				name, o.op, formatNumber(*o.v), constraintExample(d))}
		}
	}
	if b.Gte != nil && b.Lte != nil && *b.Gte > *b.Lte {
		return &InvalidError{Message: fmt.Sprintf(
			"constraints.%s has gte %s greater than lte %s; a range needs gte <= lte, e.g. {\"%s\":{\"gte\":%s,\"lte\":%s}}",
			name, formatNumber(*b.Gte), formatNumber(*b.Lte), name, formatNumber(*b.Lte), formatNumber(*b.Gte))}
	}
	if b.Eq != nil && ((b.Gte != nil && *b.Eq < *b.Gte) || (b.Lte != nil && *b.Eq > *b.Lte)) {
		return &InvalidError{Message: fmt.Sprintf(
			"constraints.%s has eq %s outside its gte/lte range, so nothing can match; give either eq or a range, e.g. %s",
			name, formatNumber(*b.Eq), constraintExample(d))}
	}
	return nil
}

// sortedKeys returns the names of c in table order, then any unknown
// names alphabetically, so that validation reports errors deterministically.
func sortedKeys(attrs *catalog.AttributeTable, c Constraints) []string {
	keys := make([]string, 0, len(c))
	for i := range attrs.Len() {
		if name := attrs.At(i).Name; hasKey(c, name) {
			keys = append(keys, name)
		}
	}
	var unknown []string
	for name := range c {
		if !attrs.Has(name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	return append(keys, unknown...)
}

func hasKey(c Constraints, name string) bool {
	_, ok := c[name]
	return ok
}
