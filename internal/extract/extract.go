// Package extract reads the seven catalog attributes (RAM, storage, screen
// size, resolution, refresh rate, power and Wi-Fi generation) from retailer
// titles.
//
// Precision comes first: agents trust these values, so a figure is reported
// only when the title says what it is. Anything uncertain is left out, since
// an absent attribute means "unknown" and a wrong one misleads.
//
// Units follow the interface: memory_gb and storage_gb in GB with 1TB = 1000;
// screen_in in inches; resolution_p in pixels high (4K/UHD/2160p = 2160,
// QHD/WQHD/1440p = 1440, Full HD/FHD/1080p = 1080, HD Ready/720p = 720,
// 8K = 4320, "3840 x 2160" = the smaller side); refresh_hz in Hz; power_w in
// W; wifi_gen 4 to 7 with Wi-Fi 6E = 6.5 ("802.11ax" = 6, "802.11ac" = 5,
// "802.11be" = 7, router classes "AC1200" = 5, "AX3000" = 6, "AXE5400" = 6.5,
// "BE9300" = 7).
//
// How figures are read:
//
//   - A number counts only with its unit and only when it is not part of a
//     model code ("RTX 4070", "Galaxy S24", "i7-13700H", "QE55Q60D"), a
//     version ("USB 3.2", "Bluetooth 5.3", "HDMI 2.1"), a price, or another
//     measure (mAh, MP, mm, m, ft, V, MB/s, ppm, sheets, years).
//   - A figure is ignored after "up to", "supports", "max", "expandable",
//     "upgradable" and the like, and everything after "compatible with",
//     "fits", "suitable for" or "for use with" describes another device. For
//     an accessory (Context.Accessory) everything after "for" does too.
//   - RAM and storage follow the title's own labels: "16GB RAM", "16 GB
//     DDR5", "8GB LPDDR5X", "16GB unified memory" are memory; "512GB SSD",
//     "1TB HDD", "512GB NVMe", "M.2", "eMMC", "128GB ROM", "storage",
//     "inbuilt", "memory card" are storage. "8GB GDDR6", "8GB graphics" and
//     a figure right after a graphics processor ("RTX 4060 8GB") are video
//     memory and never memory_gb ("10-core GPU 16GB" is a chip's graphics
//     and the figure the computer's own); "virtual"/"extended" RAM is
//     ignored.
//   - An unlabelled pair "8GB/256GB", "(8GB + 256GB)", "8+256GB" or "8GB
//     256GB" is RAM/storage in laptops, desktops, tablets, phones and gaming
//     handhelds when the first is a plausible RAM size and the second at
//     least four times larger; "8GB RAM + 128GB" makes the second storage.
//     A phone's or tablet's pair without a unit ("Mi 10T Pro 8/128") is its
//     RAM and storage when the second is a storage's size. A phone's or
//     tablet's figure labelled "memory" above any RAM of its category
//     ("128GB Memory") is its storage.
//   - A lone unlabelled figure is storage where it cannot be RAM: any TB
//     figure, any figure in Storage, Audio and Wearables, from 16GB in
//     tablets ("Kindle Paperwhite 16GB"), from 32GB in phones and Gaming,
//     from 256GB in laptops and desktops.
//     Smaller lone figures there are left out (interface specification §4.1 GET /api/search rule 4: "16GB" could
//     be either). In Storage, accessories and uncategorised listings whose
//     title names DDR memory or DIMMs, a lone figure is the module's RAM
//     ("Kingston FURY 32GB 3200MHz DDR4"); kits ("32GB
//     (2x16GB)") count once, and multi-packs of cards or drives ("2 x
//     128GB") state no storage.
//   - "FHD+" and "WUXGA" are 1200, "2.8K" 1800 (2880 x 1800) and "4.5K"
//     2520 (4480 x 2520). Resolution names that fix no one height ("2K",
//     "QHD+" for 2560 x 1600 or 3200 x 1800, "HD", "HD+", "3K") are not read, a title naming one we do not map ("2.7K", "5.3K")
//     has no resolution, and the resolution of a built-in camera ("FHD
//     webcam", "4K video recording"), of display outputs ("dual 4K") or of
//     upscaling ("4K upscaling", "1080p up-conversion") is not the screen's.
//   - Two drives ("1TB HDD + 256GB SSD") state two storage values; their sum
//     is not a spec anyone shops by, so storage is left out.
//   - A title that states two different values for one attribute ("13.3 and
//     15.6 inch", "8GB-16GB", "60/144Hz", "65W (45W + 20W)", "2 x 50W") has
//     that attribute left out.
//   - "Wi-Fi 5" outranks a router class ("AX5700") that names another
//     generation: the class is only read when the title names none.
//   - A power supply's wattage is its power: an uncategorised listing whose
//     title names a "power supply" or "PSU" reads its watts ("Corsair
//     RM850x 850W ATX Power Supply"), as an accessory does.
//   - On a phone or tablet, two unlabelled GB figures in either order are
//     RAM (the smaller, at most 24GB) and storage (at least four times
//     larger): "64GB 4GB" and "6GB 128GB".
//   - A GB or TB unit glued to its label reads as if written apart:
//     "16GBRAM", "128GBROM", "1TBSSD".
//   - Each category reads only what its products have: screens, resolution and
//     refresh for TVs and monitors, power for speakers, audio and chargers,
//     the rated resolution of video cables and adapters ("USB-C to HDMI
//     4K"), Wi-Fi for networking, and so on (see rulesFor); a screen size outside
//     the category's plausible range is ignored. An accessory keeps only its
//     own capacity, wattage and Wi-Fi. Without a category, only labelled
//     RAM and storage, TB figures, resolution, refresh rate and Wi-Fi are
//     read.
//
// Title works on one title at a time without regular expressions: it folds
// the title to lower-case ASCII, splits it into words, numbers and symbols,
// and matches short token patterns.
package extract

