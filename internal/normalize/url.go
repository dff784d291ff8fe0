package normalize

import (
	"net/url"
	"strings"
)

// httpURL checks that s is an absolute http or https URL with a host and
// returns it trimmed, with inner spaces percent-encoded.
func httpURL(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	s = strings.ReplaceAll(s, " ", "%20")
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return "", false
	}
	host := u.Hostname()
	if host == "" || strings.ContainsAny(host, "% \t") || u.Opaque != "" {
		return "", false
	}
	return u.Scheme + s[len(u.Scheme):], true
}
