package extract

import (
	"productsearch/internal/catalog"
	"productsearch/internal/lexer"
)

// scan finds every figure in the title.
func (a *analysis) scan() {
	for i := 0; i < len(a.toks); {
		t := a.toks[i]
		if a.flags[i]&flCut != 0 {
			return
		}
		switch t.Kind {
		case lexer.Number:
			i = a.number(i)
		case lexer.Word:
			i = a.wordAt(i)
		default:
			i++
		}
	}
}

// number reads the figure that starts with the number at i and returns the
// index to continue from.
func (a *analysis) number(i int) int {
	t := a.toks[i]
	if a.modelCode(i) {
		return i + 1
	}
	if a.isSym(i-1, '$') || a.isSym(i-1, '#') || a.isSym(i-1, '.') && a.tight(i) {
		return i + 1 // a price, a model number, "M.2", "pf21 .5"
	}
	if a.text[t.Start:t.End] == "802.11" && a.tight(i+1) {
		return a.wifiStandard(i)
	}
	j := i + 1
	// "2x16GB", "2 x 50W", "3840 x 2160"; not "Slim 7x 14.5"" (a model).
	if (a.word(j) == "x" || a.isSym(j, '*')) && a.isNum(j+1) && !(a.tight(j) && a.toks[j+1].Gap) {
		if k, ok := a.product(i); ok {
			return k
		}
	}
	switch u := a.word(j); {
	case u == "k" && a.tight(j):
		a.kResolution(i, t)
		return j + 1
	case (u == "p" || u == "i") && a.tight(j) && !t.Dec:
		a.pResolution(i, t.Num, u == "i")
		return j + 1
	case u == "g" && a.tight(j) && a.shortStorage(t.Num, t.Dec):
		// "128g" on a phone or tablet: its storage written short.
		return a.capacity(i, j, t.Num, false, false)
	}
	if k, ok := a.bareConfig(i); ok {
		return k
	}
	q, next, ok := lexer.ReadQuantity(a.text, a.toks, i)
	if !ok {
		return j
	}
	switch q.Unit {
	case lexer.GB, lexer.TB:
		return a.capacity(i, next-1, q.Value, q.Unit == lexer.TB, false)
	case lexer.Hz:
		a.addMention(mkRefresh, q.Value, i)
		return next
	case lexer.W:
		a.power(i, next-1)
		return next
	case lexer.Inch:
		return a.screen(i, next)
	}
	return j
}

// bareConfig reads the "8/128" a phone's or tablet's title gives as its
// RAM and storage without a unit ("Mi 10T Pro 8/128"): a RAM size of up to
// the category's most, then a storage's size at least four times it, with
// no unit after. It returns the index to continue from.
func (a *analysis) bareConfig(i int) (int, bool) {
	t := a.toks[i]
	if !a.rules.eitherOrder || a.ctx.Accessory || t.Dec || t.Num < 1 || t.Num > a.rules.ramMax ||
		!a.isSym(i+1, '/') || !a.tight(i+1) || !a.isNum(i+2) || !a.tight(i+2) || a.toks[i+2].Dec ||
		a.tight(i+3) || a.isCapUnit(i+3) || a.isSym(i+3, '/') || a.ncaps+2 > maxCaps {
		return 0, false
	}
	m := a.toks[i+2].Num
	if !catalog.StorageSize(m) || m < 4*t.Num || a.flags[i]&flNeg != 0 {
		return 0, false
	}
	a.caps[a.ncaps] = capFig{val: t.Num, tok0: i, tok1: i, label: lbMem}
	a.caps[a.ncaps+1] = capFig{val: m, tok0: i + 2, tok1: i + 2, label: lbSto}
	a.ncaps += 2
	return i + 3, true
}

