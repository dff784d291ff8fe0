package match

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Outcomes of one rule of the pair decision.
const (
	Merge = "merge" // the rule joins the two listings
	Split = "split" // the rule keeps them apart
	Pass  = "pass"  // the rule looked and left the decision to the next
)

// Step is one rule the pair decision applied, in the order it applied them.
type Step struct {
	Rule    string   `json:"rule"`
	Outcome string   `json:"outcome"`
	Saw     []string `json:"saw,omitempty"` // what the rule read: "a:" of one listing, "b:" of the other
}

// String is the step on one line: "brand: split (a:sony b:samsung)".
func (s Step) String() string {
	if len(s.Saw) == 0 {
		return s.Rule + ": " + s.Outcome
	}
	return s.Rule + ": " + s.Outcome + " (" + strings.Join(s.Saw, " ") + ")"
}

// trace collects the steps of one pair decision. A nil *trace records
// nothing and costs nothing: the grouping and Compare pass nil, Explain a
// trace of its own.
type trace struct {
	steps []Step
}

// sight names what a rule read of the two listings, for the trace.
type sight uint8

const (
	seeNothing sight = iota
	seeGTIN
	seeLink
	seeBrands
	seeSpecs
	seeCodes
	seeEditions
	seeColours
	seeType
	seeVariants
	seeSlots
	seeFit
)

// check records that rule looked at what see names and, when fired, decided
// with outcome; it returns fired, so that a rule reads as a condition. On a
// nil trace it is the condition alone.
func (t *trace) check(rule string, fired bool, outcome string, see sight, p, q *profile) bool {
	if t != nil {
		t.record(rule, fired, outcome, see, p, q)
	}
	return fired
}

// score records the title similarity s a rule weighed against need.
func (t *trace) score(rule string, fired bool, outcome string, s, need float64) bool {
	if t != nil {
		t.recordScore(rule, fired, outcome, s, need)
	}
	return fired
}

// record appends the step of a rule and what it read. The codes step lists
// both listings' codes once; the rules that read its evidence repeat them
// only when they decide.
func (t *trace) record(rule string, fired bool, outcome string, see sight, p, q *profile) {
	if see == seeCodes && !fired {
		see = seeNothing
	}
	t.add(rule, fired, outcome, seen(see, p, q))
}

// recordScore appends the step of a rule of title similarity.
func (t *trace) recordScore(rule string, fired bool, outcome string, s, need float64) {
	t.add(rule, fired, outcome, []string{"score=" + strconv.FormatFloat(s, 'f', 2, 64), "need=" + strconv.FormatFloat(need, 'f', 2, 64)})
}

// add appends one step; a rule that did not fire passes.
func (t *trace) add(rule string, fired bool, outcome string, saw []string) {
	if !fired {
		outcome = Pass
	}
	t.steps = append(t.steps, Step{Rule: rule, Outcome: outcome, Saw: saw})
}

// evidence records what the two listings' model codes say.
func (t *trace) evidence(ev codeEv, p, q *profile) {
	if t == nil {
		return
	}
	saw := seen(seeCodes, p, q)
	for _, f := range []struct {
		name string
		on   bool
	}{
		{"strong", ev.strong}, {"part", ev.part}, {"line", ev.line}, {"desc", ev.desc}, {"fit-own", ev.fitOwn},
		{"weak", ev.weak}, {"conflict", ev.conflict}, {"variant", ev.variant}, {"colour", ev.colour}, {"unrelated", ev.unrelated},
	} {
		if f.on {
			saw = append(saw, "found:"+f.name)
		}
	}
	t.add("codes", false, Pass, saw)
}

// seen lists what see names of both listings.
func seen(see sight, p, q *profile) []string {
	var out []string
	for _, v := range sideOf(see, p) {
		out = append(out, "a:"+v)
	}
	for _, v := range sideOf(see, q) {
		out = append(out, "b:"+v)
	}
	return out
}

// sideOf lists what see names of one listing.
func sideOf(see sight, p *profile) []string {
	one := func(s string) []string {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	switch see {
	case seeGTIN:
		return one(p.gtin)
	case seeLink:
		return one(p.link)
	case seeBrands:
		return one(p.brand)
	case seeSpecs:
		var out []string
		for _, k := range slices.Sorted(maps.Keys(p.specs)) {
			out = append(out, k+"="+strconv.FormatFloat(p.specs[k], 'g', -1, 64))
		}
		return out
	case seeCodes:
		var out []string
		for _, c := range p.codes {
			out = append(out, codeLabel(c))
		}
		return out
	case seeEditions:
		return editionNames(p.edition)
	case seeColours:
		return one(p.colour)
	case seeType:
		return []string{fmt.Sprintf("%s accessory=%v", p.category, p.acc)}
	case seeVariants:
		return append(variantNames(p.mainVar, ""), variantNames(p.fitVar, "for ")...)
	case seeSlots:
		var out []string
		for _, s := range p.slots {
			out = append(out, s.key+"="+s.num)
		}
		return out
	case seeFit:
		return p.fitWords
	}
	return nil
}

// codeLabel is a code as the trace shows it: its letters and how the
// listing gave it ("WH1000XM5[field,mpn,strong]", "6300[strong,series=FX]").
func codeLabel(c code) string {
	kinds := []string{"", "weak", "line", "strong"}
	var tags []string
	if c.field {
		tags = append(tags, "field")
	}
	if c.mpn {
		tags = append(tags, "mpn")
	}
	if c.fit {
		tags = append(tags, "fit")
	}
	if int(c.kind) < len(kinds) {
		tags = append(tags, kinds[c.kind])
	}
	if c.series != "" {
		tags = append(tags, "series="+c.series)
	}
	return c.s + "[" + strings.Join(tags, ",") + "]"
}

// editionNames names the editions of a set.
func editionNames(e edition) []string {
	names := []string{"bundle", "upgrade", "academic", "third-party", "pack", "lens-kit", "body", "lens", "tray", "boxed"}
	var out []string
	for i, n := range names {
		if e&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// variantNames names the variant words of a set, each after prefix.
func variantNames(v variants, prefix string) []string {
	var out []string
	for w, bit := range variantWords {
		if v&bit != 0 {
			out = append(out, prefix+w)
		}
	}
	slices.Sort(out)
	return out
}
