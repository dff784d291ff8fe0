package ratelimit

import (
	"encoding/json"
	"net/netip"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type clientIPCase struct {
	Name    string   `json:"name"`
	Trusted []string `json:"trusted"`
	Peer    string   `json:"peer"`
	XFF     []string `json:"xff"`
	Want    string   `json:"want"`
}

func TestClientIP(t *testing.T) {
	data, err := os.ReadFile("testdata/clientip.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []clientIPCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("only %d cases in testdata/clientip.json", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			var p Proxies
			for _, s := range tc.Trusted {
				p = append(p, netip.MustParsePrefix(s))
			}
			got := p.ClientIP(netip.MustParseAddr(tc.Peer), tc.XFF...)
			if diff := cmp.Diff(tc.Want, got.String()); diff != "" {
				t.Errorf("ClientIP mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClientIPBoundsHops(t *testing.T) {
	p := Proxies{netip.MustParsePrefix("10.0.0.0/8")}
	hops := make([]string, 100)
	for i := range hops {
		hops[i] = "10.0.0.9"
	}
	hops[0] = "198.51.100.9"
	got := p.ClientIP(netip.MustParseAddr("10.0.0.1"), strings.Join(hops, ","))
	// The walk gives up after maxHops trusted hops and charges the last
	// trusted one rather than walking an unbounded list.
	if diff := cmp.Diff("10.0.0.9", got.String()); diff != "" {
		t.Errorf("ClientIP mismatch (-want +got):\n%s", diff)
	}
}

func TestParseHop(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" means rejected
	}{
		{"192.0.2.1", "192.0.2.1"},
		{" 192.0.2.1 ", "192.0.2.1"},
		{"192.0.2.1:80", "192.0.2.1"},
		{"192.0.2.1:", ""},
		{"192.0.2.1:1234567", ""},
		{"[2001:db8::1]", "2001:db8::1"},
		{"[2001:db8::1]:8080", "2001:db8::1"},
		{"[2001:db8::1", ""},
		{"[2001:db8::1]x", ""},
		{"2001:db8::1", "2001:db8::1"},
		{"fe80::1%eth0", "fe80::1"},
		{"::ffff:192.0.2.1", "192.0.2.1"},
		{"unknown", ""},
		{"", ""},
		{"_hidden", ""},
		{"999.1.1.1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			a, ok := ParseHop(tc.in)
			got := ""
			if ok {
				got = a.String()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseHop(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestIPKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"192.0.2.1", "ip:192.0.2.1"},
		{"::ffff:192.0.2.1", "ip:192.0.2.1"},
		{"2001:db8:1:2:3:4:5:6", "ip:2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "ip:2001:db8:1:2::/64"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, IPKey(netip.MustParseAddr(tc.in))); diff != "" {
				t.Errorf("IPKey mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzClientIP checks that any header is walked without panicking and
// yields the peer or an address written in the header.
func FuzzClientIP(f *testing.F) {
	f.Add("10.0.0.1", "198.51.100.9, 10.0.0.2")
	f.Add("10.0.0.1", "[2001:db8::1]:443,,unknown")
	f.Add("203.0.113.1", "1.1.1.1")
	f.Add("10.0.0.1", ",,,")
	p := Proxies{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	f.Fuzz(func(t *testing.T, peer, xff string) {
		pa, err := netip.ParseAddr(peer)
		if err != nil {
			return
		}
		got := p.ClientIP(pa, xff)
		if got == pa.Unmap().WithZone("") {
			return
		}
		for field := range strings.SplitSeq(xff, ",") {
			if a, ok := ParseHop(field); ok && a == got {
				return
			}
		}
		t.Errorf("ClientIP(%s, %q) = %s: neither the peer nor a hop", peer, xff, got)
	})
}

// FuzzParseHop checks that parsing never panics and that an accepted hop
// is a plain address.
func FuzzParseHop(f *testing.F) {
	for _, s := range []string{"192.0.2.1:80", "[::1]:1", "fe80::1%eth0", "::ffff:1.2.3.4", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, ok := ParseHop(s)
		if ok && (a.Zone() != "" || a.Is4In6() || !a.IsValid()) {
			t.Errorf("ParseHop(%q) = %s, want an unzoned, unmapped address", s, a)
		}
	})
}
