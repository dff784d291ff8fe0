package match

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The learned scorer decides the pairs the rules leave open: no barcode, no
// shared part number, no veto (brand, specs, colour, code conflict, edition,
// variant, model-line number, type, fit), and a title similarity too low
// for title evidence alone. It is a logistic regression over what the rules
// already read of the two listings (the features below), trained on the
// train splits of the entity-matching benchmarks, its threshold chosen on
// their valid splits ("indexer train-matcher", make train-matcher). It can
// join such a pair; it can never overrule a veto, and grouping still asks
// both titles to name a model.

//go:embed scorer.json
var scorerJSON []byte

// FeatureNames returns the names of the learned scorer's inputs, in the
// order Features gives them.
func FeatureNames() []string {
	return []string{
		"similarity",       // rarity-weighted Dice of the titles' words
		"coverage-min",     // the lesser share of one title's weight found in the other
		"coverage-max",     // the greater share: a short title within a long one
		"word-jaccard",     // shared distinct words over all, unweighted
		"length-ratio",     // fewer words over more
		"number-agreement", // shared words with digits over all words with digits
		"no-numbers",       // neither title has a word with digits
		"line-code",        // a shared model-line code ("iPhone15")
		"item-number",      // only an item number or a fitted device's code shared
		"code-support",     // a fitted code or a described code relates them
		"unrelated-codes",  // both name codes of their own, none related
		"one-sided-code",   // one names a part or model number, the other none
		"model-name",       // a shared code of letters or three-digit model number
		"shared-slots",     // model-line numbers both give, up to 3, over 3
		"shared-specs",     // spec values both state (and agree on), up to 3, over 3
		"same-brand",       // both give the same brand
		"brand-missing",    // one or both give no brand
		"both-name-model",  // both titles name a model
		"rarest-shared",    // the weight of the rarest shared word over the rarest word's
		"both-fields",      // both give identifier fields, and no code agreed
		"other-category",   // both have a category, and they differ
		"model-word",       // a word of letters and digits both titles give, not a measure ("gh4", "t5i")
		"lens",             // both name one lens by its focal length and aperture
		"focal-range",      // one brand, both name one zoom's focal range (an aperture may be missing)
		"brand-model-word", // one brand, and a model word both titles give
		"short-in-long",    // one brand, and one title's words all within the other's
	}
}

// Scorer is a logistic regression, as its file holds it: the probability
// that a pair is one product is the logistic of Bias plus the weighted
// features; a pair at or above Threshold is.
type Scorer struct {
	Version   int       `json:"version"`
	Features  []string  `json:"features"`
	Weights   []float64 `json:"weights"`
	Bias      float64   `json:"bias"`
	Threshold float64   `json:"threshold"`
}

// loadScorer reads the embedded scorer; a file that does not fit the
// features is an error.
func loadScorer(b []byte) (*Scorer, error) {
	var s Scorer
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("scorer: %w", err)
	}
	if names := FeatureNames(); !slices.Equal(s.Features, names) || len(s.Weights) != len(names) {
		return nil, fmt.Errorf("scorer: features %v do not match %v", s.Features, names)
	}
	return &s, nil
}

// embeddedScorer returns the scorer shipped with the package. The file is
// built by the package's own tests; one that fails to load is a build error
// those tests report, and the matcher then decides by its rules alone.
func embeddedScorer() *Scorer {
	s, err := loadScorer(scorerJSON)
	if err != nil {
		return nil
	}
	return s
}

