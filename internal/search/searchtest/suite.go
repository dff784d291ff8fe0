package searchtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// stringList is a parameter value: a JSON string, or an array of strings
// for a parameter given several times.
type stringList []string

func (l *stringList) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*l = stringList{s}
		return nil
	}
	var ss []string
	if err := json.Unmarshal(data, &ss); err != nil {
		return fmt.Errorf("parameter value must be a string or an array of strings: %w", err)
	}
	*l = ss
	return nil
}

// caseFile is one file under testdata/cases.
type caseFile struct {
	Fixture string       `json:"fixture"`
	Cases   []searchCase `json:"cases"`
	Lookups []lookupCase `json:"lookups"`
}

// searchCase is a request as REST parameters and what must come back.
type searchCase struct {
	Name   string                `json:"name"`
	Params map[string]stringList `json:"params"`
	Want   want                  `json:"want"`
}

// want lists the expectations of a case; absent fields are not checked.
type want struct {
	// Error is a substring of the expected *search.InvalidError message.
	Error string `json:"error"`
	// IDs are the expected product ids in order.
	IDs *[]string `json:"ids"`
	// Order "set" checks only that the same set of ids is returned, "top"
	// also that IDs[0] comes first: for cases whose exact relevance order
	// is engine-specific.
	Order           string `json:"order"`
	Total           *int   `json:"total"`
	UnverifiedTotal *int   `json:"unverified_total"`
	Excluded        *int   `json:"excluded_by_constraints"`
	Truncated       *bool  `json:"candidates_truncated"`
	// Constraints are the applied constraints; JSON null means none.
	Constraints json.RawMessage `json:"constraints"`
	// Statuses maps product id to its expected constraint_status.
	Statuses map[string]map[string]string `json:"statuses"`
	// Products maps product id to its exact expected JSON object.
	Products map[string]json.RawMessage `json:"products"`
	// Keys maps product id to the exact set of keys of its JSON object.
	Keys map[string][]string `json:"keys"`
	// ResponseKeys is the exact set of top-level keys of the response.
	ResponseKeys []string `json:"response_keys"`
}

// lookupCase is a product look-up by id.
type lookupCase struct {
	ID string `json:"id"`
	// Want is the canonical id expected, "" for ErrNotFound.
	Want string `json:"want"`
}

// Run runs every case file against engines built by newEngine, one engine
// per fixture. Requests are built with search.ParseQuery from the case's
// parameters, so the cases check the REST parameter forms too.
func Run(t *testing.T, newEngine func(t *testing.T, s *catalog.Snapshot) search.Engine) {
	t.Helper()
	files, err := fs.Glob(testdata, "testdata/cases/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files: %v", err)
	}
	engines := map[string]search.Engine{}
	for _, file := range files {
		data, err := testdata.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var cf caseFile
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cf); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		t.Run(strings.TrimSuffix(path.Base(file), ".json"), func(t *testing.T) {
			e, ok := engines[cf.Fixture]
			if !ok {
				snap, err := Fixture(cf.Fixture)
				if err != nil {
					t.Fatal(err)
				}
				e = newEngine(t, snap)
				engines[cf.Fixture] = e
			}
			for _, c := range cf.Cases {
				t.Run(c.Name, func(t *testing.T) { runCase(t, e, c) })
			}
			for _, l := range cf.Lookups {
				t.Run("lookup "+l.ID, func(t *testing.T) { runLookup(t, e, l) })
			}
		})
	}
}

