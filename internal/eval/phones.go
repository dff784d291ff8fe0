package eval

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// bracketRe matches a bracketed part of a listing title: the phone-specs
// titles give a configuration so ("(8GB RAM + 128GB)").
var bracketRe = regexp.MustCompile(`\([^)]*\)`)

// ReadPhoneClusters reads the phone-specs smartphones.csv as a clusters
// evaluation: each listing an offer of a shop of its own, and one product
// per phone and configuration, the title without its bracketed
// configuration with the ram and storage columns. The listings are nearly
// all different phones, many of them a line's siblings ("Realme P4 5G",
// "Realme P3 5G", "Vivo V60e"), so it measures what a catalog of real
// phone titles must not do: merge two models.
func ReadPhoneClusters(r io.Reader) ([]ClusterOffer, error) {
	t, err := readTable(r, []string{"model", "ram", "storage"}, phoneSpecsColumns)
	if err != nil {
		return nil, err
	}
	out := make([]ClusterOffer, 0, len(t.rows))
	for i := range t.rows {
		title := t.get(i, "model")
		if title == "" {
			return nil, fmt.Errorf("line %d: empty model", t.line[i])
		}
		model := strings.Join(strings.Fields(strings.ToLower(bracketRe.ReplaceAllString(title, " "))), " ")
		out = append(out, ClusterOffer{
			Line: t.line[i], ID: fmt.Sprint(i + 1), Retailer: fmt.Sprintf("listing %d", i+1), Title: title,
			Cluster:  model + "|" + t.get(i, "ram") + "|" + t.get(i, "storage"),
			Category: "Mobile Phones",
		})
	}
	return out, nil
}

// phoneSpecs is the phone-specs file read both ways: as an extract
// evaluation and as a clusters one.
type phoneSpecs struct {
	cases  []ExtractCase
	offers []ClusterOffer
}

// readPhoneSpecsFile reads the phone-specs file once for both evaluations.
func readPhoneSpecsFile(r io.Reader) (phoneSpecs, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return phoneSpecs{}, err
	}
	cases, err := ReadPhoneSpecs(bytes.NewReader(b))
	if err != nil {
		return phoneSpecs{}, err
	}
	offers, err := ReadPhoneClusters(bytes.NewReader(b))
	return phoneSpecs{cases: cases, offers: offers}, err
}