// shortStorage reports whether a number with a "g" glued on is a phone's or
// tablet's storage written short: a storage's size of 16GB to 512GB ("128g",
// not "5g", a network, nor "200g", a weight).
func (a *analysis) shortStorage(n float64, dec bool) bool {
	if c := catalog.Category(a.ctx.Category); dec || a.ctx.Accessory || c != catalog.Phones && c != catalog.Tablets {
		return false
	}
	return catalog.StorageSize(n) && n < 1024
}

// screen records a size in inches whose number is at i and unit ends before
// next, unless it is one side of a dimension ("36 inches x 150 ft").
func (a *analysis) screen(i, next int) int {
	if (a.word(next) == "x" || a.isSym(next, '*')) && a.isNum(next+1) ||
		(a.word(i-1) == "x" || a.isSym(i-1, '*')) && a.isNum(i-2) && !a.modelCode(i-2) &&
			!(a.tight(i-1) && a.toks[i].Gap) { // "Slim 7x 14.5"" names a model
		return next
	}
	a.addMention(mkScreen, a.toks[i].Num, i)
	return next
}

// product reads "N x M": a kit of modules ("2x16GB" = 32GB), a multiplied
// wattage ("2 x 50W", ambiguous) or a pixel resolution ("3840 x 2160").
func (a *analysis) product(i int) (int, bool) {
	n, m := a.toks[i], a.toks[i+2]
	u := i + 3
	switch w := a.word(u); {
	case w == "gb" || w == "tb":
		if n.Dec || n.Num < 1 || n.Num > 16 {
			return 0, false
		}
		return a.capacity(i, u, n.Num*m.Num, w == "tb", true), true
	case w == "w" || w == "watt" || w == "watts":
		a.drop |= aPow
		return u + 1, true
	case w == "mm" || w == "cm" || w == "m" || w == "in" || w == "inch" || w == "inches" || w == "dpi" || w == "ft" || a.isSym(u, '"'):
		return u + 1, true // dimensions, print resolution
	}
	if n.Dec || m.Dec || a.word(i-1) == "vesa" || a.word(u) == "x" {
		return 0, false
	}
	lo, hi := min(n.Num, m.Num), max(n.Num, m.Num)
	if lo < 240 || hi < 640 || hi > 3.6*lo || hi > 16000 {
		return 0, false
	}
	if !a.cameraPhrase(u) {
		a.addMention(mkRes, lo, i)
	}
	if w := a.word(u); w == "px" || w == "pixels" || w == "pixel" {
		u++
	}
	return u, true
}

