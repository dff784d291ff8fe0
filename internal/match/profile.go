package match

import (
	"slices"
	"strings"

	"productsearch/internal/classify"
)

// slot is a model-line number and the word it belongs to: "Pro 5" is
// {pro, 5}, "Galaxy S23" {s, 23}, "Gen 2" {gen, 2}. Two listings that give
// one word different numbers are different products.
type slot struct {
	key, num string
}

// profile is what the matcher reads from one listing.
type profile struct {
	gtin      string
	link      string
	brand     string // letters and digits of the brand, lower case
	category  string
	acc       bool
	guessed   bool // the brand is a guess from the title's first word
	colour    string
	tint      string // the colour the listing states, read with colours together too (see colourSiblings)
	anyColour bool   // colour variants are one product (Options.IgnoreColour)
	specs     map[string]float64
	codes     []code
	parts     []string // main-clause chunks, normalised; "" between clauses
	descCodes []string // strong codes the description names and the title does not
	words     []string // distinct title words, main clause first
	nMain     int      // words[:nMain] are from the main clause
	stock     int      // words[stock:nMain] spell a stock number ending the title (see stockNumber), or stock is nMain
	fitWords  []string // distinct words of the fit clause
	slots     []slot   // fit-clause slots have keys starting with "@"
	mainVar   variants // variant words of the main clause
	fitVar    variants // variant words of the fit clause
	hasFit    bool
	hasTitle  bool
	config    configSet // configuration details the title states
	edition   edition   // the edition words of the title
	kit       string    // the name of the kit or combo a device is sold in (see kitName)
	// shopVariant is a variant's word right after the model's name that a
	// shop's listings taught (see learnShopVariants), or "".
	shopVariant string
	// genAfter is the short name a generation's numeral follows ("z6" of
	// "Z6 II"), or "" (see firstOfLine).
	genAfter string
}

// edition records the words of a title that make a listing an edition of a
// product rather than the product: a bundle, a licence upgrade, an
// academic licence, a remanufactured item.
type edition uint16

const (
	edBundle edition = 1 << iota
	edUpgrade
	edAcademic
	edThirdParty
	// edPack: a part number that names a kit or a multi-pack of a product
	// ("TLPA7017KIT", "TAPOP304-2PK").
	edPack
	// edLensKit: a camera of interchangeable lenses sold with a zoom lens
	// ("with 16-50mm lens"); edBody: a camera body ("Body Only"); edLens:
	// a zoom lens alone, its title naming no camera.
	edLensKit
	edBody
	edLens
	// edTray: a processor sold without box nor cooler ("OEM", "Tray");
	// edBoxed: one sold in its box ("Boxed", "Retail", "with Wraith
	// cooler").
	edTray
	edBoxed
	// edTwinLens: a camera sold with two lenses or more ("with 18-45mm &
	// 55-210mm lenses"), another kit than with one.
	edTwinLens
)

// editionOf returns the edition a title word names, or 0.
func editionOf(w string) edition {
	switch w {
	case "bundle":
		return edBundle
	case "upgrade":
		return edUpgrade
	case "academic":
		return edAcademic
	case "remanufactured":
		return edThirdParty
	}
	return 0
}

// configSet records which configuration details a listing states: RAM,
// storage, processor, graphics.
type configSet uint8

const (
	cfgMemory configSet = 1 << iota
	cfgStorage
	cfgCPU
	cfgGPU
)

// configOf returns the configuration details a profile states; memory
// counts only for computers (see configuredToOrder), storage for all but
// cameras, whose titles give the size of a memory card sold with one
// ("Hero9 Black 32GB microSD card"), and phones, whose listing without
// one joins the one storage it meets (see leavesOpen).
func (p *profile) configOf() configSet {
	var c configSet
	if _, ok := p.specs["memory_gb"]; ok && configuredToOrder(p.category) {
		c |= cfgMemory
	}
	if _, ok := p.specs["storage_gb"]; ok && p.category != cameras && p.category != phones {
		c |= cfgStorage
	}
	for _, s := range p.slots {
		switch s.key {
		case "cpu":
			c |= cfgCPU
		case "gpu":
			c |= cfgGPU
		}
	}
	return c
}