import "productsearch/internal/lexer"

// Context is what the classifier decided about the listing.
type Context struct {
	Category  string // one of the 19 categories, or "" when unknown
	Accessory bool   // the listing is an accessory of a device in Category
}

// Values maps attribute names (catalog.MemoryGB, ...) to the value the title
// states. Title returns nil when the title states none.
type Values map[string]float64

// Title reads the attributes a retailer title states for a listing of the
// given category and type.
func Title(title string, ctx Context) Values {
	var fb [256]byte
	text := string(lexer.FoldText(title, fb[:0], lexer.FoldCurrency|lexer.FoldTimes))
	var tb [96]lexer.Token
	var flags [96]uint8
	toks := lexer.Lex(text, tb[:0])
	fl := flags[:0]
	if len(toks) > len(flags) {
		fl = make([]uint8, len(toks))
	}
	a := analysis{text: text, toks: toks, flags: fl[:len(toks)], rules: rulesFor(ctx), ctx: ctx}
	a.markContext()
	a.scan()
	return a.resolve()
}

// mentionKind is the kind of a figure found in a title.
type mentionKind uint8

const (
	mkScreen mentionKind = iota + 1
	mkRes
	mkResWeak // "UHD", "Ultra HD": 2160 unless a stronger figure says otherwise
	mkRefresh
	mkPower
	mkWifi
	mkWifiClass // a router class ("AX3000"): the generation unless the title names one
)

// capLabel says what a GB/TB figure is labelled as.
type capLabel uint8

const (
	lbNone    capLabel = iota
	lbMem              // RAM
	lbSto              // storage
	lbVRAM             // graphics memory
	lbIgnored          // virtual RAM, cache
)

// capFig is one GB or TB figure.
type capFig struct {
	val        float64 // GB
	tok0, tok1 int     // token span, trailing label included
	label      capLabel
	tb         bool
	kit        bool // "2x16GB": val is the total
}

// mention is one figure of another attribute.
type mention struct {
	kind mentionKind
	val  float64
}

const (
	maxCaps     = 16
	maxMentions = 32
)

// analysis holds the state of reading one title.
type analysis struct {
	text  string
	toks  []lexer.Token
	flags []uint8 // the context flags (flNeg, ...) of each token
	ctx   Context
	rules rules

	caps     [maxCaps]capFig
	ncaps    int
	ments    [maxMentions]mention
	nments   int
	drop     attrSet // attributes the title states ambiguously
	ramTitle bool    // the title names DDR memory or DIMMs
	psuTitle bool    // the title names a power supply ("PSU", "power supply")
}

