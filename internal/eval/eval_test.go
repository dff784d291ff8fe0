package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"productsearch/internal/demo"
	"productsearch/internal/match"
	"productsearch/internal/normalize"
)

func open(t testing.TB, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestPairs(t *testing.T) {
	pairs, err := ReadPairs(open(t, "pairs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := Pairs(pairs, match.Options{})
	want := PairResult{Pairs: 8, Matches: 3, TruePositives: 3, Precision: 1, Recall: 1, F1: 1}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(PairResult{}, "Errors", "Reasons"), cmpopts.IgnoreUnexported(PairResult{})); diff != "" {
		t.Errorf("Pairs mismatch (-want +got):\n%s", diff)
	}
}

func TestReadPairsErrors(t *testing.T) {
	tests := []struct{ name, input, want string }{
		{"not tab separated", "title,brand\nSony,Sony\n", "want 3 tab-separated fields"},
		{"no COL", "name VAL x\tCOL name VAL y\t1\n", "left record: record does not start with COL"},
		{"no VAL", "COL name VAL x\tCOL name y\t1\n", "right record: attribute \"name y\" has no VAL"},
		{"bad label", "COL name VAL x\tCOL name VAL y\tyes\n", "label \"yes\" is not 0 or 1"},
		{"empty", "\n\n", "no pairs found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadPairs(strings.NewReader(tt.input))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "COL <attr> VAL <value>") {
				t.Errorf("ReadPairs error = %v, want it to contain %q and the expected format", err, tt.want)
			}
		})
	}
}