// titleChunks cuts a title into the chunks a profile reads: fractions,
// pieces a shop joins or glues, numerals, revisions and focal ranges
// written as other titles write them.
func titleChunks(title, brand, category string) []chunk {
	cs := splitNumerals(splitJoined(unglueBrand(mergeFractions(chunks(undoubled(foldTitle(title)))), brand)))
	if category == phones || category == cameras {
		// A phone's or camera's letter written apart ("S10 e", "M10 P");
		// an appliance's title leaves letters of its words ("k hlger t").
		cs = glueModelLetters(cs, category == cameras)
	}
	return joinRanges(joinRevisions(shortVariants(ordinalGenerations(cs))))
}

// ordinalGenerations returns the chunks with a line letter's generation
// written as an ordinal read as its number ("moto g 4th gen", "moto g play
// 4th generation": "g4", "g4 play"), as other titles write the model. It
// returns cs itself when no title writes one.
func ordinalGenerations(cs []chunk) []chunk {
	var out []chunk
	for i := 0; i < len(cs); i++ {
		n, ok := ordinal(cs[i].text)
		if !ok || i+1 >= len(cs) || cs[i+1].text != "gen" && cs[i+1].text != "generation" {
			if out != nil {
				out = append(out, cs[i])
			}
			continue
		}
		if out == nil {
			out = append(make([]chunk, 0, len(cs)), cs[:i]...)
		}
		at := len(out) - 1 // the line's letter, before a variant word or not
		if at >= 1 && variantWords[out[at].text] != 0 {
			at--
		}
		if at < 0 || len(out[at].text) != 1 || !isLetterByte(out[at].text[0]) {
			out = append(out, cs[i], cs[i+1])
		} else {
			out[at].text += n
		}
		i++
	}
	if out == nil {
		return cs
	}
	return out
}

// variantPhrases maps the words a variant's initials stand for to the
// variant word titles write short: "Galaxy S20 Fan Edition" is the "S20 FE".
var variantPhrases = map[[2]string]string{
	{"fan", "edition"}: "fe",
}

// shortVariants returns the chunks with a variant's words written out
// read as its initials (see variantPhrases). It returns cs itself when no
// title writes one.
func shortVariants(cs []chunk) []chunk {
	return mergePairs(cs, func(i int) (string, bool) {
		v, ok := variantPhrases[[2]string{cs[i].text, cs[i+1].text}]
		return v, ok && !cs[i+1].brk
	})
}

