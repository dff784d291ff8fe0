package api

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawHeaderNames sends a raw HTTP/1.1 request and returns the response's
// status line and header names exactly as the server wrote them.
func rawHeaderNames(t *testing.T, addr, request string) (string, []string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write([]byte(request)); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	status, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			return strings.TrimSpace(status), names
		}
		name, _, _ := strings.Cut(line, ":")
		names = append(names, name)
	}
}

func TestRateLimitHeaderSpelling(t *testing.T) {
	ts := startServer(t, Options{RateLimitPerHour: 1})
	addr := strings.TrimPrefix(ts.URL, "http://")
	want := []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}
	requests := []struct{ name, req, status string }{
		// A lower-case authorization header must still be read.
		{"allowed", "GET /api/search?limit=1 HTTP/1.1\r\nHost: x\r\nauthorization: Bearer " + testPublicKey + "\r\n\r\n", "200"},
		{"limited", "GET /api/search?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + testPublicKey + "\r\n\r\n", "429"},
	}
	for _, rq := range requests {
		status, names := rawHeaderNames(t, addr, rq.req)
		if !strings.Contains(status, " "+rq.status+" ") {
			t.Fatalf("%s: status line %q, want %s", rq.name, status, rq.status)
		}
		for _, w := range want {
			found := false
			for _, n := range names {
				if n == w {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: header %q not sent with that exact spelling; sent %v", rq.name, w, names)
			}
		}
	}
	if r := ts.get(t, "/api/health"); r.status != http.StatusOK || r.header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("health: status %d, rate-limit headers %v; want 200 without them", r.status, r.header)
	}
}
