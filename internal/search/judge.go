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

// Tolerances of the interface's constraint matching.
const (
	// StorageTolerance is the relative slack on storage_gb bounds: gte 1024
	// accepts a 1TB (1000GB) drive, eq 512 accepts about 497 to 527.
	StorageTolerance = 0.03
	// ScreenTolerance is the slack in inches on every screen_in bound.
	ScreenTolerance = 0.5
	// epsilon absorbs binary rounding of decimal bounds such as 1024*0.97.
	epsilon = 1e-9
)

// Meets reports whether one stated value of the named attribute meets every
// operator of the bound, with the tolerances of the interface: storage_gb
// within 3% of the bound on the side it limits; screen_in within 0.5 inch on
// every operator, and a whole-number size N with eq or lte also accepts
// sizes below N+1, the rest of its size class (eq 13 accepts 13.6 but not
// 14, lte 15 accepts 15.6 but not 16); every other attribute compares
// exactly.
func Meets(name string, b Bound, v float64) bool { return b.Range(name).Contains(v) }

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

// Range returns the values of the named attribute that meet every operator
// of the bound (see Meets). Engines compute it once per search.
func (b Bound) Range(name string) Range {
	r := Range{Lo: math.Inf(-1), Hi: math.Inf(1)}
	for _, o := range [...]struct {
		op string
		v  *float64
	}{{OpEq, b.Eq}, {OpGte, b.Gte}, {OpLte, b.Lte}} {
		if o.v == nil {
			continue
		}
		lo, hi, open := opRange(name, o.op, *o.v)
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
func opRange(name, op string, bound float64) (lo, hi float64, hiOpen bool) {
	lo, hi = bound, bound
	switch name {
	case catalog.StorageGB:
		lo, hi = bound*(1-StorageTolerance)-epsilon, bound*(1+StorageTolerance)+epsilon
	case catalog.ScreenIn:
		lo, hi = bound-ScreenTolerance-epsilon, bound+ScreenTolerance+epsilon
		if op != OpGte && bound == math.Trunc(bound) {
			// A whole-number size N names the size class [N, N+1).
			hi, hiOpen = bound+1, true
		}
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
func JudgeValues(name string, b Bound, values []float64) Verdict {
	return b.Range(name).Judge(values)
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

// JudgeAttribute decides one constraint for a product's attribute; ok is
// false when the product has no value for the name.
func JudgeAttribute(name string, b Bound, a catalog.Attribute, ok bool) Verdict {
	if !ok {
		return Unverified
	}
	r := b.Range(name)
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

// Judge decides every constraint for a product's attributes. It returns
// Excluded when any name excludes the product, Matched when every name
// matches, Unverified otherwise. When status is not nil it receives the
// status of every name (meaningful only when the product is not excluded).
func Judge(attrs map[string]catalog.Attribute, c Constraints, status map[string]string) Verdict {
	all := Matched
	for name, b := range c {
		a, ok := attrs[name]
		switch JudgeAttribute(name, b, a, ok) {
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