// profileOf reads a listing.
func profileOf(it Item, opt Options) profile {
	p := profile{
		gtin: it.GTIN, link: it.Link, brand: alnumOnly(it.Brand), category: it.Category, acc: it.Accessory,
		guessed: it.BrandGuessed, specs: it.Specs,
	}
	p.tint = colourOf(it)
	if !opt.IgnoreColour {
		p.colour = p.tint
	}
	p.anyColour = opt.IgnoreColour
	if !opt.sketch {
		p.codes = fieldCodes(it.MPN, it.Brand, p.codes)
		for i := range p.codes {
			p.codes[i].mpn = true
		}
		p.codes = fieldCodes(it.ModelNumber, it.Brand, p.codes)
		for _, c := range p.codes {
			if packCode(c.s) {
				p.edition |= edPack
			}
		}
	}
	cs := titleChunks(it.Title, p.brand, p.category)
	p.hasTitle = len(cs) > 0
	p.words = make([]string, 0, len(cs)+len(cs)/2)
	if !opt.sketch {
		p.parts = make([]string, 0, len(cs))
	}
	var wb [64]string
	var fitWords []string
	last := ""         // the word before, across chunks
	processor := false // a word can name a processor or graphics (see addSlot)
	for i, c := range cs {
		p.readCodes(cs, i)
		if !opt.sketch && stockNumber(cs, i) {
			p.stock = len(p.words)
		}
		ws := romanNumerals(splitWords(c.text, wb[:0]))
		for _, w := range ws {
			prev := last
			last = w
			processor = processor || processorKey(w)
			if isStopWord(w) {
				continue
			}
			if w != "mp" && measureUnit(w) == "mp" && isNumber(prev) {
				w = "mp" // "24.2 megapixel" as "24.2 mp", which "24.2mp" runs together
			}
			p.edition |= editionOf(w)
			if c.fit {
				if !slices.Contains(fitWords, w) {
					fitWords = append(fitWords, w)
				}
				continue
			}
			if !slices.Contains(p.words, w) {
				p.words = append(p.words, w)
			}
		}
		j := lineLetterApart(cs, i)
		if len(ws) > 1 {
			// "wh-1000xm5" also as "wh1000xm5", "x-t3" as "xt3".
			j = alnumOnly(c.text)
		}
		if j != "" {
			switch {
			case !joinedWord(j) && !(len(ws) == 2 && shortName(j) && strings.Contains(c.text, "-")):
				// A short name written with a hyphen ("K-3") is the
				// name ("K3"); "f/2" and "M.2" are none.
			case !c.fit && !slices.Contains(p.words, j):
				p.words = append(p.words, j)
			case c.fit && !slices.Contains(fitWords, j):
				fitWords = append(fitWords, j)
			}
		}
		if c.fit {
			p.hasFit = true
		}
	}
	p.nMain = len(p.words)
	// A brand with a number in its name ("Insta360") names no model; a
	// code filed as the brand ("KGN34XL35G") still does.
	p.codes = slices.DeleteFunc(p.codes, func(c code) bool {
		return !c.field && len(runPattern(c.s)) <= 2 && strings.EqualFold(c.s, p.brand)
	})
	if p.stock == 0 {
		p.stock = p.nMain
	}
	p.fitWords = fitWords
	if !opt.sketch {
		p.readCameraEdition(cs)
	}
	for i := range cs {
		if cs[i].fit || opt.sketch {
			break
		}
		if cs[i].brk && i > 0 {
			p.parts = append(p.parts, "")
		}
		p.parts = append(p.parts, NormalizePart(cs[i].text))
	}
	for _, w := range fitWords {
		if !slices.Contains(p.words, w) {
			p.words = append(p.words, w)
		}
	}
	p.readModel(cs, opt, processor)
	// A brand with a number in its name ("Insta360") names no model line.
	p.slots = slices.DeleteFunc(p.slots, func(s slot) bool { return p.brand != "" && s.key+s.num == p.brand })
	if opt.IgnoreColour && p.category != "" {
		p.dropColourWords()
	}
	if opt.descriptions {
		p.readDescription(it.Description)
	}
	return p
}

// readModel reads a title's model line, a television's screen code, its
// processor and graphics, and the configuration they state. Of the model
// line, grouping's first reading (opt.sketch) needs only the configuration
// a processor or graphics give, which a title names only when one of its
// words can (processor).
func (p *profile) readModel(cs []chunk, opt Options, processor bool) {
	if !opt.sketch || processor {
		p.readModelLine(cs)
	}
	if !opt.sketch {
		if !p.acc && p.category == tvs {
			p.readScreenCode()
		}
		p.readProcessor(cs)
	}
	p.readGraphics()
	p.config = p.configOf()
}

// namesLens reports whether a title names a zoom lens: the word "lens" and
// a focal range in its main clause ("Sony ZV-E10 Mirrorless Camera with
// 16-50mm Lens"). With a camera of interchangeable lenses, the title sells a
// kit, another product than the body; a compact's title names its built-in
// zoom alike ("Lumix TZ99 Compact Camera, 24-720mm Lens"). A kit's title may
// name no lens, its code alone saying so: only a body is not the kit.
func namesLens(cs []chunk, words []string) bool {
	return (slices.Contains(words, "lens") || slices.Contains(words, "lenses")) && lensCount(cs) > 0
}

// cameraWord reports whether a title word names a camera of
// interchangeable lenses.
func cameraWord(w string) bool {
	switch w {
	case "dslr", "slr", "mirrorless", "csc", "interchangeable":
		return true
	}
	return false
}

