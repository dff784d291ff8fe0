package normalize

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"productsearch/internal/feed"
)

func FuzzPrice(f *testing.F) {
	for _, s := range []string{"699.00", "£1,299.99", "1299.99 GBP", "GBP 1,299", "1.299,00", "12,99", "99p", ".99",
		"£0", "-5", "€5", "US$5", "1 299,00", "1e3", "£1,299.00 - £1,499.00", "", "999,999.99", "1.2,3.4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Price(s)
		if err != nil {
			if v != 0 {
				t.Fatalf("Price(%q) = %v with error %v", s, v, err)
			}
			return
		}
		if v <= 0 || v > maxPrice || math.IsNaN(v) || math.Round(v*100)/100 != v {
			t.Fatalf("Price(%q) = %v, not a positive penny amount up to %d", s, v, maxPrice)
		}
	})
}

func FuzzGTIN(f *testing.F) {
	for _, s := range []string{"5012345678900", "036000291452", "96385074", "10012345678902", "5 012345 678900",
		"5.0123E+12", "", "00000000", "2001234567893", "501-2345-678900"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, ok := GTIN(s)
		if !ok {
			if g != "" {
				t.Fatalf("GTIN(%q) = %q with false", s, g)
			}
			return
		}
		if len(g) != 14 || strings.Trim(g, "0123456789") != "" {
			t.Fatalf("GTIN(%q) = %q, want 14 digits", s, g)
		}
		if again, ok := GTIN(g); !ok || again != g {
			t.Fatalf("GTIN(GTIN(%q)) = %q, %v; want %q", s, again, ok, g)
		}
	})
}

func FuzzOfferID(f *testing.F) {
	f.Add("a/b", "a_b")
	f.Add("x", "x~")
	f.Add(strings.Repeat("a", 64), strings.Repeat("a", 65))
	f.Add("", " ")
	f.Fuzz(func(t *testing.T, a, b string) {
		oa, ob := OfferID("shop", a), OfferID("shop", b)
		if !urlSafe(oa) || !urlSafe(ob) {
			t.Fatalf("OfferID not URL-safe: %q, %q", oa, ob)
		}
		if (a == b) != (oa == ob) {
			t.Fatalf("OfferID(%q) = %q, OfferID(%q) = %q", a, oa, b, ob)
		}
	})
}

func FuzzBrand(f *testing.F) {
	for _, s := range []string{"SAMSUNG", "hewlett packard", "HP Inc.", "LOGIK", "Bang &amp; Olufsen", "N/A", "", "ÉCOLE ÜBER", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := Brand(s)
		if b != strings.TrimSpace(b) || strings.Contains(b, "  ") {
			t.Fatalf("Brand(%q) = %q is not trimmed and collapsed", s, b)
		}
		if utf8.ValidString(s) && !utf8.ValidString(b) {
			t.Fatalf("Brand(%q) = %q is not valid UTF-8", s, b)
		}
	})
}

func FuzzListing(f *testing.F) {
	f.Add("LEN-82XF", "Lenovo IdeaPad &amp; <b>Slim</b>", "<p>Desc</p>", "£699.00", "649.00 GBP", "GBP", "in stock", "3",
		"https://x.example/p", "https://x.example/i.jpg", "5012345678900", "new", "LENOVO", "2025-06-01")
	f.Add("a/b", "Refurbished phone", "", "0", "", "", "", "-1", "/p", "", "5.0123E+12", "used", "N/A", "x")
	f.Add("1", "Item", "", "1,2,3", "€5", "EUR", "preorder", "10+", "javascript:x", "//x", "", "", "", "")
	f.Fuzz(func(t *testing.T, id, title, desc, price, sale, currency, avail, stock, link, image, gtin, condition, brand, updated string) {
		rec := feed.Record{Row: 1, ID: id, Title: title, Description: desc, Price: price, SalePrice: sale,
			Currency: currency, Availability: avail, Stock: stock, Link: link, ImageLink: image, GTIN: gtin,
			Condition: condition, Brand: brand, LastUpdated: updated}
		l, err := Listing(rec, shop, Options{})
		if err != nil {
			var rej *Rejection
			if !errors.As(err, &rej) {
				t.Fatalf("Listing() error %v is not a rejection", err)
			}
			for _, r := range Reasons() {
				if rej.Reason == r {
					return
				}
			}
			t.Fatalf("rejection reason %q is not one of %v", rej.Reason, Reasons())
		}
		checkListing(t, l)
	})
}