// capacity reads a GB/TB figure whose number starts at i and whose unit is
// the token unit, and returns the index after it.
func (a *analysis) capacity(i, unit int, v float64, tb, kit bool) int {
	end := unit + 1
	// "40GB/s", "6.0 Gb-s" and "6 gb s" are speeds, "10Gb Ethernet" a link.
	if (a.isSym(end, '/') || a.isSym(end, '-')) && a.tight(end) && (a.word(end+1) == "s" || a.word(end+1) == "sec") {
		return end + 2
	}
	switch a.word(end) {
	case "ethernet", "lan", "nic", "sfp", "port", "ports", "networking", "network":
		return end
	}
	if a.ncaps > 0 && a.addedCard(i, end) {
		return end // "128GB + 64GB SD card": the card's, not the phone's
	}
	if tb {
		v *= 1000
	}
	// "16GB x 2".
	if !kit && a.word(end) == "x" && a.isNum(end+1) && !a.toks[end+1].Dec && a.toks[end+1].Num <= 16 && !a.isCapUnit(end+2) {
		v *= a.toks[end+1].Num
		kit = true
		end += 2
	}
	if a.ncaps == maxCaps || a.flags[i]&flNeg != 0 {
		return end
	}
	label, at := a.labelBefore(i)
	if label == lbNone {
		label, at = a.labelAfter(end)
	}
	if label != lbNone && at > i {
		end = at + 1
		for end < len(a.toks) && a.tight(end) && a.toks[end].Kind != lexer.Symbol {
			end++ // "DDR5", "LPDDR5X"
		}
	}
	if at >= 0 {
		a.flags[at] |= flLabelUsed
	}
	if label == lbMem && at > i && a.gpuMemory(i, at) {
		label = lbVRAM // "Radeon HD 6670 1GB DDR5", "1GB DDR3 graphics card"
	}
	if label == lbMem && a.word(at) == "memory" && a.rules.eitherOrder && !tb && v > a.rules.ramMax {
		// "iPhone 11 128GB Memory": more than any phone's or tablet's RAM,
		// the word names its storage.
		label = lbSto
	}
	if label == lbNone && !tb && v <= 48 && a.flags[i]&flGPU != 0 {
		// "RTX 4060 8GB": the first figure after a graphics processor is
		// its memory; the figures after it are the computer's own.
		label = lbVRAM
		for k := i; k < len(a.toks) && a.flags[k]&flGPU != 0; k++ {
			a.flags[k] &^= flGPU
		}
	}
	if tb && label == lbMem {
		label = lbIgnored
	}
	a.caps[a.ncaps] = capFig{val: v, tok0: i, tok1: end, label: label, tb: tb, kit: kit}
	a.ncaps++
	// "8/256GB", "8+256GB", "8-16GB": the bare number before is a figure
	// in the same unit.
	if bv, ok := a.bareBefore(i); ok && !kit && a.ncaps < maxCaps {
		if tb {
			bv *= 1000
		}
		a.caps[a.ncaps-1], a.caps[a.ncaps] = capFig{val: bv, tok0: i - 2, tok1: i - 1, tb: tb}, a.caps[a.ncaps-1]
		a.ncaps++
	}
	return end
}

// addedCard reports whether the figure at i, its unit ending before end,
// is a memory card's sold with the device ("+ 64GB SD card", "with 32GB
// microSD card"): after a figure of the device's own, not its storage. A
// device with no figure of its own (a dash cam "with 32GB SD card") keeps
// the card's.
func (a *analysis) addedCard(i, end int) bool {
	if !a.isSym(i-1, '+') && !a.isSym(i-1, '&') {
		switch a.word(i - 1) {
		case "with", "inc", "incl", "including", "free":
		default:
			return false
		}
	}
	switch a.word(end) {
	case "sd", "microsd", "sdhc", "sdxc", "microsdhc", "microsdxc", "tf", "card", "memory":
		return true
	case "micro":
		return a.word(end+1) == "sd" || a.word(end+1) == "sdhc" || a.word(end+1) == "sdxc"
	}
	return false
}

// gpuMemory reports whether the DDR label at token at, read for the figure
// at i, names a graphics card's memory: the figure follows a graphics
// processor name, or "graphics"/"video" follows the label.
func (a *analysis) gpuMemory(i, at int) bool {
	if w := a.word(at); w != "ddr" && w != "lpddr" {
		return false
	}
	if a.flags[i]&flGPU != 0 {
		return true
	}
	for k := at + 1; k < at+4; k++ {
		switch a.word(k) {
		case "graphics", "video", "vga", "gpu":
			return true
		}
	}
	return false
}

// labelBefore finds a label written before a figure ("RAM 16GB", "Storage:
// 512GB") that no earlier figure has taken.
func (a *analysis) labelBefore(i int) (capLabel, int) {
	k := i - 1
	if a.isSym(k, ':') || a.isSym(k, '-') {
		k--
	}
	if k < 0 || a.flags[k]&flLabelUsed != 0 {
		return lbNone, -1
	}
	switch a.word(k) {
	case "ram":
		return lbMem, k
	case "memory":
		// "Memory 16GB" is rare and "EP Memory 16GB USB drive" a brand.
		if a.word(k-1) == "internal" {
			return lbSto, k
		}
	case "ssd", "hdd", "storage", "rom", "emmc", "nvme":
		return lbSto, k
	}
	return lbNone, -1
}

