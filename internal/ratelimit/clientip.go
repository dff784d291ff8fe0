package ratelimit

import (
	"net/netip"
	"strings"
)

// maxHops bounds the X-Forwarded-For entries examined per request.
const maxHops = 32

// Proxies is the set of trusted proxy networks (TRUSTED_PROXIES).
type Proxies []netip.Prefix

// Trusted reports whether a lies in one of the trusted networks.
func (p Proxies) Trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, n := range p {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// ClientIP returns the address a request is charged to. peer is the socket
// peer; forwarded holds the X-Forwarded-For header values in the order
// received (several headers are one list, left to right).
//
// A peer outside the trusted networks is the client, whatever it forwards:
// a forged X-Forwarded-For changes nothing. From a trusted peer the list is
// walked from the right, each trusted hop skipped, and the first untrusted
// hop is the client. A malformed hop stops the walk at the trusted hop to
// its right, since nothing left of it can be believed; empty entries are
// skipped; a list of trusted hops only yields its leftmost hop.
func (p Proxies) ClientIP(peer netip.Addr, forwarded ...string) netip.Addr {
	client := peer.Unmap().WithZone("")
	if len(p) == 0 || !p.Trusted(client) {
		return client
	}
	hops := 0
	for i := len(forwarded) - 1; i >= 0; i-- {
		list := forwarded[i]
		for {
			field := list
			comma := strings.LastIndexByte(list, ',')
			if comma >= 0 {
				field, list = list[comma+1:], list[:comma]
			}
			if field = strings.TrimSpace(field); field != "" {
				hops++
				a, ok := ParseHop(field)
				if !ok || hops > maxHops {
					return client
				}
				client = a
				if !p.Trusted(a) {
					return a
				}
			}
			if comma < 0 {
				break
			}
		}
	}
	return client
}

// ParseHop parses one X-Forwarded-For entry: an IPv4 or IPv6 address,
// optionally with a port ("192.0.2.1:443", "[2001:db8::1]:443") or
// brackets. IPv4-mapped IPv6 addresses are unmapped and zones dropped.
func ParseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return netip.Addr{}, false
		}
		rest := s[end+1:]
		if rest != "" && !validPort(rest) {
			return netip.Addr{}, false
		}
		s = s[1:end]
	} else if c := strings.IndexByte(s, ':'); c >= 0 && strings.LastIndexByte(s, ':') == c {
		if !validPort(s[c:]) {
			return netip.Addr{}, false
		}
		s = s[:c]
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

// validPort accepts ":" followed by one to five digits.
func validPort(s string) bool {
	if len(s) < 2 || len(s) > 6 || s[0] != ':' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IPKey returns the budget key of a client address: the address itself for
// IPv4, its /64 network for IPv6 (one subscriber usually holds a whole /64,
// so per-address budgets would be trivial to multiply).
func IPKey(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.WithZone("").Prefix(64)
		return "ip:" + p.String()
	}
	return "ip:" + a.String()
}
