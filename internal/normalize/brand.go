package normalize

import (
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
	switch key {
	// Computing
	case "apple":
		return "Apple"
	case "samsung":
		return "Samsung"
	case "hp", "hewlettpackard":
		return "HP"
	case "hpe", "hewlettpackardenterprise":
		return "HPE"
	case "dell":
		return "Dell"
	case "alienware":
		return "Alienware"
	case "lenovo":
		return "Lenovo"
	case "asus", "asustek":
		return "ASUS"
	case "acer":
		return "Acer"
	case "msi", "microstar":
		return "MSI"
	case "microsoft":
		return "Microsoft"
	case "xbox":
		return "Xbox"
	case "google", "googlenest", "googlepixel":
		return "Google"
	case "razer":
		return "Razer"
	case "medion":
		return "Medion"
	case "dynabook":
		return "Dynabook"
	case "toshiba":
		return "Toshiba"
	case "huawei":
		return "Huawei"
	case "honor":
		return "HONOR"
	case "chuwi":
		return "CHUWI"
	// Phones
	case "oneplus":
		return "OnePlus"
	case "xiaomi", "mi":
		return "Xiaomi"
	case "motorola", "motorolamobility":
		return "Motorola"
	case "nothing":
		return "Nothing"
	case "oppo":
		return "OPPO"
	case "realme":
		return "realme"
	case "vivo":
		return "vivo"
	case "nokia":
		return "Nokia"
	case "doro":
		return "Doro"
	case "alcatel":
		return "Alcatel"
	case "fairphone":
		return "Fairphone"
	// Components and storage
	case "wd", "westerndigital", "wdblack":
		return "WD"
	case "seagate":
		return "Seagate"
	case "sandisk":
		return "SanDisk"
	case "crucial":
		return "Crucial"
	case "kingston":
		return "Kingston"
	case "lexar":
		return "Lexar"
	case "transcend":
		return "Transcend"
	case "pny":
		return "PNY"
	case "skhynix", "hynix":
		return "SK hynix"
	case "lacie":
		return "LaCie"
	case "synology":
		return "Synology"
	case "qnap":
		return "QNAP"
	case "nvidia":
		return "NVIDIA"
	case "amd", "advancedmicrodevices":
		return "AMD"
	case "intel":
		return "Intel"
	case "gigabyte", "aorus":
		return "Gigabyte"
	case "asrock":
		return "ASRock"
	case "zotac":
		return "ZOTAC"
	case "evga":
		return "EVGA"
	// Gaming peripherals
	case "logitech", "logitechg", "logi":
		return "Logitech"
	case "corsair":
		return "Corsair"
	case "steelseries":
		return "SteelSeries"
	case "hyperx":
		return "HyperX"
	case "roccat":
		return "ROCCAT"
	case "turtlebeach":
		return "Turtle Beach"
	case "elgato":
		return "Elgato"
	case "avermedia":
		return "AVerMedia"
	case "nintendo":
		return "Nintendo"
	case "sony", "sonyinteractiveentertainment", "sonyinteractive":
		return "Sony"
	case "playstation":
		return "PlayStation"
	case "valve":
		return "Valve"
	case "meta", "oculus":
		return "Meta"
	case "8bitdo":
		return "8BitDo"
	case "powera":
		return "PowerA"
	case "pdp":
		return "PDP"
	case "nacon":
		return "Nacon"
	case "thrustmaster":
		return "Thrustmaster"
	case "hori":
		return "HORI"
	// Networking
	case "tplink":
		return "TP-Link"
	case "netgear":
		return "NETGEAR"
	case "linksys":
		return "Linksys"
	case "dlink":
		return "D-Link"
	case "ubiquiti":
		return "Ubiquiti"
	case "zyxel":
		return "Zyxel"
	case "devolo":
		return "devolo"
	case "eero":
		return "eero"
	case "tenda":
		return "Tenda"
	case "mercusys":
		return "Mercusys"
	case "bt":
		return "BT"
	// Printers and cameras
	case "canon":
		return "Canon"
	case "nikon":
		return "Nikon"
	case "epson", "seikoepson":
		return "Epson"
	case "brother":
		return "Brother"
	case "kyocera":
		return "Kyocera"
	case "xerox":
		return "Xerox"
	case "lexmark":
		return "Lexmark"
	case "fujifilm", "fuji":
		return "Fujifilm"
	case "gopro":
		return "GoPro"
	case "dji":
		return "DJI"
	case "insta360":
		return "Insta360"
	case "olympus":
		return "Olympus"
	case "omsystem":
		return "OM System"
	case "panasonic":
		return "Panasonic"
	case "leica":
		return "Leica"
	case "ricoh":
		return "Ricoh"
	case "polaroid":
		return "Polaroid"
	// TVs and home
	case "lg":
		return "LG"
	case "hisense":
		return "Hisense"
	case "tcl":
		return "TCL"
	case "philips":
		return "Philips"
	case "philipshue", "hue":
		return "Philips Hue"
	case "sharp":
		return "Sharp"
	case "hitachi":
		return "Hitachi"
	case "bush":
		return "Bush"
	case "grundig":
		return "Grundig"
	case "roku":
		return "Roku"
	case "amazon", "amazoncom":
		return "Amazon"
	case "amazonbasics":
		return "Amazon Basics"
	case "ring":
		return "Ring"
	case "blink":
		return "Blink"
	case "arlo":
		return "Arlo"
	case "eufy":
		return "eufy"
	// Audio
	case "bose":
		return "Bose"
	case "jbl":
		return "JBL"
	case "sennheiser":
		return "Sennheiser"
	case "sonos":
		return "Sonos"
	case "beats", "beatsbydre", "beatsbydrdre":
		return "Beats"
	case "marshall":
		return "Marshall"
	case "jabra":
		return "Jabra"
	case "shure":
		return "Shure"
	case "skullcandy":
		return "Skullcandy"
	case "akg":
		return "AKG"
	case "audiotechnica":
		return "Audio-Technica"
	case "beyerdynamic":
		return "beyerdynamic"
	case "bangandolufsen", "bando":
		return "Bang & Olufsen"
	case "bowersandwilkins", "bandw":
		return "Bowers & Wilkins"
	case "yamaha":
		return "Yamaha"
	case "denon":
		return "Denon"
	case "marantz":
		return "Marantz"
	case "kef":
		return "KEF"
	case "edifier":
		return "Edifier"
	case "creative", "creativelabs":
		return "Creative"
	case "ultimateears":
		return "Ultimate Ears"
	case "cambridgeaudio":
		return "Cambridge Audio"
	case "soundcore", "ankersoundcore":
		return "Soundcore"
	// Wearables
	case "garmin":
		return "Garmin"
	case "fitbit":
		return "Fitbit"
	case "polar":
		return "Polar"
	case "suunto":
		return "Suunto"
	case "amazfit":
		return "Amazfit"
	case "withings":
		return "Withings"
	// Power, cables and cases
	case "anker", "ankerinnovations":
		return "Anker"
	case "belkin":
		return "Belkin"
	case "ugreen":
		return "Ugreen"
	case "baseus":
		return "Baseus"
	case "mophie":
		return "mophie"
	case "spigen":
		return "Spigen"
	case "otterbox":
		return "OtterBox"
	case "esr":
		return "ESR"
	case "satechi":
		return "Satechi"
	case "nativeunion":
		return "Native Union"
	case "zagg":
		return "ZAGG"
	}
	return ""
}
