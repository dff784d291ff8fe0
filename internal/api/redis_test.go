package api

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"productsearch/internal/ratelimit"
	"productsearch/internal/telemetry"
)

// tcpProxy forwards a loopback port to Redis and can cut the link, so a
// test can take "Redis" away from the servers and give it back on the same
// address.
type tcpProxy struct {
	t      *testing.T
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	p := &tcpProxy{t: t, target: target, addr: "127.0.0.1:0", conns: map[net.Conn]struct{}{}}
	p.up()
	t.Cleanup(p.down)
	return p
}

func (p *tcpProxy) up() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[up] = struct{}{}, struct{}{}
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
}

func (p *tcpProxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// replica is one API server with its own limiter over the shared Redis.
type replica struct {
	ts   *testServer
	fb   *ratelimit.Fallback
	logs *syncBuffer
}

func startReplica(t *testing.T, redisAddr, prefix string) *replica {
	client := redis.NewClient(&redis.Options{Addr: redisAddr, DialTimeout: 250 * time.Millisecond,
		ReadTimeout: 250 * time.Millisecond, WriteTimeout: 250 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { client.Close() })
	logs := &syncBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, nil))
	tel, err := telemetry.New(t.Context(), telemetry.Options{ServiceName: "test", Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	fb, err := ratelimit.NewFallback(ratelimit.NewRedis(client, prefix), ratelimit.FallbackOptions{
		Logger: log, Meter: tel.Meter("ratelimit"), MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fb.Close() })
	ts := startServer(t, Options{
		Engine: memoryEngine(t), Logger: log, Telemetry: tel, RateLimitPerHour: 50, Store: fb,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")},
	})
	return &replica{ts: ts, fb: fb, logs: logs}
}

// search sends one request as client ip and returns the status.
func (r *replica) search(t *testing.T, ip string) int {
	req, _ := http.NewRequest(http.MethodGet, r.ts.URL+"/api/search?limit=1&lite=true", nil)
	req.Header.Set("Authorization", "Bearer "+testPublicKey)
	req.Header.Set("X-Forwarded-For", ip)
	resp, err := r.ts.client.Do(req)
	if err != nil {
		t.Error(err)
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// burst sends n requests as ip, alternating between replicas, 20 at a
// time, and counts the statuses.
func burst(t *testing.T, reps []*replica, ip string, n int) map[int]int {
	var mu sync.Mutex
	counts := map[int]int{}
	sem := make(chan struct{}, 20)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			s := reps[i%len(reps)].search(t, ip)
			mu.Lock()
			counts[s]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return counts
}

func metricLine(t *testing.T, ts *testServer, name string) string {
	r := ts.metrics(t, http.MethodGet, "/metrics")
	for l := range strings.SplitSeq(string(r.body), "\n") {
		if strings.HasPrefix(l, name+" ") || strings.HasPrefix(l, name+"{") {
			return l
		}
	}
	return ""
}

// TestRedisSharedLimit starts two API servers with separate limiters that
// share one Redis: 200 concurrent requests from one client split across
// both are allowed exactly 50 times. With Redis gone each replica limits on
// its own, logs it once and counts the fallbacks; when Redis returns they
// share the budget again.
func TestRedisSharedLimit(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Skip("REDIS_URL is not set; start a Redis with scripts/redis.sh start and export the REDIS_URL it prints")
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newTCPProxy(t, opt.Addr)
	prefix := fmt.Sprintf("test:%d:", time.Now().UnixNano())
	reps := []*replica{startReplica(t, proxy.addr, prefix), startReplica(t, proxy.addr, prefix)}

	// Shared: exactly the limit across both replicas.
	got := burst(t, reps, "198.51.100.1", 200)
	if got[200] != 50 || got[429] != 150 {
		t.Fatalf("shared Redis: statuses %v, want exactly 50 x 200 and 150 x 429", got)
	}

	// Redis unreachable: each replica limits in-process.
	proxy.down()
	var wg sync.WaitGroup
	var ok [2]atomic.Int64
	for i, r := range reps {
		wg.Go(func() {
			for range 60 {
				if r.search(t, "198.51.100.2") == 200 {
					ok[i].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for i, r := range reps {
		if n := ok[i].Load(); n != 50 {
			t.Errorf("replica %d allowed %d of 60 requests while Redis was down, want its own limit of 50", i, n)
		}
		if n := strings.Count(r.logs.String(), "redis unreachable"); n != 1 {
			t.Errorf("replica %d logged the outage %d times, want once", i, n)
		}
		if line := metricLine(t, r.ts, "productsearch_ratelimit_redis_fallbacks_total"); !strings.HasSuffix(line, " 60") {
			t.Errorf("replica %d fallback metric %q, want 60", i, line)
		}
		if line := metricLine(t, r.ts, "productsearch_ratelimit_redis_up"); !strings.HasSuffix(line, " 0") {
			t.Errorf("replica %d redis_up %q, want 0", i, line)
		}
	}

	// Redis back on the same address: the probes find it and the
	// replicas share the budget again.
	proxy.up()
	for i, r := range reps {
		waitUntil(t, fmt.Sprintf("replica %d to reconnect", i), r.fb.Up)
		if n := strings.Count(r.logs.String(), "redis reachable again"); n != 1 {
			t.Errorf("replica %d logged the recovery %d times, want once", i, n)
		}
	}
	got = burst(t, reps, "198.51.100.3", 80)
	if got[200] != 50 || got[429] != 30 {
		t.Errorf("after recovery: statuses %v, want exactly 50 x 200 and 30 x 429", got)
	}
}
