package match

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompareRetailerSpellings covers the evidence rules for the ways
// retailers write one product differently, each with a pair the rule must
// not merge.
func TestCompareRetailerSpellings(t *testing.T) {
	tests := []struct {
		name       string
		a, b       Item
		wantSame   bool
		wantReason string
	}{
		// Measures stated to different precision.
		{
			name:     "a rounded screen size",
			a:        Item{Brand: "Toshiba", Title: "Toshiba 32AV502U 32\" HD Ready LCD TV Black"},
			b:        Item{Brand: "Toshiba", Title: "Toshiba 32AV502U 31.5\" Widescreen 720p LCD TV, Piano Black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "two decimals that differ",
			a:          Item{Brand: "LG", Title: "LG F4V310WNE 4.0 cu ft Front Load Washing Machine White"},
			b:          Item{Brand: "LG", Title: "LG F4V310WNE 4.2 cu ft Front Load Washing Machine White"},
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
			a:        Item{Brand: "Weber", Title: "Weber Performer 22-1/2\" Charcoal Barbecue Grill"},
			b:        Item{Brand: "Weber", Title: "Weber Performer 22.5\" Charcoal Barbecue Grill, Black"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "another fraction",
			a:          Item{Brand: "Weber", Title: "Weber Original Kettle 18-1/2\" Charcoal Barbecue"},
			b:          Item{Brand: "Weber", Title: "Weber Original Kettle 22-1/2\" Charcoal Barbecue"},
			wantReason: "model-line",
		},
		// Colour letters at the end of model codes.
		{
			name:     "BK and BL both black",
			a:        Item{Brand: "Yamaha", Title: "Yamaha 7.2 Channel Home Cinema Receiver in Black RXV863BK"},
			b:        Item{Brand: "Yamaha", Title: "Yamaha RX-V863 AV Receiver RXV863BL"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "SIL and SL both silver",
			a:        Item{Brand: "Yamaha", Title: "Yamaha USB Powered Stereo Speaker Silver NXU10SIL"},
			b:        Item{Brand: "Yamaha", Title: "Yamaha NX-U10 USB Powered Speaker NX-U10SL"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "pink letters against a white slash letter",
			a:          Item{Brand: "Sony", Title: "Sony DVP-FX820 Pink 8\" Portable DVD Player DVPFX820P"},
			b:          Item{Brand: "Sony", Title: "Sony DVPFX820 Portable DVD Player DVPFX820/W"},
			wantReason: "colour",
		},
		{
			name:       "a colour letter after a slash against a stated colour",
			a:          Item{Brand: "Sony", Title: "Sony DVP-FX820 Black 8\" Portable DVD Player DVPFX820"},
			b:          Item{Brand: "Sony", Title: "Sony DVPFX820 Portable DVD Player DVPFX820/R"},
			wantReason: "colour",
		},
		{
			name:       "a colour name written into the code",
			a:          Item{Brand: "Sony", Title: "Sony mylo Personal Communicator COM2BLACK"},
			b:          Item{Brand: "Sony", Title: "Sony mylo COM-2 Personal Communicator COM2WHITE"},
			wantReason: "colour",
		},
		{
			name:     "the maker's letters for the colour both listings state",
			a:        Item{Brand: "Panasonic", Title: "Panasonic Genius Countertop Microwave in Black NNH965BK"},
			b:        Item{Brand: "Panasonic", Title: "Panasonic NN-H965BF Microwave Oven 1250W Black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "letters for another colour than the titles state",
			a:          Item{Brand: "Sony", Title: "Sony Black Speaker Dock Clock Radio ICFC1IPMK2BLK"},
			b:          Item{Brand: "Sony", Title: "Sony Dock Clock Radio Black ICFC1IPMK2WHI"},
			wantReason: "code",
		},
		// Brands.
		{
			name:     "a brand misspelt by one letter with a shared code",
			a:        Item{Brand: "Sennheisser", Title: "Sennheisser Hi-Fi Wireless Headphone RS120"},
			b:        Item{Brand: "Sennheiser", Title: "Sennheiser RS 120 Wireless Hi-Fi Headphone RS120"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "short brands one letter apart",
			a:          Item{Brand: "Boss", Title: "Boss 161 Speaker 161WH"},
			b:          Item{Brand: "Bose", Title: "Bose 161 Bookshelf Speakers 161WH"},
			wantReason: "brand",
		},
		// Model names without a code.
		{
			name:     "a code of letters written in pieces",
			a:        Item{Brand: "Sony", Title: "Sony Black Cyber-shot W Series Camera Carrying Case LCSCSL"},
			b:        Item{Brand: "Sony", Title: "Sony LCS-CSL Cyber-shot Soft Camera Case"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a phrase both titles write alike is no code",
			a:          Item{Brand: "Kaplan", Title: "Kaplan SAT/ACT/PSAT Gold Edition Windows"},
			b:          Item{Brand: "Kaplan", Title: "Kaplan SAT/ACT/PSAT Express Course"},
			wantReason: "title",
		},
		{
			name:     "a letter code with a series prefix",
			a:        Item{Brand: "Nintendo", Title: "Nintendo DS Lite Metallic Rose Portable Gaming System NDSUSGSZPB"},
			b:        Item{Brand: "Nintendo", Title: "Nintendo DS Lite (Metallic Rose) USGSZPB"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a hyphenated word is no prefixed code",
			a:          Item{Brand: "Innovera", Title: "Innovera SoftSkin Gel Keyboard Wrist Rest Black"},
			b:          Item{Brand: "Innovera", Title: "New-SoftSkin Gel Mouse Pad Wrist Rest Black"},
			wantReason: "title",
		},
		{
			name:     "a three-digit model number",
			a:        Item{Brand: "Plantronics", Title: "Plantronics Voyager 510 Bluetooth Headset Silver Finish 496915"},
			b:        Item{Brand: "Plantronics", Title: "Plantronics Voyager 510 Bluetooth Earset"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a round number is no model name",
			a:          Item{Brand: "LaCie", Title: "LaCie FireWire 800 ExpressCard 34 LAC130992"},
			b:          Item{Brand: "LaCie", Title: "LaCie FireWire 800 PCI Express Card"},
			wantReason: "title",
		},
		{
			name:     "a part number ending the clause of the device it fits",
			a:        Item{Brand: "Griffin", Title: "Griffin Elan Form for iPhone 3G 8223-IP2EFRMB", Category: "Phones", Accessory: true},
			b:        Item{Brand: "Griffin", Title: "Griffin iPhone 3G Black Elan Form Leather Case 8223IP2EFRMB", Category: "Phones", Accessory: true},
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
			a:        Item{Brand: "Garmin", Title: "Garmin Suction Cup Mount and 12-Volt Adapter Kit 0101097900"},
			b:        Item{Brand: "Garmin", Title: "Garmin Suction Cup Mount/12-Volt Adapter Kit 010-10979-00"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a model number followed by its letter",
			a:        Item{Brand: "TomTom", Title: "TomTom ONE XL 330S Sat Nav 1EG005201"},
			b:        Item{Brand: "TomTom", Title: "TomTom XL 330 S Portable Sat Nav 4.3\" 1EG0.052.01"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another model number",
			a:          Item{Brand: "TomTom", Title: "TomTom XL 330 S Portable Sat Nav"},
			b:          Item{Brand: "TomTom", Title: "TomTom XL 340 S Portable Sat Nav"},
			wantReason: "model-line",
		},
		{
			name:     "the start of a code is no model number",
			a:        Item{Brand: "Microsoft", Title: "Microsoft Office Home and Student 2007 79G00007"},
			b:        Item{Brand: "Microsoft", Title: "Microsoft Office 2007 Home and Student 79G-00007"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a Samsung region after a slash",
			a:        Item{Brand: "Samsung", Title: "Samsung 5 Disc Black Home Cinema System HTZ410T"},
			b:        Item{Brand: "Samsung", Title: "Samsung DVD Home Cinema 5 Disc HT-Z410 / XAA"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "Roman numerals",
			a:        Item{Brand: "LEGO", Title: "LEGO Star Wars II: The Original Trilogy"},
			b:        Item{Brand: "LEGO", Title: "LEGO Star Wars 2: The Original Trilogy"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "Mark II against Mark III",
			a:          Item{Brand: "Canon", Title: "Canon EOS 5D Mark II Digital SLR Body"},
			b:          Item{Brand: "Canon", Title: "Canon EOS 5D Mark III Digital SLR Body"},
			wantReason: "model-line",
		},
		{
			name:     "words written with and without hyphens",
			a:        Item{Brand: "Maytag", Title: "Maytag Over-the-Range Microwave Oven 2.0 cu. ft."},
			b:        Item{Brand: "Maytag", Title: "Maytag 2.0 cu ft Over the Range Microwave Oven"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a part number without its leading zero",
			a:        Item{Brand: "Avery", ModelNumber: "2160", Title: "Avery Laser Mailing Labels Mini-Sheet White 200 Pack"},
			b:        Item{Brand: "Avery", ModelNumber: "02160", Title: "Avery Mini-Sheets Laser Labels 1 x 2.625 in White 200 per Pack"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "another part number",
			a:          Item{Brand: "Avery", ModelNumber: "2160", Title: "Avery Laser Mailing Labels Mini-Sheet White 200 Pack"},
			b:          Item{Brand: "Avery", ModelNumber: "02161", Title: "Avery Mini-Sheets Laser Labels 1 x 2.625 in White 200 per Pack"},
			wantReason: "code",
		},
		// Editions of a product.
		{
			name:       "a bundle against the product alone",
			a:          Item{Brand: "Logitech", Title: "Logitech Wireless Mouse M310 Bundle"},
			b:          Item{Brand: "Logitech", Title: "Logitech Wireless Mouse M310 Silver 910-001675"},
			wantReason: "edition",
		},
		{
			name:     "two bundles",
			a:        Item{Brand: "Logitech", Title: "Logitech Wireless Mouse M310 Bundle"},
			b:        Item{Brand: "Logitech", Title: "Logitech M310 Wireless Mouse and Mat Bundle"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a bundle under one part number",
			a:        Item{Brand: "Adobe", Title: "Photoshop Elements 5 and Premiere Elements 3 Bundle (29180248)"},
			b:        Item{Brand: "Adobe", Title: "Adobe 29180248 Photoshop Elements 5.0 / Premiere Elements 3.0"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "an upgrade licence",
			a:          Item{Brand: "Adobe", Title: "Adobe Photoshop CS3 Extended Upgrade"},
			b:          Item{Brand: "Adobe", Title: "Adobe Photoshop CS3 Extended"},
			wantReason: "edition",
		},
		{
			name:       "a remanufactured cartridge",
			a:          Item{Brand: "HP", Title: "HP 58 Photo Inkjet Print Cartridge C6658AN"},
			b:          Item{Brand: "Performance Plus", Title: "Remanufactured HP58 Photo Inkjet Cartridge C6658AN"},
			wantReason: "edition",
		},
		// Paper sizes and platforms.
		{
			name:       "letter and legal",
			a:          Item{Brand: "Wilson Jones", Title: "Wilson Jones Wallet File Legal Recycled Kraft"},
			b:          Item{Brand: "Wilson Jones", Title: "Wilson Jones WCC7204RK - Wallet File Letter Recycled Kraft"},
			wantReason: "model-line",
		},
		{
			name:     "a legal rule on letter paper",
			a:        Item{Brand: "TOPS", Title: "TOPS Paper Pads Legal Rule Letter Size 50 Sheet Pads"},
			b:        Item{Brand: "TOPS", Title: "TOPS Paper Pads, Legal Rule, Letter Size, 50 Sheet Pads, White"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "Mac and Windows editions",
			a:          Item{Brand: "Adobe", Title: "Adobe Illustrator CS3 for Mac"},
			b:          Item{Brand: "Adobe", Title: "Adobe Illustrator CS3 for Windows"},
			wantReason: "model-line",
		},
		{
			name:     "an edition for both platforms",
			a:        Item{Brand: "Nova", Title: "Nova Print Artist Platinum 25 Win/Mac"},
			b:        Item{Brand: "Nova", Title: "Nova Print Artist Platinum 25 for Mac"},
			wantSame: true, wantReason: "title",
		},
		// Descriptions.
		{
			name:     "a part number of digits in the description",
			a:        Item{Brand: "Garmin", Title: "Garmin nuvi Portable Friction Mount 0101090800"},
			b:        Item{Brand: "Garmin", Title: "Garmin Portable Friction Mount", Description: "Garmin 010-10908-00 portable friction mount"},
			wantSame: true, wantReason: "description-code",
		},
		{
			name:       "another part number in the description",
			a:          Item{Brand: "Garmin", Title: "Garmin nuvi Portable Friction Mount 0101090800"},
			b:          Item{Brand: "Garmin", Title: "Garmin Portable Friction Mount", Description: "Garmin 010-10908-01 portable friction mount"},
			wantReason: "title",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.a, tt.b)
			if diff := cmp.Diff([2]any{tt.wantSame, tt.wantReason}, [2]any{got.Same, got.Reason}); diff != "" {
				t.Errorf("Compare(%q, %q) = %+v; mismatch (-want +got):\n%s", tt.a.Title, tt.b.Title, got, diff)
			}
			if back := Compare(tt.b, tt.a); back.Same != got.Same {
				t.Errorf("Compare is not symmetric: %+v one way, %+v the other", got, back)
			}
		})
	}
}

func TestAboutEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"14", "14.7", true},  // megapixels, truncated
		{"32", "31.5", true},  // a screen, rounded
		{"15", "15.6", true},  // a laptop screen
		{"25", "24.7", true},  // cubic feet
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
		{"sennheisser", "sennheiser", true}, // a letter added
		{"frigidarie", "frigidaire", true},  // neighbours swapped
		{"phillips", "philips", true},       // a letter added
		{"logitech", "logitach", true},      // a letter changed
		{"sony", "sonu", false},             // too short to tell
		{"samsung", "samsong1", false},      // two slips
		{"panasonic", "pioneer", false},     // another maker
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
	words := []string{"maytag", "over", "the", "range", "overtherange", "microwave"}
	tests := []struct {
		name string
		in   []string
		want bool
	}{
		{"the other title writes the words apart", []string{"maytag", "over", "the", "range", "microwave"}, true},
		{"the other title lacks a piece", []string{"maytag", "over", "range", "microwave"}, false},
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
		{"the brand's colour word", Item{Brand: "U.S. Brown Bear", Title: "US Brown Bear Large Tilt Mount in Silver"}, "silver"},
		{"the brand alone", Item{Brand: "Black & Decker", Title: "Black & Decker Dustbuster Handheld Vacuum"}, ""},
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
		{"Logitech Wireless Mouse M310 Bundle", edBundle},
		{"Adobe Photoshop CS3 Upgrade", edUpgrade},
		{"Adobe InDesign CS3 for Mac Academic", edAcademic},
		{"Remanufactured HP 58 Photo Cartridge", edThirdParty},
		{"Logitech Wireless Mouse M310", 0},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			if got := profileOf(Item{Title: tt.title}, Options{}).edition; got != tt.want {
				t.Errorf("edition of %q = %b, want %b", tt.title, got, tt.want)
			}
		})
	}
}
