package eval

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// writeTrainSample writes a small train and valid split of made-up titles
// under dir, in the layout TrainMatcher reads.
func writeTrainSample(t *testing.T, dir string) {
	t.Helper()
	brands := []string{"Acme", "Borealis", "Corvid", "Dunmore"}
	things := []string{"desk lamp", "garden hose", "kettle", "table fan", "bread bin", "door mat"}
	colours := []string{"black", "white", "steel", "oak"}
	rec := func(title string) string { return "COL title VAL " + title }
	for k, name := range []string{"train.txt", "valid.txt"} {
		var b strings.Builder
		for i := range 120 {
			brand, thing := brands[(i+k)%len(brands)], things[i%len(things)]
			a := fmt.Sprintf("%s %s %s with %d settings", brand, thing, colours[i%len(colours)], 2+i%5)
			same := i%3 != 0
			other := fmt.Sprintf("%s %s %d settings %s home", brand, thing, 2+i%5, colours[(i+1)%len(colours)])
			if !same {
				other = fmt.Sprintf("%s %s %s home", brand, things[(i+1)%len(things)], colours[i%len(colours)])
			}
			fmt.Fprintf(&b, "%s\t%s\t%d\n", rec(a), rec(other), map[bool]int{true: 1}[same])
		}
		path := filepath.Join(dir, trainSets[0], name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTrainMatcherDeterministic(t *testing.T) {
	dir := t.TempDir()
	writeTrainSample(t, dir)
	first, summary, err := TrainMatcher(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary, "trained on") || strings.Contains(summary, "trained on 0 ") {
		t.Fatalf("sample leaves no pair open to the scorer:\n%s", summary)
	}
	for range 3 {
		again, _, err := TrainMatcher(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("training twice on one sample gives two files:\n%s\nthen\n%s", first, again)
		}
	}
}

// TestEmbeddedScorerIsTrained checks that the shipped scorer is the file
// training writes on the datasets as the rules now read them, so that make
// train-matcher reproduces it; it runs when the datasets are present.
func TestEmbeddedScorerIsTrained(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on the full train splits")
	}
	dir := filepath.Join("..", "..", "..", "shared", "datasets")
	if _, err := os.Stat(filepath.Join(dir, trainSets[0], "train.txt")); err != nil {
		t.Skipf("datasets not found: %v", err)
	}
	got, _, err := TrainMatcher(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "match", "scorer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("internal/match/scorer.json is not what training on %s gives; run make train-matcher", dir)
	}
}