func (a *analysis) word(i int) string {
	if i < 0 || i >= len(a.toks) || a.toks[i].Kind != lexer.Word {
		return ""
	}
	t := a.toks[i]
	return a.text[t.Start:t.End]
}

func (a *analysis) isSym(i int, c byte) bool {
	return i >= 0 && i < len(a.toks) && a.toks[i].Kind == lexer.Symbol && a.toks[i].Sym == c
}

func (a *analysis) isNum(i int) bool {
	return i >= 0 && i < len(a.toks) && a.toks[i].Kind == lexer.Number
}

// tight reports whether token i exists and touches the token before it.
func (a *analysis) tight(i int) bool {
	return i >= 0 && i < len(a.toks) && !a.toks[i].Gap
}

// modelCode reports whether the number at i is part of a model code or a
// name: glued to letters before it ("S24", "RTX4070", "QE55") or after a
// hyphen glued to a word ("i7-13700H", "WH-1000XM5").
func (a *analysis) modelCode(i int) bool {
	if a.toks[i].Gap || i == 0 {
		return false
	}
	p := a.toks[i-1]
	if p.Kind == lexer.Word {
		return true
	}
	if p.Kind != lexer.Symbol || p.Sym != '-' || p.Gap || i < 2 {
		return false
	}
	switch w := a.word(i - 2); w {
	case "", "gb", "tb", "w", "hz", "k", "p", "inch", "in", "mm", "x":
		return false // "8GB-16GB", "45W-65W"
	}
	return true
}

// isCapUnit reports whether token i is a GB or TB unit.
func (a *analysis) isCapUnit(i int) bool {
	w := a.word(i)
	return w == "gb" || w == "tb"
}

// addMention records a figure unless it is negated.
func (a *analysis) addMention(kind mentionKind, val float64, tok0 int) {
	if a.flags[tok0]&flNeg != 0 || a.nments == maxMentions {
		return
	}
	a.ments[a.nments] = mention{kind: kind, val: val}
	a.nments++
	// "13.3/15.6 inch", "60-144Hz", "45/65W": the bare number before is a
	// second value of the same attribute.
	if v, ok := a.bareBefore(tok0); ok && a.nments < maxMentions {
		a.ments[a.nments] = mention{kind: kind, val: v}
		a.nments++
	}
}

// versioned names whose number is not a figure even before "/" or "+".
func versionWord(w string) bool {
	switch w {
	case "bluetooth", "bt", "usb", "hdmi", "fi", "wifi", "gen", "generation", "android", "ios",
		"windows", "win", "iphone", "ipad", "pixel", "galaxy", "series", "version", "v", "displayport", "dp",
		"thunderbolt", "pcie", "sata", "ddr", "lpddr", "gddr", "ps", "xbox", "rtx", "gtx", "rx", "core", "ryzen":
		return true
	}
	return false
}

// bareBefore returns the bare number joined to the figure starting at token i
// by "/", "+", "-", "~" (written tight, as in "8/256GB") or by "to", "or",
// "and" (as in "13 and 15.6 inch").
func (a *analysis) bareBefore(i int) (float64, bool) {
	s, n := i-1, i-2
	if n < 0 || a.toks[n].Kind != lexer.Number || a.modelCode(n) {
		return 0, false
	}
	st := a.toks[s]
	prevWord := a.word(n - 1)
	glued := n > 0 && !a.toks[n].Gap && a.toks[n-1].Kind == lexer.Symbol &&
		(a.toks[n-1].Sym == '$' || a.toks[n-1].Sym == '#' || a.toks[n-1].Sym == '.') // "$8", "#8"
	switch {
	case st.Kind == lexer.Symbol && (st.Sym == '/' || st.Sym == '+' || st.Sym == '-' || st.Sym == '~') && !st.Gap && !a.toks[i].Gap:
	case st.Kind == lexer.Word && st.Gap && a.toks[i].Gap:
		if w := a.text[st.Start:st.End]; w != "to" && w != "or" && w != "and" {
			return 0, false
		}
	default:
		return 0, false
	}
	if versionWord(prevWord) || glued {
		return 0, false // "Bluetooth 5.3 and 16GB", "iPhone 15-128GB"
	}
	return a.toks[n].Num, true
}

