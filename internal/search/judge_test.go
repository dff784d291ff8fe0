package search

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
)

func TestMeets(t *testing.T) {
	eq := func(v float64) Bound { return Bound{Eq: ptr(v)} }
	gte := func(v float64) Bound { return Bound{Gte: ptr(v)} }
	lte := func(v float64) Bound { return Bound{Lte: ptr(v)} }
	tests := []struct {
		name  string
		bound Bound
		value float64
		want  bool
	}{
		// storage_gb: 3% of the bound on the side it limits
		{catalog.StorageGB, gte(1024), 1000, true},
		{catalog.StorageGB, gte(1024), 993.28, true},
		{catalog.StorageGB, gte(1024), 993, false},
		{catalog.StorageGB, gte(1000), 970, true},
		{catalog.StorageGB, gte(1000), 969, false},
		{catalog.StorageGB, eq(512), 497, true},
		{catalog.StorageGB, eq(512), 527, true},
		{catalog.StorageGB, eq(512), 496, false},
		{catalog.StorageGB, eq(512), 528, false},
		{catalog.StorageGB, lte(500), 515, true},
		{catalog.StorageGB, lte(500), 516, false},
		{catalog.StorageGB, Bound{Gte: ptr(256), Lte: ptr(512)}, 512, true},
		{catalog.StorageGB, Bound{Gte: ptr(256), Lte: ptr(512)}, 1000, false},
		// screen_in: 0.5 inch on every operator, whole N with eq/lte up to N+1
		{catalog.ScreenIn, eq(22), 21.5, true},
		{catalog.ScreenIn, eq(22), 21.4, false},
		{catalog.ScreenIn, eq(22), 22.9, true},
		{catalog.ScreenIn, eq(22), 23, false},
		{catalog.ScreenIn, eq(13), 13.6, true},
		{catalog.ScreenIn, eq(13), 13.99, true},
		{catalog.ScreenIn, eq(13), 14, false},
		{catalog.ScreenIn, eq(13), 12.5, true},
		{catalog.ScreenIn, eq(13), 12.4, false},
		{catalog.ScreenIn, eq(15.6), 16.1, true},
		{catalog.ScreenIn, eq(15.6), 16.2, false},
		{catalog.ScreenIn, eq(15.6), 15.1, true},
		{catalog.ScreenIn, eq(15.6), 15, false},
		{catalog.ScreenIn, lte(15), 15.6, true},
		{catalog.ScreenIn, lte(15), 15.9, true},
		{catalog.ScreenIn, lte(15), 16, false},
		{catalog.ScreenIn, lte(15.4), 15.9, true},
		{catalog.ScreenIn, lte(15.4), 16, false},
		{catalog.ScreenIn, gte(15), 14.5, true},
		{catalog.ScreenIn, gte(15), 14.4, false},
		{catalog.ScreenIn, gte(16), 15.6, true},
		{catalog.ScreenIn, gte(16), 15.3, false},
		// everything else: exact
		{catalog.MemoryGB, gte(16), 16, true},
		{catalog.MemoryGB, gte(16), 15.9, false},
		{catalog.MemoryGB, eq(16), 16, true},
		{catalog.MemoryGB, eq(16), 16.5, false},
		{catalog.MemoryGB, lte(8), 8, true},
		{catalog.MemoryGB, lte(8), 8.1, false},
		{catalog.RefreshHz, eq(144), 144, true},
		{catalog.RefreshHz, eq(144), 165, false},
		{catalog.ResolutionP, gte(2160), 2160, true},
		{catalog.ResolutionP, gte(2160), 1440, false},
		{catalog.PowerW, gte(65), 65, true},
		{catalog.PowerW, gte(65), 61, false},
		{catalog.WifiGen, gte(6.5), 6.5, true},
		{catalog.WifiGen, gte(6.5), 6, false},
		{catalog.WifiGen, eq(6), 6.5, false},
		{catalog.MemoryGB, Bound{Eq: ptr(16), Gte: ptr(8), Lte: ptr(32)}, 16, true},
		{catalog.MemoryGB, Bound{Eq: ptr(16), Gte: ptr(8), Lte: ptr(32)}, 24, false},
		{catalog.MemoryGB, Bound{}, 1, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s value %g", tt.name, tt.bound.String(tt.name), tt.value), func(t *testing.T) {
			tol := catalog.DefaultAttributes().Lookup(tt.name).Tolerance
			if got := Meets(tol, tt.bound, tt.value); got != tt.want {
				t.Errorf("Meets(%s, %s, %g) = %t, want %t", tt.name, tt.bound.String(tt.name), tt.value, got, tt.want)
			}
		})
	}
}

