package api

import (
	"bytes"
)

// framingError checks the raw header lines of a request (fasthttp's
// RawHeaders: every line after the request line) for framing that two
// HTTP parsers could read differently, the ground of request smuggling
// (RFC 9112 §6.3, §2.2): a bare LF line ending, more than one
// Content-Length or a list of them, Content-Length together with
// Transfer-Encoding. fasthttp rejects a repeated Content-Length header and
// an HTTP/1.1 request without Host itself; the rest is checked here. It
// returns the message for the client, or "" when the framing is sound.
func framingError(raw []byte) string {
	var cl, te int
	for line := range bytes.Lines(raw) {
		n := len(line)
		if line[n-1] == '\n' && (n < 2 || line[n-2] != '\r') {
			return "malformed request: header lines must end with CRLF, not a bare LF"
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		switch {
		case bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")):
			cl++
			if bytes.IndexByte(value, ',') >= 0 {
				cl++
			}
		case bytes.EqualFold(bytes.TrimSpace(name), []byte("Transfer-Encoding")):
			te++
		}
	}
	switch {
	case cl > 1:
		return "malformed request: more than one Content-Length; send exactly one"
	case cl > 0 && te > 0:
		return "malformed request: Content-Length together with Transfer-Encoding; send one of them"
	}
	return ""
}
