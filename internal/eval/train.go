package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"productsearch/internal/match"
)

// trainSets are the entity-matching benchmarks the learned scorer learns
// from, relative to the dataset directory: their train splits fit it,
// their valid splits choose its threshold, their test splits are never read.
var trainSets = []string{
	"entity-matching/abt-buy",
	"entity-matching/walmart-amazon",
	"entity-matching/amazon-google",
	"entity-matching/wdc-computers",
	"entity-matching/wdc-cameras",
}

// Training settings: the L2 penalty on the weights (not the bias), the
// Newton steps of the fit, the thresholds tried on the valid splits and the
// most F1 the scorer may cost one of them.
const (
	trainPenalty  = 1.0
	trainSteps    = 50
	minThreshold  = 0.5
	maxThreshold  = 0.95
	thresholdStep = 0.01
	maxLoss       = 0.005
)

// split is one file's pairs as the rules and the scorer see them: the
// rules' verdicts on the pairs they decide and the features of the rest.
type split struct {
	name     string
	tp, fp   int // pairs the rules join, rightly and wrongly
	fn       int // matches the rules refuse outright
	features [][]float64
	labels   []bool
}

// readSplit decides a file's pairs by the rules and keeps the open ones.
func readSplit(path string) (split, bool, error) {
	pairs, found, err := readDataset(path, ReadPairs)
	if err != nil || !found {
		return split{}, found, err
	}
	m, items := pairMatcher(pairs, match.Options{})
	s := split{name: path}
	for i, p := range pairs {
		if f, open := m.Features(items[i][0], items[i][1]); open {
			s.features = append(s.features, f)
			s.labels = append(s.labels, p.Match)
			continue
		}
		same := m.Compare(items[i][0], items[i][1]).Same
		switch {
		case same && p.Match:
			s.tp++
		case same:
			s.fp++
		case p.Match:
			s.fn++
		}
	}
	return s, true, nil
}

// TrainMatcher fits the learned scorer on the train splits under dir,
// chooses its threshold on the valid splits and returns the scorer's file,
// with a summary per valid split. The same data gives the same file.
func TrainMatcher(dir string) ([]byte, string, error) {
	var train, valid []split
	for _, set := range trainSets {
		for _, name := range []string{"train.txt", "valid.txt"} {
			s, found, err := readSplit(filepath.Join(dir, set, name))
			if err != nil {
				return nil, "", err
			}
			if !found {
				continue
			}
			if name == "train.txt" {
				train = append(train, s)
			} else {
				valid = append(valid, s)
			}
		}
	}
	if len(train) == 0 || len(valid) == 0 {
		return nil, "", fmt.Errorf("train matcher: no train and valid splits under %s", dir)
	}
	var x [][]float64
	var y []bool
	for _, s := range train {
		x = append(x, s.features...)
		y = append(y, s.labels...)
	}
	w := fitLogistic(x, y, trainPenalty, trainSteps)
	sc := match.Scorer{Version: 1, Features: match.FeatureNames(), Weights: w[1:], Bias: w[0]}
	sc.Threshold = chooseThreshold(&sc, valid)
	for i := range sc.Weights {
		sc.Weights[i] = round6(sc.Weights[i])
	}
	sc.Bias = round6(sc.Bias)
	b, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return nil, "", err
	}
	var sum strings.Builder
	fmt.Fprintf(&sum, "trained on %d open pairs; threshold %.2f\n", len(x), sc.Threshold)
	for _, s := range valid {
		rp, rr, rf := prf(s.tp, s.fp, s.fn+countTrue(s.labels))
		tp, fp, fn := s.score(&sc, sc.Threshold)
		p, r, f := prf(tp, fp, fn)
		fmt.Fprintf(&sum, "%-45s rules P/R/F1 %.3f/%.3f/%.3f  with scorer %.3f/%.3f/%.3f\n", s.name, rp, rr, rf, p, r, f)
	}
	return append(b, '\n'), sum.String(), nil
}

