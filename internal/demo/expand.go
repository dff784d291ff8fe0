package demo

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// product is one true product: a model line with one value per axis.
type product struct {
	key      string
	model    string // key without the colour: the model in every colour
	line     *line
	dept     *department
	vals     [numAxes]string
	attrs    [numAttrs]float64 // true specs; 0 = the product has none
	price    float64           // base price in GBP
	gtin     string            // EAN-13
	mpn      string
	lineName string // line name as retailers write it
	noun     string // what the product is, without words that repeat the name
	short    string
	cpuFam   string // processor family: "Intel Core i5"
	cpuShort string // processor in brief: "i5"
	col      string // basic colour word
	dims     string
	offers   float64 // popularity multiplier
	// specs holds the specs the product's texts state literally ("Fire TV
	// Stick 4K"), by text; nil when a text states none. The arrays are
	// shared between products with the same texts.
	specs [numLiterals]*[numAttrs]float64
	// literal marks the specs some name states; a title cannot state them
	// wrongly.
	literal [numAttrs]bool
}

// The texts of a product that can state specs literally.
const (
	litName = iota
	litLine
	litModel
	litNoun
	litShort
	litVariant
	numLiterals
)

// name is the product's line name and model as retailers write them.
func (p *product) name() string {
	if p.vals[axModel] == "" {
		return p.lineName
	}
	if p.lineName == "" {
		return p.vals[axModel]
	}
	return p.lineName + " " + p.vals[axModel]
}

// hasAttrs reports whether the product has any true spec.
func (p *product) hasAttrs() bool {
	for _, v := range p.attrs {
		if v > 0 {
			return true
		}
	}
	return false
}

// expander turns model lines into products.
type expander struct {
	d        *data
	products []product
	brandSeq map[string]int // next GTIN item number per brand
	lineSeq  []int          // next model-number sequence per line
	keys     map[string]bool
	specs    map[string]*[numAttrs]float64 // specsIn by text: names repeat
}

// specsIn is the package's specsIn, remembered by text; nil for a text that
// states no spec.
func (x *expander) specsIn(s string) *[numAttrs]float64 {
	v, ok := x.specs[s]
	if !ok {
		if found := specsIn(s); found != ([numAttrs]float64{}) {
			v = &found
		}
		x.specs[s] = v
	}
	return v
}

// expand lists every product of the data at the given scale. Scale N makes
// N editions of every line (see scale.go): edition 0 is the line as the
// data describes it, later editions are new lines with their own names,
// model numbers and GTINs. Products of lower editions come first, so the
// products of scale 1 are the first products of every larger scale.
func (d *data) expand(scale int) ([]product, error) {
	x := &expander{d: d, brandSeq: map[string]int{}, lineSeq: make([]int, len(d.Lines)),
		keys: map[string]bool{}, specs: map[string]*[numAttrs]float64{}}
	names, err := newRenamer(d, tables())
	if err != nil {
		return nil, err
	}
	for e := range scale {
		// Model-number sequences restart in every edition; the
		// edition's own model-number prefixes keep them apart.
		clear(x.lineSeq)
		for li, l := range d.Lines {
			l := names.line(l, e)
			var chosen [numAxes]*option
			if err := x.walk(li, l, e, 0, l.Axes, &chosen); err != nil {
				return nil, fmt.Errorf("%s: line %s: %w", l.file, l.ID, err)
			}
		}
	}
	return x.products, nil
}

func (x *expander) walk(li int, l *line, edition, ax int, axes [numAxes]axis, chosen *[numAxes]*option) error {
	if ax == numAxes {
		return x.emit(li, l, edition, &axes, chosen)
	}
	if len(axes[ax]) == 0 {
		chosen[ax] = nil
		return x.walk(li, l, edition, ax+1, axes, chosen)
	}
	for i := range axes[ax] {
		o := &axes[ax][i]
		next := axes
		for k, over := range o.Over {
			if k <= ax {
				return fmt.Errorf("%s option %q overrides %s, an earlier axis", axisNames[ax], o.Value, axisNames[k])
			}
			next[k] = over
		}
		chosen[ax] = o
		if err := x.walk(li, l, edition, ax+1, next, chosen); err != nil {
			return err
		}
	}
	chosen[ax] = nil
	return nil
}