// labelAfter finds the label that follows a figure ("16GB RAM", "512GB PCIe
// NVMe SSD", "16GB 3200MHz DDR4") and returns it with its token index.
func (a *analysis) labelAfter(k int) (capLabel, int) {
	for n := 0; k < len(a.toks) && n < 5; k, n = k+1, n+1 {
		t := a.toks[k]
		if a.flags[k]&flCut != 0 {
			break
		}
		switch t.Kind {
		case lexer.Symbol:
			switch t.Sym {
			case '(', ')', '-', ':', '.':
				continue
			}
			return lbNone, -1
		case lexer.Number:
			if a.isCapUnit(k + 1) {
				return lbNone, -1
			}
			continue
		}
		switch a.word(k) {
		case "so":
			// "SO DIMM", "SO-DIMM"; not a colour's "So Pink".
			if a.word(k+1) != "dimm" && (!a.isSym(k+1, '-') || a.word(k+2) != "dimm") {
				return lbNone, -1
			}
			return lbMem, k
		case "ram", "ddr", "lpddr", "dimm", "sodimm", "udimm":
			if a.word(k+1) == "cache" || a.word(k+2) == "cache" || a.word(k+1) == "buffer" {
				return lbIgnored, k
			}
			return lbMem, k
		case "memory":
			switch a.word(k + 1) {
			case "card", "cards", "stick":
				return lbSto, k
			case "cache":
				return lbIgnored, k
			}
			return lbMem, k
		case "ssd", "hdd", "nvme", "emmc", "storage", "rom", "inbuilt", "internal", "flash", "hard",
			"solid", "m", "ufs", "sd", "microsd", "microsdxc", "microsdhc", "sdxc", "sdhc", "card",
			"cfexpress", "sshd", "disk", "drive", "stick", "pen", "nas":
			return lbSto, k
		case "gddr", "graphics", "vram", "video", "dedicated", "gpu":
			return lbVRAM, k
		case "virtual", "extended", "turbo", "cache", "additional":
			return lbIgnored, k
		case "pcie", "pci", "express", "e", "sata", "gen", "iii", "of", "fast", "high", "speed", "onboard",
			"soldered", "usb", "unified", "mhz", "cl", "kit", "total", "lp", "nvm":
			continue
		}
		return lbNone, -1
	}
	return lbNone, -1
}

// kResolution reads "4K", "8K", "5K".
func (a *analysis) kResolution(i int, t lexer.Token) {
	next := i + 2
	if a.isSym(next, '-') {
		next++
	}
	switch a.word(next) {
	case "passthrough", "pass", "compatible", "support", "supported", "input", "output", "ready", "capable",
		"playback", "decoding":
		return
	}
	if a.upscaling(i + 2) {
		return
	}
	switch a.word(i - 1) {
	case "dual", "triple", "quad", "multiple", "two", "three":
		return // display outputs: "Dual 4K Display"
	}
	var v float64
	switch {
	case t.Num == 4 && !t.Dec:
		v = 2160
	case t.Num == 8 && !t.Dec:
		v = 4320
	case t.Num == 5 && !t.Dec:
		v = 2880
	case t.Num == 2 && !t.Dec:
		return // "2K" means 1080 to some and 1440 to others
	case t.Num == 2.8:
		v = 1800 // 2880 x 1800
	case t.Num == 4.5:
		v = 2520 // 4480 x 2520
	case t.Num < 13:
		a.drop |= aRes // "5.3K", "2.7K", "6K": a resolution we do not map
		return
	default:
		return // "24K gold", "40K"
	}
	if !a.cameraPhrase(i + 2) {
		a.addMention(mkRes, v, i)
	}
}

// pResolution reads "1080p", "2160p", "1080i".
func (a *analysis) pResolution(i int, v float64, interlaced bool) {
	switch v {
	case 480, 576, 720, 1080, 1440, 2160, 4320:
	default:
		return
	}
	if interlaced && v != 1080 {
		return
	}
	if a.upscaling(i + 2) {
		return
	}
	if !a.cameraPhrase(i + 2) {
		a.addMention(mkRes, v, i)
	}
}

