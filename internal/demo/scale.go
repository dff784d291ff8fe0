package demo

import (
	"io/fs"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode"
)

// A catalog at scale N holds N editions of the data's model lines: edition
// 0 is every line as the data describes it, and each later edition is a
// set of new lines of the same brands, in the same departments and with
// the same axes, so the catalog keeps its proportions of lines, models and
// variants per brand and category while every product in it is distinct.
// An edition renames what names a product: the line's proper words
// ("IdeaPad", "Galaxy") become invented words, its model codes ("S24",
// "WH-1000XM5") codes of the same shape, and its model-number pattern
// gets a new prefix. Brands, specs, the words that describe a product
// ("Slim", "Laptop", "Pro", "Max") and numbers stay. The same name gets
// the same new name throughout an edition, so an edition's cases fit that
// edition's phones. Names of one edition are new to the data and to every
// other edition, so a query that names a line of the data finds that line
// only, at every scale.

// renamer makes the names of later editions.
type renamer struct {
	keep  map[string]bool // lower-case words that describe rather than name
	taken map[string]bool // lower-case words of the data and every name made so far
	made  map[renamed]string
}

// renamed is a word of the data in one edition.
type renamed struct {
	word    string
	edition int
}

// newRenamer collects the data's words: every word of its files is taken.
// Brands, tier and joining words are kept, and so are the words of nouns,
// department paths and describing axes (colour, processor, connection,
// variant) unless line names, model or fit values hold them too ("iPhone"
// in "Case for iPhone" names a device).
func newRenamer(d *data, fsys fs.FS) (*renamer, error) {
	r := &renamer{keep: map[string]bool{}, taken: map[string]bool{}, made: map[renamed]string{}}
	err := fs.WalkDir(fsys, ".", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		addWords(r.taken, string(b))
		return nil
	})
	if err != nil {
		return nil, err
	}
	proper, describing := map[string]bool{}, map[string]bool{}
	var collect func(a axis, ax int)
	collect = func(a axis, ax int) {
		for _, o := range a {
			if ax == axModel || ax == axFit {
				addWords(proper, o.Value)
			} else {
				addWords(describing, o.Value)
			}
			if o.Noun != nil {
				addWords(describing, *o.Noun)
			}
			if o.Short != nil {
				addWords(describing, *o.Short)
			}
			for k, over := range o.Over {
				collect(over, k)
			}
		}
	}
	for _, l := range d.Lines {
		addWords(describing, l.Noun+" "+l.Short)
		addWords(proper, l.Name)
		addWords(r.keep, l.Brand)
		for ax, a := range l.Axes {
			collect(a, ax)
		}
	}
	for _, dep := range d.Departments {
		addWords(describing, dep.Path+" "+dep.Alt+" "+dep.GPath)
	}
	for w := range describing {
		if !proper[w] {
			r.keep[w] = true
		}
	}
	addWords(r.keep, strings.Join(tierWords, " "))
	for brand, alias := range d.Brands {
		addWords(r.keep, brand+" "+alias)
	}
	return r, nil
}

// addWords adds the lower-case words of s to set.
func addWords(set map[string]bool, s string) {
	for _, w := range strings.FieldsFunc(s, notAlnum) {
		set[strings.ToLower(w)] = true
	}
}

// tierWords are the words that make a model of a line rather than name
// one, the words that join a name's parts, and common words of technology
// and kinds of product; an edition keeps them.
var tierWords = []string{
	"Pro", "Max", "Plus", "Ultra", "Mini", "Lite", "Air", "SE", "FE", "Neo", "Slim", "Go", "Edge", "Fold", "Flip",
	"XL", "Series", "Edition", "Gen", "Generation", "Mark", "Mk", "II", "III", "IV", "Classic", "Sport", "Studio",
	"Active", "Duo", "Dual", "Kids", "5G", "4G", "LTE", "to", "for", "with", "and", "of", "in", "the", "by", "on",
	"USB", "HDMI", "Lightning", "Ethernet", "Bluetooth", "Wi", "Fi", "Cellular", "Thunderbolt", "DisplayPort",
	"MagSafe", "SSD", "HDD", "NVMe", "OLED", "QLED", "LED", "Smart", "Wireless", "Gaming", "Laptop", "Laptops",
	"Watch", "Phone", "Tablet", "Camera", "Lens", "Case", "Cable", "Charger", "Adapter", "Hub", "Dock",
}

