package api

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStrictFraming sends requests whose framing two parsers could read
// differently, on a raw socket, each followed by a second request: the
// server must answer 400 and close the connection, so that the bytes after
// the first request are never served as a request of their own.
func TestStrictFraming(t *testing.T) {
	ts := startServer(t, Options{})
	addr := strings.TrimPrefix(ts.URL, "http://")
	const next = "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"
	tests := []struct {
		name, raw  string
		wantStatus int
	}{
		{name: "duplicate Content-Length", wantStatus: 400,
			raw: "POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 39\r\n\r\n" + next},
		{name: "conflicting Content-Length list", wantStatus: 400,
			raw: "POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 39, 0\r\n\r\n" + next},
		{name: "Content-Length with Transfer-Encoding", wantStatus: 400,
			raw: "POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + next},
		{name: "bare LF line endings", wantStatus: 400,
			raw: "GET /api/health HTTP/1.1\nHost: x\n\n" + next},
		{name: "bare LF in one header line", wantStatus: 400,
			raw: "GET /api/health HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n" + next},
		{name: "HTTP/1.1 without Host", wantStatus: 400,
			raw: "GET /api/health HTTP/1.1\r\n\r\n" + next},
		{name: "well formed", wantStatus: 200, raw: next},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			start := time.Now()
			_ = c.SetDeadline(start.Add(5 * time.Second))
			if _, err := io.WriteString(c, tt.raw); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(c)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("no response: %v", err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status %d %s; want %d", resp.StatusCode, body, tt.wantStatus)
			}
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("answered after %v; want at once", elapsed)
			}
			if tt.wantStatus == http.StatusOK {
				return
			}
			if !strings.Contains(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("Content-Type %q, want JSON", resp.Header.Get("Content-Type"))
			}
			// Nothing more: the connection is closed, the request after the
			// malformed one is not served.
			if rest, err := io.ReadAll(br); len(rest) > 0 || err != nil {
				t.Errorf("after the 400: %q, %v; want the connection closed", rest, err)
			}
		})
	}
}

// TestBodyOverLimit announces a body one byte over the limit and sends none
// of it: the server must answer 413 from the announced length alone, without
// reading the body. (A client that writes such a body may see the connection
// reset under it once the answer is sent, so the test sends headers only.)
func TestBodyOverLimit(t *testing.T) {
	ts := startServer(t, Options{})
	addr := strings.TrimPrefix(ts.URL, "http://")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	req := fmt.Sprintf("POST /api/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n",
		testPublicKey, maxBodySize+1)
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no response before the body: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := response{status: resp.StatusCode, header: resp.Header, body: b}
	if r.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d %s, want 413", r.status, b)
	}
	if got := r.errorMessage(t); got != "Request body too large" {
		t.Errorf("message %q, want %q", got, "Request body too large")
	}
}