// upscaling reports whether the words at k say a resolution is reached by
// scaling ("4K upscaling", "1080p up-conversion").
func (a *analysis) upscaling(k int) bool {
	if a.isSym(k, '-') {
		k++
	}
	switch a.word(k) {
	case "upscaling", "upscale", "upscaled", "upscaler", "upscales", "upconversion", "upconvert",
		"upconverting", "upconverts":
		return true
	case "up":
		k++
		if a.isSym(k, '-') {
			k++
		}
		switch a.word(k) {
		case "conversion", "converting", "convert", "scaling", "scale":
			return true
		}
	}
	return false
}

// cameraPhrase reports whether the resolution ending before token k belongs to
// a built-in camera ("FHD webcam", "4K video recording") rather than a screen;
// in Cameras and Drones the camera is the product.
func (a *analysis) cameraPhrase(k int) bool {
	switch a.ctx.Category {
	case "Cameras", "Drones":
		return false
	}
	for n := 0; n < 3; n++ {
		switch a.word(k + n) {
		case "webcam", "camera", "cam", "video", "recording", "selfie", "front", "rear":
			return true
		case "":
			if !a.isNum(k+n) && !a.isSym(k+n, '/') && !a.isSym(k+n, '@') {
				return false
			}
		}
	}
	return false
}

// power reads "65W", "100 watts"; a multiplied wattage is ambiguous.
func (a *analysis) power(i, unit int) {
	if a.word(i-1) == "x" && a.isNum(i-2) && !a.modelCode(i-2) || a.word(unit+1) == "x" && a.isNum(unit+2) ||
		a.isSym(unit+1, '*') {
		a.drop |= aPow
		return
	}
	if a.word(unit+1) == "per" || a.isSym(unit+1, '/') && (a.word(unit+2) == "channel" || a.word(unit+2) == "ch") {
		a.drop |= aPow // "100 watts per channel", "130 W/channel"
		return
	}
	a.addMention(mkPower, a.toks[i].Num, i)
}

// wordAt reads a figure that starts with the word at i.
func (a *analysis) wordAt(i int) int {
	w := a.word(i)
	switch w {
	case "wifi", "wlan":
		return a.wifiGen(i, i+1)
	case "wi":
		switch {
		case a.isSym(i+1, '-') && a.word(i+2) == "fi":
			return a.wifiGen(i, i+3)
		case a.word(i+1) == "fi":
			return a.wifiGen(i, i+2)
		}
	case "ax", "axe", "be", "ac":
		return a.routerClass(i, w)
	case "uhd":
		a.namedResolution(i, i+1, mkResWeak, 2160)
	case "ultra":
		if a.word(i+1) == "hd" {
			a.namedResolution(i, i+2, mkResWeak, 2160)
			return i + 2
		}
	case "fhd", "fullhd":
		if a.isSym(i+1, '+') && a.tight(i+1) {
			a.namedResolution(i, i+2, mkRes, a.fhdPlus())
			return i + 2
		}
		a.namedResolution(i, i+1, mkRes, 1080)
	case "full":
		if a.word(i+1) == "hd" {
			if a.isSym(i+2, '+') && a.tight(i+2) {
				a.namedResolution(i, i+3, mkRes, a.fhdPlus())
				return i + 3
			}
			a.namedResolution(i, i+2, mkRes, 1080)
			return i + 2
		}
	case "qhd", "wqhd", "uwqhd", "dqhd":
		if !(a.isSym(i+1, '+') && a.tight(i+1)) {
			a.namedResolution(i, i+1, mkRes, 1440)
		}
	case "quad":
		if a.word(i+1) == "hd" && !(a.isSym(i+2, '+') && a.tight(i+2)) {
			a.namedResolution(i, i+2, mkRes, 1440)
			return i + 2
		}
	case "hd":
		if a.word(i+1) == "ready" {
			a.namedResolution(i, i+2, mkRes, 720)
			return i + 2
		}
	case "wuxga":
		a.namedResolution(i, i+1, mkRes, 1200)
	case "wqxga":
		a.namedResolution(i, i+1, mkRes, 1600)
	}
	return i + 1
}

