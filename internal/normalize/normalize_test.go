package normalize

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/feed"
)

var shop = Retailer{Name: "Example Electricals", Slug: "example"}

// listingCase is one case of testdata/listings.json: a record and either the
// listing it gives or the reason it is rejected.
type listingCase struct {
	Name    string           `json:"name"`
	Record  feed.Record      `json:"record"`
	Options Options          `json:"options"`
	Want    *catalog.Listing `json:"want,omitempty"`
	Reject  string           `json:"reject,omitempty"`
}

func TestListing(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "listings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []listingCase
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("testdata/listings.json: %v", err)
	}
	if len(cases) < 15 {
		t.Fatalf("testdata/listings.json has %d cases, want at least 15", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			if (tc.Want == nil) == (tc.Reject == "") {
				t.Fatal("a case needs exactly one of want and reject")
			}
			got, err := Listing(tc.Record, shop, tc.Options)
			if tc.Reject != "" {
				var rej *Rejection
				if !errors.As(err, &rej) {
					t.Fatalf("Listing() = %+v, %v; want rejection %s", got, err, tc.Reject)
				}
				if rej.Reason != tc.Reject {
					t.Fatalf("rejection %q, want reason %s", rej, tc.Reject)
				}
				if diff := cmp.Diff(catalog.Listing{}, got); diff != "" {
					t.Errorf("rejected row returned a listing (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("Listing() error = %v", err)
			}
			if diff := cmp.Diff(*tc.Want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListingRetailer(t *testing.T) {
	rec := feed.Record{ID: "1", Title: "x", Price: "1", Link: "https://example.co.uk/1"}
	tests := []struct {
		r    Retailer
		want string // error substring; "" for none
	}{
		{Retailer{Name: "A", Slug: "a"}, ""},
		{Retailer{Name: "Currys PC World", Slug: "currys-pc-world"}, ""},
		{Retailer{Name: "", Slug: "a"}, "no name"},
		{Retailer{Name: "A", Slug: ""}, "slug"},
		{Retailer{Name: "A", Slug: "Argos"}, "slug"},
		{Retailer{Name: "A", Slug: "-a"}, "slug"},
		{Retailer{Name: "A", Slug: "a-"}, "slug"},
		{Retailer{Name: "A", Slug: "a_b"}, "slug"},
	}
	for _, tt := range tests {
		t.Run(tt.r.Name+"/"+tt.r.Slug, func(t *testing.T) {
			_, err := Listing(rec, tt.r, Options{})
			var rej *Rejection
			if errors.As(err, &rej) {
				t.Fatalf("retailer problem reported as a rejection: %v", err)
			}
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Listing() error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestPrice(t *testing.T) {
	tests := []struct {
		in      string
		want    float64
		wantErr string // substring of the error; "" for none
	}{
		{"699.00", 699, ""},
		{"£1,299.99", 1299.99, ""},
		{"1299.99 GBP", 1299.99, ""},
		{"GBP 1,299", 1299, ""},
		{"GBP1299", 1299, ""},
		{"699.00GBP", 699, ""},
		{"gbp 5", 5, ""},
		{"  £ 49.5  ", 49.5, ""},
		{"£GBP 10", 10, ""},
		{"1.299,00", 1299, ""},
		{"1.299.000", 0, "implausibly large"},
		{"999.999", 1000, ""},
		{"12,99", 12.99, ""},
		{"1,299", 1299, ""},
		{"1,2999", 1.3, ""},
		{"1.299", 1.3, ""},
		{"1 299,00", 1299, ""},
		{"1\u00a0299.00", 1299, ""},
		{".99", 0.99, ""},
		{"£.99", 0.99, ""},
		{"99p", 0.99, ""},
		{"699.0000", 699, ""},
		{"19.999", 20, ""},
		{"1,234,567.89", 0, "implausibly large"},
		{"999,999.99", 999999.99, ""},
		{"£0", 0, "zero"},
		{"0.00 GBP", 0, "zero"},
		{"0.004", 0, "zero"},
		{"-5.00", 0, "negative"},
		{"-£5", 0, "negative"},
		{"£-5", 0, "negative"},
		{"", 0, "no price"},
		{"   ", 0, "no price"},
		{"Free", 0, "no digits"},
		{"€699", 0, "in EUR"},
		{"699.00 USD", 0, "in USD"},
		{"US$5", 0, "in USD"},
		{"£5 USD", 0, "unrecognised text"},
		{"From £99", 0, "unrecognised text"},
		{"£1,299.00 - £1,499.00", 0, "unexpected"},
		{"1e3", 0, "unexpected"},
		{"5.0123E+12", 0, "unexpected"},
		{"1,2,3", 0, "does not group thousands"},
		{"12.34.56,7", 0, "does not group thousands"},
		{"1.2,3.4", 0, "before the decimal point"},
		{"1 299,000.00", 0, "mixed thousands separators"},
		{"1, 299", 0, "decimals are not digits"},
		{"12.", 0, "unrecognised text"},
		{"1.5p", 0, "pence"},
		{strings.Repeat("9", 400), 0, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Price(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Price(%q) = %v, %v; want error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Price(%q) error = %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("Price(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestGTIN(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" for invalid
	}{
		{"5012345678900", "05012345678900"},
		{"05012345678900", "05012345678900"},
		{"5 012345 678900", "05012345678900"},
		{"501-2345-678900", "05012345678900"},
		{" 4548736132610 ", "04548736132610"},
		{"036000291452", "00036000291452"},   // UPC-A
		{"96385074", "00000096385074"},       // EAN-8
		{"10012345678902", "10012345678902"}, // GTIN-14 with indicator digit
		{"9780306406157", "09780306406157"},  // ISBN-13 (Bookland EAN)
		{"5012345678901", ""},                // wrong check digit
		{"036000291453", ""},                 // wrong check digit
		{"5.0123E+12", ""},                   // spreadsheet damage
		{"5.01234567890E+12", ""},
		{"501234567891", ""}, // 12 digits, check fails
		{"50123456789", ""},  // 11 digits
		{"123456789012345", ""},
		{"", ""},
		{"00000000000000", ""},
		{"0000000000000", ""},
		{"ABC1234567890", ""},
		{"2001234567893", ""},  // in-store number (prefix 20)
		{"0212345678909", ""},  // restricted circulation (prefix 02)
		{"0412345678903", ""},  // restricted circulation (prefix 04)
		{"9912345678909", ""},  // coupon (prefix 99)
		{"212345678909", ""},   // UPC number system 2: variable weight
		{"501234567890", ""},   // UPC number system 5: coupon
		{"5012345678900x", ""}, // trailing junk
		{"٥٠١٢٣٤٥٦٧٨٩٠٠", ""},  // non-ASCII digits
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := GTIN(tt.in)
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("GTIN(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestBrand(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Samsung", "Samsung"},
		{"SAMSUNG", "Samsung"},
		{"samsung electronics", "Samsung"},
		{"Samsung Electronics Co., Ltd.", "Samsung"},
		{"hewlett packard", "HP"},
		{"Hewlett-Packard", "HP"},
		{"HP Inc.", "HP"},
		{"hp", "HP"},
		{"Hewlett Packard Enterprise", "HPE"},
		{"LG Electronics", "LG"},
		{"lg", "LG"},
		{"Apple Inc", "Apple"},
		{"Apple, Inc.", "Apple"},
		{"APPLE", "Apple"},
		{"ASUS", "ASUS"},
		{"Asus", "ASUS"},
		{"ASUSTeK Computer Inc.", "ASUS"},
		{"lenovo", "Lenovo"},
		{"SONY", "Sony"},
		{"Sony Interactive Entertainment Europe", "Sony"},
		{"Logitech G", "Logitech"},
		{"logitech", "Logitech"},
		{"TP-Link", "TP-Link"},
		{"tp link", "TP-Link"},
		{"TPLINK", "TP-Link"},
		{"Netgear", "NETGEAR"},
		{"Western Digital", "WD"},
		{"WD", "WD"},
		{"WD_BLACK", "WD"},
		{"Sandisk", "SanDisk"},
		{"steelseries", "SteelSeries"},
		{"HYPERX", "HyperX"},
		{"Oneplus", "OnePlus"},
		{"gopro", "GoPro"},
		{"DJI", "DJI"},
		{"dji", "DJI"},
		{"msi", "MSI"},
		{"Micro-Star International", "MSI"},
		{"UGREEN", "Ugreen"},
		{"Bang &amp; Olufsen", "Bang & Olufsen"},
		{"Bang and Olufsen", "Bang & Olufsen"},
		{"B&O", "Bang & Olufsen"},
		{"Fujifilm", "Fujifilm"},
		{"FUJI", "Fujifilm"},
		{"  Western   Digital  ", "WD"},
		{"Amazon Basics", "Amazon Basics"},
		{"Nothing", "Nothing"},
		// unknown brands
		{"LOGIK", "Logik"},
		{"JVC", "JVC"},
		{"SUPER-SOUND audio", "Super-Sound audio"},
		{"reMarkable", "reMarkable"},
		{"  Acme   Widgets  ", "Acme Widgets"},
		{"ACME 8BITS", "Acme 8Bits"},
		// placeholders
		{"", ""},
		{"N/A", ""},
		{"Unbranded", ""},
		{"generic", ""},
		{"-", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Brand(tt.in); got != tt.want {
				t.Errorf("Brand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestBrandIdempotent(t *testing.T) {
	for _, in := range []string{"SAMSUNG", "hewlett packard", "tp link", "LOGIK", "Bang & Olufsen", "realme", "SK hynix", "8bitdo"} {
		once := Brand(in)
		if twice := Brand(once); twice != once {
			t.Errorf("Brand(Brand(%q)) = %q, want %q", in, twice, once)
		}
	}
}

func TestOfferID(t *testing.T) {
	tests := []struct {
		slug, id, want string
	}{
		{"argos", "123-4567", "argos-123-4567"},
		{"argos", "ABC.def_9", "argos-ABC.def_9"},
		{"currys", "10203040", "currys-10203040"},
		{"ao", "LEN-82XF0012UK", "ao-LEN-82XF0012UK"},
		{"ao", "a/b", "ao-a_b~" + hash12("a/b")},
		{"ao", "a b", "ao-a_b~" + hash12("a b")},
		{"ao", "a_b", "ao-a_b"},
		{"ao", "a~b", "ao-a_b~" + hash12("a~b")},
		{"ao", "a//b", "ao-a_b~" + hash12("a//b")},
		{"ao", "café", "ao-caf_~" + hash12("café")},
		{"ao", "", "ao-~" + hash12("")},
		{"ao", "x?y=1&z=2", "ao-x_y_1_z_2~" + hash12("x?y=1&z=2")},
		{"ao", "%2F", "ao-_2F~" + hash12("%2F")},
		{"ao", strings.Repeat("a", 64), "ao-" + strings.Repeat("a", 64)},
		{"ao", strings.Repeat("a", 65), "ao-" + strings.Repeat("a", 40) + "~" + hash12(strings.Repeat("a", 65))},
		{"very-long-slug", "ID", "very-long-slug-ID"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got := OfferID(tt.slug, tt.id)
			if got != tt.want {
				t.Errorf("OfferID(%q, %q) = %q, want %q", tt.slug, tt.id, got, tt.want)
			}
			if !urlSafe(got) {
				t.Errorf("OfferID(%q, %q) = %q is not URL-safe", tt.slug, tt.id, got)
			}
		})
	}
}

// TestOfferIDDistinct checks that merchant ids that look alike after
// replacement still give distinct offer ids.
func TestOfferIDDistinct(t *testing.T) {
	ids := []string{"a/b", "a b", "a_b", "a?b", "a~b", "a__b", "a//b", "a/b/", "A/b", "a_b~" + hash12("a/b"),
		strings.Repeat("x", 64), strings.Repeat("x", 65), strings.Repeat("x", 66), "", " ", "_"}
	seen := map[string]string{}
	for _, id := range ids {
		o := OfferID("shop", id)
		if prev, dup := seen[o]; dup {
			t.Errorf("OfferID of %q and %q are both %q", prev, id, o)
		}
		seen[o] = id
	}
}

// hash12 is the first 6 bytes of the SHA-256 of s in hex, as OfferID
// appends them.
func hash12(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

func urlSafe(s string) bool {
	for _, c := range []byte(s) {
		if !(plainByte(c) || c == '~') {
			return false
		}
	}
	return s != ""
}

func TestHash12Stable(t *testing.T) {
	// Offer ids are stored in snapshots and links; the hash must not change.
	if got, want := OfferID("shop", "a/b"), "shop-a_b~c14cddc033f6"; got != want {
		t.Errorf("OfferID(shop, a/b) = %q, want %q", got, want)
	}
}

func TestAvailability(t *testing.T) {
	tests := []struct {
		state, stock string
		want         catalog.Availability
		wantStock    int // -1 for none
	}{
		{"in stock", "", catalog.InStock, -1},
		{"In Stock", "", catalog.InStock, -1},
		{"in_stock", "", catalog.InStock, -1},
		{"yes", "", catalog.InStock, -1},
		{"1", "", catalog.InStock, -1},
		{"true", "", catalog.InStock, -1},
		{"available", "", catalog.InStock, -1},
		{"https://schema.org/InStock", "", catalog.InStock, -1},
		{"out of stock", "", catalog.OutOfStock, -1},
		{"out_of_stock", "", catalog.OutOfStock, -1},
		{"no", "", catalog.OutOfStock, -1},
		{"0", "", catalog.OutOfStock, -1},
		{"false", "", catalog.OutOfStock, -1},
		{"Sold Out", "", catalog.OutOfStock, -1},
		{"preorder", "", catalog.OutOfStock, -1},
		{"pre-order", "", catalog.OutOfStock, -1},
		{"backorder", "", catalog.OutOfStock, -1},
		{"limited", "", catalog.LowStock, -1},
		{"Low Stock", "", catalog.LowStock, -1},
		{"", "", catalog.InStock, -1},
		{"ask in store", "", catalog.InStock, -1},
		{"in stock", "0", catalog.OutOfStock, 0},
		{"in stock", "3", catalog.LowStock, 3},
		{"in stock", "5", catalog.LowStock, 5},
		{"in stock", "6", catalog.InStock, 6},
		{"", "2", catalog.LowStock, 2},
		{"", "40", catalog.InStock, 40},
		{"", "0", catalog.OutOfStock, 0},
		{"out of stock", "3", catalog.OutOfStock, 3},
		{"out of stock", "50", catalog.OutOfStock, 50},
		{"preorder", "10", catalog.OutOfStock, 10},
		{"limited", "50", catalog.InStock, 50},
		{"limited", "2", catalog.LowStock, 2},
		{"in stock", "1,000", catalog.InStock, 1000},
		{"in stock", "10+", catalog.InStock, 10},
		{"in stock", "3.0", catalog.LowStock, 3},
		{"in stock", "-1", catalog.InStock, -1},
		{"in stock", "lots", catalog.InStock, -1},
		{"in stock", "2.5", catalog.InStock, -1},
		{"out of stock", "-4", catalog.OutOfStock, -1},
	}
	for _, tt := range tests {
		t.Run(tt.state+"/"+tt.stock, func(t *testing.T) {
			got, stock := availability(tt.state, tt.stock, DefaultLowStockThreshold)
			gotStock := -1
			if stock != nil {
				gotStock = *stock
			}
			if got != tt.want || gotStock != tt.wantStock {
				t.Errorf("availability(%q, %q) = %s, %d; want %s, %d", tt.state, tt.stock, got, gotStock, tt.want, tt.wantStock)
			}
		})
	}
}

func TestLowStockThreshold(t *testing.T) {
	tests := []struct {
		threshold int
		stock     string
		want      catalog.Availability
	}{
		{0, "5", catalog.LowStock},
		{0, "6", catalog.InStock},
		{10, "10", catalog.LowStock},
		{10, "11", catalog.InStock},
		{1, "1", catalog.LowStock},
		{1, "2", catalog.InStock},
		{-1, "1", catalog.InStock},
		{-1, "0", catalog.OutOfStock},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.threshold)+"/"+tt.stock, func(t *testing.T) {
			got, _ := availability("in stock", tt.stock, Options{LowStockThreshold: tt.threshold}.threshold())
			if got != tt.want {
				t.Errorf("threshold %d, stock %s: %s, want %s", tt.threshold, tt.stock, got, tt.want)
			}
		})
	}
}

func TestNotNew(t *testing.T) {
	tests := []struct {
		condition, title string
		want             bool
	}{
		{"new", "Apple iPhone 15 128GB Black", false},
		{"", "Apple iPhone 15 128GB Black", false},
		{"New", "", false},
		{"Brand New", "x", false},
		{"refurbished", "Apple iPhone 15", true},
		{"Refurbished - Excellent", "x", true},
		{"used", "x", true},
		{"Used - Like New", "x", true},
		{"UsedLikeNew", "x", true},
		{"used_good", "x", true},
		{"like new", "x", true},
		{"Pre-Owned", "x", true},
		{"open_box", "x", true},
		{"Grade A", "x", true},
		{"renewed", "x", true},
		{"", "Apple iPhone 13 (Renewed)", true},
		{"", "Apple iPhone 13 Renewed", true},
		{"", "Samsung Galaxy S23 - Refurbished", true},
		{"", "Certified Refurb Dell XPS 13", true},
		{"", "Reconditioned Dyson V11", true},
		{"", "Sony WH-1000XM4 Open Box", true},
		{"", "Sony WH-1000XM4 open-box", true},
		{"", "LG OLED55C3 Ex-Display", true},
		{"", "LG OLED55C3 ex display", true},
		{"", "iPhone 12 Grade B", true},
		{"", "iPhone 12 (B-Grade)", true},
		{"", "iPhone 12 - Pre Owned", true},
		{"", "Used Apple Watch Series 8", true},
		{"", "Apple Watch Series 8 - Used", true},
		{"", "Apple Watch Series 8 (Used)", true},
		{"", "Apple Watch Series 8, used", true},
		{"", "Second-Hand Kindle", true},
		// not second-hand
		{"", "Samsung 144Hz Refresh Rate Monitor", false},
		{"", "Renewable Energy Power Bank", false},
		{"", "USB-C Cable Can Be Used With MacBook", false},
		{"", "Most Used Apps Stand for iPad", false},
		{"", "Military Grade Aluminium Phone Case", false},
		{"", "Graded Glass Screen Protector", false},
		{"", "Open Ear Headphones Box Edition", false},
		{"", "Grade 5 Titanium Strap", false},
		{"", "A Grade Ahead Tablet Stand", false},
		{"", "Excellent Display Monitor", false},
	}
	for _, tt := range tests {
		t.Run(tt.condition+"/"+tt.title, func(t *testing.T) {
			why, got := notNew(tt.condition, tt.title)
			if got != tt.want {
				t.Errorf("notNew(%q, %q) = %v (%s), want %v", tt.condition, tt.title, got, why, tt.want)
			}
		})
	}
}

func TestTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Plain title", "Plain title"},
		{"  padded  ", "padded"},
		{"many   inner \t spaces", "many inner spaces"},
		{"line\nbreaks\r\nhere", "line breaks here"},
		{"ctrl\x00\x07chars", "ctrl chars"},
		{"zero\u200bwidth", "zerowidth"},
		{"soft\u00adhyphen", "softhyphen"},
		{"\ufeffBOM first", "BOM first"},
		{"nbsp\u00a0space", "nbsp space"},
		{"Bang &amp; Olufsen", "Bang & Olufsen"},
		{"27&quot; Monitor", `27" Monitor`},
		{"Kid&#39;s Tablet", "Kid's Tablet"},
		{"Double &amp;amp; escaped", "Double & escaped"},
		{"&pound;5 off", "£5 off"},
		{"AT&T Phone", "AT&T Phone"},
		{"M&S Cable", "M&S Cable"},
		{"Café", "Café"},
		{"bad \ufffd rune", "bad rune"},
		{"", ""},
		{" \t\n ", ""},
		{strings.Repeat("word ", 200), strings.TrimSpace(strings.Repeat("word ", 99)) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := title(tt.in); got != tt.want {
				t.Errorf("title(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestDescription(t *testing.T) {
	long := strings.Repeat("abcd ", 1000)
	tests := []struct{ in, want string }{
		{"Plain text.", "Plain text."},
		{"<p>Para one</p><p>Para two</p>", "Para one Para two"},
		{"Line<br>break<br/>here", "Line break here"},
		{"<b>Bold</b> and <i>it</i>alic", "Bold and italic"},
		{"Wi<b>-Fi</b> 6", "Wi-Fi 6"},
		{"<ul><li>One</li><li>Two</li></ul>", "One Two"},
		{"Before<script>alert('x')</script>After", "Before After"},
		{"A<STYLE type='text/css'>p{color:red}</STYLE>B", "A B"},
		{"Keep <!-- a comment --> text", "Keep text"},
		{"5 < 10 and 10 > 5", "5 < 10 and 10 > 5"},
		{"&lt;p&gt;Escaped &amp; markup&lt;/p&gt;", "Escaped & markup"},
		{"Size &lt; 5cm", "Size < 5cm"},
		{"<a href=\"https://x\">Link</a> text", "Link text"},
		{"Unclosed <p class='x' tag", "Unclosed <p class='x' tag"},
		{"<div>\n\n  spaced   \n out </div>", "spaced out"},
		{"Broken comment <!-- never closed", "Broken comment"},
		{"Script <script>never closed", "Script"},
		{"&nbsp;Non&nbsp;breaking&nbsp;", "Non breaking"},
		{"", ""},
		{long, strings.TrimSpace(strings.Repeat("abcd ", 399)) + "…"},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			got := description(tt.in)
			if got != tt.want {
				t.Errorf("description(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if n := len([]rune(got)); n > maxDescription {
				t.Errorf("description has %d runes, cap is %d", n, maxDescription)
			}
		})
	}
}

func TestCapRunes(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"one two three four", 10, "one two…"},
		{"onelongwordwithoutspaces", 10, "onelongwo…"},
		{"ab cdefghijklmnop", 10, "ab cdefgh…"},
		{"héllo wörld ünïcode", 12, "héllo wörld…"},
		{"trailing, comma here", 11, "trailing…"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := capRunes(tt.in, tt.n)
			if got != tt.want {
				t.Errorf("capRunes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
			}
			if len([]rune(got)) > tt.n {
				t.Errorf("capRunes(%q, %d) = %q is longer than %d runes", tt.in, tt.n, got, tt.n)
			}
		})
	}
}

func TestLastUpdated(t *testing.T) {
	utc := func(y int, m time.Month, d, h, min, s int) time.Time {
		return time.Date(y, m, d, h, min, s, 0, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2025-06-01T09:30:00Z", utc(2025, 6, 1, 9, 30, 0)},
		{"2025-06-01T10:30:00+01:00", utc(2025, 6, 1, 9, 30, 0)},
		{"2025-06-01T09:30:00.123Z", time.Date(2025, 6, 1, 9, 30, 0, 123e6, time.UTC)},
		{"2025-06-01T09:30:00", utc(2025, 6, 1, 9, 30, 0)},
		{"2025-06-01T09:30", utc(2025, 6, 1, 9, 30, 0)},
		{"2025-06-01T09:30+01:00", utc(2025, 6, 1, 8, 30, 0)},
		{"2025-06-01 09:30:00", utc(2025, 6, 1, 9, 30, 0)},
		{"2025-06-01 09:30:00.5", time.Date(2025, 6, 1, 9, 30, 0, 5e8, time.UTC)},
		{"2025-06-01 09:30", utc(2025, 6, 1, 9, 30, 0)},
		{"2025-06-01", utc(2025, 6, 1, 0, 0, 0)},
		{"02/06/2025", utc(2025, 6, 2, 0, 0, 0)},
		{"2/6/2025", utc(2025, 6, 2, 0, 0, 0)},
		{"13/01/2025", utc(2025, 1, 13, 0, 0, 0)},
		{"02/06/2025 14:05", utc(2025, 6, 2, 14, 5, 0)},
		{"02/06/2025 14:05:09", utc(2025, 6, 2, 14, 5, 9)},
		{"Mon, 02 Jun 2025 14:05:09 +0100", utc(2025, 6, 2, 13, 5, 9)},
		{"  2025-06-01  ", utc(2025, 6, 1, 0, 0, 0)},
		{"", time.Time{}},
		{"yesterday", time.Time{}},
		{"0000-00-00 00:00:00", time.Time{}},
		{"06/13/2025", time.Time{}}, // US month first: month 13 does not exist
		{"1717234200", time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := lastUpdated(tt.in)
			if !got.Equal(tt.want) || got.Location() != time.UTC {
				t.Errorf("lastUpdated(%q) = %v, want %v (UTC)", tt.in, got, tt.want)
			}
		})
	}
}

func TestHTTPURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://www.example.co.uk/p/1", "https://www.example.co.uk/p/1"},
		{"http://example.co.uk", "http://example.co.uk"},
		{"  https://example.co.uk/p/1  ", "https://example.co.uk/p/1"},
		{"HTTPS://Example.co.uk/P", "https://Example.co.uk/P"},
		{"https://example.co.uk/a b", "https://example.co.uk/a%20b"},
		{"https://example.co.uk:8443/p?x=1&y=2#frag", "https://example.co.uk:8443/p?x=1&y=2#frag"},
		{"https://www.awin1.com/pclick.php?p=9001&a=1&m=2", "https://www.awin1.com/pclick.php?p=9001&a=1&m=2"},
		{"https://bücher.example/p", "https://bücher.example/p"},
		{"", ""},
		{"www.example.co.uk/p/1", ""},
		{"//example.co.uk/p/1", ""},
		{"/p/1", ""},
		{"ftp://example.co.uk/f", ""},
		{"javascript:alert(1)", ""},
		{"mailto:shop@example.co.uk", ""},
		{"https://", ""},
		{"https:///path", ""},
		{"http://:80/x", ""},
		{"https://exa mple.com/", ""},
		{"https://example.co.uk/\x00", ""},
		{"http:example.co.uk", ""},
		{"N/A", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := httpURL(tt.in)
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("httpURL(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestReasons(t *testing.T) {
	got := Reasons()
	want := []string{"missing_id", "missing_title", "bad_price", "non_gbp", "not_new", "bad_url"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	got[0] = "changed"
	if Reasons()[0] != "missing_id" {
		t.Error("Reasons returns the package's own array")
	}
}

// TestImports keeps net/http out of the package: it parses, it does not
// fetch.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "net/http" {
				t.Errorf("%s imports net/http", f)
			}
		}
	}
}

// checkListing asserts what every accepted listing must satisfy.
func checkListing(t *testing.T, l catalog.Listing) {
	t.Helper()
	switch {
	case l.Price <= 0 || l.Price > maxPrice || math.IsNaN(l.Price) || math.Round(l.Price*100)/100 != l.Price:
		t.Errorf("price %v", l.Price)
	case !l.Availability.Valid():
		t.Errorf("availability %q", l.Availability)
	case l.Stock != nil && *l.Stock < 0:
		t.Errorf("stock %d", *l.Stock)
	case l.Title == "" || l.MerchantID == "":
		t.Errorf("title %q, merchant id %q", l.Title, l.MerchantID)
	case !urlSafe(l.OfferID) || !strings.HasPrefix(l.OfferID, shop.Slug+"-"):
		t.Errorf("offer id %q", l.OfferID)
	}
	if _, ok := httpURL(l.URL); !ok {
		t.Errorf("purchase URL %q", l.URL)
	}
	if l.ImageURL != "" {
		if _, ok := httpURL(l.ImageURL); !ok {
			t.Errorf("image URL %q", l.ImageURL)
		}
	}
	if l.GTIN != "" {
		if g, ok := GTIN(l.GTIN); !ok || g != l.GTIN {
			t.Errorf("GTIN %q", l.GTIN)
		}
	}
	if len([]rune(l.Description)) > maxDescription || len([]rune(l.Title)) > maxTitle {
		t.Errorf("text over its cap: title %d, description %d runes", len([]rune(l.Title)), len([]rune(l.Description)))
	}
}