// focalRange reports whether a chunk is a zoom lens's focal range:
// "16-50mm", "24-105mm".
func focalRange(t string) bool {
	t, ok := strings.CutSuffix(t, "mm")
	if !ok {
		return false
	}
	a, b, ok := strings.Cut(t, "-")
	return ok && len(a) >= 1 && len(a) <= 3 && len(b) >= 2 && len(b) <= 4 && digitCount(a) == len(a) &&
		digitCount(b) == len(b) && leadingNumber(a) < leadingNumber(b)
}

// readModelLine finds the variant words and the model-line numbers of a
// title.
func (p *profile) readModelLine(cs []chunk) {
	var wb [16]string
	prevWord := ""   // the last word, within the clause
	lineBefore := "" // the last word, across brackets
	prevFit := false
	lens := false        // after a zoom's focal range, within the clause
	modelNumber := false // the last word was a model-line number
	for i, c := range cs {
		if c.brk && !modelYear(c.text) || c.fit != prevFit {
			// A model's year in brackets still follows its name:
			// "Galaxy A5 (2017)" is the "Galaxy A5 2017".
			prevWord = ""
		}
		if c.brk || c.fit != prevFit {
			lens = false
		}
		prevFit = c.fit
		if a := apertureAt(cs, i); a != "" {
			p.addSlot("#f", a, c.fit)
			if l := apertureLetters(c.text); l != "" {
				p.addSlot("#flens", l, c.fit) // "f/1.8G" and "f1.8D": two lenses
			}
			prevWord = ""
			continue
		}
		if short, long, ok := focalEnds(cs, i); ok {
			// "70-300mm": both ends ("75-300mm" is another lens).
			p.addSlot("#mm", short, c.fit)
			p.addSlot("#mm", long, c.fit)
			lens = true
		}
		if g := p.romanValue(c.text); g != "" && lens && i > 0 {
			// "18-55mm IS II" and "18-55mm DC III": a lens's generation
			// after letters that differ.
			p.addSlot("#lensgen", g, c.fit)
		}
		if g := p.romanGeneration(cs, i); g != "" {
			p.addSlot("#gen", g, c.fit) // "Z6 II", "Xperia 10 VI"
			if !c.fit && p.genAfter == "" && cameraName.MatchString(cs[i-1].text) {
				p.genAfter = cs[i-1].text
			} else if !c.fit && p.genAfter == "" && i > 1 && len(cs[i-2].text) == 1 && isLetterByte(cs[i-2].text[0]) &&
				len(cs[i-1].text) <= 3 && isNumber(cs[i-1].text) {
				p.genAfter = cs[i-2].text + cs[i-1].text // "Z 7 II"
			}
		}
		ws := splitWords(c.text, wb[:0])
		roman := romanPlaces(ws)
		ws = romanNumerals(ws)
		for k, w := range ws {
			named := false // w is a model-line number
			w = p.readVariant(cs, i, ws, k)
			if l, d, ok := letterDigits(w); ok && slotKey(l) {
				p.addSlot(l, d, c.fit)
			}
			numeral := roman&(1<<k) != 0
			if isNumber(w) && !numeral {
				// A Roman numeral is a generation, no measure's number:
				// "Mark III M.Zuiko" is no 3 metres.
				p.readMeasure(cs, i, ws, k, modelNumber)
			} else if gigabytes(w) && p.phone() {
				p.addSlot("#gb", w[:len(w)-1], c.fit) // "128g": a phone's storage written short
			} else if d, u, ok := digitsUnit(w); ok && !lostFraction(numberBefore(cs, i, ws, k), d, u, modelNumber) {
				// "24lb", "500gb", "5x"; not "1 86m", a decimal point
				// lost between two numbers.
				after := wordsAfter(cs, i, ws, k, 5)
				next := ""
				if len(after) > 0 {
					next = after[0]
					after = after[1:]
				}
				p.addSlot(memoryKey("#"+u, d, next, after), d, c.fit)
			}
			if g := networkGeneration(w); g != "" && !lineWord(prevWord) {
				// "4G" and "5G" models of one phone ("Redmi 12 4G", "Y400
				// Pro 5G"): a network, not a model line's number, unless a
				// line's name comes before it ("iPod touch 4G").
				p.addSlot("#net", g, c.fit)
			} else {
				w, named = p.readLineNumber(cs, i, ws, k, prevWord, numeral)
			}
			modelNumber = named
			if letterGeneration(w) && len(ws) == 1 && len(prevWord) >= 3 && slotKey(prevWord) && wordLike(prevWord) &&
				!strings.HasPrefix(p.brand, prevWord) {
				// "iPhone X", "iPhone XS": a generation in letters; after
				// the brand, also written short, a line's letter
				// ("Fujifilm X-S20", "Fuji X-T200").
				p.addSlot(prevWord, w, c.fit)
			}
			p.readWordMarks(c, ws, k, w)
			if k == 0 && p.plusApart(cs, i) {
				p.mainVar |= variantWords["plus"] // "Galaxy S9 + 64GB" is the "S9+"
			}
			if k == len(ws)-1 && c.plus {
				p.addVariant(variantWords["plus"], c.fit)
			}
			switch {
			case isNumber(w) || isStopWord(w):
				prevWord = ""
			case len(ws) == 1 && p.brandWritten(cs, i):
				prevWord = p.brand // "One Plus 6T" is the "OnePlus 6T"
			case w == "typ" && !c.fit:
				// "D-Lux (Typ 109)" is the "D-Lux 109": the type's
				// number is the line's.
				prevWord = lineBefore
			default:
				prevWord = w
			}
			if prevWord != "" {
				lineBefore = prevWord
			}
			// "2nd gen", "3rd generation".
			if (w == "gen" || w == "generation") && k == 0 && i > 0 {
				if d, ok := ordinal(cs[i-1].text); ok {
					p.addSlot("gen", d, c.fit)
				}
			}
		}
	}
}

