package normalize

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// maxPlainID is the longest merchant id an offer id carries unchanged.
const maxPlainID = 64

// OfferID returns the retailer-scoped, URL-safe offer id: slug + "-" +
// merchant id. A merchant id that is empty, longer than 64 bytes or holds
// characters other than [A-Za-z0-9._-] has them replaced by "_", is cut to
// 40 bytes and gets "~" and a 12-hex-digit hash of the original appended.
// Ids kept as they are never contain "~" and hashed ones always do, so
// distinct merchant ids give distinct offer ids.
func OfferID(slug, merchantID string) string {
	if merchantID != "" && len(merchantID) <= maxPlainID && plainID(merchantID) {
		return slug + "-" + merchantID
	}
	var b strings.Builder
	b.Grow(len(slug) + 1 + 40 + 13)
	b.WriteString(slug)
	b.WriteByte('-')
	n := 0
	lastUnderscore := false
	for _, r := range merchantID {
		if n >= 40 {
			break
		}
		if r < 0x80 && plainByte(byte(r)) {
			b.WriteRune(r)
			lastUnderscore = false
		} else if !lastUnderscore {
			b.WriteByte('_')
			lastUnderscore = true
		} else {
			continue
		}
		n++
	}
	sum := sha256.Sum256([]byte(merchantID))
	b.WriteByte('~')
	b.WriteString(hex.EncodeToString(sum[:6]))
	return b.String()
}

func plainID(s string) bool {
	for i := range len(s) {
		if !plainByte(s[i]) {
			return false
		}
	}
	return true
}

func plainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}
