package classify

// googleCategory is where a Google product category id sits in the catalog.
type googleCategory struct {
	cat string // "" outside the 19 categories
	acc bool
}

// googleCategories maps Google product taxonomy ids (version 2021-09-21) to
// catalog categories. Parents that span several categories (Electronics,
// Computer Components, Memory, Batteries) are left out so the path or title
// decides; top-level categories outside electronics map to "".
var googleCategories = map[string]googleCategory{
	// Computers
	"328": {cat: catLaptops}, "325": {cat: catDesktops}, "5254": {cat: catDesktops},
	"4745": {cat: catTablets}, "3539": {cat: catTablets},
	"300": {cat: catLaptops, acc: true}, "4224": {cat: catLaptops, acc: true}, "1564": {cat: catLaptops, acc: true},
	"7530": {cat: catLaptops, acc: true}, "5489": {cat: catLaptops, acc: true},
	"499956": {cat: catTablets, acc: true}, "5308": {cat: catTablets, acc: true}, "5669": {cat: catTablets, acc: true},
	"7349": {cat: catTablets, acc: true}, "7438": {cat: catTablets, acc: true}, "4736": {cat: catTablets, acc: true},
	"4738": {cat: catTablets, acc: true},
	// Computer components
	"291": {cat: catDesktops, acc: true}, "292": {cat: catDesktops, acc: true}, "295": {cat: catDesktops, acc: true},
	"296": {cat: catDesktops, acc: true}, "297": {cat: catDesktops, acc: true}, "289": {cat: catDesktops, acc: true},
	"287": {cat: catDesktops, acc: true}, "1733": {cat: catDesktops, acc: true},
	// Phones
	"267": {cat: catPhones}, "543513": {cat: catPhones}, "543512": {cat: catPhones}, "543514": {cat: catPhones},
	"1924": {cat: catPhones}, "271": {cat: catPhones}, "272": {cat: catPhones},
	"264": {cat: catPhones, acc: true}, "2353": {cat: catPhones, acc: true}, "4550": {cat: catPhones, acc: true},
	"8111": {cat: catPhones, acc: true}, "7347": {cat: catPhones, acc: true}, "5566": {cat: catPhones, acc: true},
	"6030": {cat: catPhones, acc: true}, "543515": {cat: catPhones, acc: true}, "543516": {cat: catPhones, acc: true},
	"499916": {cat: catPhones, acc: true}, "1745": {cat: catPhones, acc: true},
	// TVs, projectors and what plugs into them
	"404": {cat: catTVs}, "396": {cat: catTVs}, "397": {cat: catTVs},
	"403": {cat: catTVs, acc: true}, "4458": {cat: catTVs, acc: true}, "5503": {cat: catTVs, acc: true},
	"5471": {cat: catTVs, acc: true}, "43616": {cat: catTVs, acc: true}, "393": {cat: catTVs, acc: true},
	"395": {cat: catTVs, acc: true}, "5257": {cat: catTVs, acc: true}, "394": {cat: catTVs, acc: true},
	"5276": {cat: catTVs}, "387": {cat: catTVs, acc: true}, "388": {cat: catTVs, acc: true},
	"389": {cat: catTVs, acc: true}, "390": {cat: catTVs, acc: true}, "5561": {cat: catTVs, acc: true},
	"5562": {cat: catTVs, acc: true}, "401": {cat: catTVs, acc: true}, "341": {cat: catTVs, acc: true},
	// Monitors
	"305": {cat: catMonitors}, "283": {cat: catMonitors, acc: true}, "5516": {cat: catMonitors, acc: true},
	// Headphones
	"505771": {cat: catHeadphone}, "543626": {cat: catHeadphone}, "543627": {cat: catHeadphone},
	"505797": {cat: catHeadphone, acc: true}, "503004": {cat: catHeadphone, acc: true},
	// Speakers
	"249": {cat: catSpeakers}, "7163": {cat: catSpeakers, acc: true}, "500112": {cat: catSpeakers, acc: true},
	"500120": {cat: catSpeakers, acc: true}, "8047": {cat: catSpeakers, acc: true}, "8049": {cat: catSpeakers, acc: true},
	// Audio
	"241": {cat: catAudio}, "224": {cat: catAudio}, "4493": {cat: catAudio}, "5381": {cat: catAudio},
	"236": {cat: catAudio}, "234": {cat: catAudio}, "242": {cat: catAudio}, "225": {cat: catAudio},
	"226": {cat: catAudio}, "243": {cat: catAudio}, "252": {cat: catAudio}, "230": {cat: catAudio},
	"233": {cat: catAudio}, "6886": {cat: catAudio}, "251": {cat: catAudio}, "256": {cat: catAudio},
	"244": {cat: catAudio}, "4921": {cat: catAudio}, "4922": {cat: catAudio}, "4923": {cat: catAudio},
	"1420": {cat: catAudio, acc: true}, "3306": {cat: catAudio, acc: true}, "3912": {cat: catAudio, acc: true},
	"2372": {cat: catAudio, acc: true}, "232": {cat: catAudio, acc: true},
	// Cameras
	"142": {cat: catCameras}, "152": {cat: catCameras}, "4024": {cat: catCameras}, "154": {cat: catCameras},
	"362": {cat: catCameras}, "5402": {cat: catCameras}, "155": {cat: catCameras}, "312": {cat: catCameras},
	"2096": {cat: catCameras, acc: true}, "149": {cat: catCameras, acc: true}, "4432": {cat: catCameras, acc: true},
	"5280": {cat: catCameras, acc: true}, "2911": {cat: catCameras, acc: true}, "143": {cat: catCameras, acc: true},
	"6308": {cat: catCameras, acc: true}, "148": {cat: catCameras, acc: true}, "5429": {cat: catCameras, acc: true},
	"499998": {cat: catCameras, acc: true}, "5937": {cat: catCameras, acc: true}, "4638": {cat: catCameras, acc: true},
	"150": {cat: catCameras, acc: true}, "1722": {cat: catCameras, acc: true}, "3130": {cat: catCameras, acc: true},
	"2222": {cat: catCameras, acc: true},
	// Keyboards and mice
	"303": {cat: catKeyboards}, "4512": {cat: catKeyboards}, "503003": {cat: catKeyboards, acc: true},
	"6291": {cat: catKeyboards, acc: true}, "6979": {cat: catKeyboards, acc: true},
	"304": {cat: catMice}, "308": {cat: catMice}, "500052": {cat: catMice, acc: true}, "1993": {cat: catMice, acc: true},
	// Printers
	"500106": {cat: catPrinters}, "6865": {cat: catPrinters}, "306": {cat: catPrinters},
	"502990": {cat: catPrinters, acc: true}, "5258": {cat: catPrinters, acc: true}, "5259": {cat: catPrinters, acc: true},
	"5262": {cat: catPrinters, acc: true}, "5260": {cat: catPrinters, acc: true}, "5261": {cat: catPrinters, acc: true},
	"7362": {cat: catPrinters, acc: true}, "356": {cat: catPrinters, acc: true}, "5265": {cat: catPrinters, acc: true},
	"1683": {cat: catPrinters, acc: true}, "5459": {cat: catPrinters, acc: true}, "502991": {cat: catPrinters, acc: true},
	"284": {cat: catPrinters, acc: true}, "499682": {cat: catPrinters, acc: true},
	// Networking
	"342": {cat: catNetwork}, "1350": {cat: catNetwork}, "5659": {cat: catNetwork}, "2358": {cat: catNetwork},
	"5496": {cat: catNetwork}, "5497": {cat: catNetwork}, "2479": {cat: catNetwork}, "2455": {cat: catNetwork},
	"343": {cat: catNetwork}, "290": {cat: catNetwork}, "3742": {cat: catNetwork}, "6508": {cat: catNetwork},
	"3425": {cat: catNetwork}, "2121": {cat: catNetwork}, "5473": {cat: catNetwork},
	"5576": {cat: catNetwork, acc: true},
	// Storage
	"2414": {cat: catStorage}, "380": {cat: catStorage}, "5272": {cat: catStorage}, "5269": {cat: catStorage},
	"377": {cat: catStorage}, "385": {cat: catStorage}, "3712": {cat: catStorage}, "384": {cat: catStorage},
	"3387": {cat: catStorage},
	"1623": {cat: catStorage, acc: true}, "381": {cat: catStorage, acc: true}, "4417": {cat: catStorage, acc: true},
	"505767": {cat: catStorage, acc: true}, "146": {cat: catStorage, acc: true}, "3580": {cat: catStorage, acc: true},
	// Gaming
	"1294": {cat: catGaming}, "301": {cat: catGaming}, "543591": {cat: catGaming}, "543590": {cat: catGaming},
	"543589": {cat: catGaming}, "543588": {cat: catGaming}, "543593": {cat: catGaming},
	"1270": {cat: catGaming, acc: true}, "1505": {cat: catGaming, acc: true}, "2070": {cat: catGaming, acc: true},
	"8008": {cat: catGaming, acc: true}, "500117": {cat: catGaming, acc: true},
	// Wearables
	"201": {cat: catWearables}, "500009": {cat: catWearables}, "500002": {cat: catWearables},
	"5122": {cat: catWearables, acc: true}, "5123": {cat: catWearables, acc: true},
	"505819": {cat: catWearables, acc: true},
	// Cables & Chargers
	"259": {cat: catCables}, "1867": {cat: catCables}, "3461": {cat: catCables}, "1480": {cat: catCables},
	"500035": {cat: catCables}, "1763": {cat: catCables}, "3541": {cat: catCables}, "505295": {cat: catCables},
	"6933": {cat: catCables}, "7166": {cat: catCables}, "7167": {cat: catCables}, "3160": {cat: catCables},
	"7135": {cat: catCables}, "258": {cat: catCables}, "4463": {cat: catCables}, "7182": {cat: catCables},
	"311": {cat: catCables}, "8156": {cat: catCables}, "8164": {cat: catCables}, "499944": {cat: catCables},
	"499945": {cat: catCables},
	// Furniture that belongs with a device
	"6800": {cat: catGaming, acc: true}, "457": {cat: catTVs, acc: true}, "952": {cat: catPrinters},
	// Top-level categories outside electronics
	"1": {}, "166": {}, "8": {}, "537": {}, "412": {}, "436": {}, "632": {}, "469": {}, "536": {},
	"783": {}, "922": {}, "5605": {}, "2092": {}, "1239": {},
}