func runCase(t *testing.T, e search.Engine, c searchCase) {
	v := url.Values{}
	for k, vals := range c.Params {
		v[k] = vals
	}
	req, err := search.ParseQuery(v)
	if c.Want.Error != "" {
		var inv *search.InvalidError
		if !errors.As(err, &inv) {
			t.Fatalf("ParseQuery(%s) = %v, want *search.InvalidError containing %q", v.Encode(), err, c.Want.Error)
		}
		if !strings.Contains(inv.Message, c.Want.Error) {
			t.Fatalf("ParseQuery(%s) error %q, want it to contain %q", v.Encode(), inv.Message, c.Want.Error)
		}
		return
	}
	if err != nil {
		t.Fatalf("ParseQuery(%s): %v", v.Encode(), err)
	}
	res, err := e.Search(context.Background(), req)
	if err != nil {
		t.Fatalf("Search(%s): %v", v.Encode(), err)
	}
	body, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("marshal result: %v", err)
	}
	checkInvariants(t, req, res, body)
	w := c.Want
	got := make([]string, len(res.Products))
	for i, h := range res.Products {
		got[i] = Item(h).ID
	}
	if w.IDs != nil {
		switch w.Order {
		case "set":
			if diff := cmp.Diff(sorted(*w.IDs), sorted(got)); diff != "" {
				t.Errorf("product set mismatch (-want +got):\n%s\ngot order: %v", diff, got)
			}
		case "top":
			if len(*w.IDs) > 0 && (len(got) == 0 || got[0] != (*w.IDs)[0]) {
				t.Errorf("top product = %v, want %s (all: %v)", first(got), (*w.IDs)[0], got)
			}
			if diff := cmp.Diff(sorted(*w.IDs), sorted(got)); diff != "" {
				t.Errorf("product set mismatch (-want +got):\n%s\ngot order: %v", diff, got)
			}
		default:
			if diff := cmp.Diff(*w.IDs, got); diff != "" {
				t.Errorf("product ids mismatch (-want +got):\n%s", diff)
			}
		}
	}
	checkInt(t, "total", w.Total, res.Total)
	checkInt(t, "unverified_total", w.UnverifiedTotal, res.UnverifiedTotal)
	checkInt(t, "excluded_by_constraints", w.Excluded, res.ExcludedByConstraints)
	if w.Truncated != nil && *w.Truncated != res.CandidatesTruncated {
		t.Errorf("candidates_truncated = %t, want %t", res.CandidatesTruncated, *w.Truncated)
	}
	if w.Constraints != nil {
		var want search.Constraints
		if err := json.Unmarshal(w.Constraints, &want); err != nil {
			t.Fatalf("case constraints: %v", err)
		}
		if diff := cmp.Diff(want, res.Constraints, cmp.Comparer(func(a, b search.Constraints) bool {
			return len(a) == 0 && len(b) == 0 || cmp.Equal(map[string]search.Bound(a), map[string]search.Bound(b))
		})); diff != "" {
			t.Errorf("applied constraints mismatch (-want +got):\n%s", diff)
		}
	}
	byID := map[string]search.Hit{}
	for _, h := range res.Products {
		byID[Item(h).ID] = h
	}
	for id, st := range w.Statuses {
		h, ok := byID[id]
		if !ok {
			t.Errorf("statuses: product %s not in results %v", id, got)
			continue
		}
		if diff := cmp.Diff(st, h.ConstraintStatus); diff != "" {
			t.Errorf("constraint_status of %s mismatch (-want +got):\n%s", id, diff)
		}
	}
	checkShapes(t, w, body)
}

func first(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return s[0]
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func checkInt(t *testing.T, name string, want *int, got int) {
	t.Helper()
	if want != nil && *want != got {
		t.Errorf("%s = %d, want %d", name, got, *want)
	}
}

// checkShapes compares the JSON objects and key sets the case pins.
func checkShapes(t *testing.T, w want, body []byte) {
	t.Helper()
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatalf("response is not a JSON object: %v", err)
	}
	if w.ResponseKeys != nil {
		if diff := cmp.Diff(sorted(w.ResponseKeys), sorted(keysOf(resp))); diff != "" {
			t.Errorf("response keys mismatch (-want +got):\n%s", diff)
		}
	}
	if w.Products == nil && w.Keys == nil {
		return
	}
	var products []map[string]any
	if err := json.Unmarshal(resp["products"], &products); err != nil {
		t.Fatalf("products: %v", err)
	}
	find := func(id string) map[string]any {
		for _, p := range products {
			if p["id"] == id {
				return p
			}
		}
		t.Errorf("product %s not in the response", id)
		return nil
	}
	for id, raw := range w.Products {
		var want map[string]any
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("case product %s: %v", id, err)
		}
		if got := find(id); got != nil {
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("product %s JSON mismatch (-want +got):\n%s", id, diff)
			}
		}
	}
	for id, keys := range w.Keys {
		if got := find(id); got != nil {
			if diff := cmp.Diff(sorted(keys), sorted(keysOf(got))); diff != "" {
				t.Errorf("product %s keys mismatch (-want +got):\n%s", id, diff)
			}
		}
	}
}

func keysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// liteKeys are the keys a lite product may hold.
var liteKeys = [...]string{"id", "title", "brand", "price", "currency", "availability", "image_url",
	"purchase_url", "offer_count", "constraint_status", "attributes"}

// CheckInvariants checks what holds for every search response: the page
// size, the JSON agreeing with the result, constraint fields present
// exactly when constraints apply, matched products before unverified ones,
// price order within each group, lite products holding only lite fields,
// and offers sorted by price.
func CheckInvariants(t testing.TB, req search.Request, res *search.Result) {
	t.Helper()
	body, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("marshal result: %v", err)
	}
	checkInvariants(t, req, res, body)
}