func TestClusters(t *testing.T) {
	offers, err := ReadClusters(open(t, "clusters.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := Clusters(offers, match.Options{})
	want := ClusterResult{Offers: 10, TrueClusters: 6, PredictedClusters: 6, TruePairs: 5, PredictedPairs: 5, CorrectPairs: 5,
		Precision: 1, Recall: 1, F1: 1}
	ignore := cmpopts.IgnoreFields(ClusterResult{}, "Merged", "Split", "MergedPairs", "SplitPairs", "Categories")
	if diff := cmp.Diff(want, got, ignore, cmpopts.IgnoreUnexported(ClusterResult{})); diff != "" {
		t.Errorf("Clusters mismatch (-want +got):\n%s", diff)
	}
	// Colour variants together: two colours of one speaker merge.
	variants := []ClusterOffer{
		{ID: "a", Cluster: "flip6-black", Retailer: "Alpha", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker - Black"},
		{ID: "b", Cluster: "flip6-blue", Retailer: "Beta", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker, Blue"},
	}
	if got := Clusters(variants, match.Options{}); got.PredictedClusters != 2 || got.F1 != 1 {
		t.Errorf("colour variants: %d groups, F1 %v; want 2 groups, F1 1", got.PredictedClusters, got.F1)
	}
	if got := Clusters(variants, match.Options{IgnoreColour: true}); got.PredictedClusters != 1 || len(got.Merged) != 1 {
		t.Errorf("colour variants with colours ignored: %d groups, %d merged; want 1 and 1", got.PredictedClusters, len(got.Merged))
	}
}

// TestClustersByCategory checks the per-category scores and that wrong
// merges and splits come largest first, with the pairs they get wrong.
func TestClustersByCategory(t *testing.T) {
	offers := []ClusterOffer{
		// Two speakers with nothing but the category word merge (3 wrong
		// pairs with the third); two of one phone stay apart.
		{ID: "s1", Cluster: "s1", Retailer: "A", Brand: "Acme", Title: "Acme Boom 3 Portable Speaker", Category: "Speakers"},
		{ID: "s2", Cluster: "s2", Retailer: "B", Brand: "Acme", Title: "Acme Boom 3 Portable Speaker", Category: "Speakers"},
		{ID: "s3", Cluster: "s3", Retailer: "C", Brand: "Acme", Title: "Acme Boom 3 Portable Speaker", Category: "Speakers"},
		{ID: "p1", Cluster: "p", Retailer: "A", Brand: "Zeta", GTIN: "4006381333931", Title: "Zeta Z1 Phone", Category: "Phones"},
		{ID: "p2", Cluster: "p", Retailer: "B", Brand: "Zeta", GTIN: "4006381333948", Title: "Zeta Z1 Phone", Category: "Phones"},
		{ID: "p3", Cluster: "q", Retailer: "A", Brand: "Omni", Title: "Omni Q5 Tablet", Category: "Phones"},
		{ID: "p4", Cluster: "q", Retailer: "B", Brand: "Omni", Title: "Omni Q6 Tablet", Category: "Phones"},
	}
	got := Clusters(offers, match.Options{})
	want := []CategoryScore{
		{Category: "Phones", Offers: 4, Precision: 0, Recall: 0, F1: 0},
		{Category: "Speakers", Offers: 3, Precision: 0, Recall: 0, F1: 0},
	}
	if diff := cmp.Diff(want, got.Categories); diff != "" {
		t.Errorf("categories mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{3}, got.MergedPairs); diff != "" {
		t.Errorf("merged pairs mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 1}, got.SplitPairs); diff != "" {
		t.Errorf("split pairs mismatch (-want +got):\n%s", diff)
	}
	var buf bytes.Buffer
	if err := (Output{W: &buf}).Clusters("c", got); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"Speakers  3       0.0000", "1    2   1   2  Zeta Z1 Phone | Zeta Z1 Phone", "largest wrong merges (1 in all", "largest splits (2 in all"} {
		if !strings.Contains(buf.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, buf.String())
		}
	}
}

func TestExtract(t *testing.T) {
	cases, err := ReadExtract(open(t, "extract.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := Extract(cases)
	want := map[string]*AttrScore{
		"memory_gb":  {Stated: 3, Read: 3, Correct: 3, Precision: 1, Recall: 1},
		"storage_gb": {Stated: 5, Read: 5, Correct: 5, Precision: 1, Recall: 1},
		"screen_in":  {Stated: 4, Read: 4, Correct: 4, Precision: 1, Recall: 1},
		"refresh_hz": {Stated: 2, Read: 2, Correct: 2, Precision: 1, Recall: 1},
		"wifi_gen":   {Stated: 2, Read: 2, Correct: 2, Precision: 1, Recall: 1},
	}
	if diff := cmp.Diff(want, got.Attributes); diff != "" {
		t.Errorf("Extract mismatch (-want +got):\n%s", diff)
	}
}

func TestExtractScoresInventedAndWrong(t *testing.T) {
	cases := []ExtractCase{
		{Title: "Laptop 16GB RAM 512GB SSD", Category: "Laptops", Truth: map[string]float64{"memory_gb": 8}, Scored: []string{"memory_gb", "storage_gb"}},
		{Title: "Laptop 1TB SSD", Category: "Laptops", Scored: []string{"memory_gb", "storage_gb"}},
	}
	got := Extract(cases)
	want := map[string]*AttrScore{
		"memory_gb":  {Stated: 1, Read: 1, Wrong: 1},
		"storage_gb": {Read: 2, Invented: 2},
	}
	if diff := cmp.Diff(want, got.Attributes); diff != "" {
		t.Errorf("Extract mismatch (-want +got):\n%s", diff)
	}
	if len(got.Errors) != 3 {
		t.Errorf("%d errors listed, want 3: %+v", len(got.Errors), got.Errors)
	}
}

func TestPhoneSpecs(t *testing.T) {
	cases, err := ReadPhoneSpecs(open(t, "phonespecs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := Extract(cases)
	want := map[string]*AttrScore{
		"memory_gb":  {Stated: 3, Read: 3, Correct: 3, Precision: 1, Recall: 1},
		"storage_gb": {Stated: 3, Read: 3, Correct: 3, Precision: 1, Recall: 1},
	}
	if diff := cmp.Diff(want, got.Attributes); diff != "" {
		t.Errorf("phone specs mismatch (-want +got):\n%s", diff)
	}
}

func TestPhoneClusters(t *testing.T) {
	const file = `model,ram,storage
Zentor Q4 5G (8GB RAM + 128GB),"8 GB RAM, 128 GB inbuilt","8 GB RAM, 128 GB inbuilt"
Zentor Q4 5G,"8 GB RAM, 128 GB inbuilt","8 GB RAM, 128 GB inbuilt"
Zentor Q4 5G (8GB RAM + 256GB),"8 GB RAM, 256 GB inbuilt","8 GB RAM, 256 GB inbuilt"
Zentor Q3 5G (8GB RAM + 128GB),"8 GB RAM, 128 GB inbuilt","8 GB RAM, 128 GB inbuilt"
`
	offers, err := ReadPhoneClusters(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	var clusters, shops []string
	for _, o := range offers {
		clusters, shops = append(clusters, o.Cluster), append(shops, o.Retailer)
	}
	want := []string{
		"zentor q4 5g|8 GB RAM, 128 GB inbuilt|8 GB RAM, 128 GB inbuilt", // the base configuration, stated or not
		"zentor q4 5g|8 GB RAM, 128 GB inbuilt|8 GB RAM, 128 GB inbuilt",
		"zentor q4 5g|8 GB RAM, 256 GB inbuilt|8 GB RAM, 256 GB inbuilt",
		"zentor q3 5g|8 GB RAM, 128 GB inbuilt|8 GB RAM, 128 GB inbuilt",
	}
	if diff := cmp.Diff(want, clusters); diff != "" {
		t.Errorf("clusters mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"listing 1", "listing 2", "listing 3", "listing 4"}, shops); diff != "" {
		t.Errorf("each listing is a shop of its own (-want +got):\n%s", diff)
	}
	if _, err := ReadPhoneClusters(strings.NewReader("model,ram,storage\n,\"8 GB RAM\",\n")); err == nil {
		t.Error("a listing without a title was read")
	}
}

func TestClassify(t *testing.T) {
	cases, err := ReadClassify(open(t, "classify.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := Classify(cases)
	want := ClassifyResult{Titles: 8, Correct: 8, Accuracy: 1, TypeJudged: 8, TypeCorrect: 8, TypeAccuracy: 1, Confusions: []Confusion{}}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(ClassifyResult{}, "Errors", "PerClass")); diff != "" {
		t.Errorf("Classify mismatch (-want +got):\n%s", diff)
	}
}

func TestClassifyConfusions(t *testing.T) {
	cases := []ClassifyCase{
		{Title: "Sony WH-1000XM5 Headphones", Want: "Speakers"},
		{Title: "Bose QuietComfort Headphones", Want: "Speakers"},
		{Title: "Apple iPhone 15", Want: "Phones"},
	}
	got := Classify(cases)
	want := []Confusion{{Want: "Speakers", Got: "Headphones", Count: 2}}
	if diff := cmp.Diff(want, got.Confusions); diff != "" {
		t.Errorf("confusions mismatch (-want +got):\n%s", diff)
	}
}

// TestFormatErrors checks that a file of another shape names the columns
// each evaluation expects.
func TestFormatErrors(t *testing.T) {
	const other = "id,name,price\n1,Sony,10\n"
	tests := []struct {
		name string
		read func(string) error
		want string
	}{
		{"clusters", func(s string) error { _, err := ReadClusters(strings.NewReader(s)); return err }, "offer_id, retailer, title, truth_cluster"},
		{"extract", func(s string) error { _, err := ReadExtract(strings.NewReader(s)); return err }, "memory_gb, storage_gb"},
		{"classify", func(s string) error { _, err := ReadClassify(strings.NewReader(s)); return err }, "category (the expected category"},
		{"phone specs", func(s string) error { _, err := ReadPhoneSpecs(strings.NewReader(s)); return err }, "model (the listing title), ram and storage"},
		{"phone clusters", func(s string) error { _, err := ReadPhoneClusters(strings.NewReader(s)); return err }, "model (the listing title), ram and storage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, input := range []string{other, ""} {
				err := tt.read(input)
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error for %q = %v, want it to name %q", input, err, tt.want)
				}
			}
		})
	}
	_, err := ReadExtract(strings.NewReader("title,category\nLaptop,Laptops\n"))
	if err == nil || !strings.Contains(err.Error(), "no attribute column") {
		t.Errorf("extract without attribute columns: %v", err)
	}
	_, err = ReadClassify(strings.NewReader("title,category\nLaptop,Computers\n"))
	if err == nil || !strings.Contains(err.Error(), `"Computers" is neither one of the 19`) {
		t.Errorf("classify with an unknown category: %v", err)
	}
}

// TestOutputJSON checks the JSON object each evaluation prints.
func TestOutputJSON(t *testing.T) {
	pairs, _ := ReadPairs(open(t, "pairs.txt"))
	offers, _ := ReadClusters(open(t, "clusters.csv"))
	ext, _ := ReadExtract(open(t, "extract.csv"))
	cls, _ := ReadClassify(open(t, "classify.csv"))
	tests := []struct {
		name string
		run  func(Output) error
		keys []string
	}{
		{"pairs", func(o Output) error { return o.Pairs("p", Pairs(pairs, match.Options{})) }, []string{"precision", "recall", "f1", "pairs"}},
		{"clusters", func(o Output) error { return o.Clusters("c", Clusters(offers, match.Options{})) }, []string{"precision", "recall", "f1"}},
		{"extract", func(o Output) error { return o.Extract("e", Extract(ext)) }, []string{"attributes", "titles"}},
		{"classify", func(o Output) error { return o.Classify("k", Classify(cls)) }, []string{"accuracy", "confusions"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.run(Output{W: &buf, JSON: true}); err != nil {
				t.Fatal(err)
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(buf.Bytes(), &obj); err != nil {
				t.Fatalf("output is not one JSON object: %v\n%s", err, buf.String())
			}
			for _, k := range tt.keys {
				if _, ok := obj[k]; !ok {
					t.Errorf("JSON output has no %q: %s", k, buf.String())
				}
			}
			buf.Reset()
			if err := tt.run(Output{W: &buf, Show: 5}); err != nil || buf.Len() == 0 {
				t.Errorf("table output: %v, %d bytes", err, buf.Len())
			}
		})
	}
	var buf bytes.Buffer
	if err := (Output{W: &buf, JSON: true}).Extract("e", Extract(ext)); err != nil {
		t.Fatal(err)
	}
	var e struct {
		Attributes map[string]struct {
			Precision *float64 `json:"precision"`
			Recall    *float64 `json:"recall"`
			Invented  *int     `json:"invented"`
		} `json:"attributes"`
	}
	if err := json.Unmarshal(buf.Bytes(), &e); err != nil || e.Attributes["memory_gb"].Precision == nil ||
		e.Attributes["memory_gb"].Recall == nil || e.Attributes["memory_gb"].Invented == nil {
		t.Errorf("extract JSON %s: want attributes.memory_gb.{precision,recall,invented} (%v)", buf.String(), err)
	}
}

func TestAll(t *testing.T) {
	dir := t.TempDir()
	copyTo := func(name, to string) {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		to = filepath.Join(dir, to)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyTo("pairs.txt", "entity-matching/abt-buy/test.txt")
	copyTo("phonespecs.csv", "phone-specs/smartphones.csv")
	copyTo("clusters.csv", "clustering/pricerunner-dev.csv")
	var buf bytes.Buffer
	if err := All(dir, Output{W: &buf}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"pairs entity-matching/abt-buy/test.txt", "extract phone-specs/smartphones.csv memory_gb",
		"clusters phone-specs/smartphones.csv (a listing per phone and configuration)",
		"skipped entity-matching/walmart-amazon/test.txt", "clusters clustering/pricerunner-dev.csv (colours together)", "  Headphones"} {
		if !strings.Contains(out, want) {
			t.Errorf("All output lacks %q:\n%s", want, out)
		}
	}
	buf.Reset()
	if err := All(dir, Output{W: &buf, JSON: true}); err != nil {
		t.Fatal(err)
	}
	var obj struct {
		Evaluations []Summary `json:"evaluations"`
		Skipped     []string  `json:"skipped"`
	}
	if err := json.Unmarshal(buf.Bytes(), &obj); err != nil || len(obj.Evaluations) != 9 || len(obj.Skipped) != 4 {
		t.Errorf("All JSON: %v, %+v", err, obj)
	}
	if err := All(filepath.Join(dir, "absent"), Output{W: &buf}); !errors.Is(err, ErrNoDatasets) {
		t.Errorf("All on a missing directory: %v, want ErrNoDatasets", err)
	}
}

func FuzzReadPairs(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("testdata", "pairs.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("COL name VAL \tCOL VAL\t1")
	f.Add("COL  COL name VAL x VAL y\tCOL\t0\n\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		pairs, err := ReadPairs(strings.NewReader(s))
		if err != nil {
			return
		}
		r := Pairs(pairs, match.Options{})
		if r.Pairs != len(pairs) || r.TruePositives+r.FalseNegatives != r.Matches {
			t.Errorf("inconsistent counts %+v for %d pairs", r, len(pairs))
		}
	})
}

func FuzzReadCSV(f *testing.F) {
	for _, name := range []string{"clusters.csv", "extract.csv", "classify.csv", "phonespecs.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("title,memory_gb\n\"x,\"\"y\",-1\n")
	f.Fuzz(func(t *testing.T, s string) {
		if offers, err := ReadClusters(strings.NewReader(s)); err == nil {
			Clusters(offers, match.Options{})
		}
		if cases, err := ReadExtract(strings.NewReader(s)); err == nil {
			Extract(cases)
		}
		if cases, err := ReadClassify(strings.NewReader(s)); err == nil {
			Classify(cases)
		}
		if cases, err := ReadPhoneSpecs(strings.NewReader(s)); err == nil {
			Extract(cases)
		}
	})
}

// TestExplain checks that --explain prints the decision trace of each wrong
// pair and of the pairs behind a wrong merge, and that without it no trace
// is printed.
func TestExplain(t *testing.T) {
	pairs := []Pair{
		{Line: 1, Match: true,
			A: Record{Attrs: []Attr{{"title", "Sony WH-1000XM5 Wireless Headphones Black"}, {"brand", "Sony"}}},
			B: Record{Attrs: []Attr{{"title", "Bose QuietComfort Ultra Headphones"}, {"brand", "Bose"}}}},
		{Line: 2, Match: false,
			A: Record{Attrs: []Attr{{"title", "Apple iPhone 15 128GB Black"}, {"brand", "Apple"}}},
			B: Record{Attrs: []Attr{{"title", "Apple iPhone 15 128GB - Black"}, {"brand", "Apple"}}}},
	}
	variants := []ClusterOffer{
		{ID: "a", Cluster: "flip6-black", Retailer: "Alpha", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker - Black"},
		{ID: "b", Cluster: "flip6-blue", Retailer: "Beta", Brand: "JBL", Title: "JBL Flip 6 Portable Speaker, Blue"},
	}
	tests := []struct {
		name    string
		run     func(Output) error
		explain bool
		want    []string // lines the output holds
	}{
		{"pairs", func(o Output) error { return o.Pairs("p", Pairs(pairs, match.Options{})) }, true,
			[]string{"line 1: truth same, decided different (brand", "    brand: split (a:sony b:bose)",
				"line 2: truth different, decided same (title", "    title: merge (score="}},
		{"pairs without explain", func(o Output) error { return o.Pairs("p", Pairs(pairs, match.Options{})) }, false,
			[]string{"line 1: truth same, decided different (brand"}},
		{"clusters", func(o Output) error { return o.Clusters("c", Clusters(variants, match.Options{IgnoreColour: true})) }, true,
			[]string{"groups that merge different clusters (1):", "  pair a ~ b: decided same (", "    brand: pass (a:jbl b:jbl)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tt.run(Output{W: &buf, Show: 5, Explain: tt.explain}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if !tt.explain && strings.Contains(out, ": pass") {
				t.Errorf("output without explain has a trace:\n%s", out)
			}
		})
	}
	// JSON carries the traces of the wrong pairs.
	var buf bytes.Buffer
	if err := (Output{W: &buf, JSON: true, Explain: true}).Pairs("p", Pairs(pairs, match.Options{})); err != nil {
		t.Fatal(err)
	}
	var obj struct {
		Explained []struct {
			Line     int `json:"line"`
			Decision struct {
				Trace []match.Step
			} `json:"decision"`
		} `json:"explained"`
	}
	if err := json.Unmarshal(buf.Bytes(), &obj); err != nil || len(obj.Explained) != 2 || len(obj.Explained[0].Decision.Trace) == 0 {
		t.Errorf("JSON explained = %+v, %v:\n%s", obj, err, buf.String())
	}
	buf.Reset()
	if err := (Output{W: &buf, JSON: true, Explain: true}).Clusters("c", Clusters(variants, match.Options{IgnoreColour: true})); err != nil {
		t.Fatal(err)
	}
	var cl struct {
		Merges [][]Explanation `json:"explained_merges"`
	}
	if err := json.Unmarshal(buf.Bytes(), &cl); err != nil || len(cl.Merges) != 1 || len(cl.Merges[0]) != 1 || len(cl.Merges[0][0].Decision.Trace) == 0 {
		t.Errorf("JSON explained merges = %+v, %v:\n%s", cl, err, buf.String())
	}
}

// TestFirstTitleWord checks the brand a title without one is given: its
// first word, but never a filler, a number or a model code.
func TestFirstTitleWord(t *testing.T) {
	tests := []struct{ title, want string }{
		{"Acme KGN34XL35G Fridge Freezer", "Acme"},
		{"New Acme Speaker", "Acme"},
		{"1400rpm washing machine", ""},
		{"WVG30462GB washer dryer 7kg", ""},
		{"S1151 Core i7-6700K Processor", ""},
		{`"Acme Pro Backpack 30"@en`, "Acme"},
		{`" Acme EF 70-200mm Lens "@en`, "Acme"},
		{"sim free zentor blade a7 32gb", "zentor"}, // a shop's prefix; lower case as written
		{"mob/zentor blade a7 32gb", "zentor"},
	}
	for _, tt := range tests {
		if got := firstTitleWord(tt.title); got != tt.want {
			t.Errorf("firstTitleWord(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
}

// TestOfferName checks how a web offer's title field is split into the
// offer's name and the title of its page, and which of the page's words
// join the name as codes.
func TestOfferName(t *testing.T) {
	tests := []struct{ field, name, page, title string }{
		{`"Acme Pro Tripod"@en Tripod AP100X - Example Shop"@en`, "Acme Pro Tripod", `Tripod AP100X - Example Shop"@en`, "Acme Pro Tripod AP100X"},
		{`"Acme Pro Tripod"@en-US "Tripods | Example"@en-US`, "Acme Pro Tripod", `"Tripods | Example"@en-US`, "Acme Pro Tripod"},
		{`"Acme Head Strap" Strap kopen en aanbiedingen Shopinn"`, "Acme Head Strap", `Strap kopen en aanbiedingen Shopinn"`, "Acme Head Strap"},
		{`"Acme 055 Series 67" 3-Section Tripod"@en Tripod - Shop"@en`, `Acme 055 Series 67" 3-Section Tripod`, `Tripod - Shop"@en`, `Acme 055 Series 67" 3-Section Tripod`},
		{`"Acme Card 16GB" "AC16G: Acme Card 16GB - Shop"`, "Acme Card 16GB", `"AC16G: Acme Card 16GB - Shop"`, "Acme Card 16GB AC16G"},
		{`"Acme Mic Stand" Shopinn" Stand kopen en aanbiedingen`, "Acme Mic Stand", `Shopinn" Stand kopen en aanbiedingen`, "Acme Mic Stand"},
		{`"Acme Card 16GB" -`, "Acme Card 16GB", "-", "Acme Card 16GB"},
		{`Acme Pro Tripod AP100X`, "Acme Pro Tripod AP100X", "", "Acme Pro Tripod AP100X"},
		{`"Acme Pro Tripod"`, "Acme Pro Tripod", "", "Acme Pro Tripod"},
	}
	for _, tt := range tests {
		name, page := offerName(tt.field)
		if name != tt.name || page != tt.page {
			t.Errorf("offerName(%q) = %q, %q, want %q, %q", tt.field, name, page, tt.name, tt.page)
		}
		if got := pairItem(Record{Attrs: []Attr{{Name: "title", Value: tt.field}}}).Title; got != tt.title {
			t.Errorf("pairItem(%q).Title = %q, want %q", tt.field, got, tt.title)
		}
	}
}

// TestTitleBrand checks the brand a title without a brand field is given:
// a known brand among its first words, else its first word.
func TestTitleBrand(t *testing.T) {
	tests := []struct {
		title, want string
		guessed     bool
	}{
		{"Used Canon EOS 70D Body", "Canon", false},
		{"Bateria Leica GEB77", "Leica", false},
		{"Cámara NIKON D5300 + Estuche", "Nikon", false},
		{"Western Digital Green 240GB SSD", "WD", false},
		{"Acme Pro Tripod", "Acme", true},
		{"Case for Canon EOS 70D", "Case", true},
		{"Acme Battery Grip for Nikon D750", "Acme", true},
		{"sim free phone huawei p smart (2019) 64gb blue", "Huawei", false}, // past a shop's prefix
		{"brand new sealed sony xperia z5 32gb", "Sony", false},             // past a shop's words
		{"import spiegelreflexkamera canon 850d", "Canon", false},
		{"panasonictx 55ex750b 55 uhd 4k hdr lcd tv", "Panasonic", false}, // a series' letters glued to the brand
		{"sonykd 49xf8505 49in uhd 4k", "Sony", false},
		{"sonyalpha a6000 body", "sonyalpha", true}, // a line's name, too long for a series
		{"brand new sim free phone nokia 5.1 16gb", "Nokia", false},
		{"mob/phone case for samsung galaxy s9", "phone", true},
		{"d3500 body only nikon", "Nikon", false}, // a brand the title ends with
		{"eos 2000d with 18-55mm lens black canon", "Canon", false},
		{"ue65nu7100 65 inch samsung", "Samsung", false},
		{"screen protector for samsung", "screen", true},               // not after "for"
		{"kor6a0rr 20l freestanding 800w touch control mi", "", false}, // a short alias at the end is a word cut short
		{"huawei honor 10 128gb phantom blue", "HONOR", false},         // a brand that began as another's line
		{"7plus 64 gb nokia black/copper", "Nokia", false},             // a title that starts with its model
		{"4k action camera gopro hero4 silver", "GoPro", false},
		{"unlocked 4g htc u11 64gb brilliant black", "HTC", false},
		{"ricoh pentax k 70 digital slr camera with 18 55mm lens black", "Pentax", false}, // the maker before its product brand
		{"lenovo moto g6 32gb 5.7 silver", "Motorola", false},
		{"handy moto one zoom 128 gb electric grey lte ohne simlock", "Motorola", false}, // the name of the maker's phones
		{"camera strap with canon logo", "camera", true},                                 // not in a clause of another device
		{"SamsungQE55Q60RATXXU 139cm 4K UHD TV", "Samsung", false},                       // the model glued on
		{"Honor8X Dual-SIM 128GB blau", "HONOR", false},
		{"PanasonicTX-58HX800B 58 inch 4K HDR TV", "Panasonic", false},
		{"Canonical 5 tripod", "Canonical", true},                                    // a longer word, not a brand and its model
		{"Brand New LGOLED55BX6LB 55\" 4KUHD", "LG", false},                          // a brand of two letters before a code
		{"LGtv stand", "LGtv", true},                                                 // but not before a short word
		{"zentor rla36p under counter larder fridge in polar white", "zentor", true}, // a lead word that can be a brand
		{"55 philips55oled804/12", "Philips", false},                                 // a brand glued to its code further in
		{"7kg wd14h422gb washer dryer", "", false},                                   // a code that starts with a short brand's letters
	}
	for _, tt := range tests {
		if got := titleBrand(tt.title); got != tt.want {
			t.Errorf("titleBrand(%q) = %q, want %q", tt.title, got, tt.want)
		}
		if it := item(listing{Title: tt.title}); it.BrandGuessed != tt.guessed {
			t.Errorf("item(%q).BrandGuessed = %v, want %v", tt.title, it.BrandGuessed, tt.guessed)
		}
	}
	if it := item(listing{Title: "Acme Pro Tripod", Brand: "Acme"}); it.BrandGuessed {
		t.Errorf("a brand the listing gives is no guess")
	}
}

// TestDemoSiteOffers reads a generated demo feed set and checks its site
// view: phones, TVs and cameras only, products only, titles as the
// clustering datasets write them, one offer per shop and model, and each
// model's colours in one cluster.
func TestDemoSiteOffers(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the demo feed set")
	}
	dir := t.TempDir()
	if _, err := demo.Generate(dir, demo.Options{Seed: 1, Scale: 1}); err != nil {
		t.Fatal(err)
	}
	d, err := ReadDemo(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	site := d.SiteOffers()
	if len(site) == 0 {
		t.Fatal("no site offers")
	}
	shops := map[[2]string]bool{}
	colours := map[string]map[string]bool{}
	for _, c := range d.truth {
		if c.Model != "" && c.Model != c.Product {
			if colours[c.Model] == nil {
				colours[c.Model] = map[string]bool{}
			}
			colours[c.Model][c.Product] = true
		}
	}
	for _, o := range site {
		if _, ok := map[string]bool{"Mobile Phones": true, "TVs": true, "Digital Cameras": true}[o.Category]; !ok {
			t.Errorf("offer %s in category %q", o.ID, o.Category)
		}
		if o.Brand != "" || o.GTIN != "" || o.MPN != "" || o.Title != siteTitle(o.Title) || o.Title != strings.ToLower(o.Title) {
			t.Errorf("offer %s keeps more than its title as a site gives it: %+v", o.ID, o)
		}
		k := [2]string{o.Cluster, o.Retailer}
		if shops[k] {
			t.Errorf("two offers of %s in %s", o.Retailer, o.Cluster)
		}
		shops[k] = true
	}
	many := 0
	for _, ps := range colours {
		if len(ps) > 1 {
			many++
		}
	}
	if many == 0 {
		t.Error("no model of the demo comes in more than one colour: the site view would not put colours together")
	}
}

func TestSiteTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Samsung Galaxy S24 Ultra (256GB) - Titanium Grey", "samsung galaxy s24 ultra 256gb titanium grey"},
		{"Bosch HMT75M421 Arbeitsfläche 17L 800W weiß", "bosch hmt75m421 arbeitsfl che 17l 800w wei"},
		{"Apple iPhone 8 Plus, 64GB/3GB+ — Space Grey", "apple iphone 8 plus 64gb/3gb space grey"},
		{"Samsung Galaxy S20+ 5G & case", "samsung galaxy s20 5g case"},
		{"  ", ""},
	}
	for _, tt := range tests {
		if got := siteTitle(tt.in); got != tt.want {
			t.Errorf("siteTitle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLineBrands checks that a data set's titles teach which brand a model
// line's name belongs to, and that a title starting with it is that brand's.
func TestLineBrands(t *testing.T) {
	titles := []string{
		"Apple iPhone 8 64GB Silver", "apple iphone x 64gb", "sim free apple iphone 8 plus 64gb",
		"Samsung Galaxy S9 64GB", "samsung galaxy s8 64gb", "Samsung Galaxy A50",
		"Acme smartphone 64gb", "Zentor smartphone 128gb", "Velo smartphone 32gb", // a word of many brands
		"Sony Bravia 55 inch TV", "sony bravia 65", // too few titles
		"Apple iPhone",                                                                  // nothing after the line
		"Google Pixel 3 64GB", "mob/google pixel 3a 64gb", "sim free google pixel 2 xl", // a line the brand's alias names
		"Nikon D3500 body", "nikon d3500 18-55mm kit", "Nikon Coolpix D3500 body only 24.2MP", // a model's code
		"Sony KD55XF9005BU 55 inch", "sony kd55xf9005bu 55in", // a code two titles give
		"Acme Z100 speaker",                                                             // a code one title gives
		"Samsung Galaxy A10 32GB (SM-A105FN)", "samsung galaxy a10 32gb blue sm a105fn", // a part number after a series' letters
		"Samsung Galaxy S25 Ultra", "samsung galaxy s25 256gb",
		"Huawei P smart 2019 64GB", "huawei p smart 2020 128gb", "Huawei P Smart Z", // a line's letter and name
		"Fujifilm X-A7 kit", "fujifilm x-a7 body", // a code written with a hyphen
		"sony kd 49xf8505bu 49 inch", "sony kd 49xf8505bu", // a code as a site prints it, in pieces
		"intel core i5 7400", "intel core i5 6600", // a word before a letter and digit names a line
		"samsung ue55ku6400uxxu", "samsung ue49mu6100", "samsung ue65ru7400 65", // a series' letters three titles give
		"zentro zf100 fridge freezer polar white", "zentro zf200 fridge", "zentro zf300 freezer", // a brand no list knows
		"appareil photo reflex nikon d7200", "appareil photo canon eos 250d", "appareil photo sony a6000", // a kind of product
		"canon powershot sx740 hs", "canon powershot g7 x", "canon powershot sx620", // a camera line's name
	}
	lines := learnLineBrands(titles)
	want := lineBrands{"iphone": "Apple", "galaxy": "Samsung", "pixel": "Google", "d3500": "Nikon", "kd55xf9005bu": "Sony",
		"a10": "Samsung", "a105fn": "Samsung", "sma105fn": "Samsung", "s25": "Samsung", "psmart": "Huawei", "xa7": "Fujifilm",
		"49xf8505bu": "Sony", "kd49xf8505bu": "Sony",
		"~kd": "Sony", "~ue": "Samsung", "^zentro": "zentro", "powershot": "Canon"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("learnLineBrands mismatch (-want +got):\n%s", diff)
	}
	tests := []struct {
		title, brand string
		guessed      bool
	}{
		{"iphone 8 64 gb space grau", "Apple", false},
		{"Galaxy S9 64GB midnight black", "Samsung", false},
		{"smartphone 64gb", "smartphone", true},
		{"Sony Bravia 55", "Sony", false},
		{"pixel 3 64gb clearly white", "Google", false},
		{"d3500 kit with af-p dx 18-55mm", "Nikon", false},
		{"64gb d3500 kit", "", false},                                    // a title that starts with a measure
		{"kd55xf9005 55-inch ultra hd 4k hdr android tv", "Sony", false}, // the start of a code
		{"sm-a105fn 32gb blue", "Samsung", false},                        // a part number after a series' letters
		{"sm a105fn 32gb blue", "Samsung", false},
		{"blackzone s25 ultra maxx", "blackzone", true},          // a name before a code is a brand of its own
		{"panassonic lumix gh4 (body only)", "Panasonic", false}, // a known brand misspelt
		{"P Smart 2019 64GB Blue Unlocked", "Huawei", false},     // a line's letter and name
		{"X-A7 COMPACT SYSTEM CAMERA WITH 15-45MM LENS", "Fujifilm", false},
		{"xa7 body", "Fujifilm", false},
		{"x a7 body", "Fujifilm", false},             // a series' letter written apart, as a site prints it
		{"kd 49xf8505bu 123 cm", "Sony", false},      // the series' letters, learned in pieces
		{"aple iphone 8 64gb", "Apple", false},       // a short brand misspelt, before the brand's line
		{"somy kd55xf9005bu 55 inch", "Sony", false}, // and before the brand's code
		{"somy d3500 body", "somy", true},            // another brand's code
		{"core i5 7400", "core", true},               // a line's word, no series
		{"ue43nu7100 43 inch", "Samsung", false},     // the series' letters of the brand's codes
		{"kd43xh8196bu", "Sony", false},
		{"xz43xh8196bu", "", false},                        // letters no title gives
		{"brand new sealed nokla 8 64 gb", "Nokia", false}, // a misspelt brand past a shop's words
		{"import cannon 850d nur gehause", "Canon", false},
		{"silver iphone 7 32gb sim free", "Apple", false},                       // a colour before the line's name
		{"appareil photo hybride olympus e m10 iv", "Olympus", false},           // a known brand further in
		{"t l viseur led 146 cm panasonic tx 58gx800 noir", "Panasonic", false}, // "téléviseur" as a site prints it
		{"zentro zf400 freezer polar white", "zentro", true},                    // a brand the data set gives, before a known one
		{"velto zf400 freezer polar white", "velto", true},                      // a brand before its code
		{"dc ft7eb k panasonic dc ft7 black", "Panasonic", false},               // a part number before the brand
		{"SM-M315F/DS Samsung Galaxy M31 128GB", "Samsung", false},
		{"Nokija 8.3 5G 128gb - Polar Night", "Nokia", false}, // a misspelt brand before a known one
		{"powershotsx740 hs 20.3 mp 40x", "Canon", false},     // a line's name glued to a code
		{"samsunggalaxy s7 32g", "Samsung", false},            // a brand glued to its line's name
		{"motorolamoto g7 64gb", "Motorola", false},           // and to its own alias
		{"zentropowershot x1", "zentropowershot", true},       // another brand's line after a word
	}
	for _, tt := range tests {
		it := item(listing{Title: tt.title, lines: lines})
		if it.Brand != tt.brand || it.BrandGuessed != tt.guessed {
			t.Errorf("item(%q): brand %q guessed %v, want %q %v", tt.title, it.Brand, it.BrandGuessed, tt.brand, tt.guessed)
		}
	}
}

// FuzzTitleBrand reads the brand of any title, with line and code brands
// learned from titles of the same shape.
func FuzzTitleBrand(f *testing.F) {
	f.Add("d3500 body only nikon", "Nikon D3500 kit")
	f.Add("mob/google pixel 3 64gb", "sim free google pixel 3a")
	f.Add("kd55xf9005 55-inch", "sony kd55xf9005bu 55in")
	f.Add("\xff for /// -- mi", "huawei honor 10")
	f.Fuzz(func(t *testing.T, a, b string) {
		lines := learnLineBrands([]string{a, b, b})
		it := item(listing{Title: a, lines: lines})
		// A brand not marked a guess is a known brand: read from the
		// title or taught by the other titles, never made up.
		if it.Brand != "" && !it.BrandGuessed && normalize.KnownBrand(it.Brand) == "" {
			t.Errorf("item(%q): brand %q is no known brand and not marked a guess", a, it.Brand)
		}
	})
}