func (x *expander) emit(li int, l *line, edition int, axes *[numAxes]axis, chosen *[numAxes]*option) error {
	var p product
	for ax, o := range chosen {
		if o != nil {
			p.vals[ax] = o.Value
		}
	}
	for _, sk := range l.Skip {
		match := true
		for k, v := range sk {
			if p.vals[axisIndex(k)] != v {
				match = false
				break
			}
		}
		if match {
			return nil
		}
	}
	dept := x.d.Departments[l.Dept]
	p.line, p.dept = l, dept
	p.noun, p.short, p.offers = l.Noun, l.Short, l.Offers*dept.Offers
	mpn := l.MPN
	price := l.Price
	var key, model strings.Builder
	key.WriteString(l.ID)
	model.WriteString(l.ID)
	for ax, o := range chosen {
		if o == nil {
			continue
		}
		switch o.Op {
		case '+':
			price += o.Num
		case '-':
			price -= o.Num
		case '*':
			price *= o.Num
		case '=':
			price = o.Num
		}
		if o.MPN != "" {
			mpn = o.MPN
		}
		if o.Noun != nil {
			p.noun = *o.Noun
		}
		if o.Short != nil {
			p.short = *o.Short
		}
		if a := axisAttr[ax]; a >= 0 {
			v, err := attrValue(a, o.Value)
			if err != nil {
				return err
			}
			p.attrs[a] = v
		}
		if len(axes[ax]) > 1 {
			s := slug(o.Value)
			if s == "" {
				s = "std"
			}
			key.WriteByte('-')
			key.WriteString(s)
			if ax != axColour {
				model.WriteByte('-')
				model.WriteString(s)
			}
		}
	}
	if p.short == "" {
		p.short = p.noun
	}
	if price <= 0 {
		return fmt.Errorf("product %s has price %.2f", key.String(), price)
	}
	p.lineName = l.Name
	price = editionPrice(price, edition)
	key.WriteString(editionKey(edition))
	model.WriteString(editionKey(edition))
	name := p.name()
	p.noun, p.short = trimOverlap(name, p.noun), trimOverlap(name, p.short)
	p.cpuFam, p.cpuShort = cpuName(p.vals[axCPU], "family"), cpuName(p.vals[axCPU], "short")
	p.col = simpleColour(p.vals[axColour])
	p.key, p.model = key.String(), model.String()
	if err := p.readLiteralSpecs(x.specsIn); err != nil {
		return err
	}
	if x.keys[p.key] {
		return fmt.Errorf("two products have the key %s: two options of an axis read the same", p.key)
	}
	x.keys[p.key] = true
	p.price = math.Round(price*100) / 100
	seq := x.lineSeq[li]
	x.lineSeq[li]++
	p.mpn = renderMPN(mpn, seq, &p)
	n := x.brandSeq[l.Brand]
	x.brandSeq[l.Brand]++
	p.gtin = makeGTIN(x.d.brandCode[l.Brand], n)
	if dept.Dims != "" {
		p.dims = makeDims(dept.Dims, p.key)
	}
	x.products = append(x.products, p)
	return nil
}

// readLiteralSpecs finds the specs the product's name, noun and variant
// state and adds them to its true specs. Accessories state none: the specs
// in "Screen Protector for iPad Pro 13-inch" belong to the iPad.
func (p *product) readLiteralSpecs(specsIn func(string) *[numAttrs]float64) error {
	if p.dept.Type == "accessory" {
		return nil
	}
	texts := [numLiterals]string{
		litName: p.name(), litLine: p.lineName, litModel: p.vals[axModel],
		litNoun: p.noun, litShort: p.short, litVariant: p.vals[axVariant],
	}
	for i, text := range texts {
		p.specs[i] = specsIn(text)
		if p.specs[i] == nil {
			continue
		}
		for a, v := range p.specs[i] {
			if v == 0 {
				continue
			}
			if p.attrs[a] != 0 && p.attrs[a] != v {
				return fmt.Errorf("product %s: %q states %s %v, its %s axis %v", p.key, text, attrNames[a], v, attrNames[a], p.attrs[a])
			}
			p.attrs[a] = v
			p.literal[a] = true
		}
	}
	return nil
}

