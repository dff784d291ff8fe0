package match

import "testing"

// TestCompareCameraEditions covers two cameras of one model name sold
// alike, whatever else their titles say, and what tells a body, a kit and
// a lens apart: a prime lens's length and aperture, a body in German.
func TestCompareCameraEditions(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name: "a body with its part number, against the body described at length",
			a:    Item{Brand: "Acme", Category: "Cameras", Title: "acme 1892c003 eos 77d body"},
			b: Item{Brand: "Acme", Category: "Cameras",
				Title: "acme eos 77d 24.2 mp dslr camera body only vari-angle touchscreen bluetooth black"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:     "one camera described at length and in short",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 77d dslr camera white 24.2mp aps-c sensor 4k video flip screen"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 77d white"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a camera described at length, against its kit of a name",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 77d dslr camera white 24.2mp aps-c sensor 4k video flip screen"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 77d vlogger kit white"},
			wantReason: "title/model-name",
		},
		{
			name: "a number and a letter after the brand or the line name the body",
			a:    Item{Brand: "Acme", Category: "Cameras", Title: "acme 5d mk3 body only"},
			b: Item{Brand: "Acme", Category: "Cameras",
				Title: "acme eos 5d mark iii spiegelreflexkamera 22,3 megapixel vollformat nur body schwarz"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name: "a number and a letter after the brand or the line, another body",
			a:    Item{Brand: "Acme", Category: "Cameras", Title: "acme 5d mk3 body only"},
			b: Item{Brand: "Acme", Category: "Cameras",
				Title: "acme eos 6d mark iii spiegelreflexkamera 22,3 megapixel vollformat nur body schwarz"},
			wantReason: "title",
		},
		{
			name:     "a letter and a digit name the body",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme lumix g9 body only"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme lumix g9 systemkamera 20,3 megapixel dual i.s. 4k 60p body schwarz"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a body in German, as a comparison site prints it, against a kit",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 77d spiegelreflexkamera 24,2 megapixel nur geh use schwarz"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 77d 18-55mm kit"},
			wantReason: "edition",
		},
		{
			name:       "a body in German, against a kit",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 77d spiegelreflexkamera (24,2 megapixel) nur gehäuse schwarz"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 77d 18-55mm kit"},
			wantReason: "edition",
		},
		{
			name:     "a line's name and a number with a letter, against its initial written on",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme alpha 7r iii body only black"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme a7r iii 42.4mp mirrorless camera body black"},
			wantSame: true, wantReason: "model-name",
		},
		{
			name:       "a line's name and a number with a letter, against the number alone",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme alpha 7c csc body only full frame 24.2 megapixel"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme a7 body"},
			wantReason: "title",
		},
		{
			name:       "a camera with a prime lens, against its body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme x-e4 csc with 27mm f/2.8 lens silver"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme x e4 body - no lens silver"},
			wantReason: "edition",
		},
		{
			name:       "a camera with a prime lens, against the lens",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme xf 27mm f/2.8 r wr lens"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme x-e4 with xf 27mm f/2.8 r wr lens"},
			wantReason: "edition",
		},
		{
			name:       "a zoom's range without its unit after a kit, against the body",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 760x body only"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 760x 24.2mp digital slr camera kit 18-55"},
			wantReason: "edition",
		},
		{
			name:       "a second zoom's range without its unit after the first, against a kit of one",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 2000x twin lens kit 18-55 & 75-300"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 2000x + 18-55 is ii"},
			wantReason: "edition",
		},
		{
			name:       "a zoom after German \"inkl.\" is the camera's kit",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme lumix dc s1 csc body black"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme s1 vollformat systemkamera inkl. s 24 105mm f4 macro o.i.s. black"},
			wantReason: "edition",
		},
		{
			name:       "editions named by a number and by a word",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "one q 4k edition acme"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme one q twin edition 360 action camera 5.7k 360"},
			wantReason: "edition",
		},
		{
			name:       "two cameras with one lens are not one camera",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme eos 800q 18 135mm f/3.5 5.6 lens 24.2 megapixel ds"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme 77q spiegelreflexkamera 18 135mm f/3.5 5.6 objektiv 24.2 mp full hd schwarz"},
			wantReason: "title",
		},
		{
			name:       "two zooms' ranges in a row, their hyphens and units dropped, are a twin-lens kit",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme d5600 af s dx 18 140mm lens 24.2 megapixel slr camera"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme d5600 digital slr 18 55 70 300"},
			wantReason: "edition",
		},
		{
			name:       "a twin-lens kit named in words, against a kit of one zoom",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme d5600 af s dx 18 140mm lens 24.2 megapixel slr camera"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme d 5600 double zoom kit 24.2 megapixel digital slr camera black"},
			wantReason: "edition",
		},
		{
			name:     "a length in millimetres without an aperture is no lens",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme ektra h35 35mm film camera half frame"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme ektra h35 half frame film camera body"},
			wantSame: true, wantReason: "title",
		},
	})
}

// TestCompareCameraLineNumbers covers a camera line's name written with
// and without a model's number.
func TestCompareCameraLineNumbers(t *testing.T) {
	runCompare(t, []compareCase{
		{
			name:       "a line's name without its number is the line's first model",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme hero black action camera"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme hero 7 black action camera"},
			wantReason: "model-line",
		},
		{
			name:     "a type's number is the line's",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme v-lux 109 black"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme v-lux (typ 109) black"},
			wantSame: true, wantReason: "title",
		},
		{
			name:       "a type's number against another number of the line",
			a:          Item{Brand: "Acme", Category: "Cameras", Title: "acme v-lux 7 black"},
			b:          Item{Brand: "Acme", Category: "Cameras", Title: "acme v-lux (typ 109) black"},
			wantReason: "model-line",
		},
		{
			name:     "a line's number written glued to its initial",
			a:        Item{Brand: "Acme", Category: "Cameras", Title: "acme alpha 7 iii body"},
			b:        Item{Brand: "Acme", Category: "Cameras", Title: "acme alpha a7 iii body"},
			wantSame: true, wantReason: "title",
		},
	})
}
