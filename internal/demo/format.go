package demo

import (
	"regexp"
	"strconv"
	"strings"
)

// titleCtx supplies the placeholder values of one retailer's listing of one
// product. attrs holds the spec values the title states, which are the true
// ones except for a deliberately wrong one.
type titleCtx struct {
	p     *product
	st    *style
	brand string
	attrs [numAttrs]float64
	tag   string
	fitGB string
}

func (c *titleCtx) value(name, mod string) (string, [numAttrs]float64) {
	p := c.p
	var none [numAttrs]float64
	lit := func(i int) [numAttrs]float64 {
		if p.specs[i] == nil {
			return none
		}
		return *p.specs[i]
	}
	switch name {
	case "brand":
		return c.brand, none
	case "BRAND":
		return strings.ToUpper(c.brand), none
	case "name":
		return p.name(), lit(litName)
	case "line":
		return p.lineName, lit(litLine)
	case "model":
		return p.vals[axModel], lit(litModel)
	case "noun":
		if mod == "nb" {
			return strings.Replace(p.noun, "Laptop", "Notebook", 1), lit(litNoun)
		}
		return p.noun, lit(litNoun)
	case "short":
		return p.short, lit(litShort)
	case "colour":
		return p.vals[axColour], none
	case "col":
		if mod == "de" {
			return germanColour(p.col), none
		}
		return p.col, none
	case "cpu":
		switch mod {
		case "family":
			return p.cpuFam, none
		case "short":
			return p.cpuShort, none
		}
		return p.vals[axCPU], none
	case "gpu":
		if mod == "short" {
			return gpuShort(p.vals[axGPU]), none
		}
		return p.vals[axGPU], none
	case "conn":
		return p.vals[axConn], none
	case "variant":
		return p.vals[axVariant], lit(litVariant)
	case "size":
		return p.vals[axSize], none
	case "fit":
		return p.vals[axFit], none
	case "mpn":
		return p.mpn, none
	case "tag":
		return c.tag, none
	case "fitgb":
		return c.fitGB, none
	}
	attr := attrByPlaceholder(name)
	if attr < 0 {
		return "", none
	}
	v := c.attrs[attr]
	if v == 0 {
		return "", none
	}
	none[attr] = v
	return c.st.format(attr, v, mod), none
}

// trimOverlap drops the leading words of noun that repeat the trailing
// words of name, so "Arc Mouse" with "Mouse" reads "Arc Mouse" and
// "MOMENTUM 4 Wireless" with "Wireless Headphones" reads "... Wireless
// Headphones".
func trimOverlap(name, noun string) string {
	if name == "" || noun == "" {
		return noun
	}
	nw, uw := strings.Fields(name), strings.Fields(noun)
	for k := min(len(nw), len(uw)); k > 0; k-- {
		match := true
		for i := range k {
			if !strings.EqualFold(nw[len(nw)-k+i], uw[i]) {
				match = false
				break
			}
		}
		if match {
			return strings.Join(uw[k:], " ")
		}
	}
	return noun
}

// attrByPlaceholder maps a spec placeholder to its attribute index, or -1.
func attrByPlaceholder(name string) int {
	switch name {
	case "ram":
		return atMemory
	case "storage":
		return atStorage
	case "screen":
		return atScreen
	case "res":
		return atRes
	case "hz":
		return atHz
	case "watt":
		return atPower
	case "wifi":
		return atWifi
	}
	return -1
}

