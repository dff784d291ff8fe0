package search

import (
	"math"

	"productsearch/internal/catalog"
)

// Per-constraint statuses of a hit.
const (
	StatusMatched    = "matched"
	StatusUnverified = "unverified"
)

// Verdict is the outcome of checking constraints against one product.
type Verdict int8

// The three verdicts. A product is Matched when every constrained name is
// matched, Excluded when any stated value set fails, Unverified otherwise.
const (
	Unverified Verdict = iota
	Matched
	Excluded
)

func (v Verdict) String() string {
	switch v {
	case Matched:
		return StatusMatched
	case Excluded:
		return "excluded"
	}
	return StatusUnverified
}

// epsilon absorbs binary rounding of decimal bounds such as 1024*0.97.
const epsilon = 1e-9

// Meets reports whether one stated value of an attribute with the given
// tolerance meets every operator of the bound. In the default table,
// storage_gb is matched within 3% of the bound on the side it limits;
// screen_in within 0.5 inch on every operator, and a whole-number size N
// with eq or lte also accepts sizes below N+1, the rest of its size class
// (eq 13 accepts 13.6 but not 14, lte 15 accepts 15.6 but not 16); every
// other attribute compares exactly.
func Meets(tol catalog.Tolerance, b Bound, v float64) bool { return b.Range(tol).Contains(v) }

// Range is the set of values that meet a bound, tolerances applied: from Lo
// to Hi inclusive, or to Hi exclusive when HiOpen is set.
type Range struct {
	Lo, Hi float64
	HiOpen bool
}

// Contains reports whether v is in the range.
func (r Range) Contains(v float64) bool {
	return v >= r.Lo && (v < r.Hi || (!r.HiOpen && v <= r.Hi))
}

// Range returns the values of an attribute with the given tolerance that
// meet every operator of the bound (see Meets). Engines compute it once per
// search.
func (b Bound) Range(tol catalog.Tolerance) Range {
	r := Range{Lo: math.Inf(-1), Hi: math.Inf(1)}
	for _, o := range [...]struct {
		op string
		v  *float64
	}{{OpEq, b.Eq}, {OpGte, b.Gte}, {OpLte, b.Lte}} {
		if o.v == nil {
			continue
		}
		lo, hi, open := opRange(tol, o.op, *o.v)
		r.Lo = max(r.Lo, lo)
		switch {
		case hi < r.Hi:
			r.Hi, r.HiOpen = hi, open
		case hi == r.Hi:
			r.HiOpen = r.HiOpen || open
		}
	}
	return r
}

// opRange is the accepted range of one operator.
func opRange(tol catalog.Tolerance, op string, bound float64) (lo, hi float64, hiOpen bool) {
	lo, hi = bound, bound
	if tol.Relative != 0 || tol.Absolute != 0 {
		lo = bound*(1-tol.Relative) - tol.Absolute - epsilon
		hi = bound*(1+tol.Relative) + tol.Absolute + epsilon
	}
	if tol.SizeClass && op != OpGte && bound == math.Trunc(bound) {
		// A whole-number size N names the size class [N, N+1).
		hi, hiOpen = bound+1, true
	}
	switch op {
	case OpGte:
		return lo, math.Inf(1), false
	case OpLte:
		return math.Inf(-1), hi, hiOpen
	}
	return lo, hi, hiOpen
}

// JudgeValues decides one constraint from the values retailers state for
// it: no value is Unverified, every value meeting the bound is Matched,
// every value failing it is Excluded, and a mix is Unverified.
func JudgeValues(tol catalog.Tolerance, b Bound, values []float64) Verdict {
	return b.Range(tol).Judge(values)
}

// Judge decides a constraint whose range is r from the stated values, as
// JudgeValues does.
func (r Range) Judge(values []float64) Verdict {
	if len(values) == 0 {
		return Unverified
	}
	met := 0
	for _, v := range values {
		if r.Contains(v) {
			met++
		}
	}
	switch met {
	case len(values):
		return Matched
	case 0:
		return Excluded
	}
	return Unverified
}

// JudgeAttribute decides one constraint for a product's attribute with the
// given tolerance; ok is false when the product has no value for it.
func JudgeAttribute(tol catalog.Tolerance, b Bound, a catalog.Attribute, ok bool) Verdict {
	if !ok {
		return Unverified
	}
	r := b.Range(tol)
	if a.Status != catalog.Conflicting {
		return r.Judge([]float64{a.Value})
	}
	met, failed := false, false
	for _, sv := range a.Values {
		if r.Contains(sv.Value) {
			met = true
		} else {
			failed = true
		}
	}
	switch {
	case met && !failed:
		return Matched
	case failed && !met:
		return Excluded
	}
	return Unverified
}

// Judge decides every constraint for a product's attributes, with the
// tolerances of the table (a name the table lacks compares exactly). It
// returns Excluded when any name excludes the product, Matched when every
// name matches, Unverified otherwise. When status is not nil it receives
// the status of every name (meaningful only when the product is not
// excluded).
func Judge(table *catalog.AttributeTable, attrs map[string]catalog.Attribute, c Constraints, status map[string]string) Verdict {
	all := Matched
	for name, b := range c {
		a, ok := attrs[name]
		var tol catalog.Tolerance
		if d := table.Lookup(name); d != nil {
			tol = d.Tolerance
		}
		switch JudgeAttribute(tol, b, a, ok) {
		case Excluded:
			all = Excluded
		case Matched:
			if status != nil {
				status[name] = StatusMatched
			}
		default:
			if status != nil {
				status[name] = StatusUnverified
			}
			if all == Matched {
				all = Unverified
			}
		}
	}
	return all
}
