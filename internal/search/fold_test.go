package search

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestVocabularyParses checks that the embedded vocabulary is valid.
func TestVocabularyParses(t *testing.T) {
	if _, err := ParseVocabulary(vocabularyYAML); err != nil {
		t.Fatal(err)
	}
}

func TestAnalyzeFolds(t *testing.T) {
	tests := []struct{ query, category, want string }{
		{"space gray", "", "+space +grey"},
		{"Space-Gray", "", "+space-grey"},
		{"aluminum", "", "+aluminium"},
		{"noise canceling", "", "+noise +cancelling"},
		{"colors", "", "+colour"},
		{"ear buds", "", "+ear-bud"},
		{"earbuds", "", "+earbud"},
		{"smart watch", "", "+smart-watch"},
		{"smart watch", "Wearables", "~smart-watch"},
		{"harddrive", "", "+harddrive"},
		{"wi fi 6 router", "", "+router ~wifi6 wifi_gen>=6"},
		{"playstation 5 console", "", "+playstation-5 +console"},
		{"PlayStation5", "", "+ps5"},
		{"ps5", "Gaming", "+ps5"},
		{"xbox series x", "", "+xbox-series-x"},
		{"xsx", "", "+xboxseriesx"},
		{"i phone 15", "", "+i-phone ~15"},
		{`55" tv`, "", "+tv ~55 screen_in=55"},
		{"55” tv", "", "+tv ~55 screen_in=55"},
		{"55 inch tv", "", "+tv ~55 screen_in=55"},
		{"55in tv", "", "+tv ~55 screen_in=55"},
		{"ear", "", "+ear"},
		{"smart", "", "+smart"},
	}
	for _, tt := range tests {
		t.Run(tt.query+"/"+tt.category, func(t *testing.T) {
			if got := Analyze(tt.query, tt.category).String(); got != tt.want {
				t.Errorf("Analyze(%q, %q) = %q, want %q", tt.query, tt.category, got, tt.want)
			}
		})
	}
}

// TestFoldAlike checks that the spellings of a word give a title and a
// query the same terms: every query term is among the title's terms.
func TestFoldAlike(t *testing.T) {
	tests := []struct{ title, query string }{
		{"Apple iPhone 15 Space Gray", "space grey"},
		{"Apple iPhone 15 Space Grey", "space gray"},
		{"Aluminum Case", "aluminium"},
		{"JLab True Wireless Ear Buds", "earbuds"},
		{"JLab True Wireless Earbuds", "ear buds"},
		{"Seagate 2TB Portable Hard Drive", "harddrive"},
		{"Toshiba HardDrive", "hard drive"},
		{"Sony PlayStation 5 Slim Console", "ps5"},
		{"Sony PS5 Slim Console", "playstation 5"},
		{"Sony DualSense Wireless Controller", "ps5 controller"},
		{"Sony DualShock 4 Controller", "playstation 4 controller"},
		{"Seagate Expansion Card for Xbox Series X|S", "xbox series s"},
		{"Seagate Expansion Card for Xbox Series X|S", "xbox series x"},
		{"Apple MacBook Air", "mac book"},
		{"TP-Link Deco Wi Fi Mesh", "wifi"},
		{"Monitor Centre Mount", "center"},
	}
	for _, tt := range tests {
		t.Run(tt.query+"/"+tt.title, func(t *testing.T) {
			_, terms := TitleTerms(tt.title)
			have := map[string]bool{}
			for _, term := range terms {
				have[term] = true
			}
			for _, q := range Analyze(tt.query, "").Required {
				if have[q.Text] {
					continue
				}
				all := len(q.Parts) > 0
				for _, p := range q.Parts {
					all = all && have[p]
				}
				if !all {
					t.Errorf("query term %s is not among the title's terms %v", q, terms)
				}
			}
		})
	}
}

func TestTitleTermsKeepParts(t *testing.T) {
	words, terms := TitleTerms("Sony PlayStation 5 Slim - Grey")
	if diff := cmp.Diff([]string{"sony", "ps5", "slim", "grey"}, words); diff != "" {
		t.Errorf("words mismatch (-want +got):\n%s", diff)
	}
	for _, want := range []string{"ps5", "playstation", "5"} {
		if !strings.Contains(" "+strings.Join(terms, " ")+" ", " "+want+" ") {
			t.Errorf("terms %v lack %q", terms, want)
		}
	}
}

func TestParseVocabularyErrors(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"unknown section", "synonyms: {a: [b]}", "field synonyms not found"},
		{"plural name", "spellings: {colours: [colors]}", `"colours" is not one word`},
		{"hyphenated form", "aliases: [{name: ps5, forms: [play-station 5]}]", "write its words apart"},
		{"two names", "spellings: {grey: [gray], gris: [gray]}", "is read as both"},
		{"two names for a form", "aliases: [{name: ps5, forms: [playstation 5]}, {name: psv, forms: [playstation 5]}]", "is read as both"},
		{"empty form", "aliases: [{name: ps5, forms: ['']}]", "empty form"},
		{"implied plural", "implies: {dualsense: [consoles]}", "is not one word"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseVocabulary([]byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseVocabulary(%q) error %v, want it to contain %q", tt.yaml, err, tt.want)
			}
		})
	}
}

func FuzzParseVocabulary(f *testing.F) {
	f.Add(string(vocabularyYAML))
	f.Add("spellings: {grey: [gray]}")
	f.Add("aliases: [{name: ps5, forms: [playstation 5]}]")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVocabulary([]byte(s))
		if err != nil {
			return
		}
		v.fold(lex("space gray playstation 5 ear buds"))
	})
}

func TestJoinLetterNumber(t *testing.T) {
	tests := []struct{ query, want string }{
		{"galaxy s 24", "+galaxy +s-24"},
		{"galaxy s24", "+galaxy +s24"},
		{"macbook air m 3", "+macbook +air +m-3"},
		{"usb c 20w charger", "+usb +c +charger ~20w power_w>=20"},
		{"a 2 pack", "+pack ~2"},
		{"s 24+", "+s-24 +plus"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			if got := Analyze(tt.query, "").String(); got != tt.want {
				t.Errorf("Analyze(%q) = %q, want %q", tt.query, got, tt.want)
			}
		})
	}
}

func TestTitleFits(t *testing.T) {
	tests := []struct {
		title string
		want  []string
	}{
		{"WD_BLACK SN850P 1TB NVMe SSD for PS5 Consoles", []string{"ps5", "ps", "5", "console"}},
		{"SCUF Reflex Pro for PlayStation 5 Controller", []string{"ps5", "playstation", "5", "ps", "controller"}},
		{"Sony PS5 Console Covers for PS5 Pro", []string{"pro"}},
		{"Sony PlayStation 5 Slim Console", nil},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, TitleFits(tt.title)); diff != "" {
				t.Errorf("TitleFits mismatch (-want +got):\n%s", diff)
			}
			// TitleText reads the title once for both.
			words, terms := TitleTerms(tt.title)
			w, tm, f := TitleText(tt.title)
			if diff := cmp.Diff([][]string{words, terms, tt.want}, [][]string{w, tm, f}); diff != "" {
				t.Errorf("TitleText mismatch (-TitleTerms and TitleFits +TitleText):\n%s", diff)
			}
		})
	}
}