// Probability is the scorer's probability that features f are one product.
func (s *Scorer) Probability(f []float64) float64 {
	z := s.Bias
	for i, w := range s.Weights {
		z += w * f[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// Features returns the learned scorer's inputs for a pair and true when the
// rules leave the pair open (see the scorer), or nil and false when they
// decide it. Training reads them; the matcher's own scorer plays no part.
func (m *Matcher) Features(a, b Item) ([]float64, bool) {
	p, q := profileOf(a, m.opt), profileOf(b, m.opt)
	rules := *m
	rules.scorer = nil
	d := rules.decide(&p, &q, nil)
	if d.Same || !strings.HasPrefix(d.Reason, "title") {
		return nil, false
	}
	f := m.features(&p, &q, codeEvidence(&p, &q), d.Score)
	return f[:], true
}

// featureCount is the number of the scorer's inputs.
const featureCount = 26

// features computes the scorer's inputs from what the rules read.
// They are an array, so that deciding a pair allocates nothing for them.
func (m *Matcher) features(p, q *profile, ev codeEv, s float64) [featureCount]float64 {
	cp, cq := m.coverage(p.words, q.words), m.coverage(q.words, p.words)
	shared, union := 0, len(p.words)
	numShared, numUnion := 0, 0
	var rarestShared, rarest float64
	for _, w := range p.words {
		wt := m.weight(w)
		rarest = max(rarest, wt)
		num := strings.ContainsAny(w, "0123456789")
		if num {
			numUnion++
		}
		if slices.Contains(q.words, w) {
			shared++
			rarestShared = max(rarestShared, wt)
			if num {
				numShared++
			}
		}
	}
	for _, w := range q.words {
		rarest = max(rarest, m.weight(w))
		if !slices.Contains(p.words, w) {
			union++
			if strings.ContainsAny(w, "0123456789") {
				numUnion++
			}
		}
	}
	slots := 0
	for _, sl := range p.slots {
		if slices.Contains(q.slots, sl) {
			slots++
		}
	}
	specs := 0
	for k, v := range p.specs {
		if w, ok := q.specs[k]; ok && w == v {
			specs++
		}
	}
	np, nq := float64(len(p.words)), float64(len(q.words))
	sameBrand := p.brand != "" && p.brand == q.brand
	return [featureCount]float64{
		s,
		min(cp, cq),
		max(cp, cq),
		ratio(shared, union),
		ratio(min(len(p.words), len(q.words)), max(len(p.words), len(q.words))),
		ratio(numShared, numUnion),
		flag(numUnion == 0),
		flag(ev.line),
		flag(ev.weak),
		flag(ev.fitOwn || ev.desc),
		flag(ev.unrelated),
		flag(hasOwnStrong(p) != hasOwnStrong(q)),
		flag(sharedLetterCode(p, q) || sharedModelNumber(p, q)),
		float64(min(slots, 3)) / 3,
		float64(min(specs, 3)) / 3,
		flag(p.brand != "" && p.brand == q.brand),
		flag(p.brand == "" || q.brand == ""),
		flag(namesModel(p) && namesModel(q) && np > 0 && nq > 0),
		ratio(rarestShared, rarest),
		flag(hasField(p) && hasField(q)),
		flag(p.category != "" && q.category != "" && p.category != q.category),
		flag(sharedModelWord(p, q)),
		flag(sharedLens(p, q)),
		flag(sameBrand && sharedRange(p, q)),
		flag(sameBrand && sharedModelWord(p, q)),
		flag(sameBrand && max(cp, cq) >= 0.99),
	}
}

// sharedModelWord reports whether two titles give one word of letters and
// digits that is no measure ("gh4", "t5i", "a2300"; not "16gb", "800w").
func sharedModelWord(p, q *profile) bool {
	return sharedWordOf(p, q, false)
}

// sharedWordOf is sharedModelWord, leaving out, when names is set, what
// names no model: a mobile network's generation ("5g"), a spec's code
// ("4K") or a storage written short ("64G"), a lens's range or mount.
func sharedWordOf(p, q *profile, names bool) bool {
	for _, w := range p.words[:p.nMain] {
		if len(w) < 2 || !strings.ContainsAny(w, "0123456789") || lettersOnly(w) || digitCount(w) == len(w) ||
			strings.Contains(w, ".") || names && networkGeneration(w) != "" {
			continue
		}
		if _, _, unit := digitsUnit(w); unit || names && (focalRange(w) || gluedAperture(w)) {
			continue // a measure; a lens's range and aperture are sharedLens's to weigh
		}
		if names && (isSpecCode(strings.ToUpper(w)) || gigabytes(w)) {
			continue // "4K", "8K", "64G": a spec both state, no model's name
		}
		if names && mountLetters(w) > 0 && (p.edition|q.edition)&edLensKit != 0 {
			continue // "XC15" of "XC15-45mm": the kit's lens, no camera's name
		}
		if slices.Contains(q.words[:q.nMain], w) {
			return true
		}
	}
	return false
}

// gluedAperture reports whether w is a lens's aperture or aperture range
// with its point and hyphen dropped ("f3556" of "f/3.5-5.6"): an f and three
// digits or more.
func gluedAperture(w string) bool {
	return len(w) >= 4 && w[0] == 'f' && digitCount(w) == len(w)-1
}

// flag is 1 for true, 0 for false.
func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// ratio is a/b, or 0 when b is 0.
func ratio[T int | float64](a, b T) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
