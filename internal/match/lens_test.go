package match

import "testing"

// TestCompareCameraLensNames covers the lens a camera is sold with, named
// by its mount and focal range or by its own part number: two cameras sold
// with one lens share its name, and are two cameras.
func TestCompareCameraLensNames(t *testing.T) {
	camera := func(retailer, title string) Item {
		return Item{Retailer: retailer, Brand: "Acme", Category: "Cameras", Title: title}
	}
	runCompare(t, []compareCase{
		{
			name:       "a mount's letters and a focal range glued on name a lens, no model",
			a:          camera("A", "Acme X-T3 Mirrorless Camera + XF18-55mm F2.8-4 Lens Kit"),
			b:          camera("B", "ACME X-T20 MIRRORLESS DIGITAL CAMERA KIT XF 18-55MM F/2.8-4 R LM OIS"),
			wantReason: "model-line",
		},
		{
			name:     "the same camera with that lens, written apart and glued",
			a:        camera("A", "Acme X-T3 Mirrorless Camera + XF18-55mm F2.8-4 Lens Kit"),
			b:        camera("B", "ACME X-T3 MIRRORLESS DIGITAL CAMERA KIT XF 18-55MM F/2.8-4 R LM OIS"),
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a lens's part number before the word lens is the lens's",
			a:          camera("A", "acme alpha a6100 & zelp1650 lens kit"),
			b:          camera("B", "acme zlce6000 / and zelp1650 lens / uk"),
			wantReason: "code",
		},
		{
			name:     "and the camera's code still names it",
			a:        camera("A", "acme zlce6000 & zelp1650 lens kit"),
			b:        camera("B", "acme zlce6000 / and zelp1650 lens / uk"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "letters after a slash that start a lens's name end no code",
			a:        camera("A", "Acme Alpha a6100 Digital Camera Kit E PZ 16-50mm f/3.5-5.6 OSS"),
			b:        camera("B", "ACME ALPHA A6100 / E PZ 16-50MM F/3.5-5.6 OSS LENS / BLACK"),
			wantSame: true, wantReason: "code",
		},
		{
			name:     "a kit named by the lens after it is the lens kit",
			a:        camera("A", "Acme X-T3 Mirrorless Camera + XF18-55mm F2.8-4 Lens Kit"),
			b:        camera("B", "ACME XT3 Interchangeable Lens Camera APS-C 26.1MP Silver 4K Video Kit 18-55mm"),
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a lens's mount and focal length name no camera",
			a:          camera("A", "acme x t30 mirrorless camera xc15 45mm lens silver"),
			b:          camera("B", "acme x a7 with xc15 45mm lens 32gb sd card"),
			wantReason: "title",
		},
		{
			name:       "a lens's aperture glued to its focal range names no model",
			a:          camera("A", "Acme X-T200 & XC 15-45mm f/3.5-5.6 OIS PZ Lens Kit"),
			b:          camera("B", "Acme X-A7 Mirrorless Camera XC15-45mmF3.5-5.6 Kit"),
			wantReason: "title",
		},
		{
			name:       "a bare range after \"w/\" is a kit's lens",
			a:          camera("A", "Acme X-S10 / w/ 15-45 / Black"),
			b:          camera("B", "Acme X-S10 with XF 18-55mm f/2.8-4 R LM OIS Black"),
			wantReason: "model-line",
		},
		{
			name:       "a zoom after \"w/\" sells the camera with it",
			a:          camera("A", "NEW ACME EOS R6 CSC W/ RF 24-105MM F4-7.1 IS STM BLACK"),
			b:          camera("B", "Acme EOS R6 CSC Body Black"),
			wantReason: "edition",
		},
		{
			name:       "a lens after Spanish \"con\" sells the camera with it",
			a:          camera("A", "acme eos r6 / compact system camera / body only / 20.1mp / black"),
			b:          camera("B", "Acme R6 Cámara sin espejo (20,1 MP, 4K) con objetivo RF 24-105mm F4L Negro"),
			wantReason: "edition",
		},
		{
			name:       "a French body against a kit",
			a:          camera("A", "Acme EOS R6 Appareil photo hybride Boîtier nu Noir"),
			b:          camera("B", "Acme EOS R6 Mirrorless Camera Kit RF 24-105mm f/4-7.1 IS STM"),
			wantReason: "edition",
		},
		{
			name:       "a focal range without its unit is the lens's, no item number",
			a:          camera("A", "ACME EOS 77D Appareil photo Reflex + Objectif 18-135 USM Noir"),
			b:          camera("B", "ACME EOS 850D 18-135 mm IS USM"),
			wantReason: "title",
		},
		{
			name:       "a bare range before an aperture, after a mount's letters, is a kit's lens",
			a:          camera("A", "Acme EOS 2000D - Body"),
			b:          camera("B", "Acme EOS 2000D + EF-S 18-55 f/3.5-5.6 IS II mit Objektiv schwarz"),
			wantReason: "edition",
		},
	})
}