func notAlnum(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// line returns line l as it reads in edition e (l itself in edition 0):
// its name, its model and fit values and its model-number patterns renamed.
func (r *renamer) line(l *line, e int) *line {
	if e == 0 {
		return l
	}
	c := *l
	c.Name = r.text(l.Name, e, true)
	hasModel := len(l.Axes[axModel]) > 0
	if c.Name == "" && !hasModel {
		c.Name = r.word("line "+l.ID, e)
	}
	c.MPN = r.mpn(l.MPN, e)
	for ax := range c.Axes {
		c.Axes[ax] = r.axis(l.Axes[ax], ax, e, l.Name == "")
	}
	c.Skip = make([]map[string]string, len(l.Skip))
	for i, sk := range l.Skip {
		c.Skip[i] = make(map[string]string, len(sk))
		for k, v := range sk {
			switch axisIndex(k) {
			case axModel:
				v = r.text(v, e, l.Name == "")
			case axFit:
				v = r.text(v, e, true)
			}
			c.Skip[i][k] = v
		}
	}
	return &c
}

// axis renames the model and fit values of an axis and of the axes its
// options override. A model value names the product when the line has no
// name: it is then renamed even when it has no word to rename.
func (r *renamer) axis(a axis, ax, e int, modelNames bool) axis {
	if a == nil {
		return nil
	}
	out := make(axis, len(a))
	for i, o := range a {
		switch ax {
		case axModel:
			o.Value = r.text(o.Value, e, modelNames)
		case axFit:
			o.Value = r.text(o.Value, e, true)
		}
		if o.MPN != "" {
			o.MPN = r.mpn(o.MPN, e)
		}
		if o.Over != nil {
			over := make(map[int]axis, len(o.Over))
			for k, oa := range o.Over {
				over[k] = r.axis(oa, k, e, modelNames)
			}
			o.Over = over
		}
		out[i] = o
	}
	return out
}

// text renames the naming words of s in edition e. When s has none and
// whole is set, an invented word goes in front, so the text still names
// something new.
func (r *renamer) text(s string, e int, whole bool) string {
	if s == "" {
		return ""
	}
	f := strings.Fields(s)
	changed := false
	for i, w := range f {
		if nw := r.token(w, e); nw != w {
			f[i], changed = nw, true
		}
	}
	if !changed && whole {
		return r.word("text "+s, e) + " " + s
	}
	return strings.Join(f, " ")
}

// token renames the naming runs of letters and digits of one word of a
// name: "Leather-Style" renames both halves, "USB-C" neither. A run names a
// product when it has a letter, more than one character and is neither a
// brand nor a describing word; a word that states a spec ("4K", "65W") is
// kept whole.
func (r *renamer) token(w string, e int) string {
	if strings.IndexFunc(w, unicode.IsLetter) < 0 || specsIn(w) != ([numAttrs]float64{}) {
		return w
	}
	var b strings.Builder
	start := -1
	flush := func(end int) {
		run := w[start:end]
		if len(run) > 1 && strings.IndexFunc(run, unicode.IsLetter) >= 0 && !r.keep[strings.ToLower(run)] {
			run = r.word(run, e)
		}
		b.WriteString(run)
		start = -1
	}
	for i, c := range w {
		switch {
		case !notAlnum(c):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				flush(i)
			}
			b.WriteRune(c)
		}
	}
	if start >= 0 {
		flush(len(w))
	}
	return b.String()
}

// mpn gives a model-number pattern a new prefix in edition e: its first
// run of letters and digits that holds a letter is renamed; a pattern
// without one gets an invented code in front.
func (r *renamer) mpn(pattern string, e int) string {
	lit := pattern
	if i := strings.IndexByte(lit, '{'); i >= 0 {
		lit = lit[:i]
	}
	start := -1
	for i, c := range lit {
		switch {
		case unicode.IsLetter(c) || unicode.IsDigit(c):
			if start < 0 {
				start = i
			}
		case start >= 0:
			if run := lit[start:i]; strings.IndexFunc(run, unicode.IsLetter) >= 0 {
				return pattern[:start] + r.code(run, e) + pattern[i:]
			}
			start = -1
		}
	}
	if start >= 0 && strings.IndexFunc(lit[start:], unicode.IsLetter) >= 0 {
		return pattern[:start] + r.code(lit[start:], e) + pattern[len(lit):]
	}
	return r.code("MPN", e) + "-" + pattern
}

