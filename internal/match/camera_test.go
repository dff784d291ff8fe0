package match

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompareCameraNames covers the words that name a camera or a lens
// apart from its code: a generation in roman numerals, a focus motor, a
// line's letter after the brand.
func TestCompareCameraNames(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "two generations of one body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vista Z6 II mirrorless camera body"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vista Z6 III mirrorless camera body"},
			wantReason: "model-line",
		},
		{
			name:       "two versions of one lens",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme EF 50mm f/1.8 II lens"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme EF 50mm f/1.8 III lens"},
			wantReason: "model-line",
		},
		{
			name:       "a maker's letters after the aperture",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vistar AF 50mm f1.8D"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vistar AF-S 50mm f1.8G"},
			wantReason: "model-line",
		},
		{
			name:     "the same letters after the aperture, written two ways",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vistar AF-S 50mm f1.8G lens"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vistar AF-S 50mm f/1.8G"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "one range with two focus motors",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme RF 24-105mm f/4L IS USM lens"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme RF 24-105mm f/4-7.1 IS STM lens"},
			wantReason: "model-line",
		},
		{
			name:     "one focus motor, stated once",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme RF 24-105mm f/4-7.1 IS STM lens"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme RF 24-105mm f/4-7.1 IS lens"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a line's letter after the brand is no generation",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme x m5 mirrorless camera with xc 15 45mm lens silver"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme x s20 mirrorless camera with xc 15 45mm lens"},
			wantReason: "title",
		},
		{
			name:     "a name and its number written together or apart",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme trekker5 4k action cam"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme trekker 5 waterproof action camera edition"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a sensor's optical format is no screen size",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: `acme vista zx540 hs compact camera 20.3mp 3" display`},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: `acme vista zx540 hs 20.3mp 1/2.3" cmos compact camera`},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a generation glued on as M and a digit",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme dsc-zx100m3 20.1mp"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista zx100 iii compact camera"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a generation glued on against the line's first",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme dsc-zx100m3 20.1mp"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista dsc-zx100"},
			wantReason: "model-line",
		},
		{
			name:       "a generation glued on against another written after Mark",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme cyber shot dsc zx100 mark iii"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme dsc-zx100m4"},
			wantReason: "model-line",
		},
		{
			name:       "a number and a letter after the line's name are a model's name",
			a:          Item{Brand: "Acme", Title: "Acme EOS 60D (no lens included) 18-megapixel"},
			b:          Item{Brand: "Acme", Title: "Acme EOS 7D (no lens included) 18-megapixel"},
			wantReason: "title",
		},
		{
			name:       "a Mark against none is the line's first",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 6d mark ii body"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 6d body"},
			wantReason: "model-line",
		},
		{
			name:     "a part number outranks a Mark",
			a:        Item{Brand: "Acme", Title: "acme 4gb memory stick duo mark 2 media card mszt4g"},
			b:        Item{Brand: "Acme", Title: "acme 4gb memory stick duo card mszt4g"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a brand's digits name no model",
			a:          Item{Brand: "Zentor360", Category: "Cameras", Title: "zentor360 x4 action cam motorcycle bundle"},
			b:          Item{Brand: "Zentor360", Category: "Cameras", Title: "zentor360 ace pro 2 action camera dual battery bundle"},
			wantReason: "variant",
		},
		{
			name:       "a code without a numeral is a line's first",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vista RX100 20.2MP compact camera black"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vista compact camera RX100 II, 20.2MP, black"},
			wantReason: "model-line",
		},
		{
			name:     "one code and one numeral",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme Vista RX100 III 20.1MP compact camera"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme RX100 III premium compact"},
			wantSame: true, wantReason: "code",
		},
	})
}

// TestCompareGraphicsNames checks that a graphics line's name ("GT",
// "RX") names a graphics processor only in a computer's title or one that
// speaks of graphics; elsewhere it is a model's code or a line's name.
func TestCompareGraphicsNames(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "a freezer's code written apart",
			a:        Item{Brand: "Frostline", Title: "frostline gt 6122"},
			b:        Item{Brand: "Frostline", Title: "frostline gt6122 chest freezer white 3 baskets"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a phone line's name and number",
			a:          Item{Brand: "Acme", Category: "Phones", Title: "Acme GT 7 5G 256GB"},
			b:          Item{Brand: "Acme", Category: "Phones", Title: "Acme GT 7 Pro 5G 256GB"},
			wantReason: "variant",
		},
		{
			name:       "two laptops with one graphics processor",
			a:          Item{Brand: "Acme", Category: "Laptops", Title: "Acme Book 14 i5 8GB 256GB SSD GeForce MX150"},
			b:          Item{Brand: "Acme", Category: "Laptops", Title: "Acme Book 15 i7 16GB 512GB SSD GeForce MX150"},
			wantReason: "model-line",
		},
	})
}