// format writes a spec value the way the retailer does. Modifiers override
// the retailer's habit: {screen:in} 15.6in, {screen:inch} 15.6 inch,
// {screen:q} 15.6", {screen:hy} 15.6-inch, {res:p} 2160p, {ram:sp} 16 GB.
func (st *style) format(attr int, v float64, mod string) string {
	n := num(v)
	switch attr {
	case atMemory, atStorage:
		gb, tb := st.GB, st.TB
		if mod == "sp" {
			gb, tb = " GB", " TB"
		}
		if attr == atStorage && v >= 1000 {
			return num(v/1000) + tb
		}
		return n + gb
	case atScreen:
		switch mod {
		case "in":
			return n + "in"
		case "inch":
			return n + " inch"
		case "q":
			return n + `"`
		case "hy":
			return n + "-inch"
		}
		return n + st.Inch
	case atRes:
		if mod == "p" {
			return n + "p"
		}
		if s, ok := st.Res[int(v)]; ok {
			return s
		}
		return n + "p"
	case atHz:
		return n + st.Hz
	case atPower:
		return n + st.Watt
	case atWifi:
		key := n
		if v == 6.5 {
			key = "6E"
		}
		if s, ok := st.Wifi[key]; ok {
			return s
		}
		return "Wi-Fi " + key
	}
	return n
}

// num writes a number without trailing zeros: 16, 15.6.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// cpuName writes a processor name in full, as its family ("Intel Core i5")
// or short ("i5").
func cpuName(v, mod string) string {
	if v == "" || mod == "" {
		return v
	}
	f := strings.Fields(v)
	var family, short string
	switch {
	case len(f) >= 4 && f[0] == "Intel" && f[1] == "Core" && f[2] == "Ultra":
		family, short = strings.Join(f[:4], " "), "Ultra "+f[3]
	case len(f) >= 3 && f[0] == "Intel" && f[1] == "Core" && strings.HasPrefix(f[2], "i"):
		gen, _, _ := strings.Cut(f[2], "-")
		family, short = "Intel Core "+gen, gen
	case len(f) >= 3 && f[0] == "Intel" && f[1] == "Core":
		family, short = strings.Join(f[:3], " "), "Core "+f[2]
	case len(f) >= 5 && f[0] == "AMD" && f[1] == "Ryzen" && f[2] == "AI":
		family, short = strings.Join(f[:4], " "), strings.Join(f[1:4], " ")
	case len(f) >= 3 && f[0] == "AMD" && f[1] == "Ryzen":
		family, short = strings.Join(f[:3], " "), "Ryzen "+f[2]
	case len(f) >= 3 && f[0] == "Intel" && (f[1] == "Celeron" || f[1] == "Pentium"):
		family, short = "Intel "+f[1], f[1]
	case f[0] == "Apple":
		family, short = v, strings.Join(f[1:], " ")
	case f[0] == "Qualcomm" || f[0] == "MediaTek":
		family, short = v, strings.Join(f[1:], " ")
	default:
		family, short = v, v
	}
	if mod == "short" {
		return short
	}
	return family
}

// gpuShort drops the maker and brand from a graphics card name:
// "NVIDIA GeForce RTX 4070" is "RTX 4070".
func gpuShort(v string) string {
	for _, p := range []string{"NVIDIA GeForce ", "AMD Radeon ", "Intel "} {
		if s, ok := strings.CutPrefix(v, p); ok {
			return s
		}
	}
	return v
}

// basicColours are the colour words a terse title keeps.
var basicColours = [...]string{
	"black", "white", "grey", "gray", "silver", "blue", "green", "red", "pink",
	"purple", "yellow", "gold", "orange", "beige", "brown", "navy", "teal",
	"graphite", "cream", "lavender", "violet", "clear", "mint", "coral",
}

// germanColours are the German words of basic colours, as shops that list
// imports write them ("Schwarz", "Weiss").
var germanColours = map[string]string{
	"black": "Schwarz", "white": "Weiss", "grey": "Grau", "gray": "Grau", "silver": "Silber", "blue": "Blau",
	"green": "Grün", "red": "Rot", "yellow": "Gelb", "brown": "Braun",
}

// germanColour returns the German word of a basic colour word, or the word
// itself when it has none here.
func germanColour(c string) string {
	if de, ok := germanColours[strings.ToLower(c)]; ok {
		return de
	}
	return c
}

