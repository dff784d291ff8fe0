package classify

import (
	"strings"

	"productsearch/internal/catalog"
)

// cueKind is what a phrase says about a listing.
type cueKind uint8

const (
	kDevice    cueKind = iota + 1 // names a kind of device: "laptop", "iPhone", "soundbar"
	kAccessory                    // names an accessory: "case", "strap", "wall bracket"
	kPower                        // names a cable, charger or power bank
	kComponent                    // names a computer part: "graphics card", "DDR5"
	kGeneric                      // "accessories": an accessory of the device named beside it
	kOutside                      // names something outside the 19 categories
	kNeutral                      // names nothing, but keeps its words from other cues
)

// cue is what a phrase says.
type cue struct {
	kind cueKind
	// cat is the device's category; for an accessory or component, the
	// category it belongs to when the text names no device.
	cat string
	// weak cues are words device titles also use for features ("512GB SSD",
	// "50MP camera", "backlit keyboard"); they name the product only when
	// no strong cue does.
	weak bool
	// charging marks chargers that stand or dock a device ("charging
	// station"): for a games controller they are gaming accessories.
	charging bool
	// guess marks an accessory whose cat is only the usual device ("sleeve":
	// laptops, "bracket": TVs); a path segment naming only such an
	// accessory ("Cases & Sleeves") does not decide the category.
	guess bool
	// holds marks an accessory that holds or protects the device it fits:
	// a case, cover, screen protector, strap, stand, mount or bag. It is
	// an accessory even in Gaming and Cameras, whose other gear is sold
	// as products.
	holds bool
}

// Category names, as the catalog spells them.
const (
	catLaptops   = string(catalog.Laptops)
	catDesktops  = string(catalog.Desktops)
	catTablets   = string(catalog.Tablets)
	catPhones    = string(catalog.Phones)
	catTVs       = string(catalog.TVs)
	catMonitors  = string(catalog.Monitors)
	catHeadphone = string(catalog.Headphones)
	catSpeakers  = string(catalog.Speakers)
	catCameras   = string(catalog.Cameras)
	catKeyboards = string(catalog.Keyboards)
	catMice      = string(catalog.Mice)
	catPrinters  = string(catalog.Printers)
	catNetwork   = string(catalog.Networking)
	catStorage   = string(catalog.Storage)
	catGaming    = string(catalog.Gaming)
	catWearables = string(catalog.Wearables)
	catDrones    = string(catalog.Drones)
	catAudio     = string(catalog.Audio)
	catCables    = string(catalog.CablesChargers)
)

func dev(cat string) cue      { return cue{kind: kDevice, cat: cat} }
func weakDev(cat string) cue  { return cue{kind: kDevice, cat: cat, weak: true} }
func acc(cat string) cue      { return cue{kind: kAccessory, cat: cat} }
func weakAcc(cat string) cue  { return cue{kind: kAccessory, cat: cat, weak: true} }
func guessAcc(cat string) cue { return cue{kind: kAccessory, cat: cat, guess: true} }
func comp(cat string) cue     { return cue{kind: kComponent, cat: cat} }
func hold(cat string) cue     { return cue{kind: kAccessory, cat: cat, holds: true} }
func guessHold(cat string) cue {
	return cue{kind: kAccessory, cat: cat, guess: true, holds: true}
}

var (
	power     = cue{kind: kPower, cat: catCables}
	weakPower = cue{kind: kPower, cat: catCables, weak: true}
	charging  = cue{kind: kPower, cat: catCables, charging: true}
	charger   = charging
	generic   = cue{kind: kGeneric}
	outside   = cue{kind: kOutside}
	broad     = cue{kind: kOutside, weak: true} // a broad word: outside unless something names a device
	neutral   = cue{kind: kNeutral}
)

// phrase is one entry of the cue table. Words are matched exactly, or with a
// trailing "s"/"es" (plurals); a word ending in "#" matches that prefix
// followed by a digit ("s#" matches "s24", "#" any word starting with a
// digit).
type phrase struct {
	text string
	cue  cue
}