// TestCompareCameras covers lenses named by their focal range and
// aperture, and camera generations written apart or glued on.
func TestCompareCameras(t *testing.T) {
	tests := []compareCase{
		{
			name:       "zoom lenses with one long end and one aperture",
			a:          Item{Brand: "Acme", Title: "Acme 75-300mm f/4-5.6 III Zoom Lens"},
			b:          Item{Brand: "Acme", Title: "Acme AF 70-300mm F4-5.6L IS Zoom Lens"},
			wantReason: "model-line",
		},
		{
			name:       "two apertures of one focal length",
			a:          Item{Brand: "Acme", Title: "Acme 50mm f/1.8 Prime Lens"},
			b:          Item{Brand: "Acme", Title: "Acme 50mm f/1.4 Prime Lens"},
			wantReason: "model-line",
		},
		{
			name:     "one lens with its range written apart from its unit",
			a:        Item{Brand: "Acme", Title: "ACME AF 24-70 mm F2.8L USM objectif"},
			b:        Item{Brand: "Acme", Title: "Acme AF 24-70mm F2.8L USM Zoom Lens"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a camera with a lens against the lens",
			a:          Item{Brand: "Acme", Title: "Acme EOS Rebel T5i 700D 18MP Digital SLR DSLR Camera Kit with AF-S 18-55mm F3.5-5.6 IS STM Lens, Black"},
			b:          Item{Brand: "Acme", Title: "Acme AF-S 18-55mm F3.5-5.6 IS STM Lens"},
			wantReason: "edition",
		},
		{
			name:       "a camera with a lens against the lens, ranges written with spaces",
			a:          Item{Brand: "Acme", Title: "acme eos r10 mirrorless camera with rf s 18 45mm f/4.5 6.3 is stm lens"},
			b:          Item{Brand: "Acme", Title: "acme rf s 18 45mm f/4.5 6.3 is stm lens"},
			wantReason: "edition",
		},
		{
			name:     "a zoom named by its widest aperture alone",
			a:        Item{Brand: "Acme", Title: "acme ef-s 17mm 85mm f/4 usm is zoom lens"},
			b:        Item{Brand: "Acme", Title: "acme ef-s 17-85mm f/4-5.6 is usm standard zoom lens"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a shop's name of two words joined by a digit",
			a:          Item{Brand: "Acme", Title: "Acme Extreme 32GB Compact Flash Card Optics4Birding"},
			b:          Item{Brand: "Acme", Title: "Acme Aluminium Tripod with Ball Head Optics4Birding"},
			wantReason: "title",
		},
		{
			name:     "a generation glued to its model",
			a:        Item{Brand: "Acme", Title: "Acme Alpha A7RII Mirrorless Camera Body"},
			b:        Item{Brand: "Acme", Title: "Acme Alpha a7R II Full-Frame Camera Body"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "two generations glued to one model",
			a:          Item{Brand: "Acme", Title: "Acme Alpha A7RII Camera Body"},
			b:          Item{Brand: "Acme", Title: "Acme Alpha A7RIII Camera Body"},
			wantReason: "model-line",
		},
		{
			name:       "Mk and Mark",
			a:          Item{Brand: "Acme", Title: "Acme EOS 5D Mk IV DSLR Camera Body"},
			b:          Item{Brand: "Acme", Title: "Acme EOS 5D Mark III DSLR Camera Body"},
			wantReason: "model-line",
		},
		{
			name:     "a bare f-number after the focal range, its letter apart",
			a:        Item{Brand: "Acme", Title: "Acme EF 70-200mm f/4L USM"},
			b:        Item{Brand: "Acme", Title: "Acme EF 70-200mm F4 L USM"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a bare f-number after one focal length names an aperture",
			a:          Item{Brand: "Acme", Title: "Acme 35mm F2 Prime Lens"},
			b:          Item{Brand: "Acme", Title: "Acme 35mm f/1.4 Prime Lens"},
			wantReason: "model-line",
		},
		{
			name:     "a plus before a colon",
			a:        Item{Brand: "Acme", Title: "Acme Hero3+ Silver Edition"},
			b:        Item{Brand: "Acme", Title: "Acme HERO3+: Silver Edition"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a plus before a colon against none",
			a:          Item{Brand: "Acme", Title: "Acme HERO3+: Silver Edition"},
			b:          Item{Brand: "Acme", Title: "Acme HERO3: Silver Edition"},
			wantReason: "variant",
		},
		{
			name:     "one lens, its focal range and aperture written two ways",
			a:        Item{Brand: "Acme", Title: "ACME 24-70 mm f/2.8 L II USM"},
			b:        Item{Brand: "Acme", Title: "Acme EF 24-70mm f/2.8L II USM - Shopwijzer"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a body against a kit with two lenses",
			a:          Item{Brand: "Acme", Title: "Acme Alpha a6100 Mirrorless Camera - Body only"},
			b:          Item{Brand: "Acme", Title: "Acme Alpha a6100 Mirrorless Camera with 16-50mm and 55-210mm Lenses Black"},
			wantReason: "edition",
		},
	}
	runCompare(t, tests)
}

// TestCompareCameraSpellings covers the ways shops write one camera's name:
// a line's letter with a hyphen or without, a line's word or its initial,
// a generation after "Mark" or alone.
func TestCompareCameraSpellings(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "a model's last letter written apart from its number",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x100 f"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x100f"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a model's last letter against the model without it",
			a:          Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x100 compact camera"},
			b:          Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x100f compact camera"},
			wantReason: "code",
		},
		{
			name:     "a line's letter and a model's written with a hyphen and run together",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x-t3 body"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma xt3 body black"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a line's word and a model's number against its initial and the number",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma a6000 body"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma alpha 6000 body"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a line's letter written apart from the model's name, against them run together",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x t4 body only black"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma xt4 - body only"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a model's name with its line's letter, and a sensor's name and number later",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x-t4 body only, x-trans 4 sensor"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma xt4 body only"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a line's variant word after its model's name",
			a:          Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma vista 5 session 4k action camera"},
			b:          Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma vista5 4k waterproof action camera"},
			wantReason: "variant",
		},
		{
			name:     "a lens mount's letters before the kit's focal range",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma vista 7 iii + fe 28-70mm oss lens kit black"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma vista 7 iii + 28-70mm oss lens kit"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a body only after a clause of what the camera is for, against its kit",
			a:          Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x s20 mirrorless camera engineered for performance body only"},
			b:          Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma x s20 mirrorless camera with xc 15 45mm lens"},
			wantReason: "edition",
		},
		{
			name:     "a model's code against its line's word and number in a title of other words",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "alpha 6100 body fotoma"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma a6100 24.2mp csc body 180 degree tilt screen"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a line's word and a number against its initial and another number",
			a:          Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma a6300 body"},
			b:          Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma alpha 6000 body"},
			wantReason: "title",
		},
		{
			name:     "a generation written after Mark and without it",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma om-d e-m10 mark iii + 14-42mm"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma e-m10 iii 14-42mm kit"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "generations written after Mark and without it",
			a:          Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma om-d e-m10 mark iii + 14-42mm"},
			b:          Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma e-m10 ii 14-42mm kit"},
			wantReason: "model-line",
		},
		{
			name:     "the kind of camera after its model's name, no variant's word",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma xt4 compact system camera body only black"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma xt4 mirrorless digital camera - body only black"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a premium compact camera",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma zv1 premium compact camera, 20.1 megapixel"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma zv-1 20.1mp 4k vlogging compact camera black"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a slim body, no variant's word",
			a:        Item{Retailer: "A", Brand: "Fotoma", Category: "Cameras", Title: "fotoma g9 x mark ii 20.1mp compact camera slim body silver"},
			b:        Item{Retailer: "B", Brand: "Fotoma", Category: "Cameras", Title: "fotoma g9x ii 20.1mp compact camera silver"},
			wantSame: true, wantReason: "model-name",
		},
	})
}

// TestCompareCameraKits covers a camera sold alone, in kits and combos of
// other names, and with one lens or two.
func TestCompareCameraKits(t *testing.T) {
	tests := []compareCase{
		{
			name:       "a kit named by a bare focal range and its lens's letters, against the body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 200d 18-55 is stm kit black"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 200d body"},
			wantReason: "edition",
		},
		{
			name:       "a kit of one bare focal range against a kit of two",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 200d 18-55 is stm kit black"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 200d 18-55 is stm and 75-300 iii twin lens kit"},
			wantReason: "edition",
		},
		{
			name:     "a kit named by a bare focal range and one after a plus",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 200d 18-55 is stm kit black"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 200d + 18-55mm is stm black"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "kits of one range whose lenses' letters and generations differ",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 1300d + 18-55mm is ii"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 1300d + 18-55mm dc iii"},
			wantReason: "model-line",
		},
		{
			name:     "kits of one lens and its generation",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 1300d + 18-55mm is ii"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 1300d 18-55 is ii kit"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a camera with a lens, called no mirrorless one, against its body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme z30 vlogging camera body only"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme z30 vlogging camera with vistar z dx 16 50mm lens"},
			wantReason: "edition",
		},
		{
			name:     "a body with a lens is the kit",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme X-T20 Body with XF 18-55mm Lens Kit (Silver)"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme X-T20 Camera Body with XF18-55mm (Silver)"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a lens after a plus makes the kit",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 80d body"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 80d + 18-135mm"},
			wantReason: "edition",
		},
		{
			name:     "a kit written with a plus or with 'with'",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme z50 + 16-50mm f/3.5-6.3"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme z50 mirrorless camera with 16-50mm lens"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a focal range with its millimetres or without",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista 8 + 24-70mm"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista 8 24-70 kit"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "one lens after a plus against two",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme z50 + 16-50mm"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme z50 + 16-50mm 50-250mm"},
			wantReason: "edition",
		},
		{
			name:       "one camera in combos of other names",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme osmo action 4 action camera standard combo"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme osmo action 4 action camera adventure combo"},
			wantReason: "edition",
		},
		{
			name:       "the standard package against an edition of another name",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista 13 black action camera standard"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista 13 black action camera creator edition"},
			wantReason: "edition",
		},
		{
			name:     "a standard zoom is no package",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vistar 24-70mm f/4 standard zoom lens"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vistar 24-70mm f/4 lens"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "one edition's name, on a body-worn camera",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme VCC-005 HD body camera special edition"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "Acme VCC-005 HD body camera special edition"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a camera's creator kit against its body alone",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos r50 mirrorless camera content creator kit white"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos r50 mirrorless camera body only white"},
			wantReason: "edition",
		},
		{
			name:     "a kit one title names and the other leaves unsaid",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos r50 mirrorless camera content creator kit white"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos r50 content creator kit mirrorless camera white"},
			wantSame: true, wantReason: "title",
		},
		{
			name: "a camera with two lenses against it with one",
			a: Item{Brand: "Acme", Category: "Cameras",
				Title: "acme eos r50 mirrorless camera with rf s 18 45mm & rf s 55 210mm lenses white"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos r50 mirrorless camera with rf s 18 45mm f/4.5 6.3 is stm lens white"},
			wantReason: "edition",
		},
	}
	runCompare(t, tests)
}