// readVariant records the variant word w, word k of chunk i, names, also
// two run together ("iPhone 11 ProMax") or glued to a model's number
// ("Pixel 2XL" is the "Pixel 2 XL", "iPhone 8Plus" the "iPhone 8" Plus),
// and returns w without the glued variant.
func (p *profile) readVariant(cs []chunk, i int, ws []string, k int) string {
	w := ws[k]
	bit, ok := variantWords[w]
	if b := twoVariants(w); b != 0 {
		bit, ok = b, true
	}
	if stem, b := gluedVariant(w); b != 0 && len(ws) == 1 {
		w, bit, ok = stem, b, true
		ws[k] = stem
	}
	if ok && len(ws) == 1 && !notVariant(cs, i, w) && !p.brandWritten(cs, i) {
		p.addVariant(bit, cs[i].fit)
	}
	return w
}

// addVariant records a variant word of the main clause, or of the fit
// clause.
func (p *profile) addVariant(bit variants, fit bool) {
	if fit {
		p.fitVar |= bit
	} else {
		p.mainVar |= bit
	}
}

// readWordMarks records what word k of a chunk, w as read, names besides
// a model line: a lens's focus motor, a paper size, a platform, a watch
// band's size.
func (p *profile) readWordMarks(c chunk, ws []string, k int, w string) {
	if m := lensMotor(w); m != "" {
		p.addSlot("#motor", m, c.fit) // "IS USM" and "IS STM": two lenses of one range
	}
	if size := paperSize(w); size != "" {
		p.addSlot("#paper", size, c.fit) // "A4" and "A3" photo paper
	}
	if os := platform(w); os != "" {
		p.addSlot("#os", os, c.fit) // keyboards "for Mac" and "for Windows"
	}
	// Watch band sizes: "S/M", "M/L".
	if k == 0 && len(ws) == 2 && bandSize(ws[0]) && bandSize(ws[1]) && strings.Contains(c.text, "/") {
		p.addSlot("#band", ws[0]+ws[1], c.fit)
	}
}

