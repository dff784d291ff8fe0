package normalize

import (
	"slices"
	"strings"
	"unicode"
)

// Brand returns the canonical spelling of a brand: known brands by alias
// ("SAMSUNG" is Samsung, "Hewlett Packard" and "HP Inc." are HP, "LG
// Electronics" is LG, "tp link" is TP-Link, "Western Digital" is WD), with
// case, spacing, punctuation and company suffixes (Inc, Ltd, Corporation,
// Electronics, ...) ignored when looking them up. An unknown brand is
// cleaned (entities decoded, white space collapsed) and its all-capital
// words of more than three letters are title-cased ("LOGIK" is Logik, "JVC"
// stays). Placeholders such as "N/A", "Unbranded" or "Generic" give "".
func Brand(s string) string {
	s = text(s)
	if isPlaceholder(s) {
		return ""
	}
	if c := canonicalBrand(brandKey(s, false)); c != "" {
		return c
	}
	if c := canonicalBrand(brandKey(s, true)); c != "" {
		return c
	}
	fields := strings.Fields(s)
	for i, f := range fields {
		fields[i] = titleCaseShouting(f)
	}
	return strings.Join(fields, " ")
}

// KnownBrand returns the canonical spelling of s when it names a known
// brand or one of its aliases ("NIKON", "hewlett packard"), or "".
func KnownBrand(s string) string {
	return canonicalBrand(brandKey(text(s), false))
}