// word is the new name of word w in edition e: an invented word for a
// plain word of four letters or more that is not all capitals, otherwise a
// code of the same shape.
func (r *renamer) word(w string, e int) string {
	switch {
	case strings.HasPrefix(w, "line ") || strings.HasPrefix(w, "text "):
		return r.fresh(w, e, func(g *rand.Rand, attempt int) string { return inventWord(g, 6+attempt/8) })
	case len(w) >= 4 && strings.IndexFunc(w, func(c rune) bool { return !unicode.IsLetter(c) }) < 0 && strings.ToUpper(w) != w:
		return r.fresh(w, e, func(g *rand.Rand, attempt int) string { return inventWord(g, len(w)+attempt/8) })
	}
	return r.code(w, e)
}

// code is a new code of the same shape as w in edition e: capitals for
// capitals, small letters for small letters, digits for digits, the rest
// as it is; it grows by a letter when the shape runs out of new codes.
func (r *renamer) code(w string, e int) string {
	return r.fresh(w, e, func(g *rand.Rand, attempt int) string {
		var b strings.Builder
		digits := false
		for i, c := range w {
			switch {
			case unicode.IsUpper(c):
				b.WriteByte(codeLetters[g.IntN(len(codeLetters))])
			case unicode.IsLower(c):
				b.WriteByte(codeLetters[g.IntN(len(codeLetters))] + 'a' - 'A')
			case unicode.IsDigit(c):
				d := g.IntN(10)
				if !digits && c != '0' && i < len(w)-1 {
					d = 1 + g.IntN(9)
				}
				b.WriteByte(byte('0' + d))
			default:
				b.WriteRune(c)
			}
			digits = unicode.IsDigit(c)
		}
		for range attempt / 16 {
			b.WriteByte(codeLetters[g.IntN(len(codeLetters))])
		}
		return b.String()
	})
}

// codeLetters are the letters of invented codes: not I or O, which read as
// digits.
const codeLetters = "ABCDEFGHJKLMNPQRSTUVWXYZ"

// fresh returns the name made for w in edition e, making it with gen on
// first use: the first candidate that is no word of the data, no earlier
// name and states no spec.
func (r *renamer) fresh(w string, e int, gen func(g *rand.Rand, attempt int) string) string {
	k := renamed{w, e}
	if s, ok := r.made[k]; ok {
		return s
	}
	g := rand.New(rand.NewPCG(hashString(w), uint64(e)))
	for attempt := 0; ; attempt++ {
		s := gen(g, attempt)
		if low := strings.ToLower(s); !r.taken[low] && specsIn(s) == ([numAttrs]float64{}) {
			r.taken[low] = true
			r.made[k] = s
			return s
		}
	}
}

// Syllables of invented words.
var (
	onsets = []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kr", "tr", "st", "sk", "pl", "vr"}
	vowels = []string{"a", "e", "i", "o", "u", "a", "e", "o", "ia", "ei"}
	codas  = []string{"", "", "", "n", "r", "s", "x", "l", "k", "th"}
)

// inventWord makes a capitalised word of about n letters from syllables.
func inventWord(g *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < max(n-2, 3) {
		b.WriteString(onsets[g.IntN(len(onsets))])
		b.WriteString(vowels[g.IntN(len(vowels))])
	}
	b.WriteString(codas[g.IntN(len(codas))])
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// editionPrice moves a later edition's price a little off the data's.
func editionPrice(price float64, e int) float64 {
	if e == 0 {
		return price
	}
	return price * (1 - 0.03*float64((e-1)%4) + 0.02*float64((e-1)%3))
}

// editionKey is the suffix of a later edition's product keys.
func editionKey(e int) string {
	if e == 0 {
		return ""
	}
	return "-e" + strconv.Itoa(e+1)
}