// plusApart reports whether chunk i of a phone's title comes after a
// lone "+" that ends its model's name, as the storage it states does
// ("Galaxy S9 + 64GB"): the model's Plus, not what the phone comes with
// ("4GB RAM + 64GB", "S9 + Case").
func (p *profile) plusApart(cs []chunk, i int) bool {
	if p.category != phones || p.acc || i == 0 || !cs[i].added || cs[i].fit {
		return false
	}
	prev, prev2 := cs[i-1].text, ""
	if i > 1 {
		prev2 = cs[i-2].text
	}
	t := cs[i].text
	storage := strings.HasSuffix(t, "gb") || strings.HasSuffix(t, "tb") ||
		isNumber(t) && i+1 < len(cs) && (cs[i+1].text == "gb" || cs[i+1].text == "tb")
	return storage && afterModelName(prev, prev2, true)
}

// brandWritten reports whether chunk i is a piece of the brand the title
// writes in two words ("One Plus 6T" of OnePlus): no variant's word.
func (p *profile) brandWritten(cs []chunk, i int) bool {
	if p.brand == "" {
		return false
	}
	return i > 0 && runTogether(p.brand, cs[i-1].text, cs[i].text) ||
		i+1 < len(cs) && runTogether(p.brand, cs[i].text, cs[i+1].text)
}

// readLineNumber records the model-line number that word k of chunk i
// gives after the word prev ("Pro 5", "Galaxy S23", "Nokia 7.1"): a bare
// number, not a measure ("15 inch", "2 pack"), nor after a model's code,
// which names the model itself ("FAB10LB 50s style", "CVB20LR1 220 240 V"),
// nor a year after a variant's word, which is the model's year whichever
// spelling of the variant comes before it (see yearSlot). It returns the
// word, with a letter after it joined when they make one name ("Forerunner
// 255 S", "Mate 20 X", "RTX 4070 Ti"), and whether the word is a number it
// recorded. numeral says the word was a Roman numeral, which no unit can
// follow ("Mark III M.Zuiko").
func (p *profile) readLineNumber(cs []chunk, i int, ws []string, k int, prev string, numeral bool) (string, bool) {
	w, c := ws[k], cs[i]
	if modelYear(w) && (variantWords[prev] != 0 || classify.NamesKind(prev)) {
		// "P8 Lite 2017": the model's year; "LG OLED TV 2016": the
		// set's year after its kind, no model line's number.
		p.addSlot(yearSlot, w, c.fit)
		return w, false
	}
	if !(isNumber(w) && !strings.Contains(w, ".") || pointRelease(w) && prev == p.brand || modelSuffixed(w) || timesSuffixed(w, prev)) ||
		prev == "" || !slotKey(prev) || modelCode(prev) {
		return w, false
	}
	next := wordAfter(cs, i, ws, k)
	// "15s-fq5022na", "4-gang": the start of a code or a count.
	codePiece := k+1 < len(ws)
	if screenSize(p, w) {
		return w, false // "Samsung 43", "OLED 55": a television's size (see readMeasure)
	}
	if gigabytes(w) && p.phone() {
		return w, false // "Galaxy A12 64G": a phone's storage, no line's number
	}
	if networkGeneration(w) != "" && (specWord(prev) || classify.NamesKind(prev)) {
		return w, false // "12GB RAM 5G", "48MP Camera 5G": the network, no line's number
	}
	if unitWords[next] && !(numeral || next == "v" && p.romanFive() || next == "x" && p.phone()) || c.inch && k == len(ws)-1 ||
		len(w) > 4 || codePiece {
		return w, false
	}
	switch {
	case gpuWord(prev) && (next == "ti" || next == "super" || next == "xt" || next == "xtx"):
		w += next
	case isNumber(w) && k == len(ws)-1 && len(next) == 1 && (modelSuffixed(w+next) || timesSuffixed(w+next, prev)) && !c.inch:
		w += next
	}
	p.addSlot(prev, w, c.fit)
	return w, isNumber(w)
}

