package demo

import (
	"math"
	"math/rand/v2"
)

// planRow is one feed row to write: which product it lists and how.
type planRow struct {
	prod   int32
	reject string
	dup    bool // a second listing of the product by the same retailer
	wrong  bool // the title states one spec wrongly
}

// offerWeights is the share of products listed by 1, 2, ... 7 retailers
// before popularity is applied (mean about 2.5).
var offerWeights = [7]float64{0.30, 0.29, 0.19, 0.11, 0.06, 0.03, 0.02}

// wrongShare is the share of multi-retailer products with specs whose
// listing by one retailer states a wrong value.
const wrongShare = 0.13

// makePlan decides which retailers list which products, which listings
// carry a wrong spec or are duplicated, and which extra rows are meant to be
// rejected; then it shuffles each retailer's rows.
func makePlan(d *data, products []product, seed int64) [][]planRow {
	r := rand.New(rand.NewPCG(uint64(seed), 0x9d1f2c3b4a5e6f70))
	shops := d.Shops
	rows := make([][]planRow, len(shops))
	weights := make([]float64, len(shops))
	picked := make([]int, 0, len(shops))
	var eligible []int32 // products sold refurbished too
	for i := range products {
		p := &products[i]
		if p.dept.Refurb {
			eligible = append(eligible, int32(i))
		}
		k := drawOffers(r, p.offers)
		for s, sh := range shops {
			w := sh.Reach
			if f, ok := sh.Favour[p.dept.Category]; ok {
				w *= f
			}
			weights[s] = w
		}
		picked = picked[:0]
		for range k {
			s := pickWeighted(r, weights)
			if s < 0 {
				break
			}
			picked = append(picked, s)
			weights[s] = 0
		}
		wrong := -1
		if len(picked) >= 2 && p.hasAttrs() && r.Float64() < wrongShare {
			wrong = r.IntN(len(picked))
		}
		for j, s := range picked {
			rows[s] = append(rows[s], planRow{prod: int32(i), wrong: j == wrong})
		}
	}
	for s, sh := range shops {
		base := rows[s]
		if sh.Dups > 0 {
			n := len(base)
			for i := range n {
				if r.Float64() < sh.Dups {
					rows[s] = append(rows[s], planRow{prod: base[i].prod, dup: true})
				}
			}
		}
		n := len(base)
		for _, reason := range rejectReasons {
			if n == 0 {
				break
			}
			count := int(math.Round(sh.Rejects[reason] * float64(n)))
			count = max(count, sh.MinReject[reason])
			if sh.Rejects[reason] == 0 && sh.MinReject[reason] == 0 {
				continue
			}
			for range count {
				prod := base[r.IntN(n)].prod
				if reason == RejectNotNew {
					prod = pickRefurb(r, base, eligible, products)
				}
				rows[s] = append(rows[s], planRow{prod: prod, reject: reason})
			}
		}
		r.Shuffle(len(rows[s]), func(i, j int) { rows[s][i], rows[s][j] = rows[s][j], rows[s][i] })
	}
	return rows
}

// drawOffers draws how many retailers list a product; popularity above 1
// adds retailers, below 1 removes them.
func drawOffers(r *rand.Rand, popularity float64) int {
	k := 1 + pickWeighted(r, offerWeights[:])
	for pop := popularity; pop > 1; pop-- {
		if r.Float64() < pop-1 {
			k++
		}
	}
	if popularity < 1 && r.Float64() < 1-popularity {
		k--
	}
	return min(max(k, 1), len(offerWeights))
}

// pickWeighted returns an index with probability proportional to its
// weight, or -1 when every weight is zero.
func pickWeighted(r *rand.Rand, w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	if total <= 0 {
		return -1
	}
	x := r.Float64() * total
	for i, v := range w {
		x -= v
		if x < 0 && v > 0 {
			return i
		}
	}
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] > 0 {
			return i
		}
	}
	return -1
}

// pickRefurb picks a product for a refurbished listing: preferably one the
// retailer sells new, of a kind that is sold refurbished.
func pickRefurb(r *rand.Rand, base []planRow, eligible []int32, products []product) int32 {
	for range 20 {
		p := base[r.IntN(len(base))].prod
		if products[p].dept.Refurb {
			return p
		}
	}
	if len(eligible) > 0 {
		return eligible[r.IntN(len(eligible))]
	}
	return base[r.IntN(len(base))].prod
}
