package api

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestUnroutedLogVolume sends a burst of requests to paths and methods no
// route serves: the access log keeps a bounded number of their lines and
// says how many it left out, while routed requests are all logged.
func TestUnroutedLogVolume(t *testing.T) {
	ts := startServer(t, Options{})
	const probes = 200
	for i := range probes {
		if i%2 == 0 {
			ts.get(t, "/wp-admin/"+strings.Repeat("x", i%7))
		} else {
			ts.do(t, http.MethodDelete, "/api/health", nil)
		}
	}
	for range 5 {
		ts.get(t, "/api/health")
	}
	logs := ts.logs.String()
	unrouted := strings.Count(logs, `"route":"unmatched"`)
	if unrouted > noiseBurst+noiseRate*5 || unrouted == 0 {
		t.Errorf("%d access-log lines for %d unrouted requests; want between 1 and about %d", unrouted, probes, noiseBurst)
	}
	if got := strings.Count(logs, `"route":"/api/health"`); got != 5 {
		t.Errorf("%d access-log lines for 5 health requests, want 5", got)
	}
	// Once the budget refills, the next line says how many were left out.
	time.Sleep(2 * time.Second / noiseRate)
	ts.get(t, "/nothing-here")
	if !strings.Contains(ts.logs.String(), `"suppressed":`) {
		t.Errorf("no line says how many unrouted requests were left out")
	}
}
