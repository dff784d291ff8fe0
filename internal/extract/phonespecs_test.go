package extract

import (
	"encoding/csv"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"productsearch/internal/catalog"
)

// phoneSpecsPath is the phone-specs dataset, relative to this package: the
// repository root's sibling ../shared/datasets (never copied into the repo).
var phoneSpecsPath = filepath.Join("..", "..", "..", "shared", "datasets", "phone-specs", "smartphones.csv")

var (
	truthCapRe   = regexp.MustCompile(`([\d.]+)\s*(GB|MB|TB)\s+(RAM|inbuilt)`)
	truthInchRe  = regexp.MustCompile(`([\d.]+)\s*inches`)
	truthPixelRe = regexp.MustCompile(`(\d+)\s*x\s*(\d+)\s*px`)
	truthHzRe    = regexp.MustCompile(`(\d+)\s*Hz`)
	statesCapRe  = regexp.MustCompile(`(?i)\d\s*(GB|TB)\b`)
)

// phoneTruth holds the dataset's ground truth for one listing; a missing
// attribute is absent from the map.
func phoneTruth(ram, storage, display string) map[string]float64 {
	truth := map[string]float64{}
	for _, col := range []string{ram, storage} {
		for _, m := range truthCapRe.FindAllStringSubmatch(col, -1) {
			v, _ := strconv.ParseFloat(m[1], 64)
			switch m[2] {
			case "TB":
				v *= 1000
			case "MB":
				v /= 1024
			}
			name := catalog.MemoryGB
			if m[3] == "inbuilt" {
				name = catalog.StorageGB
			}
			truth[name] = v
		}
	}
	if m := truthInchRe.FindStringSubmatch(display); m != nil {
		truth[catalog.ScreenIn], _ = strconv.ParseFloat(m[1], 64)
	}
	if m := truthPixelRe.FindStringSubmatch(display); m != nil {
		w, _ := strconv.ParseFloat(m[1], 64)
		h, _ := strconv.ParseFloat(m[2], 64)
		truth[catalog.ResolutionP] = math.Min(w, h)
	}
	if m := truthHzRe.FindStringSubmatch(display); m != nil {
		truth[catalog.RefreshHz], _ = strconv.ParseFloat(m[1], 64)
	}
	return truth
}

// TestPhoneSpecs measures extraction on real phone listings: values read from
// titles must equal the dataset's ground truth, and titles that state no
// capacity must yield no RAM or storage.
func TestPhoneSpecs(t *testing.T) {
	f, err := os.Open(phoneSpecsPath)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("phone-specs dataset not found at %s (it lives outside the repository in ../shared/datasets)", phoneSpecsPath)
	}
	if err != nil {
		t.Fatalf("open dataset: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("read dataset: %v", err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[strings.TrimPrefix(name, "\ufeff")] = i
	}
	for _, name := range []string{"model", "ram", "storage", "display"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("dataset has no %q column", name)
		}
	}
	ctx := Context{Category: "Phones"}
	var (
		stating, silent, invented      int
		judged, correct, unjudged      int
		capJudged, capCorrect, capRead int
		stateBoth, readBoth            int
	)
	for _, row := range rows[1:] {
		title := row[col["model"]]
		truth := phoneTruth(row[col["ram"]], row[col["storage"]], row[col["display"]])
		got := Title(title, ctx)
		states := statesCapRe.MatchString(title)
		if states {
			stating++
			if _, okM := truth[catalog.MemoryGB]; okM && strings.Contains(strings.ToUpper(title), "RAM") {
				stateBoth++
				if _, ok := got[catalog.MemoryGB]; ok {
					if _, ok := got[catalog.StorageGB]; ok {
						readBoth++
					}
				}
			}
		} else {
			silent++
			_, m := got[catalog.MemoryGB]
			_, s := got[catalog.StorageGB]
			if m || s {
				invented++
				t.Errorf("title states no capacity but yields %v: %q", got, title)
			}
		}
		for name, v := range got {
			want, ok := truth[name]
			if !ok {
				unjudged++
				continue
			}
			judged++
			isCap := name == catalog.MemoryGB || name == catalog.StorageGB
			if isCap {
				capJudged++
				capRead++
			}
			if v == want {
				correct++
				if isCap {
					capCorrect++
				}
			} else {
				t.Logf("disagrees with ground truth: %q: %s = %v, truth %v", title, name, v, want)
			}
		}
	}
	precision := float64(correct) / float64(max(judged, 1))
	capPrecision := float64(capCorrect) / float64(max(capJudged, 1))
	t.Logf("phone-specs: %d listings, %d state a capacity, %d state none", len(rows)-1, stating, silent)
	t.Logf("values judged %d, correct %d (precision %.4f); RAM/storage judged %d, correct %d (precision %.4f); unjudged %d",
		judged, correct, precision, capJudged, capCorrect, capPrecision, unjudged)
	t.Logf("titles labelling RAM: %d, both RAM and storage read: %d; invented on silent titles: %d", stateBoth, readBoth, invented)
	if capPrecision < 0.99 || precision < 0.99 {
		t.Errorf("precision %.4f (RAM/storage %.4f), want at least 0.99", precision, capPrecision)
	}
	if stateBoth > 0 && float64(readBoth)/float64(stateBoth) < 0.95 {
		t.Errorf("RAM and storage read from %d of %d titles that label RAM, want at least 95%%", readBoth, stateBoth)
	}
}
