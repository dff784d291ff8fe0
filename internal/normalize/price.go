package normalize

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"productsearch/internal/catalog"
)

// maxPrice bounds a plausible price; a larger one is a feed error.
const maxPrice = 1_000_000

// Price parses a GBP price as feeds write it and rounds it to the penny:
// "£1,299.99", "1299.99 GBP", "GBP 1,299", "699", "99p", "1.299,00".
// A price in another currency ("€5", "5 USD"), a zero, negative or
// unparseable price, and one above £1,000,000 are errors.
//
// Separators: when both "." and "," occur, the last one is the decimal
// point and the other groups thousands ("1.299,00" is 1299). A lone ","
// followed by exactly three digits groups thousands ("1,299"), otherwise it
// is a decimal comma ("12,99"). A lone "." is always a decimal point, so
// "1.299" is £1.30, as a UK feed means it. A separator that occurs more than
// once groups thousands and must split the digits into groups of three.
// Spaces may group thousands too ("1 299").
func Price(s string) (float64, error) {
	v, cur, err := parseMoney(s)
	if err != nil {
		return 0, err
	}
	if cur != "" && cur != catalog.Currency {
		return 0, fmt.Errorf("price %q is in %s, not GBP", s, cur)
	}
	return v, nil
}

// parseMoney parses an amount with an optional currency symbol or code
// before or after it. It returns the currency found ("" when none) even when
// the amount is invalid.
func parseMoney(s string) (value float64, currency string, err error) {
	raw := s
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, "", errors.New("no price")
	}
	first := strings.IndexFunc(s, isDigit)
	last := strings.LastIndexFunc(s, isDigit)
	if first < 0 {
		return 0, "", fmt.Errorf("price %q has no digits", short(raw))
	}
	if first > 0 && (s[first-1] == '.' || s[first-1] == ',') { // ".99"
		first--
	}
	prefix, number, suffix := s[:first], s[first:last+1], strings.TrimSpace(s[last+1:])

	negative := false
	prefix = strings.TrimSpace(strings.TrimFunc(prefix, func(r rune) bool {
		if r == '-' || r == '−' {
			negative = true
			return true
		}
		return r == '+' || unicode.IsSpace(r)
	}))
	pence := suffix == "p"
	if pence {
		suffix = ""
	}
	currency, ok := currencyOf(prefix, suffix)
	if !ok {
		return 0, currency, fmt.Errorf("price %q has unrecognised text around the amount", short(raw))
	}
	if pence {
		if currency != "" && currency != catalog.Currency || strings.ContainsAny(number, ".,") {
			return 0, currency, fmt.Errorf("price %q is not a whole number of pence", short(raw))
		}
		currency = catalog.Currency
	}
	if negative {
		return 0, currency, fmt.Errorf("price %q is negative", short(raw))
	}
	v, err := parseAmount(number)
	if err != nil {
		return 0, currency, fmt.Errorf("price %q: %w", short(raw), err)
	}
	if pence {
		v /= 100
	}
	v = math.Round(v*100) / 100
	switch {
	case v <= 0:
		return 0, currency, fmt.Errorf("price %q is zero", short(raw))
	case v > maxPrice:
		return 0, currency, fmt.Errorf("price %q is implausibly large", short(raw))
	}
	return v, currency, nil
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// currencyOf reads the currency named by the text before and after an
// amount; both may name one, and they must agree.
func currencyOf(prefix, suffix string) (string, bool) {
	cur := ""
	for _, part := range []string{prefix, suffix} {
		for _, tok := range currencyTokens(part) {
			c, ok := currencyCode(tok)
			if !ok || cur != "" && c != cur {
				return cur, false
			}
			cur = c
		}
	}
	return cur, true
}

// currencyTokens splits "GBP £" or "£GBP" into "GBP", "£".
func currencyTokens(s string) []string {
	var toks []string
	start := -1
	for i, r := range s {
		switch {
		case r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z':
			if start < 0 {
				start = i
			}
			continue
		case r == '$' && start >= 0 && strings.EqualFold(s[start:i], "US"):
			toks = append(toks, "US$")
			start = -1
			continue
		}
		if start >= 0 {
			toks = append(toks, s[start:i])
			start = -1
		}
		if !unicode.IsSpace(r) {
			toks = append(toks, string(r))
		}
	}
	if start >= 0 {
		toks = append(toks, s[start:])
	}
	return toks
}

// currencyCode returns the ISO 4217 code of a currency field, symbol or
// code ("£", "gbp", "€", "US$", "CHF"); "" and true for empty text; false
// for text that names no currency it knows.
func currencyCode(s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	switch s {
	case "":
		return "", true
	case "£", "UKP", "STERLING", "POUNDS STERLING", "POUNDS", "POUND":
		return catalog.Currency, true
	case "€":
		return "EUR", true
	case "$", "US$":
		return "USD", true
	case "¥":
		return "JPY", true
	case "GBP", "EUR", "USD", "JPY", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "RON",
		"AUD", "CAD", "NZD", "CNY", "HKD", "SGD", "INR", "KRW", "TRY", "ZAR", "AED", "MXN", "BRL":
		return s, true
	}
	return "", false
}

// parseAmount parses the digits and separators of an amount.
func parseAmount(num string) (float64, error) {
	num = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, num)
	for _, r := range num {
		if !isDigit(r) && r != '.' && r != ',' && r != ' ' {
			return 0, fmt.Errorf("unexpected %q in the amount", r)
		}
	}
	lastDot, lastComma := strings.LastIndexByte(num, '.'), strings.LastIndexByte(num, ',')
	dec := -1
	switch {
	case lastDot >= 0 && lastComma >= 0:
		dec = max(lastDot, lastComma)
	case lastDot >= 0:
		if strings.Count(num, ".") == 1 {
			dec = lastDot
		}
	case lastComma >= 0:
		if strings.Count(num, ",") == 1 && len(num)-lastComma-1 != 3 {
			dec = lastComma
		}
	}
	intPart, frac := num, ""
	if dec >= 0 {
		intPart, frac = num[:dec], num[dec+1:]
		if frac == "" || strings.Trim(frac, "0123456789") != "" {
			return 0, errors.New("the decimals are not digits")
		}
		if strings.IndexByte(intPart, num[dec]) >= 0 {
			return 0, fmt.Errorf("%q occurs before the decimal point", num[dec])
		}
	}
	digits, err := groupedDigits(intPart)
	if err != nil {
		return 0, err
	}
	if digits == "" && frac == "" {
		return 0, errors.New("no digits")
	}
	if digits == "" {
		digits = "0"
	}
	if frac != "" {
		digits += "." + frac
	}
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		return 0, fmt.Errorf("amount out of range: %w", err)
	}
	return v, nil
}

// groupedDigits removes thousands separators (one kind: ",", "." or " ")
// from the integer part, checking that they group the digits by three.
func groupedDigits(s string) (string, error) {
	sep := byte(0)
	for i := range len(s) {
		if c := s[i]; !isDigit(rune(c)) {
			if sep != 0 && c != sep {
				return "", errors.New("mixed thousands separators")
			}
			sep = c
		}
	}
	if sep == 0 {
		return s, nil
	}
	groups := strings.Split(s, string(sep))
	for i, g := range groups {
		if i == 0 && (len(g) < 1 || len(g) > 3) || i > 0 && len(g) != 3 {
			return "", fmt.Errorf("%q does not group thousands", sep)
		}
	}
	return strings.Join(groups, ""), nil
}
