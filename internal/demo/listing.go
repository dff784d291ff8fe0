package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// listing is one feed row as a retailer writes it.
type listing struct {
	row        int // 1-based record number in the feed
	merchantID string
	awID       string // Awin's own product id
	p          *product
	title      string
	stated     [numAttrs]float64 // specs the title states
	wrong      int               // attribute stated wrongly, or -1
	desc       string
	price      int64  // pence
	was        int64  // pence; 0 = no was price
	priceText  string // written instead of the price when set (a bad price)
	currency   string
	qty        int // -1 = no stock count given
	inStock    bool
	delivery   string
	link       string
	image      string
	gtin       string
	mpn        string
	brand      string
	colour     string
	path       string
	condition  string
	updated    time.Time
	reject     string
	dup        bool
	malformed  int // how a malformed row is broken, by format
}

// kindTemplates are the parsed templates of one title family.
type kindTemplates struct {
	titles map[string][]template // by retailer slug
	tags   []string
	desc   []template
}

func parseKinds(d *data) (map[string]*kindTemplates, error) {
	out := make(map[string]*kindTemplates, len(d.Kinds))
	for name, k := range d.Kinds {
		kt := &kindTemplates{titles: map[string][]template{}, tags: k.Tags}
		for slug, list := range k.Titles {
			for _, s := range list {
				t, err := parseTemplate(s)
				if err != nil {
					return nil, fmt.Errorf("titles %s.%s: %w", name, slug, err)
				}
				kt.titles[slug] = append(kt.titles[slug], t)
			}
		}
		for _, s := range k.Desc {
			t, err := parseTemplate(s)
			if err != nil {
				return nil, fmt.Errorf("titles %s desc: %w", name, err)
			}
			kt.desc = append(kt.desc, t)
		}
		out[name] = kt
	}
	return out, nil
}

// shopGen writes one retailer's listings.
type shopGen struct {
	d        *data
	s        *shop
	idx      int
	products []product
	kinds    map[string]*kindTemplates
	seed     int64
	now      time.Time
	src      *rand.PCG
	r        *rand.Rand
}

func newShopGen(d *data, idx int, products []product, kinds map[string]*kindTemplates, opt Options) *shopGen {
	src := rand.NewPCG(0, 0)
	return &shopGen{d: d, s: d.Shops[idx], idx: idx, products: products, kinds: kinds,
		seed: opt.Seed, now: opt.Now, src: src, r: rand.New(src)}
}

// Refurbished title suffixes and the bad values some rows carry.
var (
	refurbSuffixes = [...]string{
		" - Refurbished", " (Refurbished)", " - Renewed - Grade B", " - Refurbished Grade A",
		" - Pre-owned", " (Renewed)", " - Open Box", " - Refurbished (Very Good)",
	}
	badPrices = [...]string{"POA", "", "N/A", "0.00", "TBC", "Call for price"}
)