func TestJudgeAttribute(t *testing.T) {
	b := Bound{Gte: ptr(16)}
	single := func(v float64) catalog.Attribute { return catalog.Attribute{Status: catalog.Confirmed, Value: v} }
	conflicting := func(vs ...float64) catalog.Attribute {
		a := catalog.Attribute{Status: catalog.Conflicting}
		for _, v := range vs {
			a.Values = append(a.Values, catalog.StatedValue{Value: v})
		}
		return a
	}
	tests := []struct {
		name string
		a    catalog.Attribute
		ok   bool
		want Verdict
	}{
		{"absent", catalog.Attribute{}, false, Unverified},
		{"meets", single(16), true, Matched},
		{"fails", single(8), true, Excluded},
		{"conflicting all meet", conflicting(16, 32), true, Matched},
		{"conflicting all fail", conflicting(4, 8), true, Excluded},
		{"conflicting mixed", conflicting(8, 16), true, Unverified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := JudgeAttribute(catalog.Tolerance{}, b, tt.a, tt.ok); got != tt.want {
				t.Errorf("JudgeAttribute = %v, want %v", got, tt.want)
			}
			if tt.ok {
				if got := JudgeValues(catalog.Tolerance{}, b, tt.a.Stated()); got != tt.want {
					t.Errorf("JudgeValues(%v) = %v, want %v", tt.a.Stated(), got, tt.want)
				}
			}
		})
	}
	if got := JudgeValues(catalog.Tolerance{}, b, nil); got != Unverified {
		t.Errorf("JudgeValues(nil) = %v, want unverified", got)
	}
}

func TestJudge(t *testing.T) {
	attrs := map[string]catalog.Attribute{
		catalog.MemoryGB:  {Status: catalog.Confirmed, Value: 16},
		catalog.StorageGB: {Status: catalog.Conflicting, Values: []catalog.StatedValue{{Value: 512}, {Value: 1000}}},
		catalog.ScreenIn:  {Status: catalog.Inferred, Value: 15.6},
	}
	tests := []struct {
		name       string
		c          Constraints
		want       Verdict
		wantStatus map[string]string
	}{
		{"all matched", Constraints{catalog.MemoryGB: {Gte: ptr(16)}, catalog.ScreenIn: {Eq: ptr(15)}}, Matched,
			map[string]string{catalog.MemoryGB: StatusMatched, catalog.ScreenIn: StatusMatched}},
		{"one unverified by conflict", Constraints{catalog.MemoryGB: {Gte: ptr(16)}, catalog.StorageGB: {Gte: ptr(1000)}}, Unverified,
			map[string]string{catalog.MemoryGB: StatusMatched, catalog.StorageGB: StatusUnverified}},
		{"one unverified by absence", Constraints{catalog.RefreshHz: {Gte: ptr(120)}}, Unverified,
			map[string]string{catalog.RefreshHz: StatusUnverified}},
		{"one excluded", Constraints{catalog.MemoryGB: {Gte: ptr(32)}, catalog.RefreshHz: {Gte: ptr(120)}}, Excluded,
			map[string]string{catalog.RefreshHz: StatusUnverified}},
		{"excluded by a conflict that fails on every value", Constraints{catalog.StorageGB: {Gte: ptr(2000)}}, Excluded,
			map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status := map[string]string{}
			if got := Judge(catalog.DefaultAttributes(), attrs, tt.c, status); got != tt.want {
				t.Errorf("Judge = %v, want %v", got, tt.want)
			}
			if diff := cmp.Diff(tt.wantStatus, status); diff != "" {
				t.Errorf("statuses mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