// cueTable lists the phrases that name kinds of products. Longer phrases win
// over the words they contain ("fire tv stick" over "tv", "mouse pad" over
// "mouse", "baby monitor" over "monitor").
var cueTable = []phrase{
	// Laptops
	{"laptop", dev(catLaptops)}, {"notebook", weakDev(catLaptops)}, {"gaming notebook", dev(catLaptops)}, {"chromebook", dev(catLaptops)},
	{"macbook", dev(catLaptops)}, {"ultrabook", dev(catLaptops)}, {"thinkpad", dev(catLaptops)},
	{"ideapad", dev(catLaptops)}, {"zenbook", dev(catLaptops)}, {"vivobook", dev(catLaptops)},
	{"galaxy book", dev(catLaptops)}, {"galaxy book#", dev(catLaptops)}, {"surface laptop", dev(catLaptops)},
	{"surface book", dev(catLaptops)},
	{"laptop pc", dev(catLaptops)}, {"notebook pc", dev(catLaptops)}, {"notebook computer", dev(catLaptops)},
	{"laptop computer", dev(catLaptops)},
	{"laptop memory", comp(catLaptops)}, {"laptop ram", comp(catLaptops)}, {"sodimm", comp(catLaptops)},
	{"so dimm", comp(catLaptops)}, {"docking station", acc(catLaptops)}, {"laptop power supply", power},
	{"laptop battery", acc(catLaptops)},

	// Desktops
	{"desktop", weakDev(catDesktops)}, {"desktop pc", dev(catDesktops)}, {"desktop computer", dev(catDesktops)},
	{"gaming pc", dev(catDesktops)}, {"pc", weakDev(catDesktops)}, {"computer", weakDev(catDesktops)},
	{"tower pc", dev(catDesktops)}, {"mini pc", dev(catDesktops)}, {"all in one pc", dev(catDesktops)},
	{"all in one computer", dev(catDesktops)}, {"all in one desktop", dev(catDesktops)}, {"aio pc", dev(catDesktops)},
	{"imac", dev(catDesktops)}, {"mac mini", dev(catDesktops)}, {"mac studio", dev(catDesktops)},
	{"mac pro", dev(catDesktops)}, {"nuc", dev(catDesktops)},
	{"graphics card", comp(catDesktops)}, {"video card", comp(catDesktops)}, {"gpu", cue{kind: kComponent, cat: catDesktops, weak: true}},
	{"motherboard", comp(catDesktops)}, {"processor", cue{kind: kComponent, cat: catDesktops, weak: true}},
	{"cpu", cue{kind: kComponent, cat: catDesktops, weak: true}}, {"cpu cooler", comp(catDesktops)},
	{"aio cooler", comp(catDesktops)}, {"liquid cooler", comp(catDesktops)}, {"case fan", comp(catDesktops)},
	{"pc case", comp(catDesktops)}, {"computer case", comp(catDesktops)}, {"atx case", comp(catDesktops)},
	{"tower case", comp(catDesktops)}, {"power supply", comp(catDesktops)}, {"power supply unit", comp(catDesktops)},
	{"psu", comp(catDesktops)}, {"thermal paste", comp(catDesktops)}, {"desktop memory", comp(catDesktops)},
	{"desktop ram", comp(catDesktops)}, {"memory module", comp(catDesktops)}, {"memory kit", comp(catDesktops)},
	{"dimm", comp(catDesktops)}, {"ram", cue{kind: kComponent, cat: catDesktops, weak: true}},
	{"ddr#", cue{kind: kComponent, cat: catDesktops, weak: true}}, {"components", cue{kind: kComponent, cat: catDesktops, weak: true}},
	{"desktop switch", dev(catNetwork)},

	// Tablets
	{"tablet", dev(catTablets)}, {"ipad", dev(catTablets)}, {"galaxy tab", dev(catTablets)},
	{"tab s#", dev(catTablets)}, {"tab a#", dev(catTablets)}, {"tab m#", dev(catTablets)}, {"tab p#", dev(catTablets)},
	{"lenovo tab", dev(catTablets)}, {"fire hd", dev(catTablets)}, {"fire max", dev(catTablets)},
	{"kindle", dev(catTablets)}, {"ereader", dev(catTablets)}, {"e reader", dev(catTablets)},
	{"ebook reader", dev(catTablets)}, {"kobo", dev(catTablets)}, {"surface pro", dev(catTablets)},
	{"surface go", dev(catTablets)}, {"pixel tablet", dev(catTablets)}, {"xiaomi pad", dev(catTablets)},
	{"redmi pad", dev(catTablets)}, {"oneplus pad", dev(catTablets)}, {"honor pad", dev(catTablets)},
	{"matepad", dev(catTablets)}, {"tablet pc", dev(catTablets)},
	{"stylus", weakAcc(catTablets)}, {"apple pencil", acc(catTablets)}, {"s pen", acc(catTablets)},
	{"drawing tablet", outside}, {"graphics tablet", outside}, {"pen tablet", outside}, {"writing tablet", outside},
	{"ipad keyboard", acc(catTablets)}, {"tablet keyboard", acc(catTablets)}, {"magic keyboard", dev(catKeyboards)},

	// Phones
	{"phone", dev(catPhones)}, {"smartphone", dev(catPhones)}, {"mobile phone", dev(catPhones)},
	{"iphone", dev(catPhones)}, {"iphone#", dev(catPhones)}, {"galaxy s#", dev(catPhones)}, {"galaxy a#", dev(catPhones)},
	{"galaxy m#", dev(catPhones)}, {"galaxy f#", dev(catPhones)}, {"galaxy z", dev(catPhones)},
	{"galaxy note", dev(catPhones)}, {"galaxy note#", dev(catPhones)}, {"galaxy xcover", dev(catPhones)},
	{"galaxy xcover#", dev(catPhones)}, {"pixel #", dev(catPhones)}, {"pixel fold", dev(catPhones)},
	{"oneplus #", dev(catPhones)}, {"oneplus nord", dev(catPhones)}, {"moto g#", dev(catPhones)},
	{"moto e#", dev(catPhones)}, {"moto edge", dev(catPhones)}, {"motorola edge", dev(catPhones)},
	{"razr", dev(catPhones)}, {"redmi note", dev(catPhones)}, {"redmi #", dev(catPhones)}, {"xiaomi #", dev(catPhones)},
	{"poco x#", dev(catPhones)}, {"poco f#", dev(catPhones)}, {"poco m#", dev(catPhones)}, {"poco c#", dev(catPhones)},
	{"nokia", weakDev(catPhones)}, {"doro", weakDev(catPhones)}, {"sim free", dev(catPhones)},
	{"feature phone", dev(catPhones)}, {"telephone", dev(catPhones)}, {"handset", weakDev(catPhones)}, {"sim card", acc(catPhones)}, {"pop socket", acc(catPhones)},
	{"popsocket", acc(catPhones)}, {"selfie stick", hold(catPhones)}, {"extension pole", hold(catCameras)}, {"cover screen", neutral},
	{"cover display", neutral},

	// TVs
	{"tv", dev(catTVs)}, {"hdtv", dev(catTVs)}, {"flat panel", weakDev(catTVs)}, {"television", dev(catTVs)}, {"smart tv", dev(catTVs)}, {"fire tv", dev(catTVs)},
	{"oled tv", dev(catTVs)}, {"qled", weakDev(catTVs)}, {"projector", dev(catTVs)},
	{"fire tv stick", dev(catTVs)}, {"fire tv cube", dev(catTVs)}, {"tv stick", dev(catTVs)},
	{"streaming stick", dev(catTVs)}, {"streaming device", dev(catTVs)}, {"streaming media player", dev(catTVs)},
	{"media player", dev(catTVs)}, {"chromecast", dev(catTVs)}, {"roku", weakDev(catTVs)}, {"apple tv", dev(catTVs)},
	{"google tv streamer", dev(catTVs)}, {"freeview recorder", acc(catTVs)}, {"freeview box", acc(catTVs)},
	{"freesat box", acc(catTVs)}, {"set top box", acc(catTVs)}, {"tv box", acc(catTVs)}, {"aerial", acc(catTVs)},
	{"remote control", cue{kind: kAccessory, cat: catTVs, weak: true, guess: true}},
	{"remote controller", cue{kind: kAccessory, cat: catTVs, weak: true, guess: true}},
	{"remote", cue{kind: kAccessory, cat: catTVs, weak: true, guess: true}}, {"blu ray player", acc(catTVs)},
	{"bluray player", acc(catTVs)}, {"dvd player", acc(catTVs)}, {"dvd recorder", acc(catTVs)},
	{"digital video recorder", acc(catTVs)}, {"pvr", acc(catTVs)}, {"antenna", acc(catTVs)},
	{"projector screen", acc(catTVs)}, {"projection screen", acc(catTVs)}, {"projector lamp", acc(catTVs)}, {"wall bracket", guessAcc(catTVs)},

	// Monitors
	{"monitor", dev(catMonitors)}, {"gaming monitor", dev(catMonitors)}, {"portable monitor", dev(catMonitors)},
	{"portable display", dev(catMonitors)}, {"computer monitor", dev(catMonitors)},
	{"monitor arm", acc(catMonitors)}, {"monitor arms", acc(catMonitors)}, {"monitor light", acc(catMonitors)},
	{"monitor light bar", acc(catMonitors)}, {"monitor riser", acc(catMonitors)}, {"privacy filter", acc(catMonitors)},
	{"baby monitor", outside}, {"blood pressure monitor", outside}, {"heart rate monitor", dev(catWearables)},
	{"activity monitor", dev(catWearables)}, {"studio monitor", dev(catSpeakers)}, {"in ear monitor", dev(catHeadphone)},
	{"monitor headphones", dev(catHeadphone)},

	// Headphones
	{"headphone", dev(catHeadphone)}, {"earphone", dev(catHeadphone)}, {"earbud", dev(catHeadphone)},
	{"earbuds", dev(catHeadphone)}, {"headset", dev(catHeadphone)}, {"airpods", dev(catHeadphone)},
	{"earpods", dev(catHeadphone)}, {"galaxy buds", dev(catHeadphone)}, {"galaxy buds#", dev(catHeadphone)},
	{"pixel buds", dev(catHeadphone)}, {"buds", weakDev(catHeadphone)}, {"buds#", weakDev(catHeadphone)},
	{"in ear", weakDev(catHeadphone)}, {"over ear", weakDev(catHeadphone)}, {"on ear", weakDev(catHeadphone)},
	{"true wireless", weakDev(catHeadphone)}, {"neckband", dev(catHeadphone)},
	{"ear tips", acc(catHeadphone)}, {"eartips", acc(catHeadphone)}, {"ear pads", acc(catHeadphone)},
	{"earpads", acc(catHeadphone)}, {"ear cushions", acc(catHeadphone)}, {"ear hooks", acc(catHeadphone)},
	{"headphone amp", dev(catAudio)}, {"headphone amplifier", dev(catAudio)}, {"headphone adapter", power},
	{"headphone jack adapter", power}, {"vr headset", dev(catGaming)}, {"hearing aid", outside},

	// Speakers
	{"speaker", dev(catSpeakers)}, {"loudspeaker", dev(catSpeakers)}, {"smart speaker", dev(catSpeakers)},
	{"subwoofer", dev(catSpeakers)}, {"echo dot", dev(catSpeakers)}, {"echo pop", dev(catSpeakers)},
	{"echo show", dev(catSpeakers)}, {"echo studio", dev(catSpeakers)}, {"amazon echo", dev(catSpeakers)},
	{"homepod", dev(catSpeakers)}, {"sonos", weakDev(catSpeakers)}, {"boombox", dev(catSpeakers)},
	{"boom box", dev(catSpeakers)},
	{"partybox", dev(catSpeakers)}, {"soundlink", dev(catSpeakers)}, {"nest hub", dev(catSpeakers)},
	{"nest audio", dev(catSpeakers)}, {"nest mini", dev(catSpeakers)}, {"sonos arc", dev(catAudio)},
	{"sonos beam", dev(catAudio)}, {"sonos ray", dev(catAudio)}, {"sonos sub", dev(catSpeakers)},

	// Audio
	{"soundbar", dev(catAudio)}, {"sound bar", dev(catAudio)}, {"home cinema", dev(catAudio)},
	{"home theatre", dev(catAudio)}, {"home theater", dev(catAudio)}, {"av receiver", dev(catAudio)},
	{"receiver", weakDev(catAudio)}, {"amplifier", dev(catAudio)}, {"amp", weakDev(catAudio)},
	{"turntable", dev(catAudio)}, {"record player", dev(catAudio)}, {"radio", dev(catAudio)},
	{"cd player", dev(catAudio)}, {"cd changer", dev(catAudio)}, {"fm transmitter", dev(catAudio)}, {"hi fi", dev(catAudio)}, {"hifi", dev(catAudio)}, {"micro system", dev(catAudio)},
	{"music system", dev(catAudio)}, {"stereo system", dev(catAudio)}, {"mic", weakDev(catAudio)},
	{"dac", dev(catAudio)}, {"mp3 player", dev(catAudio)}, {"ipod", dev(catAudio)}, {"walkman", dev(catAudio)},
	{"audio interface", dev(catAudio)}, {"dj controller", dev(catAudio)}, {"midi controller", dev(catAudio)},
	{"mixer", weakDev(catAudio)}, {"karaoke", dev(catAudio)}, {"cassette player", dev(catAudio)},
	{"voice recorder", dev(catAudio)}, {"dji mic", dev(catAudio)}, {"audio", weakDev(catAudio)},
	{"microphone", dev(catAudio)},
	{"microphone stand", acc(catAudio)}, {"mic stand", acc(catAudio)}, {"pop filter", acc(catAudio)},
	{"stand mixer", outside},

	// Cameras
	{"camera", weakDev(catCameras)}, {"camcorder", dev(catCameras)}, {"action camera", dev(catCameras)},
	{"digital camera", dev(catCameras)}, {"compact camera", dev(catCameras)}, {"bridge camera", dev(catCameras)},
	{"system camera", dev(catCameras)}, {"dji pocket", dev(catCameras)}, {"dji action", dev(catCameras)},
	{"action cam", dev(catCameras)}, {"gopro", dev(catCameras)}, {"dslr", dev(catCameras)},
	{"mirrorless", dev(catCameras)}, {"webcam", weakDev(catCameras)}, {"dash cam", dev(catCameras)},
	{"dashcam", dev(catCameras)}, {"doorbell", dev(catCameras)}, {"video doorbell", dev(catCameras)},
	{"security camera", dev(catCameras)}, {"cctv", dev(catCameras)}, {"ip camera", dev(catCameras)},
	{"instant camera", dev(catCameras)}, {"instax", dev(catCameras)}, {"polaroid", weakDev(catCameras)},
	{"insta360", dev(catCameras)}, {"osmo pocket", dev(catCameras)}, {"osmo action", dev(catCameras)},
	{"nest cam", dev(catCameras)}, {"indoor cam", dev(catCameras)}, {"outdoor cam", dev(catCameras)},
	{"stick up cam", dev(catCameras)}, {"spotlight cam", dev(catCameras)}, {"floodlight cam", dev(catCameras)},
	{"security cam", dev(catCameras)}, {"pan tilt cam", dev(catCameras)}, {"camera lens", acc(catCameras)}, {"lens", acc(catCameras)},
	{"tripod", hold(catCameras)}, {"gimbal", acc(catCameras)}, {"ring light", acc(catCameras)},
	{"camera bag", hold(catCameras)}, {"lens cap", acc(catCameras)}, {"lens filter", acc(catCameras)},
	{"nd filter", acc(catCameras)}, {"speedlight", acc(catCameras)}, {"speedlite", acc(catCameras)},
	{"flashgun", acc(catCameras)}, {"camera flash", acc(catCameras)}, {"camera strap", hold(catCameras)}, {"lens protector", hold("")},
	{"binoculars", outside}, {"telescope", outside}, {"contact lens", outside},

	// Keyboards and mice
	{"keyboard", weakDev(catKeyboards)}, {"keyboard and mouse", dev(catKeyboards)}, {"tv keyboard", dev(catKeyboards)},
	{"media keyboard", dev(catKeyboards)},
	{"keyboard mouse", dev(catKeyboards)}, {"mouse and keyboard", dev(catKeyboards)},
	{"mechanical keyboard", dev(catKeyboards)}, {"gaming keyboard", dev(catKeyboards)},
	{"keycaps", acc(catKeyboards)}, {"keycap", acc(catKeyboards)}, {"wrist rest", acc(catKeyboards)},
	{"keyboard case", acc("")}, {"keyboard cover", acc("")}, {"keyboard folio", acc("")},
	{"piano keyboard", outside}, {"digital piano", outside},
	{"mouse", dev(catMice)}, {"mice", dev(catMice)}, {"trackball", dev(catMice)}, {"trackpad", dev(catMice)},
	{"mouse mat", acc(catMice)}, {"mouse pad", acc(catMice)}, {"mousepad", acc(catMice)},
	{"mouse bungee", acc(catMice)}, {"desk mat", acc(catMice)},

	// Printers
	{"printer", dev(catPrinters)}, {"scanner", dev(catPrinters)}, {"label maker", dev(catPrinters)},
	{"photocopier", dev(catPrinters)}, {"copier", dev(catPrinters)}, {"fax", dev(catPrinters)}, {"ink", acc(catPrinters)}, {"ink cartridge", acc(catPrinters)},
	{"toner", acc(catPrinters)}, {"cartridge", weakAcc(catPrinters)}, {"printer paper", acc(catPrinters)},
	{"photo paper", acc(catPrinters)}, {"filament", acc(catPrinters)}, {"drum unit", acc(catPrinters)},
	{"printhead", acc(catPrinters)}, {"ink bottle", acc(catPrinters)}, {"ink tank", neutral},
	{"ink tank printer", dev(catPrinters)},

	// Networking
	{"router", dev(catNetwork)}, {"mesh wifi", dev(catNetwork)}, {"mesh wi fi", dev(catNetwork)},
	{"mesh system", dev(catNetwork)}, {"wifi system", dev(catNetwork)}, {"wi fi system", dev(catNetwork)},
	{"range extender", dev(catNetwork)}, {"range expander", dev(catNetwork)}, {"wireless bridge", dev(catNetwork)}, {"wifi extender", dev(catNetwork)}, {"wi fi extender", dev(catNetwork)},
	{"extender", weakDev(catNetwork)}, {"repeater", dev(catNetwork)}, {"access point", dev(catNetwork)},
	{"modem", dev(catNetwork)}, {"powerline", dev(catNetwork)}, {"network switch", dev(catNetwork)},
	{"ethernet switch", dev(catNetwork)}, {"gigabit switch", dev(catNetwork)}, {"port switch", dev(catNetwork)},
	{"poe switch", dev(catNetwork)}, {"managed switch", dev(catNetwork)}, {"unmanaged switch", dev(catNetwork)},
	{"switch", weakDev(catNetwork)}, {"gigabit", weakDev(catNetwork)}, {"wifi adapter", dev(catNetwork)},
	{"wi fi adapter", dev(catNetwork)}, {"wireless adapter", dev(catNetwork)}, {"network adapter", dev(catNetwork)},
	{"ethernet adapter", dev(catNetwork)}, {"network card", dev(catNetwork)}, {"wifi card", dev(catNetwork)},
	{"wi fi card", dev(catNetwork)}, {"wifi dongle", dev(catNetwork)}, {"wi fi # adapter", dev(catNetwork)},
	{"wifi # adapter", dev(catNetwork)}, {"wi fi # usb adapter", dev(catNetwork)}, {"wifi # usb adapter", dev(catNetwork)},
	{"wi fi # card", dev(catNetwork)}, {"wifi # card", dev(catNetwork)}, {"bluetooth adapter", dev(catNetwork)},
	{"wi fi dongle", dev(catNetwork)}, {"wireless card", dev(catNetwork)}, {"mifi", dev(catNetwork)},
	{"mobile wifi", dev(catNetwork)}, {"hotspot", weakDev(catNetwork)}, {"smart hub", dev(catNetwork)},
	{"nest wifi", dev(catNetwork)}, {"eero", dev(catNetwork)}, {"deco", weakDev(catNetwork)},
	{"light switch", outside}, {"smart switch", outside},

	// Storage
	{"ssd", weakDev(catStorage)}, {"hdd", weakDev(catStorage)}, {"nvme", weakDev(catStorage)},
	{"hard drive", dev(catStorage)}, {"hard disk", dev(catStorage)}, {"solid state drive", dev(catStorage)},
	{"solid state disk", dev(catStorage)}, {"disk drive", dev(catStorage)}, {"dvd ram", neutral}, {"external drive", dev(catStorage)},
	{"portable drive", dev(catStorage)}, {"portable ssd", dev(catStorage)}, {"external ssd", dev(catStorage)},
	{"internal ssd", dev(catStorage)}, {"memory card", dev(catStorage)}, {"sd card", dev(catStorage)},
	{"micro sd", dev(catStorage)}, {"microsd", dev(catStorage)}, {"microsdxc", dev(catStorage)},
	{"microsdhc", dev(catStorage)}, {"sdxc", dev(catStorage)}, {"sdhc", dev(catStorage)},
	{"cfexpress", dev(catStorage)}, {"compactflash", dev(catStorage)}, {"compact flash", dev(catStorage)},
	{"cf card", dev(catStorage)}, {"flash card", dev(catStorage)}, {"usb stick", dev(catStorage)},
	{"usb drive", dev(catStorage)}, {"flash drive", dev(catStorage)}, {"pen drive", dev(catStorage)},
	{"memory stick", dev(catStorage)}, {"thumb drive", dev(catStorage)}, {"nas", dev(catStorage)},
	{"network attached storage", dev(catStorage)}, {"diskstation", dev(catStorage)},
	{"expansion card", dev(catStorage)}, {"storage expansion card", dev(catStorage)},
	{"enclosure", acc(catStorage)}, {"card reader", acc(catStorage)}, {"hard drive case", acc(catStorage)},
	{"hard drive dock", acc(catStorage)}, {"sd card slot", neutral}, {"microsd slot", neutral},
	{"microsd card slot", neutral},

	// Gaming
	{"console", dev(catGaming)}, {"games console", dev(catGaming)}, {"ps5", dev(catGaming)}, {"ps4", dev(catGaming)},
	{"playstation", dev(catGaming)}, {"playstation #", dev(catGaming)}, {"xbox", dev(catGaming)},
	{"nintendo", weakDev(catGaming)}, {"nintendo switch", dev(catGaming)}, {"switch oled", dev(catGaming)},
	{"switch lite", dev(catGaming)}, {"switch #", dev(catGaming)}, {"steam deck", dev(catGaming)},
	{"rog ally", dev(catGaming)}, {"handheld gaming pc", dev(catGaming)}, {"handheld pc", dev(catGaming)},
	{"gaming handheld", dev(catGaming)}, {"handheld console", dev(catGaming)}, {"legion go", dev(catGaming)}, {"meta quest", dev(catGaming)},
	{"oculus", dev(catGaming)}, {"quest #", dev(catGaming)}, {"psvr", dev(catGaming)}, {"psvr2", dev(catGaming)},
	{"ps vr2", dev(catGaming)}, {"reality headset", dev(catGaming)}, {"playstation portal", dev(catGaming)}, {"controller", dev(catGaming)},
	{"gamepad", dev(catGaming)}, {"joystick", dev(catGaming)}, {"dualsense", dev(catGaming)},
	{"dualshock", dev(catGaming)}, {"joy con", dev(catGaming)}, {"joycon", dev(catGaming)},
	{"racing wheel", dev(catGaming)}, {"steering wheel", dev(catGaming)}, {"arcade stick", dev(catGaming)},
	{"fight stick", dev(catGaming)}, {"video game", dev(catGaming)}, {"game", weakDev(catGaming)},
	{"games", weakDev(catGaming)}, {"gaming", weakDev(catGaming)}, {"game pass", dev(catGaming)},
	{"gaming chair", acc(catGaming)}, {"gaming desk", acc(catGaming)}, {"gaming seat", acc(catGaming)},
	{"amiibo", acc(catGaming)}, {"thumb grips", acc(catGaming)}, {"faceplate", hold(catGaming)},
	{"console cover", hold(catGaming)},

	// Wearables
	{"smartwatch", dev(catWearables)}, {"smart watch", dev(catWearables)}, {"watch", dev(catWearables)},
	{"watch#", dev(catWearables)}, {"apple watch", dev(catWearables)}, {"galaxy watch", dev(catWearables)},
	{"galaxy watch#", dev(catWearables)}, {"pixel watch", dev(catWearables)}, {"fitbit", dev(catWearables)},
	{"fitness tracker", dev(catWearables)}, {"activity tracker", dev(catWearables)}, {"smart band", dev(catWearables)},
	{"fitness band", dev(catWearables)}, {"mi band", dev(catWearables)}, {"smart ring", dev(catWearables)},
	{"galaxy ring", dev(catWearables)}, {"oura", dev(catWearables)}, {"smart glasses", dev(catWearables)},
	{"ray ban meta", dev(catWearables)}, {"forerunner", dev(catWearables)}, {"fenix", dev(catWearables)},
	{"vivoactive", dev(catWearables)}, {"venu", dev(catWearables)}, {"epix", dev(catWearables)},
	{"amazfit", dev(catWearables)},
	{"strap", guessHold(catWearables)}, {"watch band", hold(catWearables)}, {"band", weakAcc(catWearables)},
	{"band #", dev(catWearables)}, {"loop", weakAcc(catWearables)}, {"watch strap", hold(catWearables)},
	{"sport band", acc(catWearables)}, {"sport loop", acc(catWearables)}, {"solo loop", acc(catWearables)},
	{"replacement band", acc(catWearables)}, {"silicone band", acc(catWearables)},
	{"leather band", acc(catWearables)}, {"nylon band", acc(catWearables)}, {"metal band", acc(catWearables)},
	{"watch case", neutral}, {"aluminium case", neutral}, {"aluminum case", neutral},
	{"titanium case", neutral}, {"steel case", neutral}, {"ceramic case", neutral},

	// Drones
	{"drone", dev(catDrones)}, {"quadcopter", dev(catDrones)}, {"dji", weakDev(catDrones)}, {"dji mini", dev(catDrones)},
	{"dji mini #", dev(catDrones)}, {"mavic", dev(catDrones)}, {"dji air", dev(catDrones)},
	{"dji air #", dev(catDrones)}, {"avata", dev(catDrones)}, {"dji neo", dev(catDrones)},
	{"dji flip", dev(catDrones)}, {"fpv", weakDev(catDrones)}, {"propeller", acc(catDrones)},
	{"propellers", acc(catDrones)}, {"propeller guard", acc(catDrones)}, {"fpv goggles", acc(catDrones)},
	{"dji goggles", acc(catDrones)}, {"intelligent flight battery", acc(catDrones)}, {"fly more", neutral},

	// Cables & Chargers
	{"cable", power}, {"cables", power}, {"lead", weakPower}, {"charger", charger}, {"chargers", charger},
	{"power bank", power}, {"powerbank", power}, {"portable charger", power}, {"power adapter", power},
	{"ac adapter", power}, {"mains adapter", power}, {"plug adapter", power}, {"travel adapter", power},
	{"adapter", weakPower}, {"adaptor", weakPower}, {"hub", weakPower}, {"usb hub", power},
	{"extension lead", power}, {"extension cable", power}, {"surge protector", power}, {"power strip", power},
	{"splitter", weakPower}, {"hdmi switch", power}, {"kvm switch", power}, {"dongle", weakPower},
	{"wireless charger", charging}, {"charging pad", charging}, {"charging station", charging},
	{"charging stand", charging}, {"charging dock", charging}, {"charging cradle", charging},
	{"charge station", charging}, {"charging base", charging}, {"charging cable", power}, {"charging lead", power},
	{"usb plug", power}, {"wall charger", charger}, {"car charger", power}, {"magsafe charger", charging},
	{"charging case", hold("")}, {"battery case", hold("")}, {"charger included", neutral},
	{"cable included", neutral}, {"cable management", acc("")}, {"cable tidy", acc("")},

	// Accessories of whatever device the title names
	{"case", hold("")}, {"cover", hold("")}, {"sleeve", guessHold(catLaptops)}, {"skin", hold("")}, {"skins", hold("")},
	{"screen protector", hold("")}, {"screen protectors", hold("")}, {"tempered glass", hold("")},
	{"protector", hold("")}, {"bumper", hold("")}, {"folio", hold("")}, {"flip case", hold("")},
	{"wallet case", hold("")}, {"stand", hold("")}, {"mount", hold("")}, {"bracket", guessAcc(catTVs)},
	{"holder", hold("")}, {"dock", acc("")}, {"grip", acc("")}, {"grips", acc("")}, {"bag", hold("")},
	{"backpack", hold("")}, {"pouch", hold("")}, {"carry case", hold("")}, {"carrying case", hold("")},
	{"sticker", acc("")}, {"decal", acc("")}, {"replacement", weakAcc("")}, {"battery", weakAcc("")},
	{"accessories", generic}, {"accessory", generic}, {"accessory kit", generic}, {"cleaning kit", acc("")},
	{"stylus pen", weakAcc(catTablets)}, {"pen", weakAcc("")}, {"riser", acc("")}, {"arm", weakAcc("")},
	{"wall mount", hold("")}, {"mounting kit", hold("")}, {"mounting bracket", hold("")}, {"remote player", neutral}, {"unifying receiver", acc(catMice)},
	{"satellite receiver", acc(catTVs)}, {"cable organiser", acc("")}, {"car mount", hold(catPhones)},
	{"car holder", hold(catPhones)}, {"phone holder", hold(catPhones)}, {"kickstand", neutral},
	{"book cover", hold("")}, {"smart cover", hold("")}, {"smart folio", hold("")},
	{"height adjustable stand", neutral}, {"adjustable stand", neutral}, {"tilt stand", neutral},

	// Outside the 19
	{"kettle", outside}, {"toaster", outside}, {"fridge", outside}, {"freezer", outside},
	{"washing machine", outside}, {"dishwasher", outside}, {"tumble dryer", outside}, {"vacuum", outside},
	{"vacuum cleaner", outside}, {"hoover", outside}, {"microwave", outside}, {"air fryer", outside},
	{"blender", outside}, {"coffee machine", outside}, {"coffee maker", outside}, {"hair dryer", outside},
	{"hair straightener", outside}, {"straighteners", outside}, {"shaver", outside}, {"trimmer", outside},
	{"toothbrush", outside}, {"electric toothbrush", outside}, {"lego", outside}, {"toy", broad},
	{"toys", broad}, {"book", broad}, {"kitchen", broad}, {"appliances", broad}, {"furniture", broad},
	{"garden", broad}, {"clothing", broad}, {"sat nav", outside}, {"satnav", outside},
	{"remote control car", outside}, {"beauty", broad}, {"health", broad}, {"pet", broad},
	{"iron", outside}, {"laundry", broad}, {"navigation system", outside}, {"gps navigation", outside},
	{"navigator", outside}, {"nuvi", outside}, {"streetpilot", outside}, {"tomtom", outside},
	{"radar detector", outside}, {"shredder", outside}, {"labels", broad}, {"gel pen", outside},
	{"ballpoint", outside}, {"marker", broad}, {"folder", broad}, {"binder", broad}, {"piano black", neutral}, {"piano white", neutral}, {"fan heater", outside}, {"heater", outside}, {"dehumidifier", outside},
	{"air purifier", outside}, {"smart plug", outside}, {"light bulb", outside}, {"smart bulb", outside},
	{"thermostat", outside},
	// Category words retailers use in their paths.
	{"storage", weakDev(catStorage)}, {"networking", weakDev(catNetwork)}, {"wearables", weakDev(catWearables)},
	{"wearable", weakDev(catWearables)}, {"printing", weakDev(catPrinters)}, {"guitar", outside}, {"piano", broad}, {"perfume", outside},
}