// fhdPlus is the height "FHD+" names: 1920 x 1200 on a computer, tablet or
// monitor; a phone's taller screen keeps 1080 pixels across (1080 x 2400).
func (a *analysis) fhdPlus() float64 {
	if catalog.Category(a.ctx.Category) == catalog.Phones {
		return 1080
	}
	return 1200
}

// namedResolution records a resolution named by words ending before next.
func (a *analysis) namedResolution(i, next int, kind mentionKind, v float64) {
	if a.cameraPhrase(next) {
		return
	}
	if a.upscaling(next) {
		return
	}
	a.addMention(kind, v, i)
}

// wifiGen reads the generation after "Wi-Fi": "Wi-Fi 6", "WiFi 6E",
// "WiFi6", "Wi-Fi 7".
func (a *analysis) wifiGen(i, k int) int {
	if a.isSym(k, '-') && a.tight(k) {
		k++
	}
	if !a.isNum(k) {
		return k
	}
	t := a.toks[k]
	if t.Dec || t.Num < 4 || t.Num > 7 {
		return k
	}
	gen := t.Num
	next := k + 1
	switch w := a.word(next); {
	case w == "e" && a.tight(next):
		if gen != 6 {
			return next + 1
		}
		gen = 6.5
		next++
	case w != "" && a.tight(next):
		return next + 1 // "WiFi 5G"
	case w == "inch" || w == "inches" || w == "in" || w == "gb" || w == "tb" || w == "ghz" || w == "hz" ||
		w == "g" || w == "mp" || w == "mm" || w == "cm" || w == "w" || a.isSym(next, '"'):
		return next // "WiFi 7 inch tablet", "Wi-Fi 5 GHz"
	}
	switch a.word(next) {
	case "compatible", "ready", "support", "supported", "clients", "devices":
		return next // "Wi-Fi 6E compatible clients"
	}
	a.addMention(mkWifi, gen, i)
	return next
}

// wifiStandard reads "802.11ax", "802.11ac", "802.11be" and lists such as
// "802.11a/b/g/n/ac"; the highest generation named is the device's.
func (a *analysis) wifiStandard(i int) int {
	gen := 0.0
	k := i + 1
list:
	for ; k < len(a.toks) && a.tight(k); k++ {
		switch a.word(k) {
		case "be":
			gen = max(gen, 7)
		case "ax":
			gen = max(gen, 6)
		case "ac":
			gen = max(gen, 5)
		case "n":
			gen = max(gen, 4)
		case "a", "b", "g":
		default:
			if !a.isSym(k, '/') || a.word(k+1) == "" {
				break list
			}
		}
	}
	if gen > 0 {
		a.addMention(mkWifi, gen, i)
	}
	return k
}

// routerClass reads Wi-Fi speed classes: "AC1200", "AX3000", "AXE5400",
// "BE9300". Model names with small numbers ("Archer AX55") are not classes.
func (a *analysis) routerClass(i int, w string) int {
	k := i + 1
	if !a.isNum(k) || !a.tight(k) || a.toks[k].Dec {
		return k
	}
	v := a.toks[k].Num
	var gen, least float64
	switch w {
	case "ac":
		gen, least = 5, 580
	case "ax":
		gen, least = 6, 1500
	case "axe":
		gen, least = 6.5, 3000
	case "be":
		gen, least = 7, 3000
	}
	if v >= least && v <= 40000 {
		a.addMention(mkWifiClass, gen, i)
	}
	return k + 1
}