// build makes the listing of row i (0-based) of the retailer's plan. Every
// random choice comes from a generator seeded by the seed, the retailer and
// the row, so a row does not depend on the rows before it.
func (g *shopGen) build(i int, pr planRow) listing {
	g.src.Seed(uint64(g.seed), mix64(uint64(g.idx)<<40|uint64(i)))
	r := g.r
	s := g.s
	p := &g.products[pr.prod]
	l := listing{row: i + 1, p: p, reject: pr.reject, dup: pr.dup, wrong: -1, currency: "GBP", condition: "new"}
	l.merchantID = scrambleID(s.IDFormat, i, hashString(s.Slug))
	l.awID = "2" + strconv.FormatUint(1e9+(uint64(i)*2654435761+hashString(s.Name))%9e9, 10)

	// Title: the retailer's template for the product's kind, picked per
	// product so a retailer titles a product the same way every run.
	k := g.kinds[p.line.Kind]
	tpls := k.titles[s.Slug]
	h := mix64(hashString(p.key) ^ hashString(s.Slug))
	ti := int(h % uint64(len(tpls)))
	if pr.dup {
		ti = (ti + 1) % len(tpls)
	}
	ctx := titleCtx{p: p, st: &s.Style, brand: p.line.Brand, attrs: p.attrs,
		tag: k.tags[int(mix64(h)%uint64(len(k.tags)))]}
	if p.vals[axFit] != "" && p.dept.Category == "Phones" && h%10 < 4 {
		ctx.fitGB = s.Style.format(atStorage, []float64{128, 256}[h/10%2], "")
	}
	rd := tpls[ti].render(&ctx)
	if pr.wrong {
		var cands []int
		for a, v := range rd.stated {
			if v > 0 && !p.literal[a] {
				cands = append(cands, a)
			}
		}
		if len(cands) > 0 {
			a := cands[r.IntN(len(cands))]
			ctx.attrs[a] = wrongValue(a, p.attrs[a], r.IntN(2) == 0)
			rd = tpls[ti].render(&ctx)
			l.wrong = a
		}
	}
	l.title, l.stated = rd.text, rd.stated
	if pr.dup && len(tpls) == 1 {
		l.title += " - UK Stock"
	}
	dctx := titleCtx{p: p, st: &s.Style, brand: p.line.Brand, attrs: p.attrs, tag: ctx.tag}
	l.desc = g.description(k, &dctx, h)

	// Price, stock and delivery.
	f := 1 + s.Bias + (r.Float64()*2-1)*0.06
	f = min(max(f, 0.92), 1.08)
	ending := s.Endings[r.IntN(len(s.Endings))]
	l.price = roundPrice(p.price*f, ending)
	if r.Float64() < s.Sale {
		l.was = roundPrice(float64(l.price)/100*(1.06+r.Float64()*0.24), ending)
		if l.was <= l.price {
			l.was = 0
		}
	}
	qty := 0
	switch x := r.Float64(); {
	case x < s.OutShare:
	case x < s.OutShare+s.LowShare:
		qty = 1 + r.IntN(5)
	default:
		qty = 6 + min(int(r.ExpFloat64()*35), 400)
	}
	l.inStock = qty > 0
	l.qty = -1
	if r.Float64() < s.Counts {
		l.qty = qty
	}
	if l.inStock {
		l.delivery = s.Delivery[r.IntN(len(s.Delivery))]
	} else {
		l.delivery = s.NoStock
	}

	// Identifiers, links and the rest.
	l.link = strings.Replace(s.Link, "{id}", l.merchantID, 1)
	if i := strings.Index(l.link, "{slug}"); i >= 0 {
		l.link = l.link[:i] + slug(p.line.Brand+" "+p.name()) + l.link[i+len("{slug}"):]
	}
	l.image = "https://img." + s.Domain + "/" + strings.ToLower(l.merchantID) + ".jpg"
	switch s.GTIN {
	case "ean13":
		l.gtin = p.gtin
	case "gtin14":
		l.gtin = "0" + p.gtin
	}
	if r.Float64() < s.NoGTIN {
		l.gtin = ""
	}
	l.mpn = p.mpn
	if r.Float64() < s.NoMPN {
		l.mpn = ""
	}
	l.brand = p.line.Brand
	if alias, ok := g.d.Brands[l.brand]; ok && s.Brands {
		l.brand = alias
	}
	l.colour = p.vals[axColour]
	if s.SimpleColour {
		l.colour = p.col
	}
	switch s.Paths {
	case "gpath":
		l.path = p.dept.GPath
	case "alt":
		l.path = p.dept.Alt
		if l.path == "" {
			l.path = p.dept.Path
		}
	default:
		l.path = p.dept.Path
	}
	l.updated = g.now.Add(-time.Duration(r.IntN(96*60)) * time.Minute)

	g.spoil(&l, r)
	return l
}