// cueIndex maps each phrase's first word (without its "#" suffix marker) to
// the phrases starting with it, longest first. It is built once from
// cueTable and only read afterwards.
var cueIndex = buildIndex(cueTable)

type indexed struct {
	words []string
	cue   cue
}

func buildIndex(table []phrase) map[string][]indexed {
	idx := make(map[string][]indexed, len(table))
	for _, p := range table {
		ws := strings.Fields(p.text)
		key := strings.TrimSuffix(ws[0], "#")
		if strings.HasSuffix(ws[0], "#") {
			key += "#"
		}
		idx[key] = append(idx[key], indexed{words: ws, cue: p.cue})
	}
	for k, list := range idx {
		// Longest first, so the first match is the longest.
		for i := 1; i < len(list); i++ {
			for j := i; j > 0 && len(list[j].words) > len(list[j-1].words); j-- {
				list[j], list[j-1] = list[j-1], list[j]
			}
		}
		idx[k] = list
	}
	return idx
}

// wordMatches reports whether text matches the pattern word p.
func wordMatches(text, p string) bool {
	if prefix, ok := strings.CutSuffix(p, "#"); ok {
		rest, ok := strings.CutPrefix(text, prefix)
		return ok && rest != "" && '0' <= rest[0] && rest[0] <= '9'
	}
	if text == p {
		return true
	}
	if rest, ok := strings.CutPrefix(text, p); ok {
		return rest == "s" || rest == "es"
	}
	return false
}

