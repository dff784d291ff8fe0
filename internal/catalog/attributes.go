package catalog

import (
	"fmt"
	"slices"
	"strconv"
)

// Attribute names of the default table, in the order the interface lists
// them.
const (
	MemoryGB    = "memory_gb"
	StorageGB   = "storage_gb"
	ScreenIn    = "screen_in"
	ResolutionP = "resolution_p"
	RefreshHz   = "refresh_hz"
	PowerW      = "power_w"
	WifiGen     = "wifi_gen"
)

// Operators of a constraint on an attribute.
const (
	OpEq  = "eq"
	OpGte = "gte"
	OpLte = "lte"
)

// AttributeDef is everything the service knows about one attribute: how it
// is named, shown, documented, matched and read from a query. Validation,
// judgement, query analysis, the MCP schema, the OpenAPI document and the
// explorer derive their view of the attribute from it.
type AttributeDef struct {
	// Name is the key in attributes, constraints and constraint_status.
	Name string
	// Label names the attribute for people ("Memory (RAM)").
	Label string
	// Unit is the unit shown after an input value ("GB", "inches"); empty
	// when the value is a plain number such as a Wi-Fi generation.
	Unit string
	// UnitDoc states the unit in the API reference ("GB, 1TB = 1000").
	UnitDoc string
	// Hint explains the unit of an input value to people.
	Hint string
	// Doc describes the attribute to agents: meaning, unit and examples.
	Doc string
	// Example is a plausible constraint value, in messages and schemas;
	// ExampleOp the operator the example uses.
	Example   float64
	ExampleOp string
	// Aliases are prefixes of mistaken constraint names that mean this
	// attribute ("ram" and "mem" for memory_gb), for "did you mean".
	Aliases []string
	// Tolerance is the slack constraints on the attribute are matched with.
	Tolerance Tolerance
	// Query says how a query states a value of the attribute.
	Query QueryForms
	// Suggestions are common values offered next to an input.
	Suggestions []NamedValue
	// Display says how a value is written for people.
	Display Display
}

// ExampleText is Example as written in JSON.
func (d AttributeDef) ExampleText() string { return strconv.FormatFloat(d.Example, 'f', -1, 64) }

// Tolerance is the slack of constraint matching. A bound B accepts values
// within Relative*B and Absolute of B on the side it limits; with
// SizeClass, a whole-number bound N under eq or lte also accepts values
// below N+1 (the rest of its size class).
type Tolerance struct {
	Relative  float64
	Absolute  float64
	SizeClass bool
}

// NamedValue is a value with the words that name it.
type NamedValue struct {
	Name  string
	Value float64
}

// Unit is a unit suffix of a number in a query ("gb", "tb") and the factor
// to the attribute's unit. With NeedsLabel, the number states the attribute
// only when a label follows ("16gb ram", "16gb of ram", since a bare "16gb"
// may be RAM or storage); otherwise a label after it is optional and taken
// with it ("1tb ssd").
type Unit struct {
	Suffix     string
	Factor     float64
	NeedsLabel bool
}

// QueryForms are the ways a query states a value of an attribute, each
// turned into a constraint with Op (gte, or eq for a size).
type QueryForms struct {
	Op string
	// Units are number suffixes stating the attribute ("144hz").
	Units []Unit
	// Labels are words after the number that say what it is.
	Labels []string
	// Nouns may follow a label as one label ("ddr5 ram").
	Nouns []string
	// Kinds are labels naming a kind of product, which ranks that kind
	// first ("1tb ssd" ranks drives before memory cards).
	Kinds []string
	// Inch is set when a number with an inch mark states the attribute.
	Inch bool
	// Named are words naming a value ("4k", "full hd").
	Named []NamedValue
	// Prefix is a word the value follows ("wifi 6e"), with Names as the
	// values it may be followed by.
	Prefix string
	Names  []NamedValue
}

// Display says how a value is written for people: Prefix, the number and
// Suffix; a value in Named by its name; a whole multiple of Larger.Step at
// least Larger.Factor in the larger unit Larger.Suffix.
type Display struct {
	Prefix, Suffix string
	Named          []NamedValue
	Larger         *LargerUnit
}

// LargerUnit is a larger unit values are shown in ("1 TB" for 1000 GB).
type LargerUnit struct {
	Suffix string
	Factor float64
	Step   float64
}

// AttributeTable is the set of attributes the catalog holds, in interface
// order. It is read-only: build one with NewAttributeTable or
// DefaultAttributes and pass it to whatever derives from it.
type AttributeTable struct {
	defs []AttributeDef
}

// NewAttributeTable checks the definitions (names present and distinct, a
// valid example operator, a query operator when the query can state the
// attribute) and returns them as a table.
func NewAttributeTable(defs ...AttributeDef) (*AttributeTable, error) {
	for i, d := range defs {
		if d.Name == "" {
			return nil, fmt.Errorf("attribute %d has no name", i)
		}
		if slices.ContainsFunc(defs[:i], func(o AttributeDef) bool { return o.Name == d.Name }) {
			return nil, fmt.Errorf("attribute %s is defined twice", d.Name)
		}
		if !validOp(d.ExampleOp) {
			return nil, fmt.Errorf("attribute %s: example operator %q is not eq, gte or lte", d.Name, d.ExampleOp)
		}
		q := d.Query
		if stated := len(q.Units) > 0 || q.Inch || len(q.Named) > 0 || q.Prefix != ""; stated && !validOp(q.Op) {
			return nil, fmt.Errorf("attribute %s: query operator %q is not eq, gte or lte", d.Name, q.Op)
		}
	}
	return &AttributeTable{defs: slices.Clone(defs)}, nil
}

func validOp(op string) bool { return op == OpEq || op == OpGte || op == OpLte }

// Len is the number of attributes.
func (t *AttributeTable) Len() int { return len(t.defs) }

// Defs returns a copy of the definitions in table order.
func (t *AttributeTable) Defs() []AttributeDef { return slices.Clone(t.defs) }

// At returns the i-th definition.
func (t *AttributeTable) At(i int) *AttributeDef { return &t.defs[i] }

// Names returns the attribute names in table order.
func (t *AttributeTable) Names() []string {
	out := make([]string, len(t.defs))
	for i := range t.defs {
		out[i] = t.defs[i].Name
	}
	return out
}

// Index returns the position of the named attribute, or -1.
func (t *AttributeTable) Index(name string) int {
	for i := range t.defs {
		if t.defs[i].Name == name {
			return i
		}
	}
	return -1
}

// Has reports whether name is an attribute of the table.
func (t *AttributeTable) Has(name string) bool { return t.Index(name) >= 0 }

// Lookup returns the named attribute's definition, or nil.
func (t *AttributeTable) Lookup(name string) *AttributeDef {
	if i := t.Index(name); i >= 0 {
		return &t.defs[i]
	}
	return nil
}

// AttributeNames returns the attribute names of the default table in
// interface order.
func AttributeNames() []string { return DefaultAttributes().Names() }

// IsAttribute reports whether name is an attribute of the default table.
func IsAttribute(name string) bool { return DefaultAttributes().Has(name) }

// StorageSize reports whether gb is a size a device's storage is sold in:
// 16GB to 1TB, by powers of two.
func StorageSize(gb float64) bool {
	switch gb {
	case 16, 32, 64, 128, 256, 512, 1024:
		return true
	}
	return false
}
