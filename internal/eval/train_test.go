package eval

import (
	"math"
	"slices"
	"testing"

	"productsearch/internal/match"
)

func TestSolve(t *testing.T) {
	a := [][]float64{{4, 2, 0}, {2, 5, 1}, {0, 1, 3}}
	want := []float64{1, -2, 3}
	b := make([]float64, 3)
	for i := range a {
		for j := range a[i] {
			b[i] += a[i][j] * want[j]
		}
	}
	got := solve(a, b)
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("solve = %v, want %v", got, want)
		}
	}
}

func TestFitLogistic(t *testing.T) {
	// One feature that decides, one that is noise.
	var x [][]float64
	var y []bool
	for i := range 200 {
		v := float64(i%20) / 19
		x = append(x, []float64{v, float64(i%7) / 6})
		y = append(y, v > 0.5 != (i%10 == 0))
	}
	w := fitLogistic(x, y, 1, 30)
	if w[1] <= 0 || math.Abs(w[2]) >= w[1]/4 {
		t.Errorf("weights %v: want a large positive weight on the deciding feature, a small one on the noise", w)
	}
	if again := fitLogistic(x, y, 1, 30); !slices.Equal(w, again) {
		t.Errorf("fit not deterministic: %v then %v", w, again)
	}
}

func TestChooseThresholdKeepsEverySplit(t *testing.T) {
	names := match.FeatureNames()
	sc := &match.Scorer{Features: names, Weights: make([]float64, len(names))}
	sc.Weights[0] = 10
	sc.Bias = -5
	f := func(v float64) []float64 { r := make([]float64, len(names)); r[0] = v; return r }
	// The first split gains from a low threshold; the second loses its
	// precision below 0.8, so the threshold stays at or above it.
	a := split{fn: 0, features: [][]float64{f(0.5), f(0.6)}, labels: []bool{true, true}}
	b := split{tp: 5, features: [][]float64{f(0.6), f(0.7)}, labels: []bool{false, false}}
	got := chooseThreshold(sc, []split{a, b})
	if p := sc.Probability(f(0.7)); got <= p {
		t.Errorf("threshold %v joins b's wrong pairs (probability %v)", got, p)
	}
}