// spoil applies the row's reject reason to the listing.
func (g *shopGen) spoil(l *listing, r *rand.Rand) {
	s := g.s
	switch l.reject {
	case RejectNotNew:
		if s.Format != fmtJSONL && r.IntN(5) < 2 {
			l.condition = "refurbished"
		} else {
			l.title += refurbSuffixes[r.IntN(len(refurbSuffixes))]
			if s.Format != fmtJSONL && r.IntN(2) == 0 {
				l.condition = "refurbished"
			}
		}
		l.price = roundPrice(float64(l.price)/100*(0.62+r.Float64()*0.23), ".99")
		l.was = 0
		if r.IntN(2) == 0 {
			l.gtin = ""
		}
	case RejectNonGBP:
		l.currency = "EUR"
		l.price = roundPrice(float64(l.price)/100*1.16, s.Endings[0])
		l.was = 0
	case RejectBadPrice:
		l.priceText = badPrices[r.IntN(len(badPrices))]
		if l.priceText == "" {
			l.priceText = " "
		}
		l.was = 0
	case RejectMissingTitle:
		l.title = ""
		l.stated = [numAttrs]float64{}
		l.wrong = -1
	case RejectBadURL:
		switch r.IntN(4) {
		case 0:
			l.link = strings.TrimPrefix(l.link, "https://")
		case 1:
			l.link = l.link[strings.Index(l.link, ".co.uk")+len(".co.uk"):]
		case 2:
			l.link = "htps://" + strings.TrimPrefix(l.link, "https://")
		default:
			l.link = "javascript:void(0)"
		}
	case RejectMalformed:
		l.malformed = r.IntN(2)
	}
}

// description renders the retailer's product description.
func (g *shopGen) description(k *kindTemplates, ctx *titleCtx, h uint64) string {
	switch g.s.Desc {
	case "none":
		return ""
	case "short":
		text := k.desc[int(h>>8%uint64(len(k.desc)))].render(ctx).text
		if i := strings.Index(text, ". "); i > 0 {
			return text[:i+1]
		}
		return text
	}
	return k.desc[int(h>>8%uint64(len(k.desc)))].render(ctx).text
}

// roundPrice turns a price in pounds into pence ending the retailer's way:
// ".99" gives 1,298.99 for 1,299.40, ".00" gives 1,299.00.
func roundPrice(v float64, ending string) int64 {
	cents, err := strconv.Atoi(strings.TrimPrefix(ending, "."))
	if err != nil {
		cents = 99
	}
	pounds := int64(math.Round(v))
	if cents == 0 {
		return max(pounds, 1) * 100
	}
	if pounds < 1 {
		return int64(cents)
	}
	return (pounds-1)*100 + int64(cents)
}

// money writes pence as pounds with two decimals: 129999 is "1299.99".
func money(pence int64) string {
	return fmt.Sprintf("%d.%02d", pence/100, pence%100)
}

// scrambleID renders a merchant id pattern such as "VL{n:7}": the number is
// the row index mapped one-to-one onto the width's range, so ids are unique
// and look unordered.
func scrambleID(pattern string, i int, salt uint64) string {
	open := strings.Index(pattern, "{n:")
	if open < 0 {
		return pattern + strconv.Itoa(i)
	}
	end := strings.IndexByte(pattern[open:], '}')
	w, err := strconv.Atoi(pattern[open+3 : open+end])
	if err != nil || w < 1 || w > 15 {
		w = 8
	}
	mod := uint64(math.Pow10(w))
	// Two affine maps around a digit reversal: each step is one-to-one on
	// [0, mod), so the composition is too.
	n := (uint64(i)*7654321 + salt%mod) % mod
	n = reverseDigits(n, w)
	n = (n*4194301 + 1234567) % mod
	return pattern[:open] + fmt.Sprintf("%0*d", w, n) + pattern[open+end+1:]
}

// reverseDigits reverses the w decimal digits of n (zero-padded).
func reverseDigits(n uint64, w int) uint64 {
	var r uint64
	for range w {
		r = r*10 + n%10
		n /= 10
	}
	return r
}