// TestCompareCameraShortNames covers cameras named by short names and
// generations as shops write them: a Mark written short or glued, a short
// name glued or apart, the words that describe it.
func TestCompareCameraShortNames(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:     "compact before the kind of camera is no variant",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista a7c compact full frame mirrorless camera body"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista a7c mirrorless camera body"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a Mark against the generation alone, the model's letter apart and glued",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista g7 x mark ii compact camera"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista g7x ii compact camera"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a short model name both titles give, the rest unlike",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme lumix g9 - body"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme lumix g9 20.3mp mirrorless digital camera"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a short model name written apart and glued",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista z 6 body"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista z6 24.5mp csc body"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a camera's short model name with words that describe it after it",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista z6 24.5 mp compact system camera body"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista z6 full frame mirrorless body only"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a short model name against the line's name and number after the brand",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme a7iii 24.2mp mirrorless digital camera (body only) black"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme alpha 7 iii - body only black"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "megapixels written out and as a unit",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista r8 24.2 megapixel mirrorless camera body"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista r8 24.2mp mirrorless camera body"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a short model name with another word after it",
			a:          Item{Brand: "Acme", Category: "Phones", Title: "acme g7 thinq smartphone with ai camera"},
			b:          Item{Brand: "Acme", Category: "Phones", Title: "acme g7 fit smartphone 6.1 inch display"},
			wantReason: "title",
		},
		{
			name:     "a Mark written short after the model, against it glued to the part number",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista rx100 m3 black"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme dsc-rx100m3"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a Mark written short against another in roman numerals",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista rx100 mk5 compact camera"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista rx100 iv compact camera"},
			wantReason: "model-line",
		},
		{
			name:     "a Mark written short against the same in roman numerals",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista rx100 mk5 compact camera"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista rx100 v compact camera"},
			wantSame: true, wantReason: "code",
		},
	})
}

