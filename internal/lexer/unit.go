package lexer

// Unit is a unit of measure written after a number.
type Unit uint8

const (
	NoUnit Unit = iota
	GB
	TB
	MB
	Hz
	KHz
	W
	MAh
	MP
	MM
	CM
	KG
	V
	Wh
	Inch
)

// unitNames are the canonical spellings, indexed by Unit.
var unitNames = [...]string{"", "gb", "tb", "mb", "hz", "khz", "w", "mah", "mp", "mm", "cm", "kg", "v", "wh", "in"}

// String returns the unit's canonical lower-case spelling: "gb", "w", "in".
func (u Unit) String() string {
	if int(u) < len(unitNames) {
		return unitNames[u]
	}
	return "unit?"
}

// UnitOf returns the unit a lower-case word names after a number: "gb",
// "watt", "watts", "inch", "inches", ... It returns NoUnit for "in", which
// is an inch only glued to its number ("15.6in"; see ReadQuantity and
// SplitNumberUnit), and for every word that is no unit.
func UnitOf(w string) Unit {
	switch w {
	case "gb":
		return GB
	case "tb":
		return TB
	case "mb":
		return MB
	case "hz":
		return Hz
	case "khz":
		return KHz
	case "w", "watt", "watts":
		return W
	case "mah":
		return MAh
	case "mp":
		return MP
	case "mm":
		return MM
	case "cm":
		return CM
	case "kg":
		return KG
	case "v":
		return V
	case "wh":
		return Wh
	case "inch", "inches":
		return Inch
	}
	return NoUnit
}

// Quantity is a number with its unit, as written.
type Quantity struct {
	Value float64
	Unit  Unit
	Dec   bool // the number has a decimal part
}

// Norm returns the quantity in its base unit, so that spellings of one
// amount compare equal: storage in GB (1TB = 1000GB), frequency in Hz.
func (q Quantity) Norm() Quantity {
	switch q.Unit {
	case TB:
		return Quantity{Value: q.Value * 1000, Unit: GB, Dec: q.Dec}
	case KHz:
		return Quantity{Value: q.Value * 1000, Unit: Hz, Dec: q.Dec}
	}
	return q
}

// ReadQuantity reads the unit after the number token i of folded text and
// returns the quantity and the index of the token after it. A unit is a
// unit word, glued to the number or not ("16GB", "16 GB", "65 watts"), or
// joined by a hyphen ("16-GB", "55-inch"), or an inch mark glued to the
// number (`55"`, "55”"), or "in" glued to it when no number follows
// ("15.6in", "55-in", but not "2-in-1" or "5in1"). ok is false when token i
// is no number or no unit follows it.
func ReadQuantity(text string, toks []Token, i int) (q Quantity, next int, ok bool) {
	if i < 0 || i >= len(toks) || toks[i].Kind != Number {
		return Quantity{}, i, false
	}
	q = Quantity{Value: toks[i].Num, Dec: toks[i].Dec}
	j := i + 1
	hyphen := isSym(toks, j, '-') && tight(toks, j) && tight(toks, j+1) && toks[j+1].Kind == Word
	if hyphen {
		j++
	}
	switch {
	case j < len(toks) && toks[j].Kind == Word:
		w := text[toks[j].Start:toks[j].End]
		if u := UnitOf(w); u != NoUnit {
			q.Unit = u
			return q, j + 1, true
		}
		// "15.6in", "55-in"; not "2-in-1", "5in1" or "15.6-in 2".
		numAfter := j+1 < len(toks) && toks[j+1].Kind == Number && (hyphen || !toks[j+1].Gap)
		if w == "in" && tight(toks, j) && !numAfter && !isSym(toks, j+1, '-') {
			q.Unit = Inch
			return q, j + 1, true
		}
	case j == i+1 && isSym(toks, j, '"') && tight(toks, j):
		q.Unit = Inch
		return q, j + 1, true
	case j == i+1 && isSym(toks, j, '\'') && tight(toks, j) && isSym(toks, j+1, '\'') && tight(toks, j+1):
		q.Unit = Inch
		return q, j + 2, true
	}
	return Quantity{}, i, false
}

func isSym(toks []Token, i int, c byte) bool {
	return i >= 0 && i < len(toks) && toks[i].Kind == Symbol && toks[i].Sym == c
}

// tight reports whether token i exists and touches the token before it.
func tight(toks []Token, i int) bool { return i >= 0 && i < len(toks) && !toks[i].Gap }

// SplitNumberUnit splits one lower-case word such as "15.6in" or "16gb"
// into its number and unit, when the tail is a unit (UnitOf, or "in").
func SplitNumberUnit(s string) (num string, u Unit, ok bool) {
	i := 0
	for i < len(s) && (IsDigit(s[i]) || s[i] == '.') {
		i++
	}
	if i == 0 || i == len(s) || !IsNumber(s[:i]) {
		return "", NoUnit, false
	}
	tail := s[i:]
	if tail == "in" {
		return s[:i], Inch, true
	}
	if u := UnitOf(tail); u != NoUnit {
		return s[:i], u, true
	}
	return "", NoUnit, false
}
