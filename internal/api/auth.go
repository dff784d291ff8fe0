package api

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"maps"
	"slices"
)

// keyKind tells what a bearer token turned out to be.
type keyKind int

const (
	keyNone       keyKind = iota // missing, malformed or unknown
	keyPublic                    // the shared public key: the client IP's budget
	keyProduction                // a production key with its own budget
)

// keyring holds the accepted API keys as SHA-256 hashes. A token is hashed
// and compared with every stored hash in constant time, so neither the
// position of a mismatch nor the length of any key leaks through timing.
type keyring struct {
	hashes  [][sha256.Size]byte
	budgets []int    // hourly budget per key; 0 for the public key
	ids     []string // short key ids for logs and counter names
}

// newKeyring returns the ring of public (may be empty) and production keys.
func newKeyring(public string, production map[string]int) *keyring {
	k := &keyring{}
	add := func(key string, budget int) {
		k.hashes = append(k.hashes, sha256.Sum256([]byte(key)))
		k.budgets = append(k.budgets, budget)
		k.ids = append(k.ids, KeyID(key))
	}
	if public != "" {
		add(public, 0)
	}
	for _, key := range slices.Sorted(maps.Keys(production)) {
		add(key, production[key])
	}
	return k
}

// KeyID returns the short identifier under which a key appears in logs and
// rate-limit counters: a hash prefix, never the key itself.
func KeyID(key string) string {
	sum := sha256.Sum256([]byte("productsearch key id\x00" + key))
	return hex.EncodeToString(sum[:6])
}

// lookup finds the key a token names. It examines every stored key whatever
// the outcome.
func (k *keyring) lookup(token []byte) (kind keyKind, budget int, id string) {
	if len(token) == 0 {
		return keyNone, 0, ""
	}
	sum := sha256.Sum256(token)
	found := -1
	for i := range k.hashes {
		eq := subtle.ConstantTimeCompare(sum[:], k.hashes[i][:])
		found = subtle.ConstantTimeSelect(eq, i, found)
	}
	switch {
	case found < 0:
		return keyNone, 0, ""
	case k.budgets[found] == 0:
		return keyPublic, 0, k.ids[found]
	default:
		return keyProduction, k.budgets[found], k.ids[found]
	}
}

// maxTokenLen bounds the bearer tokens considered; longer ones are rejected
// without hashing.
const maxTokenLen = 512

// bearerToken extracts the token of an "Authorization: Bearer <token>"
// header. The scheme is case-insensitive (RFC 9110); the token must be one
// non-empty run of visible ASCII.
func bearerToken(h []byte) ([]byte, bool) {
	h = bytes.TrimSpace(h)
	const scheme = "bearer"
	if len(h) <= len(scheme) || !bytes.EqualFold(h[:len(scheme)], []byte(scheme)) || (h[len(scheme)] != ' ' && h[len(scheme)] != '\t') {
		return nil, false
	}
	tok := bytes.TrimLeft(h[len(scheme):], " \t")
	if len(tok) == 0 || len(tok) > maxTokenLen {
		return nil, false
	}
	for _, b := range tok {
		if b <= ' ' || b > '~' {
			return nil, false
		}
	}
	return tok, true
}