// markContext flags negated tokens, tokens after a graphics processor name
// and tokens that describe another device.
func (a *analysis) markContext() {
	cut := len(a.toks)
	for i := range a.toks {
		if a.toks[i].Kind != lexer.Word {
			continue
		}
		switch w := a.word(i); w {
		case "for":
			if a.ctx.Accessory {
				cut = min(cut, i)
			}
			if a.word(i+1) == "use" && a.word(i+2) == "with" {
				cut = min(cut, i)
			}
		case "compatible", "compatibility":
			if w := a.word(i + 1); w == "with" || w == "for" || a.isSym(i+1, ':') {
				cut = min(cut, i)
			}
		case "fits":
			cut = min(cut, i)
		case "fit":
			if a.word(i-1) == "to" || a.word(i+1) == "for" || a.word(i+1) == "with" {
				cut = min(cut, i)
			}
		case "suitable", "designed", "replacement", "made":
			if a.word(i+1) == "for" {
				cut = min(cut, i)
			}
		case "works":
			if a.word(i+1) == "with" {
				cut = min(cut, i)
			}
		case "up":
			if a.word(i+1) == "to" {
				a.flagAfter(i+1, flNeg, 5)
			}
		case "max", "maximum":
			// "Max 1TB", "(max 64GB)", but not "iPhone 15 Pro Max 256GB" or
			// "M4 Max 36GB".
			if i == 0 || a.toks[i-1].Kind == lexer.Symbol || a.word(i-1) == "supports" || a.word(i-1) == "to" {
				a.flagAfter(i, flNeg, 4)
			}
		case "upto", "supports", "support", "supporting", "supported", "expandable", "expand",
			"expandability", "upgradable", "upgradeable", "upgrade", "extendable",
			"accepts", "accept", "handles", "capable", "compatable", "optional":
			a.flagAfter(i, flNeg, 5)
		case "rtx", "gtx", "rx", "radeon", "geforce", "quadro", "arc", "gpu", "graphics", "nvidia":
			// "10-core GPU" is a chip's graphics, with no memory of its own.
			if a.word(i-1) == "core" && (w == "gpu" || w == "graphics") {
				break
			}
			a.flagAfter(i, flGPU, 7)
		case "ddr", "lpddr", "dimm", "sodimm", "udimm":
			a.ramTitle = true
		case "cooler":
			if a.ctx.Accessory {
				a.flagCooler(i)
			}
		case "psu":
			a.psuTitle = true
		case "power":
			a.psuTitle = a.psuTitle || a.word(i+1) == "supply"
		}
	}
	for i := cut; i < len(a.toks); i++ {
		a.flags[i] |= flCut
	}
}

// maxCoolerWords is the most words a cooler's name runs to before "cooler"
// ("with Wraith Spire 95W cooler").
const maxCoolerWords = 4

// flagCooler marks the figures of a cooler that comes with an accessory (a
// processor "with Wraith Spire 95W cooler") as another device's: the
// cooler's rating is not the processor's power. The words up to four before
// the cooler word are its name, back to a clause break, "with" or "and".
func (a *analysis) flagCooler(i int) {
	for k := i - 1; k >= 0 && k >= i-1-maxCoolerWords; k-- {
		if t := a.toks[k]; t.Kind == lexer.Symbol && t.Sym != '-' || a.word(k) == "with" || a.word(k) == "and" {
			return
		}
		a.flags[k] |= flCut
	}
}

// flagAfter sets flag on up to n tokens after i, stopping at a clause break.
func (a *analysis) flagAfter(i int, flag uint8, n int) {
	for k := i + 1; k < len(a.toks) && k <= i+n; k++ {
		t := a.toks[k]
		if t.Kind == lexer.Symbol {
			switch t.Sym {
			case ',', '|', ';':
				return
			case '(', ')':
				if flag == flNeg && k > i+1 {
					return
				}
			}
		}
		a.flags[k] |= flag
	}
}