// TestCompareCameraKitSpellings covers kits a title names without a kit's
// name or a "with": the model's bare "Kit", its zoom after its model, its
// lens after a dash.
func TestCompareCameraKitSpellings(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "a kit's focal range without its hyphen and unit, against the body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista 200d 24 2 megapixel 18 55 is stm kit"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista 200d body"},
			wantReason: "edition",
		},
		{
			name:       "two focal ranges without their hyphens, against one",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista 2000d twin lens kit 18 55 75 300"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista 2000d 18 55 is ii"},
			wantReason: "edition",
		},
		{
			name:       "a kit's focal range with the lens mount's letters glued on, against the body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista x-t30 xf18-55mm kit black"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista x-t30 body black"},
			wantReason: "edition",
		},
		{
			name:       "the same without the hyphen",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista x s10 xc15 45mm kit"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista x s10 26.1 mp csc body black"},
			wantReason: "edition",
		},
		{
			name:     "a phone's line letter, number and storage are no focal range",
			a:        Item{Brand: "Acme", Category: "Phones", Title: "acme galaxy s 20 128 gb"},
			b:        Item{Brand: "Acme", Category: "Phones", Title: "acme galaxy s20 128gb cloud pink"},
			wantSame: true, wantReason: "title",
		},
		{
			name:     "a kit's title that gives its lens's part number",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista a6000 compact system camera with selp1650 16-50mm lens"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista alpha a6000 + 16-50mm black zlce6000lb"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a model's kit, unnamed, against its body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista a6000 kit"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme vista a6000 body only"},
			wantReason: "edition",
		},
		{
			name:     "a model's kit, unnamed, against the kit with its lens",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista a6000 kit"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme vista a6000 + 16-50mm lens"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a camera's model before a zoom is a kit, not the lens",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 2000d 18-55mm is ii"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme ef-s 18-55mm f/3.5-5.6 is ii lens"},
			wantReason: "edition",
		},
		{
			name:       "a kit written with the lens after a dash, against the body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 80d - ef-s 18-135mm is usm lens"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 80d body"},
			wantReason: "edition",
		},
		{
			name:     "a mark's Roman numeral before a lens range's name is no length in metres",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme om d e m10 mark iii 14 42mm ez pancake kit"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme om d e m10 mark iii m.zuiko 14 42mm f/3.5 5.6 ez black"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "nor does it hide the mark",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme om d e m10 mark iii m.zuiko 14 42mm f/3.5 5.6 ez black"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme om d e m10 mark ii m.zuiko 14 42mm f/3.5 5.6 ez black"},
			wantReason: "model-line",
		},
		{
			name:     "a kit written with the lens after a dash, against the kit",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 80d - ef-s 18-135mm is usm lens"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 80d dslr with 18-135mm is usm lens"},
			wantSame: true, wantReason: "title",
		},
	})
}