// wordAfter returns the word after word k of chunk i, in the chunk or
// starting the next chunk of the clause, or "".
func wordAfter(cs []chunk, i int, ws []string, k int) string {
	switch {
	case k+1 < len(ws):
		return ws[k+1]
	case i+1 < len(cs) && !cs[i+1].brk:
		return firstWord(cs[i+1].text)
	}
	return ""
}

// specWord reports whether a word names a phone's spec, after which a
// network's generation is the phone's network, no model's number.
func specWord(w string) bool {
	switch w {
	case "ram", "rom", "memory", "storage", "camera", "mp", "battery", "mah":
		return true
	}
	return false
}

// yearSlot is the slot of a model's year written after a variant's word
// ("P8 Lite 2017"): the year names the model whichever of the variant's
// spellings comes before it ("A6 Plus 2018", "A6+ 2018").
const yearSlot = "year"

// processorKey reports whether a title word can give a processor's or
// graphics' slot (see addSlot), alone or with its number glued on ("i7",
// "rtx4070"), or is the slot's own name ("CPU 2").
func processorKey(w string) bool {
	if l, _, ok := letterDigits(w); ok {
		w = l
	}
	switch w {
	case "i", "ryzen", "ultra", "cpu", "gpu":
		return true
	}
	return gpuWord(w)
}

func (p *profile) addSlot(key, num string, fit bool) {
	if isNumber(num) {
		if strings.HasPrefix(key, "#") {
			num = measureNumber(num)
		} else {
			num = number(num)
		}
	}
	// Processors and graphics compare across the words retailers use:
	// "i7", "Core i7"; "Ryzen 7"; "Core Ultra 7"; "RTX 4070", "GTX 1660".
	switch {
	case key == "i" && (num == "3" || num == "5" || num == "7" || num == "9"):
		key, num = "cpu", "i"+num
	case key == "ryzen":
		key, num = "cpu", "r"+num
	case key == "ultra" && (num == "5" || num == "7" || num == "9"):
		key, num = "cpu", "u"+num
	case gpuWord(key):
		key, num = "gpu", key+num
	case key == "mk":
		key = "mark" // "Mk III" is "Mark III"
	}
	if fit {
		key = "@" + key
	}
	s := slot{key: key, num: num}
	if !slices.Contains(p.slots, s) {
		p.slots = append(p.slots, s)
	}
}

// gpuWord reports whether a word names a graphics processor line.
func gpuWord(w string) bool {
	switch w {
	case "rtx", "gtx", "gt", "rx", "arc", "mx":
		return true
	}
	return false
}

// platform returns the computer platform a word names, "mac" or "windows",
// or "": software and peripherals are sold for one, or for both.
func platform(w string) string {
	switch w {
	case "mac", "macintosh", "macos", "osx":
		return "mac"
	case "windows", "win":
		return "windows"
	}
	return ""
}

// paperSize returns the paper size a word names ("A4", "letter", "legal"),
// or "": office products come in one size each.
func paperSize(w string) string {
	switch w {
	case "a3", "a4", "a5", "a6", "b4", "b5", "legal", "ledger", "tabloid", "foolscap":
		return w
	case "letter", "ltr":
		return "letter"
	case "lgl":
		return "legal"
	}
	return ""
}

// bandSize reports whether a word is a strap size ("s", "m", "l", "xl").
func bandSize(w string) bool {
	switch w {
	case "xxs", "xs", "s", "m", "l", "xl", "xxl":
		return true
	}
	return false
}

func lastWord(t string) string {
	var wb [8]string
	if ws := splitWords(t, wb[:0]); len(ws) > 0 {
		return ws[len(ws)-1]
	}
	return ""
}

func firstWord(t string) string {
	var wb [4]string
	if ws := splitWords(t, wb[:0]); len(ws) > 0 {
		return ws[0]
	}
	return ""
}

// ordinal reads "2nd", "3rd", "4th", "1st" as "2", "3", "4", "1".
func ordinal(t string) (string, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if d, ok := strings.CutSuffix(t, suf); ok && d != "" && isNumber(d) && !strings.Contains(d, ".") {
			return d, true
		}
	}
	return "", false
}