// renderMPN fills a model-number pattern: {seq:N} is the product's sequence
// number within its line, zero-padded to N digits; {size} the screen size in
// whole inches; {stor} the storage as 128, 256, 1T; {col} a two-letter colour
// code.
func renderMPN(pattern string, seq int, p *product) string {
	if !strings.Contains(pattern, "{") {
		return pattern
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(pattern, '{')
		if open < 0 {
			b.WriteString(pattern)
			return b.String()
		}
		end := strings.IndexByte(pattern[open:], '}')
		if end < 0 {
			b.WriteString(pattern)
			return b.String()
		}
		b.WriteString(pattern[:open])
		name, mod, _ := strings.Cut(pattern[open+1:open+end], ":")
		switch name {
		case "seq":
			w, _ := strconv.Atoi(mod)
			fmt.Fprintf(&b, "%0*d", w, seq)
		case "size":
			b.WriteString(strconv.Itoa(int(p.attrs[atScreen])))
		case "stor":
			s := p.attrs[atStorage]
			if s >= 1000 {
				b.WriteString(strconv.FormatFloat(s/1000, 'f', -1, 64) + "T")
			} else {
				b.WriteString(strconv.FormatFloat(s, 'f', -1, 64))
			}
		case "col":
			b.WriteString(colourCode(p.vals[axColour]))
		}
		pattern = pattern[open+end+1:]
	}
}

// colourCode is a two-letter code for a colour name: "Space Grey" is SG,
// "Black" BL.
func colourCode(c string) string {
	f := strings.Fields(strings.ToUpper(c))
	switch {
	case len(f) == 0:
		return "XX"
	case len(f) == 1 && len(f[0]) >= 2:
		return f[0][:2]
	case len(f) == 1:
		return f[0] + "X"
	}
	return f[0][:1] + f[1][:1]
}

// makeGTIN builds a valid EAN-13 in the UK "50" prefix range: a four-digit
// brand number and a six-digit item number, both scrambled bijectively so
// neighbouring products do not get neighbouring barcodes.
func makeGTIN(brand, item int) string {
	b := (brand*37 + 1021) % 10000
	i := (item*7919 + 104729) % 1000000
	s := fmt.Sprintf("50%04d%06d", b, i)
	return s + strconv.Itoa(checkDigit(s))
}

// checkDigit computes the GS1 check digit of the digits in s.
func checkDigit(s string) int {
	sum := 0
	for i := range len(s) {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 0 {
			d *= 3
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// ValidGTIN reports whether s is a GTIN-8, -12, -13 or -14 with a correct
// check digit.
func ValidGTIN(s string) bool {
	switch len(s) {
	case 8, 12, 13, 14:
	default:
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return checkDigit(s[:len(s)-1]) == int(s[len(s)-1]-'0')
}

// dimRange is one "lo-hi" range of a dimensions pattern.
type dimRange struct{ lo, hi float64 }

// parseDims reads a dimensions pattern: "30-36 x 21-25 x 1.4-2.0 cm".
func parseDims(s string) ([]dimRange, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return nil, fmt.Errorf("dims %q: want ranges separated by x and a unit", s)
	}
	var out []dimRange
	for _, tok := range f[:len(f)-1] {
		if tok == "x" {
			continue
		}
		lo, hi, ok := strings.Cut(tok, "-")
		if !ok {
			hi = lo
		}
		l, err1 := strconv.ParseFloat(lo, 64)
		h, err2 := strconv.ParseFloat(hi, 64)
		if err1 != nil || err2 != nil || h < l {
			return nil, fmt.Errorf("dims %q: bad range %q", s, tok)
		}
		out = append(out, dimRange{l, h})
	}
	return out, nil
}

// makeDims picks dimensions within a pattern's ranges, the same for the
// same product key.
func makeDims(pattern, key string) string {
	ranges, err := parseDims(pattern)
	if err != nil {
		return ""
	}
	f := strings.Fields(pattern)
	unit := f[len(f)-1]
	h := hashString(key)
	parts := make([]string, len(ranges))
	for i, r := range ranges {
		h = mix64(h + uint64(i))
		frac := float64(h%1000) / 999
		v := math.Round((r.lo+(r.hi-r.lo)*frac)*10) / 10
		parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strings.Join(parts, " x ") + " " + unit
}

// slug lower-cases s and turns every run of other characters than letters
// and digits into one hyphen.
func slug(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		case r == '+':
			if b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteString("plus")
			dash = false
		default:
			dash = true
		}
	}
	return b.String()
}

// hashString is FNV-1a over s.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(s) {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix64 is the splitmix64 finaliser.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
