package elastic

import "testing"

// TestStatsCacheCounts checks that counts are kept for the index behind
// the alias only and are forgotten when the alias moves.
func TestStatsCacheCounts(t *testing.T) {
	key := countKey("candidates", []any{term(fieldCategory, "Laptops")})
	other := countKey("candidates", []any{term(fieldCategory, "Phones")})
	tests := []struct {
		name   string
		steps  func(c *statsCache)
		index  string // asked for ("" is any)
		key    string
		want   int
		wantOK bool
	}{
		{"unknown", func(*statsCache) {}, "", key, 0, false},
		{"kept before statistics", func(c *statsCache) { c.putCount("products-1", key, 7) }, "", key, 7, true},
		{"kept for its index", func(c *statsCache) {
			c.put(&termStats{index: "products-1", n: 10})
			c.putCount("products-1", key, 7)
		}, "products-1", key, 7, true},
		{"another key", func(c *statsCache) {
			c.put(&termStats{index: "products-1", n: 10})
			c.putCount("products-1", key, 7)
		}, "products-1", other, 0, false},
		{"another index asked", func(c *statsCache) {
			c.put(&termStats{index: "products-1", n: 10})
			c.putCount("products-1", key, 7)
		}, "products-2", key, 0, false},
		{"count of another index refused", func(c *statsCache) {
			c.put(&termStats{index: "products-1", n: 10})
			c.putCount("products-2", key, 7)
		}, "", key, 0, false},
		{"alias moved", func(c *statsCache) {
			c.put(&termStats{index: "products-1", n: 10})
			c.putCount("products-1", key, 7)
			c.put(&termStats{index: "products-2", n: 10})
		}, "", key, 0, false},
		{"index dropped", func(c *statsCache) {
			c.put(&termStats{index: "products-1", n: 10})
			c.putCount("products-1", key, 7)
			c.drop("products-1")
		}, "", key, 0, false},
		{"no index named", func(c *statsCache) { c.putCount("", key, 7) }, "", key, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c statsCache
			tt.steps(&c)
			got, ok := c.count(tt.index, tt.key)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("count = %d, %v; want %d, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestScoreQuery checks the clauses of the score: the base weight, one
// clause per ranking-only word and per pair, the norm as factor.
func TestScoreQuery(t *testing.T) {
	rk := &ranking{hasRequired: true, reqWeight: 2.5,
		wordClause: map[int]any{1: term(fieldTerms, "pro")},
		adjClause:  map[int]any{0: term(fieldPairs, "rog pro")},
		joinClause: map[int]any{0: term(fieldTerms, "rogpro")}}
	rk.termW[1] = 0.75
	rk.pairW[0] = 0.9
	fs := rk.scoreQuery()["function_score"].(obj)
	if got := fs["field_value_factor"].(obj)["field"]; got != fieldNorm {
		t.Errorf("factor field %v, want %s", got, fieldNorm)
	}
	if fs["boost_mode"] != "multiply" {
		t.Errorf("boost_mode %v, want multiply", fs["boost_mode"])
	}
	b := fs["query"].(obj)["bool"].(obj)
	base := b["must"].([]any)[0].(obj)["constant_score"].(obj)
	if base["boost"] != float32(2.5) {
		t.Errorf("base weight %v, want 2.5", base["boost"])
	}
	should := b["should"].([]any)
	if len(should) != 2 {
		t.Fatalf("%d optional clauses, want 2 (a word, a pair): %v", len(should), should)
	}
	want := []float32{0.75, 0.9}
	for i, c := range should {
		if got := c.(obj)["constant_score"].(obj)["boost"]; got != want[i] {
			t.Errorf("clause %d weight %v, want %v", i, got, want[i])
		}
	}
	rk.hasRequired = false
	base = rk.scoreQuery()["function_score"].(obj)["query"].(obj)["bool"].(obj)["must"].([]any)[0].(obj)["constant_score"].(obj)
	if base["boost"] != float32(0) {
		t.Errorf("base weight without required words %v, want 0", base["boost"])
	}
}