// TestGroupCameraWithCard checks that a camera sold with a memory card
// joins the camera's listings: the card's size is no configuration of the
// camera.
func TestGroupCameraWithCard(t *testing.T) {
	cam := func(retailer, title string) Item {
		return Item{Retailer: retailer, Brand: "Acme", Category: "Cameras", Title: title}
	}
	items := []Item{
		cam("A", "acme hero9 black 32gb microsd card"),
		cam("B", "acme hero9 black"),
		cam("C", "hero9 black acme"),
		cam("D", "acme hero9 black 20mp action camera"),
		cam("E", "acme hero8 black"),
	}
	items[0].Specs = map[string]float64{"storage_gb": 32}
	want := [][]int{{0, 1, 2, 3}, {4}}
	if diff := cmp.Diff(want, Group(items)); diff != "" {
		t.Errorf("Group mismatch (-want +got):\n%s", diff)
	}
}

// TestGroupCameraGluedBody checks that a body's word glued to a camera's
// name ("D780Body") sells the body: the listing joins the bodies, not the
// kit, and its name stays a code the camera's part number does not
// contradict.
func TestGroupCameraGluedBody(t *testing.T) {
	cam := func(retailer, title string) Item {
		return Item{Retailer: retailer, Brand: "Acme", Category: "Cameras", Title: title}
	}
	items := []Item{
		cam("A", "acme d780body black"),
		cam("B", "ACME D780 VBA560AE CAMERA BODY"),
		cam("C", "Acme D780 with 24-120mm f/4 lens kit"),
	}
	want := [][]int{{0, 1}, {2}}
	if diff := cmp.Diff(want, Group(items)); diff != "" {
		t.Errorf("Group mismatch (-want +got):\n%s", diff)
	}
}