// simpleColour reduces a marketing colour name to its basic colour word:
// "Cloud Grey" is Grey, "Natural Titanium" Natural.
func simpleColour(c string) string {
	f := strings.Fields(c)
	for _, w := range f {
		lw := strings.ToLower(w)
		for _, b := range basicColours {
			if lw == b {
				return w
			}
		}
	}
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// neighbours are the values a deliberately wrong title states instead of
// the true one: the nearest other common value.
var neighbours = [numAttrs][]float64{
	atMemory:  {4, 8, 16, 32, 64, 128},
	atStorage: {32, 64, 128, 256, 512, 1000, 2000, 4000, 8000},
	atScreen:  {6.1, 6.7, 10.9, 11, 13, 13.3, 13.6, 14, 15.6, 16, 17.3, 24, 27, 32, 43, 50, 55, 65, 75},
	atRes:     {720, 1080, 1440, 2160},
	atHz:      {50, 60, 75, 100, 120, 144, 165, 180, 240},
	atPower:   {5, 10, 15, 20, 25, 30, 35, 45, 60, 65, 100, 140},
	atWifi:    {5, 6, 6.5, 7},
}

// wrongValue picks a plausible wrong value next to v: the next common value
// up or down.
func wrongValue(attr int, v float64, up bool) float64 {
	list := neighbours[attr]
	below, above := 0.0, 0.0
	for _, n := range list {
		if n < v {
			below = n
		}
		if n > v && above == 0 {
			above = n
		}
	}
	switch {
	case up && above > 0, below == 0 && above > 0:
		return above
	case below > 0:
		return below
	}
	return v * 2
}

// Specs written into names: "Fire TV Stick 4K", "240W USB-C Charge Cable",
// "Magic 2 WiFi 6", "Wi-Fi + Ethernet 128GB". A title that shows the name
// states them, so they count as the product's specs and as what its titles
// state.
var (
	namePower   = regexp.MustCompile(`\b(\d+(?:\.\d+)?)W\b`)
	nameHz      = regexp.MustCompile(`\b(\d{2,3})Hz\b`)
	nameWifi    = regexp.MustCompile(`(?i)\bWi-?Fi ?(6E|6|7|5)\b`)
	nameStorage = regexp.MustCompile(`\b(\d+(?:\.\d+)?) ?(GB|TB)\b`)
	nameScreen  = regexp.MustCompile(`\b(\d+(?:\.\d+)?)(?:-inch| inch|")`)
	nameRes     = [...]struct {
		re *regexp.Regexp
		v  float64
	}{
		{regexp.MustCompile(`\b8K\b`), 4320},
		{regexp.MustCompile(`\b5K\b`), 2880},
		{regexp.MustCompile(`\b4K\b`), 2160},
		{regexp.MustCompile(`\b(QHD|1440p)\b`), 1440},
		{regexp.MustCompile(`\b(Full HD|FHD|1080p)\b`), 1080},
		{regexp.MustCompile(`\b(HD Ready|720p)\b`), 720},
	}
)

// specsIn finds the specs a name states literally.
func specsIn(s string) [numAttrs]float64 {
	var out [numAttrs]float64
	if !strings.ContainsAny(s, "0123456789") && !strings.Contains(s, "HD") {
		return out // every spec needs a digit or "HD"
	}
	num := func(re *regexp.Regexp) float64 {
		m := re.FindStringSubmatch(s)
		if m == nil {
			return 0
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	out[atPower] = num(namePower)
	out[atHz] = num(nameHz)
	out[atScreen] = num(nameScreen)
	if m := nameWifi.FindStringSubmatch(s); m != nil {
		if v, err := attrValue(atWifi, strings.ToUpper(m[1])); err == nil {
			out[atWifi] = v
		}
	}
	if m := nameStorage.FindStringSubmatch(s); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		if m[2] == "TB" {
			v *= 1000
		}
		out[atStorage] = v
	}
	for _, r := range nameRes {
		if r.re.MatchString(s) {
			out[atRes] = r.v
			break
		}
	}
	return out
}