func checkInvariants(t testing.TB, req search.Request, res *search.Result, body []byte) {
	t.Helper()
	if len(res.Products) > req.Limit {
		t.Errorf("%d products returned, limit %d", len(res.Products), req.Limit)
	}
	var resp struct {
		Products []map[string]json.RawMessage `json:"products"`
		Total    *int                         `json:"total"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatalf("response JSON: %v\n%s", err, body)
	}
	var top map[string]json.RawMessage
	_ = json.Unmarshal(body, &top)
	if resp.Total == nil || *resp.Total != res.Total {
		t.Errorf("JSON total %v, result total %d", resp.Total, res.Total)
	}
	if len(resp.Products) != len(res.Products) {
		t.Fatalf("JSON has %d products, result %d", len(resp.Products), len(res.Products))
	}
	constrained := len(res.Constraints) > 0
	for _, k := range []string{"constraints", "excluded_by_constraints", "unverified_total"} {
		if _, ok := top[k]; ok != constrained {
			t.Errorf("response key %s present = %t, constraints applied = %t", k, ok, constrained)
		}
	}
	if _, ok := top["candidates_truncated"]; ok != res.CandidatesTruncated {
		t.Errorf("candidates_truncated present = %t, truncated = %t", ok, res.CandidatesTruncated)
	}
	if res.CandidatesTruncated && !constrained {
		t.Errorf("candidates_truncated without constraints")
	}
	seenUnverified := false
	var prevPrice float64
	prevGroup := -1
	for i, h := range res.Products {
		p := resp.Products[i]
		var id string
		_ = json.Unmarshal(p["id"], &id)
		if id != Item(h).ID {
			t.Errorf("JSON product %d is %s, result has %s", i, id, Item(h).ID)
		}
		if _, ok := p["constraint_status"]; ok != constrained {
			t.Errorf("product %s constraint_status present = %t, constraints applied = %t", id, ok, constrained)
		}
		if req.Lite {
			for k := range p {
				if !slices.Contains(liteKeys[:], k) && (k != "product_type" || req.ProductType == "") {
					t.Errorf("lite product %s has key %s", id, k)
				}
			}
			if _, ok := p["product_type"]; ok != (req.ProductType != "") {
				t.Errorf("lite product %s product_type present = %t, product_type asked = %q", id, ok, req.ProductType)
			}
			if _, ok := p["attributes"]; ok != constrained {
				t.Errorf("lite product %s attributes present = %t, constraints applied = %t", id, ok, constrained)
			}
		}
		if req.ProductType != "" && Item(h).ProductType != req.ProductType {
			t.Errorf("product %s is a %s, product_type asked %s", id, Item(h).ProductType, req.ProductType)
		}
		group := 0
		if constrained {
			if len(h.ConstraintStatus) != len(res.Constraints) {
				t.Errorf("product %s has %d statuses for %d constraints", id, len(h.ConstraintStatus), len(res.Constraints))
			}
			matched := true
			for name := range res.Constraints {
				switch h.ConstraintStatus[name] {
				case search.StatusMatched:
				case search.StatusUnverified:
					matched = false
				default:
					t.Errorf("product %s status of %s = %q", id, name, h.ConstraintStatus[name])
				}
			}
			if !matched {
				seenUnverified = true
				group = 1
			} else if seenUnverified {
				t.Errorf("matched product %s after an unverified one", id)
			}
		} else if h.ConstraintStatus != nil {
			t.Errorf("product %s has constraint statuses without constraints", id)
		}
		if group == prevGroup {
			switch req.Sort {
			case search.SortPriceAsc:
				if Item(h).Price < prevPrice {
					t.Errorf("price_asc: %s at %.2f after %.2f", id, Item(h).Price, prevPrice)
				}
			case search.SortPriceDesc:
				if Item(h).Price > prevPrice {
					t.Errorf("price_desc: %s at %.2f after %.2f", id, Item(h).Price, prevPrice)
				}
			}
		}
		prevGroup, prevPrice = group, Item(h).Price
		if !req.Lite && !slices.IsSortedFunc(Item(h).Offers, func(a, b catalog.Offer) int {
			switch {
			case a.Price < b.Price:
				return -1
			case a.Price > b.Price:
				return 1
			}
			return 0
		}) {
			t.Errorf("product %s offers not sorted by price", id)
		}
	}
}

func runLookup(t *testing.T, e search.Engine, l lookupCase) {
	p, err := e.Product(context.Background(), l.ID)
	if l.Want == "" {
		if !errors.Is(err, search.ErrNotFound) {
			t.Fatalf("Product(%q) = %v, %v; want ErrNotFound", l.ID, p, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Product(%q): %v", l.ID, err)
	}
	if p.ID != l.Want {
		t.Errorf("Product(%q) = %s, want %s", l.ID, p.ID, l.Want)
	}
	if p.OfferCount != len(p.Offers) {
		t.Errorf("Product(%q): offer_count %d, %d offers", l.ID, p.OfferCount, len(p.Offers))
	}
}