// brandKey folds a brand for lookup: lower case, "&" as "and", letters and
// digits only; with stripSuffixes, trailing company words are dropped first.
func brandKey(s string, stripSuffixes bool) string {
	ws := strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(s, "&", " and ")), func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == '(' || r == ')'
	})
	for stripSuffixes && len(ws) > 1 {
		switch strings.Trim(ws[len(ws)-1], ".") {
		case "inc", "incorporated", "ltd", "limited", "llc", "plc", "corp", "corporation", "co", "company",
			"gmbh", "ag", "bv", "sa", "uk", "europe", "international", "electronics", "technology",
			"technologies", "computer", "computers", "group", "holdings":
			ws = ws[:len(ws)-1]
			continue
		}
		break
	}
	var b strings.Builder
	for _, w := range ws {
		for _, r := range w {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// titleCaseShouting title-cases a word written in capitals with more than
// three letters: "LOGIK" is "Logik", "SUPER-SOUND" is "Super-Sound".
func titleCaseShouting(w string) string {
	letters := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return w
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters <= 3 {
		return w
	}
	var b strings.Builder
	prevLetter := false
	for _, r := range w {
		if unicode.IsLetter(r) {
			if prevLetter {
				r = unicode.ToLower(r)
			}
			prevLetter = true
		} else {
			prevLetter = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// canonicalBrand maps a brand key to the brand's canonical spelling, or "".
func canonicalBrand(key string) string {
	i, ok := slices.BinarySearchFunc(brandTable[:], key, func(b brandName, key string) int {
		return strings.Compare(b.key, key)
	})
	if !ok {
		return ""
	}
	return brandTable[i].name
}

// brandName is one row of brandTable: a brand key (see brandKey) and the
// spelling the brand uses for itself.
type brandName struct{ key, name string }

// brandTable lists the known brands and their aliases, sorted by key for
// canonicalBrand's binary search. A brand with several aliases has one row
// for each ("hp" and "hewlettpackard" are both HP).
var brandTable = [...]brandName{
	{"8bitdo", "8BitDo"},
	{"acer", "Acer"},
	{"advancedmicrodevices", "AMD"},
	{"akai", "Akai"},
	{"akg", "AKG"},
	{"alba", "Alba"},
	{"alcatel", "Alcatel"},
	{"alienware", "Alienware"},
	{"amazfit", "Amazfit"},
	{"amazon", "Amazon"},
	{"amazonbasics", "Amazon Basics"},
	{"amazoncom", "Amazon"},
	{"amd", "AMD"},
	{"anker", "Anker"},
	{"ankerinnovations", "Anker"},
	{"ankersoundcore", "Soundcore"},
	{"aorus", "Gigabyte"},
	{"apple", "Apple"},
	{"arlo", "Arlo"},
	{"asrock", "ASRock"},
	{"asus", "ASUS"},
	{"asustek", "ASUS"},
	{"audiotechnica", "Audio-Technica"},
	{"avermedia", "AVerMedia"},
	{"bando", "Bang & Olufsen"},
	{"bandw", "Bowers & Wilkins"},
	{"bangandolufsen", "Bang & Olufsen"},
	{"baseus", "Baseus"},
	{"beats", "Beats"},
	{"beatsbydrdre", "Beats"},
	{"beatsbydre", "Beats"},
	{"belkin", "Belkin"},
	{"beyerdynamic", "beyerdynamic"},
	{"blackberry", "BlackBerry"},
	{"blaupunkt", "Blaupunkt"},
	{"blink", "Blink"},
	{"bose", "Bose"},
	{"bowersandwilkins", "Bowers & Wilkins"},
	{"brother", "Brother"},
	{"bt", "BT"},
	{"bush", "Bush"},
	{"cambridgeaudio", "Cambridge Audio"},
	{"canon", "Canon"},
	{"chuwi", "CHUWI"},
	{"corsair", "Corsair"},
	{"creative", "Creative"},
	{"creativelabs", "Creative"},
	{"crucial", "Crucial"},
	{"dell", "Dell"},
	{"dellalienware", "Alienware"},
	{"denon", "Denon"},
	{"devolo", "devolo"},
	{"dji", "DJI"},
	{"dlink", "D-Link"},
	{"doro", "Doro"},
	{"dynabook", "Dynabook"},
	{"edifier", "Edifier"},
	{"eero", "eero"},
	{"elgato", "Elgato"},
	{"epson", "Epson"},
	{"esr", "ESR"},
	{"eufy", "eufy"},
	{"evga", "EVGA"},
	{"fairphone", "Fairphone"},
	{"finlux", "Finlux"},
	{"fitbit", "Fitbit"},
	{"fuji", "Fujifilm"},
	{"fujifilm", "Fujifilm"},
	{"garmin", "Garmin"},
	{"gigabyte", "Gigabyte"},
	{"google", "Google"},
	{"googlenest", "Google"},
	{"googlepixel", "Google"},
	{"gopro", "GoPro"},
	{"grundig", "Grundig"},
	{"hasselblad", "Hasselblad"},
	{"hewlettpackard", "HP"},
	{"hewlettpackardenterprise", "HPE"},
	{"hisense", "Hisense"},
	{"hitachi", "Hitachi"},
	{"honor", "HONOR"},
	{"hori", "HORI"},
	{"hp", "HP"},
	{"hpe", "HPE"},
	{"htc", "HTC"},
	{"huawei", "Huawei"},
	{"huaweihonor", "HONOR"}, // sold as "Huawei Honor" before the brand stood alone
	{"hue", "Philips Hue"},
	{"hynix", "SK hynix"},
	{"hyperx", "HyperX"},
	{"insta360", "Insta360"},
	{"intel", "Intel"},
	{"jabra", "Jabra"},
	{"jbl", "JBL"},
	{"jvc", "JVC"},
	{"kef", "KEF"},
	{"kingston", "Kingston"},
	{"kodak", "Kodak"},
	{"kyocera", "Kyocera"},
	{"lacie", "LaCie"},
	{"leica", "Leica"},
	{"lenovo", "Lenovo"},
	{"lenovomoto", "Motorola"}, // Motorola's "Moto" phones, sold as Lenovo's
	{"lenovomotorola", "Motorola"},
	{"lexar", "Lexar"},
	{"lexmark", "Lexmark"},
	{"lg", "LG"},
	{"linksys", "Linksys"},
	{"linsar", "Linsar"},
	{"loewe", "Loewe"},
	{"logi", "Logitech"},
	{"logik", "Logik"},
	{"logitech", "Logitech"},
	{"logitechg", "Logitech"},
	{"luxor", "Luxor"},
	{"marantz", "Marantz"},
	{"marshall", "Marshall"},
	{"medion", "Medion"},
	{"meizu", "Meizu"},
	{"mercusys", "Mercusys"},
	{"meta", "Meta"},
	{"metz", "Metz"},
	{"mi", "Xiaomi"},
	{"microsoft", "Microsoft"},
	{"microsoftxbox", "Xbox"},
	{"microstar", "MSI"},
	{"mophie", "mophie"},
	{"moto", "Motorola"}, // Motorola's phones' name ("Moto G7")
	{"motorola", "Motorola"},
	{"motorolamobility", "Motorola"},
	{"msi", "MSI"},
	{"nacon", "Nacon"},
	{"nativeunion", "Native Union"},
	{"netgear", "NETGEAR"},
	{"nikon", "Nikon"},
	{"nintendo", "Nintendo"},
	{"nokia", "Nokia"},
	{"nothing", "Nothing"},
	{"nvidia", "NVIDIA"},
	{"oculus", "Meta"},
	{"olympus", "Olympus"},
	{"omsystem", "OM System"},
	{"oneplus", "OnePlus"},
	{"oppo", "OPPO"},
	{"otterbox", "OtterBox"},
	{"panasonic", "Panasonic"},
	{"pdp", "PDP"},
	{"pentax", "Pentax"},
	{"philips", "Philips"},
	{"philipshue", "Philips Hue"},
	{"playstation", "PlayStation"},
	{"pny", "PNY"},
	{"polar", "Polar"},
	{"polaroid", "Polaroid"},
	{"powera", "PowerA"},
	{"qnap", "QNAP"},
	{"razer", "Razer"},
	{"realme", "realme"},
	{"ricoh", "Ricoh"},
	{"ricohpentax", "Pentax"}, // sold as "Ricoh Pentax" since Ricoh took the brand on
	{"ring", "Ring"},
	{"roccat", "ROCCAT"},
	{"roku", "Roku"},
	{"samsung", "Samsung"},
	{"sandisk", "SanDisk"},
	{"satechi", "Satechi"},
	{"seagate", "Seagate"},
	{"seikoepson", "Epson"},
	{"sennheiser", "Sennheiser"},
	{"sharp", "Sharp"},
	{"shure", "Shure"},
	{"sigma", "Sigma"},
	{"skhynix", "SK hynix"},
	{"skullcandy", "Skullcandy"},
	{"sonos", "Sonos"},
	{"sony", "Sony"},
	{"sonyinteractive", "Sony"},
	{"sonyinteractiveentertainment", "Sony"},
	{"soundcore", "Soundcore"},
	{"spigen", "Spigen"},
	{"steelseries", "SteelSeries"},
	{"suunto", "Suunto"},
	{"synology", "Synology"},
	{"tamron", "Tamron"},
	{"tcl", "TCL"},
	{"techwood", "Techwood"},
	{"tenda", "Tenda"},
	{"thomson", "Thomson"},
	{"thrustmaster", "Thrustmaster"},
	{"toshiba", "Toshiba"},
	{"tplink", "TP-Link"},
	{"transcend", "Transcend"},
	{"turtlebeach", "Turtle Beach"},
	{"ubiquiti", "Ubiquiti"},
	{"ugreen", "Ugreen"},
	{"ultimateears", "Ultimate Ears"},
	{"valve", "Valve"},
	{"vivo", "vivo"},
	{"wd", "WD"},
	{"wdblack", "WD"},
	{"westerndigital", "WD"},
	{"wiko", "Wiko"},
	{"withings", "Withings"},
	{"xbox", "Xbox"},
	{"xerox", "Xerox"},
	{"xiaomi", "Xiaomi"},
	{"yamaha", "Yamaha"},
	{"zagg", "ZAGG"},
	{"zotac", "ZOTAC"},
	{"zte", "ZTE"},
	{"zyxel", "Zyxel"},
}