// candidates calls visit with the phrase lists that may start with the word
// w: filed under the word itself, its singular, or a "#" prefix. It stops at
// the first list visit accepts.
func candidates(w string, visit func([]indexed) bool) {
	if list, ok := cueIndex[w]; ok && visit(list) {
		return
	}
	if s, ok := strings.CutSuffix(w, "es"); ok {
		if list, ok := cueIndex[s]; ok && visit(list) {
			return
		}
	}
	if s, ok := strings.CutSuffix(w, "s"); ok {
		if list, ok := cueIndex[s]; ok && visit(list) {
			return
		}
	}
	// "s24" is filed under "s#", "watch6" under "watch#", "8" under "#".
	for i := 0; i < len(w); i++ {
		if '0' <= w[i] && w[i] <= '9' {
			if list, ok := cueIndex[w[:i]+"#"]; ok && visit(list) {
				return
			}
			break
		}
	}
}

// NamesKind reports whether word w on its own names a kind of product in
// the cue table: a device, an accessory, a cable or charger, or a computer
// part ("webcam", "camera", "case", "charger").
func NamesKind(w string) bool {
	found := false
	candidates(w, func(list []indexed) bool {
		for _, x := range list {
			if len(x.words) == 1 && !strings.HasSuffix(x.words[0], "#") && wordMatches(w, x.words[0]) &&
				x.cue.kind >= kDevice && x.cue.kind <= kComponent {
				found = true
				return true
			}
		}
		return false
	})
	return found
}