// TestCompareCameraBundles checks that a camera sold as a bundle with
// what a shop adds is the camera, and a kit with a lens still another
// product.
func TestCompareCameraBundles(t *testing.T) {
	cam := func(retailer, title string) Item {
		return Item{Retailer: retailer, Brand: "Acme", Category: "Cameras", Title: title}
	}
	runCompare(t, []compareCase{
		{
			name:     "a spare battery bundle",
			a:        cam("A", "acme vista g7 x mark ii camera spare battery bundle"),
			b:        cam("B", "acme vista g7 x mark ii 20.1mp compact camera"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a camera and its lens, and the camera with it",
			a:        cam("A", "acme k 70 and da l 18 55mm wr lens silver"),
			b:        cam("B", "acme k70 digital slr camera with da 18 55mm f/3.5 5.6 al wr lens"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "a body with a shop's bundle of extras named before the word",
			a:        cam("A", "acme d5600 dslr camera body only black tripod bundle"),
			b:        cam("B", "acme d5600 body only black"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "and a tripod kit",
			a:        cam("A", "acme vista a6000 body only tripod kit"),
			b:        cam("B", "acme vista a6000 body black"),
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a bundle with a lens against the body",
			a:          cam("A", "acme d7200 bundle with 18-140mm lens"),
			b:          cam("B", "acme d7200 dslr body only"),
			wantReason: "edition",
		},
	})
}

// TestGroupCameraLettersApart checks that a camera's line letters and
// number a comparison site prints apart ("zq 1f" for "ZQ-1F") name its
// model: listings with other words join, and the model without the
// number's letter stays apart.
func TestGroupCameraLettersApart(t *testing.T) {
	cam := func(retailer, title string) Item {
		return Item{Retailer: retailer, Brand: "Acme", Category: "Cameras", Title: title}
	}
	items := []Item{
		cam("A", "acme zq 1f vlog camera black"),
		cam("B", "acme zq 1f vlog camera in black"),
		cam("C", "acme zq 1f vlog camera engineered for performance black"),
		cam("D", "acme zq 1 vlog camera black"),
		cam("E", "acme tv 4k camera black"),
		cam("F", "acme tv 4k camera premium quality everyday price"),
	}
	want := [][]int{{0, 1, 2}, {3}, {4}, {5}}
	if diff := cmp.Diff(want, Group(items)); diff != "" {
		t.Errorf("Group mismatch (-want +got):\n%s", diff)
	}
}

// TestCompareCameraLetters covers a camera's model letters, variant words
// and generations as shops write them, and a brand with a number in it.
func TestCompareCameraLetters(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "a letter after a short code that the stated colour is not names the model",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme Lumix Z1 - Body [DC-Z1]"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "z1r black - dc-z1r"},
			wantReason: "code",
		},
		{
			name:       "a model's letter written apart after its name, as a site prints a hyphen",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme q10 p csc body"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme q10 body only black"},
			wantReason: "code",
		},
		{
			name:     "a model's letter written apart and glued",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme q10 p csc body"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme q10p rangefinder body only"},
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a lens mount's letter after the camera's name is no model letter",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme a6400 e pz 16 50mm f/3.5 5.6 oss lens"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme alpha a6400 16 50mm lens kit"},
			wantSame: true, wantReason: "code",
		},
		{
			name:       "a variant's word after a line's name and number run together",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "HERO5 SESSION ACTION CAM - BLACK"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "ACME HERO5 Black Action Cam, 4K Video, 12MP, Black"},
			wantReason: "variant",
		},
		{
			name:       "a brand with a number in its name names no model line",
			a:          Item{Brand: "Zenta360", Category: "Cameras", Title: "NEW Zenta360 ONE X2 360 Camera Black (UK Model)"},
			b:          Item{Brand: "Zenta360", Category: "Cameras", Title: "ZENTA360 ONE X 360 ACTION CAMERA - FAST DISPATCH"},
			wantReason: "title",
		},
		{
			name:       "a lens's generation right after its focal range",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos t6 digital slr camera and 18-55mm f3.5-5.6 is ii lens kit"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "Acme EOS T6 / EF-S 18-55mm III / Black + Case"},
			wantReason: "model-line",
		},
	})
}
