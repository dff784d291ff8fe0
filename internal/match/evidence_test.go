package match

import "testing"

// TestCompareIdentifierEvidence covers the rules that read identifier fields,
// codes placed where retailers put them, and the editions part numbers and
// titles name. Each rule has a pair it decides and a pair it must not
// decide alike.
func TestCompareIdentifierEvidence(t *testing.T) {
	tests := []compareCase{
		// A code right after the brand, before a new clause, is the
		// listing's part number.
		{
			name:     "a code after the brand is the part number",
			a:        Item{Brand: "Leitz", ModelNumber: "5219", Title: "Leitz WOW Letter Tray A4 Metallic Blue"},
			b:        Item{Brand: "Leitz", Title: "Leitz 5219 - WOW Letter Tray, A4, Metallic Blue"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another code after the brand",
			a:          Item{Brand: "Leitz", ModelNumber: "5219", Title: "Leitz WOW Letter Tray A4 Metallic Blue"},
			b:          Item{Brand: "Leitz", Title: "Leitz 5214 - WOW Letter Tray, A4, Metallic Blue"},
			wantReason: "code",
		},
		// Kit and multi-pack part numbers.
		{
			name:       "a two-pack part number against the single plug",
			a:          Item{Brand: "TP-Link", ModelNumber: "TAPOP304", Title: "TP-Link Tapo P304 Smart Wi-Fi Power Strip"},
			b:          Item{Brand: "TP-Link", ModelNumber: "TAPOP304-2PK", Title: "TP-Link Tapo P304 Smart Wi-Fi Power Strip, Twin"},
			wantReason: "edition",
		},
		{
			name:       "a kit part number against the adapter",
			a:          Item{Brand: "TP-Link", ModelNumber: "TL-PA7017", Title: "TP-Link TL-PA7017 AV1000 Gigabit Powerline Adapter"},
			b:          Item{Brand: "TP-Link", ModelNumber: "TL-PA7017KIT", Title: "TP-Link TL-PA7017 AV1000 Gigabit Powerline Adapter Starter Set"},
			wantReason: "edition",
		},
		{
			name:     "two kits",
			a:        Item{Brand: "TP-Link", ModelNumber: "TL-PA7017 KIT", Title: "TP-Link TL-PA7017 AV1000 Powerline Starter Kit"},
			b:        Item{Brand: "TP-Link", ModelNumber: "TL-PA7017KIT", Title: "TP-Link AV1000 Gigabit Powerline Kit TL-PA7017"},
			wantSame: true, wantReason: "code",
		},
		// A camera with a zoom lens is the kit.
		{
			name:       "a lens kit against the body",
			a:          Item{Brand: "Sony", Title: "Sony ZV-E10 Mirrorless Vlog Camera Body, Black", Category: "Cameras"},
			b:          Item{Brand: "Sony", Title: "Sony ZV-E10 Mirrorless Vlog Camera with 16-50mm Power Zoom Lens, Black", Category: "Cameras"},
			wantReason: "edition",
		},
		{
			name:       "a lens kit against the body only",
			a:          Item{Brand: "Fujifilm", Title: "Fujifilm X-T30 II Mirrorless Camera, Body Only, Black", Category: "Cameras"},
			b:          Item{Brand: "Fujifilm", Title: "Fujifilm X-T30 II Mirrorless Camera with XC 15-45mm Lens, Black", Category: "Cameras"},
			wantReason: "edition",
		},
		{
			name:     "a kit whose title names no lens",
			a:        Item{Brand: "Sony", Title: "Sony ZV-E10 Interchangeable Lens Vlog Camera Kit Black", Category: "Cameras"},
			b:        Item{Brand: "Sony", Title: "Sony ZV-E10 Mirrorless Vlog Camera with 16-50mm Power Zoom Lens, Black", Category: "Cameras"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a lens kit in other words",
			a:        Item{Brand: "Sony", Title: "Sony ZV-E10 Vlog Camera + E PZ 16-50mm Lens Kit, Black", Category: "Cameras"},
			b:        Item{Brand: "Sony", Title: "Sony ZV-E10 Mirrorless Vlog Camera with 16-50mm Power Zoom Lens, Black", Category: "Cameras"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a compact's built-in zoom is no kit",
			a:        Item{Brand: "Panasonic", Title: "Panasonic Lumix DC-TZ99 Compact Camera, 24-720mm Leica Lens, Black", Category: "Cameras"},
			b:        Item{Brand: "Panasonic", Title: "Panasonic Lumix DC-TZ99 Travel Zoom Camera Black", Category: "Cameras"},
			wantSame: true, wantReason: "code",
		},
		// Letters after a code that a title writes as a word.
		{
			name:       "a variant's letters written as a word",
			a:          Item{Brand: "EPOS", ModelNumber: "ADAPT260MS", Title: "EPOS Adapt 260 MS Bluetooth Office Headset"},
			b:          Item{Brand: "EPOS", ModelNumber: "ADAPT260", Title: "EPOS Adapt 260 Bluetooth Office Headset"},
			wantReason: "code",
		},
		{
			name:       "a variant's letters in both a title's code and its words",
			a:          Item{Brand: "EPOS", Title: "EPOS Impact SC 660 ANC USB Headset SC660ANC"},
			b:          Item{Brand: "EPOS", Title: "EPOS Impact SC 660 USB Headset SC660"},
			wantReason: "code",
		},
		{
			name:     "colour letters written as a word",
			a:        Item{Brand: "EPOS", ModelNumber: "ADAPT260BK", Title: "EPOS Adapt 260 BK Bluetooth Office Headset"},
			b:        Item{Brand: "EPOS", ModelNumber: "ADAPT260", Title: "EPOS Adapt 260 Bluetooth Office Headset"},
			wantSame: true, wantReason: "code",
		},
		// Part numbers of letters alone.
		{
			name:     "a part number of letters",
			a:        Item{Brand: "Nintendo", ModelNumber: "HDH-S-GAZAA", Title: "Nintendo Switch Lite Handheld Console"},
			b:        Item{Brand: "Nintendo", ModelNumber: "HDHSGAZAA", Title: "Nintendo Switch Lite Games Console, 5.5in Touchscreen"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another part number of letters",
			a:          Item{Brand: "Nintendo", ModelNumber: "HDH-S-GAZAA", Title: "Nintendo Switch Lite Handheld Console"},
			b:          Item{Brand: "Nintendo", ModelNumber: "HDH-S-YAZAA", Title: "Nintendo Switch Lite Handheld Console"},
			wantReason: "code",
		},
		// Codes that look like Wi-Fi classes.
		{
			name:     "a desktop's code is no Wi-Fi class",
			a:        Item{Brand: "Acer", Title: "Acer Nitro N50-640 Gaming Desktop PC"},
			b:        Item{Brand: "Acer", Title: "Acer N50-640 Nitro Tower, Windows 11"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another desktop's code",
			a:          Item{Brand: "Acer", Title: "Acer Nitro N50-640 Gaming Desktop PC"},
			b:          Item{Brand: "Acer", Title: "Acer Nitro N50-656 Gaming Desktop PC"},
			wantReason: "code",
		},
		// Three-character model names in identifier fields.
		{
			name:     "a short model name in a field",
			a:        Item{Brand: "Logitech", ModelNumber: "G29", Title: "Logitech Racing Wheel and Pedals, Black"},
			b:        Item{Brand: "Logitech", Title: "Logitech G29 Racing Wheel and Pedals Black"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "another short model name in a field",
			a:          Item{Brand: "Logitech", ModelNumber: "G29", Title: "Logitech Racing Wheel and Pedals"},
			b:          Item{Brand: "Logitech", ModelNumber: "G27", Title: "Logitech Racing Wheel and Pedals"},
			wantReason: "code",
		},
		// A code ending a title in a clause of its own.
		{
			name:     "a stock number against a listing with a part number",
			a:        Item{Brand: "Belkin", ModelNumber: "CAB003BT1MBK", Title: "Belkin BoostCharge USB-C Cable 1m Black"},
			b:        Item{Brand: "Belkin", Title: "Belkin BoostCharge USB-C Cable 1m Black - BL4471"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "different stock numbers",
			a:          Item{Brand: "Belkin", Title: "Belkin BoostCharge USB-C Cable 1m Black - BL4470"},
			b:          Item{Brand: "Belkin", Title: "Belkin BoostCharge USB-C Cable 1m Black - BL4471"},
			wantReason: "code",
		},
		// Part numbers that disagree outrank a code only the titles share.
		{
			name:       "a connector's code shared by two products",
			a:          Item{Brand: "StarTech", ModelNumber: "MXT1013M", Title: "StarTech DE15 VGA Monitor Cable 3m"},
			b:          Item{Brand: "StarTech", ModelNumber: "DVI2VGA15", Title: "StarTech DVI to DE15 VGA Adapter"},
			wantReason: "title",
		},
		{
			name:     "a part number the other title spells in pieces",
			a:        Item{Brand: "Cooler Master", ModelNumber: "MASTERBOX520", Title: "Cooler Master MasterBox 520 Mesh ATX Case"},
			b:        Item{Brand: "Cooler Master", ModelNumber: "MB520-KGNN-S00", Title: "Cooler Master MasterBox 520 Mesh Mid Tower Case"},
			wantSame: true, wantReason: "code",
		},
		// Digits a retailer puts before a long part number.
		{
			name:     "a part number with two digits in front",
			a:        Item{Brand: "Creative", ModelNumber: "51MF1700AA001", Title: "Creative Pebble V3 Desktop Speakers"},
			b:        Item{Brand: "Creative", ModelNumber: "MF1700AA001", Title: "Creative Labs Pebble V3 USB-C Computer Speakers White"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "three digits in front are another number",
			a:          Item{Brand: "Creative", ModelNumber: "510MF1700AA001", Title: "Creative Pebble V3 Desktop Speakers"},
			b:          Item{Brand: "Creative", ModelNumber: "MF1700AA001", Title: "Creative Labs Pebble V3 USB-C Computer Speakers White"},
			wantReason: "title",
		},
		// A part number against a code of its series in the other title.
		{
			name:       "a part number of the series another title names",
			a:          Item{Brand: "Brother", ModelNumber: "TN2410", Title: "Brother TN2420 Toner Cartridge Black"},
			b:          Item{Brand: "Brother", Title: "Brother TN2420 Black Toner Cartridge, High Yield"},
			wantReason: "code",
		},
		{
			name:     "a part number and a model name of one shape",
			a:        Item{Brand: "Acer", MPN: "NX.KDEEK.001", Title: "Acer Aspire 3 A315 15.6in Laptop Silver"},
			b:        Item{Brand: "Acer", Title: "Acer Aspire 3 A315 Laptop, 15.6 Inch, Silver"},
			wantSame: true, wantReason: "code",
		},
	}
	runCompare(t, tests)
}