// score counts a split's decisions with the scorer at threshold t.
func (s *split) score(sc *match.Scorer, t float64) (tp, fp, fn int) {
	tp, fp, fn = s.tp, s.fp, s.fn
	for i, f := range s.features {
		same := sc.Probability(f) >= t
		switch {
		case same && s.labels[i]:
			tp++
		case same:
			fp++
		case s.labels[i]:
			fn++
		}
	}
	return tp, fp, fn
}

// chooseThreshold returns the threshold that gives the best mean F1 over
// the valid splits without costing any of them more than maxLoss of the F1
// the rules give it alone; of equal ones, the highest (a wrong merge costs
// more than a miss). With none such, the scorer joins almost nothing.
func chooseThreshold(sc *match.Scorer, valid []split) float64 {
	rules := make([]float64, len(valid))
	for i, s := range valid {
		_, _, rules[i] = prf(s.tp, s.fp, s.fn+countTrue(s.labels))
	}
	best, bestF := maxThreshold, -1.0
	for k := 0; ; k++ {
		t := maxThreshold - float64(k)*thresholdStep
		if t < minThreshold-1e-9 {
			break
		}
		var mean float64
		kept := true
		for i := range valid {
			_, _, f := prf(valid[i].score(sc, t))
			mean += f / float64(len(valid))
			kept = kept && f >= rules[i]-maxLoss
		}
		if kept && mean > bestF+1e-12 {
			best, bestF = round6(t), mean
		}
	}
	return best
}

// fitLogistic fits an L2-penalised logistic regression by Newton's method
// from zero weights; w[0] is the bias, which is not penalised. It is
// deterministic: the same rows give the same weights.
func fitLogistic(x [][]float64, y []bool, penalty float64, steps int) []float64 {
	d := len(x[0]) + 1
	w := make([]float64, d)
	row := make([]float64, d)
	for range steps {
		grad := make([]float64, d)
		hess := make([][]float64, d)
		for i := range hess {
			hess[i] = make([]float64, d)
		}
		for n, xs := range x {
			row[0] = 1
			copy(row[1:], xs)
			z := 0.0
			for i, v := range row {
				z += w[i] * v
			}
			p := 1 / (1 + math.Exp(-z))
			t := 0.0
			if y[n] {
				t = 1
			}
			for i, vi := range row {
				grad[i] += (p - t) * vi
				for j := 0; j <= i; j++ {
					hess[i][j] += p * (1 - p) * vi * row[j]
				}
			}
		}
		for i := 1; i < d; i++ {
			grad[i] += penalty * w[i]
			hess[i][i] += penalty
		}
		for i := range d {
			for j := i + 1; j < d; j++ {
				hess[i][j] = hess[j][i]
			}
		}
		hess[0][0] += 1e-9
		step := solve(hess, grad)
		for i := range w {
			w[i] -= step[i]
		}
	}
	return w
}

// solve returns x with a·x = b for a symmetric positive definite a, by
// Cholesky factorisation.
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	l := make([][]float64, n)
	for i := range l {
		l[i] = make([]float64, n)
		for j := 0; j <= i; j++ {
			s := a[i][j]
			for k := range j {
				s -= l[i][k] * l[j][k]
			}
			if i == j {
				l[i][i] = math.Sqrt(max(s, 1e-12))
			} else {
				l[i][j] = s / l[j][j]
			}
		}
	}
	z := make([]float64, n)
	for i := range n {
		s := b[i]
		for k := range i {
			s -= l[i][k] * z[k]
		}
		z[i] = s / l[i][i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := z[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return x
}

// round6 rounds to six decimals, so the file reads well and compares
// exactly from one training to the next.
func round6(v float64) float64 {
	return math.Round(v*1e6) / 1e6
}

// countTrue counts the true values.
func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
