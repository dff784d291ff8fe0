package match

import "testing"

// TestCompareRetailerSpellings covers the evidence rules for the ways
// retailers write one product differently, each with a pair the rule must
// not merge.
func TestCompareRetailerSpellings(t *testing.T) {
	tests := []compareCase{
		{
			name:     "a brand guessed from a title's first word gives way to a shared code",
			a:        Item{Retailer: "A", Brand: "Bateria", BrandGuessed: true, Title: "BATERIA ZB-E10 (Z1100)"},
			b:        Item{Retailer: "B", Brand: "Zentor", Title: "Zentor lithium-ion battery pack ZB-E10 for Z1100 camera"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a brand the listing gives does not",
			a:          Item{Retailer: "A", Brand: "Bateria", Title: "BATERIA ZB-E10 (Z1100)"},
			b:          Item{Retailer: "B", Brand: "Zentor", Title: "Zentor lithium-ion battery pack ZB-E10 for Z1100 camera"},
			wantReason: "brand",
		},
		{
			name:       "a guessed brand still keeps apart titles that share no code",
			a:          Item{Retailer: "A", Brand: "Tarjeta", BrandGuessed: true, Title: "Tarjeta SDHC 32GB clase 10"},
			b:          Item{Retailer: "B", Brand: "Zentor", Title: "Zentor 32GB SDHC card class 10"},
			wantReason: "brand",
		},
		{
			name:     "a used listing's condition and grade are no title words",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme Vistar Quill tripod"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Used Acme Vistar Quill tripod B - Very Good"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a refurbished listing's grade is no title word",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme Vistar Quill tripod"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Refurbished Acme Vistar Quill tripod Grade B - Excellent"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a model number and its revision digit after a slash",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme ZXWD149/1 washer dryer white"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme ZXWD1491 7kg wash 5kg dry 1400rpm integrated washer dryer white"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a spin speed glued to its unit is no shared code",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme ZQWD8514 integrated washer dryer 1400spin 8 5kg"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme ZQXC4851 washer dryer 1400 spin"},
			wantReason: "code",
		},
		{
			name:       "washer dryers of other models with the same loads",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme ZQDC6125 washer dryer 6kg/5kg 1200 spin white"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme ZQDE6147 6kg/5kg washer dryer"},
			wantReason: "code",
		},
		{
			name:     "a model code spelt after a lone letter",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme z 28stm microwave oven freestanding 23 litres"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme z 28stm. case design countertop interior capacity 23 l"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a shared model-line word under model codes that do not relate",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme ZVB20LP1 50s style cream freezer"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme ZAB32RNC 50s style cream no frost freezer"},
			wantReason: "title/model-name",
		},
		{
			name:       "a code spelt in pieces with another suffix of its own",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme ZWC 61452 S 6 kg 1400 spin washing machine"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme ZWC61452W 6kg washing machine"},
			wantReason: "code",
		},
		{
			name:     "a code spelt in pieces with its suffix",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme ZWC 61452 W 6 kg 1400 spin washing machine"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme ZWC61452W 6kg washing machine"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a code's last letter written apart, beside the code without it",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme ZWDD7143 S 7kg 5kg 1400 spin washer dryer"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme ecotime ZWDD7143S washer dryer"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a code in pieces written twice across a slash",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme zdd 750p/zdd 750p"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme ZDD750P washer dryer"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a model number without its revision digit",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme ZXWD149 integrated washer dryer"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme ZXWD1491 built in washer dryer 1400rpm 7 5kg"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a count after a part number field's separator is no revision",
			a:          Item{Retailer: "A", Brand: "Acme", ModelNumber: "ZCUSB232_4", Title: "Acme 4 port usb to serial adapter hub ZCUSB232 4"},
			b:          Item{Retailer: "B", Brand: "Acme", ModelNumber: "ZCUSB2328", Title: "Acme ZCUSB2328 8 port usb to serial adapter hub"},
			wantReason: "code",
		},
		{
			name:       "two models listed with a slash are no revision",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme ZX10/2 battery"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme ZX102 battery"},
			wantReason: "model-line",
		},
		{
			name:     "a code ending in letters and its revision digit",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme ZQXV31K undercounter fridge"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme ZQXV31K1 55cm wide freestanding under counter fridge black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a code ending in letters and its revision set apart by points",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme ZQXV31K 55cm undercounter freezer in black"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme ZQXV31K.1.1 undercounter freezer black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a short code ending in letters and a digit more is another model",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme ZQ15B slimline dishwasher"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme ZQ15B1 slimline dishwasher"},
			wantReason: "title",
		},
		{
			name:       "a short code ending in letters and two digits more is another model",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme ZQX31K fridge"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme ZQX31K11 fridge"},
			wantReason: "title",
		},
		// Measures stated to different precision.
		{
			name:     "a rounded screen size",
			a:        Item{Brand: "Toshiba", Title: "Toshiba 32WV2E63DB 32\" HD Ready Smart TV Black"},
			b:        Item{Brand: "Toshiba", Title: "Toshiba 32WV2E63DB 31.5\" HD Ready LED Smart TV, Black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "two decimals that differ",
			a:          Item{Brand: "Lenovo", Title: "Lenovo IdeaPad Slim 3 15IAN8 15.6\" Laptop Arctic Grey"},
			b:          Item{Brand: "Lenovo", Title: "Lenovo IdeaPad Slim 3 15IAN8 15.0\" Laptop Arctic Grey"},
			wantReason: "model-line",
		},
		{
			name:       "a whole number is not a rounded half",
			a:          Item{Brand: "Belkin", Title: "Belkin HDMI Cable 2m Gold Plated"},
			b:          Item{Brand: "Belkin", Title: "Belkin HDMI Cable 1.5m Gold Plated"},
			wantReason: "model-line",
		},
		{
			name:     "a fraction and a decimal",
			a:        Item{Brand: "Seagate", Title: "Seagate BarraCuda 2TB 3-1/2\" Internal Hard Drive"},
			b:        Item{Brand: "Seagate", Title: "Seagate BarraCuda 2TB 3.5\" SATA Internal Hard Drive"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "another fraction",
			a:          Item{Brand: "Seagate", Title: "Seagate BarraCuda 2TB 2-1/2\" Internal Hard Drive"},
			b:          Item{Brand: "Seagate", Title: "Seagate BarraCuda 2TB 3-1/2\" Internal Hard Drive"},
			wantReason: "model-line",
		},
		// Colour letters at the end of model codes.
		{
			name:     "BK and BL both black",
			a:        Item{Brand: "Yamaha", Title: "Yamaha Sound Bar with Wireless Subwoofer in Black YAS209BK"},
			b:        Item{Brand: "Yamaha", Title: "Yamaha YAS-209 Soundbar YAS209BL"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "SIL and SL both silver",
			a:        Item{Brand: "Yamaha", Title: "Yamaha Integrated Stereo Amplifier in Silver AS301SIL"},
			b:        Item{Brand: "Yamaha", Title: "Yamaha A-S301 Stereo Amplifier A-S301SL"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "pink letters against a white slash letter",
			a:          Item{Brand: "Sony", Title: "Sony SRS-XB100 Pink Portable Bluetooth Speaker SRSXB100P"},
			b:          Item{Brand: "Sony", Title: "Sony SRSXB100 Portable Wireless Speaker SRSXB100/W"},
			wantReason: "colour",
		},
		{
			name:       "a colour letter after a slash against a stated colour",
			a:          Item{Brand: "Sony", Title: "Sony SRS-XB100 Black Portable Bluetooth Speaker SRSXB100"},
			b:          Item{Brand: "Sony", Title: "Sony SRSXB100 Portable Wireless Speaker SRSXB100/R"},
			wantReason: "colour",
		},
		{
			name:       "a colour name written into the code",
			a:          Item{Brand: "Sony", Title: "Sony Walkman 8GB MP3 Player NWE394BLACK"},
			b:          Item{Brand: "Sony", Title: "Sony Walkman NW-E394 8GB MP3 Player NWE394WHITE"},
			wantReason: "colour",
		},
		{
			name:     "the maker's letters for the colour both listings state",
			a:        Item{Brand: "Panasonic", Title: "Panasonic Premium Micro Hi-Fi System in Black SCPMX802BK"},
			b:        Item{Brand: "Panasonic", Title: "Panasonic SC-PMX802EB Micro Hi-Fi System 120W Black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "letters for another colour than the titles state",
			a:          Item{Brand: "JBL", Title: "JBL Black Go 4 Portable Speaker JBLGO4BLK"},
			b:          Item{Brand: "JBL", Title: "JBL Go 4 Portable Speaker Black JBLGO4WHT"},
			wantReason: "code",
		},
		// A market's letter after an appliance's model number.
		{
			name:       "a model number and the same with its market letter",
			a:          Item{Brand: "Acme", Title: "Acme MWX84M421B 25l freestanding microwave oven"},
			b:          Item{Brand: "Acme", Title: "Acme MWX84M421 Mikrowelle 25l 900W"},
			wantReason: "code",
		},
		{
			name:       "a market letter that spells a colour the titles do not state",
			a:          Item{Brand: "Acme", Title: "Acme KFG36VL32G fridge freezer"},
			b:          Item{Brand: "Acme", Title: "Acme KFG36VL32 Kühl-Gefrierkombination"},
			wantReason: "code",
		},
		{
			name:       "a model number and the same with the maker's GB",
			a:          Item{Brand: "Acme", Title: "Acme WXD28541GB 7kg integrated washer dryer"},
			b:          Item{Brand: "Acme", Title: "Acme Waschtrockner vollintegrierbar WXD28541"},
			wantReason: "code",
		},
		{
			name:       "a model number ending in letters and the same with the maker's G",
			a:          Item{Brand: "Acme", Title: "Acme ZSV36VW3PG upright fridge white"},
			b:          Item{Brand: "Acme", Title: "Acme Standkühlschrank weiß ZSV36VW3P"},
			wantReason: "code",
		},
		{
			name:     "a model number ending in letters and another letter glued on",
			a:        Item{Brand: "Acme", Title: "Acme ZSV36VW3PH upright fridge white"},
			b:        Item{Brand: "Acme", Title: "Acme upright fridge ZSV36VW3P"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a short model number and the same with a letter that spells no colour",
			a:          Item{Brand: "Acme", Title: "Acme ZMF147X 7kg washing machine stainless steel"},
			b:          Item{Brand: "Acme", Title: "Acme ZMF147 freestanding washing machine 7kg 1400rpm"},
			wantReason: "code",
		},
		{
			name:     "a short model number and the same with a letter while a title states a colour",
			a:        Item{Brand: "Acme", Title: "Acme ZMF147X 7kg washing machine stainless steel"},
			b:        Item{Brand: "Acme", Title: "Acme ZMF147 freestanding washing machine 7kg 1400rpm in white"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a shop's UK after a model number",
			a:        Item{Brand: "Acme", Title: "Acme DWF16B17UK 13 place integrated dishwasher"},
			b:        Item{Brand: "Acme", Title: "Acme DWF16B17 integrated dishwasher white"},
			wantSame: true, wantReason: "code",
		},
		// A series' letters before a short number.
		{
			name:       "two series of one number",
			a:          Item{Brand: "Acme", Title: "Acme DSR15B1 white slimline 10 place dishwasher"},
			b:          Item{Brand: "Acme", Title: "Acme Ecotime DPG 15B1 NX built in dishwasher"},
			wantReason: "code",
		},
		{
			name:     "one series glued to its number or apart",
			a:        Item{Brand: "Acme", Title: "Acme DSR15B1 white slimline 10 place dishwasher"},
			b:        Item{Brand: "Acme", Title: "Acme DSR 15B1 K slimline dishwasher"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a kind's word before the number is no series",
			a:        Item{Brand: "Acme", Title: "Acme OLED55C3 55 inch television"},
			b:        Item{Brand: "Acme", Title: "Acme TV 55C3 OLED 55 inch"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "one model number with its market letter in both titles",
			a:        Item{Brand: "Acme", Title: "Acme MWX84M421B 25l freestanding microwave oven"},
			b:        Item{Brand: "Acme", Title: "Acme MWX84M421B microwave in white"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a glued letter that spells the colour a title states",
			a:        Item{Brand: "Acme", Title: "Acme Compact Camera CMX350B"},
			b:        Item{Brand: "Acme", Title: "Acme CM-X350 18MP Digital Camera Black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a maker's own colour letter while a title states a colour",
			a:        Item{Brand: "Acme", Title: "Acme CM-LX100 12.8MP Compact Camera Black"},
			b:        Item{Brand: "Acme", Title: "Acme Camera with Leica lens CMLX100K"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a letter after a short code is a colour or a retailer's",
			a:        Item{Brand: "Acme", Title: "Acme DHTS217B home theatre system"},
			b:        Item{Brand: "Acme", Title: "Acme DHTS217 home theatre system"},
			wantSame: true, wantReason: "code",
		},
		// Brands.
		{
			name:     "a brand misspelt by one letter with a shared code",
			a:        Item{Brand: "Logitch", Title: "Logitch G305 Lightspeed Wireless Gaming Mouse"},
			b:        Item{Brand: "Logitech", Title: "Logitech G305 LIGHTSPEED Wireless Gaming Mouse, Black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "short brands one letter apart",
			a:          Item{Brand: "Ankar", Title: "Ankar A2633 65W USB-C Charger"},
			b:          Item{Brand: "Anker", Title: "Anker A2633 735 Charger Nano II 65W"},
			wantReason: "brand",
		},
		// Model names without a code.
		{
			name:     "a code of letters written in pieces",
			a:        Item{Brand: "Sony", Title: "Sony Travel Charger and Rechargeable Battery Kit ACCTRW"},
			b:        Item{Brand: "Sony", Title: "Sony ACC-TRW accessory kit black"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a phrase both titles write alike is no code",
			a:          Item{Brand: "Verbatim", Title: "Verbatim CD/DVD/BD Lens Cleaning Disc"},
			b:          Item{Brand: "Verbatim", Title: "Verbatim CD/DVD/BD Storage Wallet"},
			wantReason: "title",
		},
		{
			name:     "a letter code with a series prefix",
			a:        Item{Brand: "Nintendo", Title: "Nintendo Switch Lite Blue Handheld Games Console HDHSBBZAA"},
			b:        Item{Brand: "Nintendo", Title: "Nintendo Switch Lite (Blue) SBBZAA"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a hyphenated word is no prefixed code",
			a:          Item{Brand: "Kensington", Title: "Kensington SmartFit Conform Keyboard Wrist Support, Black"},
			b:          Item{Brand: "Kensington", Title: "New-SmartFit Gel Mouse Mat with Wrist Support, Black"},
			wantReason: "title",
		},
		{
			name:     "a three-digit model number",
			a:        Item{Brand: "Sennheiser", Title: "Sennheiser HD 599 Open Back Headphones Ivory 508824"},
			b:        Item{Brand: "Sennheiser", Title: "Sennheiser HD 599 Over-Ear Audiophile Headphones"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a four-digit model number in pieces",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme Stand Gefrierschrank ZF 6193 AW EEK A"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme Gefrierschrank H 145 cm ZF 6193 AW"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a round number is no model name",
			a:          Item{Brand: "TP-Link", Title: "TP-Link Powerline 600 Passthrough Adapter Starter Kit"},
			b:          Item{Brand: "TP-Link", Title: "TP-Link Powerline 600 Wi-Fi Extender"},
			wantReason: "title",
		},
		{
			name:     "a part number ending the clause of the device it fits",
			a:        Item{Brand: "Spigen", Title: "Spigen Ultra Hybrid Case for iPhone 15 Pro ACS06707", Category: "Phones", Accessory: true},
			b:        Item{Brand: "Spigen", Title: "Spigen iPhone 15 Pro Ultra Hybrid Clear Case ACS06707", Category: "Phones", Accessory: true},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "the code of the device a charger fits is the device's",
			a:          Item{Brand: "Fonken", Title: "Fonken 65W Charger for HP Victus 15-FA1003NA", Category: "Laptops", Accessory: true},
			b:          Item{Brand: "HP", Title: "HP Victus 15-FA1003NA Gaming Laptop", Category: "Laptops"},
			wantReason: "type",
		},
		{
			name:     "a part number after the word kit",
			a:        Item{Brand: "Garmin", Title: "Garmin Edge Bike Mount and Tether Kit 0101256300"},
			b:        Item{Brand: "Garmin", Title: "Garmin Edge Bike Mount/Tether Kit 010-12563-00"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a model number followed by its letter",
			a:        Item{Brand: "Garmin", Title: "Garmin Forerunner 255S GPS Running Smartwatch 0100264112"},
			b:        Item{Brand: "Garmin", Title: "Garmin Forerunner 255 S Smartwatch 41mm 010-02641-12"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another model number",
			a:          Item{Brand: "Garmin", Title: "Garmin Forerunner 255 S Smartwatch"},
			b:          Item{Brand: "Garmin", Title: "Garmin Forerunner 265 S Smartwatch"},
			wantReason: "model-line",
		},
		{
			name:     "the start of a code is no model number",
			a:        Item{Brand: "HP", Title: "HP Laptop 15 Intel Core i5 8GB 512GB SSD 15SFQ5022NA"},
			b:        Item{Brand: "HP", Title: "HP Laptop 15s-fq5022na Intel Core i5 8GB 512GB SSD"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a Samsung region after a slash",
			a:        Item{Brand: "Samsung", Title: "Samsung All in One Lifestyle Soundbar in Black HWS60T"},
			b:        Item{Brand: "Samsung", Title: "Samsung Lifestyle Soundbar Wi-Fi HW-S60 / XEU"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "Roman numerals",
			a:        Item{Brand: "Blizzard", Title: "Diablo IV (PlayStation 5)"},
			b:        Item{Brand: "Blizzard", Title: "Diablo 4 - PlayStation 5"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "Mark II against Mark III",
			a:          Item{Brand: "Canon", Title: "Canon PowerShot G7 X Mark II Digital Camera"},
			b:          Item{Brand: "Canon", Title: "Canon PowerShot G7 X Mark III Digital Camera"},
			wantReason: "model-line",
		},
		{
			name:     "words written with and without hyphens",
			a:        Item{Brand: "Anker", Title: "Anker 4-Port USB Hub"},
			b:        Item{Brand: "Anker", Title: "Anker USB Data Hub, 4 Port"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a part number without its leading zeros",
			a:        Item{Brand: "Hama", ModelNumber: "200638", Title: "Hama USB-C Charging Cable 1m Black"},
			b:        Item{Brand: "Hama", ModelNumber: "00200638", Title: "Hama USB Type-C Charge Cable, 1 m, Black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another part number",
			a:          Item{Brand: "Hama", ModelNumber: "200638", Title: "Hama USB-C Charging Cable 1m Black"},
			b:          Item{Brand: "Hama", ModelNumber: "00200639", Title: "Hama USB Type-C Charge Cable, 1 m, Black"},
			wantReason: "code",
		},
		// Editions of a product.
		{
			name:       "a bundle against the product alone",
			a:          Item{Brand: "Logitech", Title: "Logitech Signature M650 Wireless Mouse Bundle"},
			b:          Item{Brand: "Logitech", Title: "Logitech Signature M650 Wireless Mouse Graphite 910-006253"},
			wantReason: "edition",
		},
		{
			name:     "two bundles",
			a:        Item{Brand: "Logitech", Title: "Logitech Signature M650 Wireless Mouse Bundle"},
			b:        Item{Brand: "Logitech", Title: "Logitech M650 Wireless Mouse and Pad Bundle"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a bundle under one part number",
			a:        Item{Brand: "Microsoft", Title: "Microsoft Xbox Series S 512GB Console and Game Pass Bundle (RRS-00010)"},
			b:        Item{Brand: "Microsoft", Title: "Microsoft RRS-00010 Xbox Series S 512GB Digital Console"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "an upgrade licence",
			a:          Item{Brand: "Microsoft", Title: "Microsoft Windows 11 Pro Upgrade"},
			b:          Item{Brand: "Microsoft", Title: "Microsoft Windows 11 Pro"},
			wantReason: "edition",
		},
		{
			name:       "a remanufactured cartridge",
			a:          Item{Brand: "HP", Title: "HP 305XL High Yield Black Original Ink Cartridge 3YM62AE"},
			b:          Item{Brand: "Jettec", Title: "Remanufactured HP305XL Black Ink Cartridge 3YM62AE"},
			wantReason: "edition",
		},
		// Paper sizes and platforms.
		{
			name:       "A4 and A3",
			a:          Item{Brand: "HP", Title: "HP Premium Plus Glossy Photo Paper A4 50 Sheets"},
			b:          Item{Brand: "HP", Title: "HP Premium Plus Glossy Photo Paper A3 50 Sheets"},
			wantReason: "model-line",
		},
		{
			name:     "two paper sizes in both titles",
			a:        Item{Brand: "Brother", Title: "Brother A3 Inkjet Printer with A4 Scanner and Fax"},
			b:        Item{Brand: "Brother", Title: "Brother A3 Inkjet Printer, A4 Scanner & Fax, White"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "Mac and Windows editions",
			a:          Item{Brand: "Logitech", Title: "Logitech MX Keys Mini Wireless Keyboard for Mac"},
			b:          Item{Brand: "Logitech", Title: "Logitech MX Keys Mini Wireless Keyboard for Windows"},
			wantReason: "model-line",
		},
		{
			name:     "an edition for both platforms",
			a:        Item{Brand: "Logitech", Title: "Logitech MX Keys Mini Wireless Keyboard Win/Mac"},
			b:        Item{Brand: "Logitech", Title: "Logitech MX Keys Mini Wireless Keyboard for Mac"},
			wantSame: true, wantReason: "title",
		},
		// Descriptions.
		{
			name:     "a part number of digits in the description",
			a:        Item{Brand: "Garmin", Title: "Garmin Varia Out-Front Bike Mount 0101231400"},
			b:        Item{Brand: "Garmin", Title: "Garmin Out-Front Mount", Description: "Garmin 010-12314-00 out-front mount"},
			wantSame: true, wantReason: "description-code",
		},
		{
			name:       "another part number in the description",
			a:          Item{Brand: "Garmin", Title: "Garmin Varia Out-Front Bike Mount 0101231400"},
			b:          Item{Brand: "Garmin", Title: "Garmin Out-Front Mount", Description: "Garmin 010-12314-01 out-front mount"},
			wantReason: "title",
		},
	}
	runCompare(t, tests)
}

func TestAboutEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"14", "14.7", true},  // megapixels, truncated
		{"32", "31.5", true},  // a screen, rounded
		{"15", "15.6", true},  // a laptop screen
		{"25", "24.7", true},  // litres
		{"2", "2.0", true},    // the same value
		{"4.0", "4.2", false}, // two decimals
		{"2", "1.5", false},   // a quarter apart
		{"6", "6.5", false},   // more than five per cent
		{"14", "15", false},   // two whole numbers
		{"x", "1", false},     // not numbers
	}
	for _, tt := range tests {
		if got := aboutEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("aboutEqual(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := aboutEqual(tt.b, tt.a); got != tt.want {
			t.Errorf("aboutEqual(%q, %q) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestOneTypo(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"logitch", "logitech", true},   // one slip (see lexer.OneSlip)
		{"sony", "sonu", false},         // too short to tell
		{"panasonic", "pioneer", false}, // another maker
	}
	for _, tt := range tests {
		if got := oneTypo(tt.a, tt.b); got != tt.want {
			t.Errorf("oneTypo(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := oneTypo(tt.b, tt.a); got != tt.want {
			t.Errorf("oneTypo(%q, %q) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestSplitIn(t *testing.T) {
	words := []string{"anker", "usb", "4", "port", "4port", "hub"}
	tests := []struct {
		name string
		in   []string
		want bool
	}{
		{"the other title writes the words apart", []string{"anker", "usb", "hub", "4", "port"}, true},
		{"the other title lacks a piece", []string{"anker", "usb", "hub", "port"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := splitIn(words, 4, tt.in); got != tt.want {
				t.Errorf("splitIn(%q, 4, %q) = %v, want %v", words, tt.in, got, tt.want)
			}
		})
	}
}

func TestColourOfBrandNamedAfterColour(t *testing.T) {
	tests := []struct {
		name string
		it   Item
		want string
	}{
		{"the brand's colour word", Item{Brand: "Black Box", Title: "BLACK-BOX Cat6 Patch Cable 2m in Blue"}, "blue"},
		{"the brand alone", Item{Brand: "Red Magic", Title: "Red Magic 9 Pro 5G Gaming Phone 512GB"}, ""},
		{"a colour after another brand", Item{Brand: "Sony", Title: "Sony Brown Leather Case"}, "brown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := colourOf(tt.it); got != tt.want {
				t.Errorf("colourOf(%q) = %q, want %q", tt.it.Title, got, tt.want)
			}
		})
	}
}

func TestEditions(t *testing.T) {
	tests := []struct {
		title string
		want  edition
	}{
		{"Logitech Signature M650 Wireless Mouse Bundle", edBundle},
		{"Microsoft Windows 11 Home to Pro Upgrade", edUpgrade},
		{"Microsoft Windows 11 Pro Academic Licence", edAcademic},
		{"Remanufactured HP 305XL Black Ink Cartridge", edThirdParty},
		{"Logitech Signature M650 Wireless Mouse", 0},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			if got := profileOf(Item{Title: tt.title}, Options{}).edition; got != tt.want {
				t.Errorf("edition of %q = %b, want %b", tt.title, got, tt.want)
			}
		})
	}
}

// TestComparePhoneModels covers how phones' titles name a model: a line and
// its generation, variant words, short model names, and what the learned
// scorer may not join.
func TestComparePhoneModels(t *testing.T) {
	tests := []compareCase{
		{
			name: "one model line and generation and one storage, whatever else the titles say",
			a: Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela 16 5g smartphone brilliant display blazing speed all day battery 256gb pink",
				Specs: map[string]float64{"storage_gb": 256}},
			b:        Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme vela 16 256gb pink", Specs: map[string]float64{"storage_gb": 256}},
			wantSame: true, wantReason: "model-name",
		},
		{
			name: "another generation of the line stays apart",
			a: Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela 16 5g smartphone brilliant display blazing speed all day battery 256gb pink",
				Specs: map[string]float64{"storage_gb": 256}},
			b:          Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme vela 15 256gb pink", Specs: map[string]float64{"storage_gb": 256}},
			wantReason: "model-line",
		},
		{
			name: "XL after another variant word is a model's variant too",
			a: Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela 9 pro xl 512gb 6.8 single sim 5g smartphone porcelain",
				Specs: map[string]float64{"storage_gb": 512}},
			b:          Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "sim free acme vela 9 pro 512gb porcelain", Specs: map[string]float64{"storage_gb": 512}},
			wantReason: "variant",
		},
		{
			name:       "short model names of one shape that differ are two models",
			a:          Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme zorin a50 4gb ram 128gb awesome blue"},
			b:          Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme zorin a51 smartphone 4gb ram 128gb awesome blue"},
			wantReason: "code",
		},
		{
			name:       "a model's name glued to its number and letter, against the number alone",
			a:          Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme zorin 9 4g 32gb sim free"},
			b:          Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "smartphone acme zorin9a 32gb granite grey 4g sim free"},
			wantReason: "code",
		},
		{
			name:     "a model's name glued to its number and letter, against them written apart",
			a:        Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme zorin 9a 32gb sim free"},
			b:        Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "smartphone acme zorin9a 32gb granite grey 4g sim free"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "storage written short is no shared code",
			a:          Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela 12 pro 5g 256g gold single sim zgmr3b/a"},
			b:          Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "zgee3b/a acme vela 12 mini 5g 256g gold"},
			wantReason: "code",
		},
		{
			name:     "a part number against the model's name glued to its number",
			a:        Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme zorin xtreme 4s 32gb black (zm-g398fn)"},
			b:        Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme zorin xtreme4s 32 gb black 4g"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "the learned scorer does not join titles whose model names share nothing",
			a:          Item{Retailer: "A", Brand: "Acme", Category: "Phones", Title: "acme vela6 lite 8gb ram 256gb starry blue"},
			b:          Item{Retailer: "B", Brand: "Acme", Category: "Phones", Title: "acme 300 lite 5g smartphone 6.7 inch sim free 8gb ram 256gb starry blue"},
			wantReason: "title",
		},
	}
	runCompare(t, tests)
}

// TestCompareSeriesAndKitCodes covers codes that name a series or a kit
// rather than the product, and accessories' fit clauses.
func TestCompareSeriesAndKitCodes(t *testing.T) {
	tests := []compareCase{
		{
			name:     "a fit clause in the plural meets the device named in the singular",
			a:        Item{Retailer: "A", Brand: "Acme", Accessory: true, Title: "Acme 0945 Compact Flash Memory Card Case (Black)"},
			b:        Item{Retailer: "B", Brand: "Acme", Accessory: true, Title: "Acme 0945 Memory Card - case for memory cards"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a fit clause naming another device still keeps accessories apart",
			a:          Item{Retailer: "A", Brand: "Acme", Accessory: true, Title: "Acme 0945 Compact Flash Memory Card Case (Black)"},
			b:          Item{Retailer: "B", Brand: "Acme", Accessory: true, Title: "Acme 0945 case for action cameras"},
			wantReason: "fit",
		},
		{
			name:       "a series code two listings share beside longer codes of their own",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme QX300 ZN236W00MG 60cm freestanding dishwasher white"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme QX300 KF39NXI35 freestanding fridge freezer white"},
			wantReason: "code",
		},
		{
			name:       "a series code beside model codes of one shape and length that differ",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme Vivo200 QWF71463W washing machine 7 kg white"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme QWF71443W Vivo200 7kg 1400rpm freestanding washing machine white"},
			wantReason: "code",
		},
		{
			name:     "a series code beside a model code and its series' short name still joins",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme QN7500 55'' 55QN75006LF uhd led tv"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme 55QN75006LF 55\" QN75 4k uhd smart tv"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a shared code beside a longer code of one listing only still joins",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme QX3005 ZN236W00MG 60cm freestanding dishwasher white"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme QX3005 freestanding dishwasher white"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a kit number's suffix spelt apart tells kits of one number apart",
			a:          Item{Retailer: "A", Brand: "Acme", Title: "Acme 731094 k31 2.4ghz 8mb processor kit"},
			b:          Item{Retailer: "B", Brand: "Acme", Title: "Acme 731094 r31 2.4ghz 8mb processor kit"},
			wantReason: "code",
		},
		{
			name:     "a kit number with its suffix spelt apart meets it written whole",
			a:        Item{Retailer: "A", Brand: "Acme", Title: "Acme 731094 k31 processor upgrade"},
			b:        Item{Retailer: "B", Brand: "Acme", Title: "Acme 731094-K31 2.4ghz processor kit"},
			wantSame: true, wantReason: "code",
		},
	}
	runCompare(t, tests)
}
