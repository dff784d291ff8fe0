package ratelimit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisURL returns REDIS_URL or skips: these tests need a real Redis
// (scripts/redis.sh start prints one).
func redisURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("REDIS_URL")
	if u == "" {
		t.Skip("REDIS_URL is not set; start a Redis with scripts/redis.sh start and export the REDIS_URL it prints")
	}
	return u
}

func TestRedisExactAcrossClients(t *testing.T) {
	url := redisURL(t)
	ctx := context.Background()
	prefix := fmt.Sprintf("test:%d:", time.Now().UnixNano())
	var limiters []*Limiter
	for range 2 {
		c, err := OpenRedis(url)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		r := NewRedis(c, prefix)
		if err := r.Ping(ctx); err != nil {
			t.Fatal(err)
		}
		limiters = append(limiters, New(r, nil))
	}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			d, err := limiters[i%2].Allow(ctx, "ip:198.51.100.1", 50)
			if err != nil {
				t.Error(err)
				return
			}
			if d.Allowed {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	if got := allowed.Load(); got != 50 {
		t.Errorf("two clients allowed %d of 200 requests, want exactly 50", got)
	}
}

func TestRedisCounterExpires(t *testing.T) {
	url := redisURL(t)
	ctx := context.Background()
	c, err := OpenRedis(url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	prefix := fmt.Sprintf("test:%d:", time.Now().UnixNano())
	r := NewRedis(c, prefix)
	start := time.Now().Truncate(Window)
	// A counter created by a charge of several requests gets its expiry too.
	if n, err := r.Incr(ctx, "k", start, 3); err != nil || n != 3 {
		t.Fatalf("Incr by 3 = %d, %v; want 3", n, err)
	}
	if n, err := r.Incr(ctx, "k", start, 1); err != nil || n != 4 {
		t.Fatalf("Incr by 1 = %d, %v; want 4", n, err)
	}
	ttl, err := c.TTL(ctx, fmt.Sprintf("%sk:%d", prefix, start.Unix())).Result()
	if err != nil {
		t.Fatal(err)
	}
	if ttl <= Window-time.Minute || ttl > Window+expireGrace {
		t.Errorf("counter TTL = %v, want about %v", ttl, Window+expireGrace)
	}
}

func TestRedisUnreachable(t *testing.T) {
	c, err := OpenRedis("redis://127.0.0.1:1/0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := NewRedis(c, "x:")
	if _, err := r.Incr(context.Background(), "k", time.Now(), 1); err == nil {
		t.Error("Incr against a closed port succeeded")
	}
	if err := r.Ping(context.Background()); err == nil {
		t.Error("Ping against a closed port succeeded")
	}
}

// TestRedisClientLogsJSON checks that the Redis client's own messages, once
// RedisLogger is installed, are structured log records, not plain-text
// lines among the JSON ones.
func TestRedisClientLogsJSON(t *testing.T) {
	var buf bytes.Buffer
	redis.SetLogger(RedisLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	c, err := OpenRedis("redis://127.0.0.1:1/0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := NewRedis(c, "x:").Incr(context.Background(), "k", time.Now(), 1); err == nil {
		t.Fatal("Incr against a closed port succeeded")
	}
	if buf.Len() == 0 {
		t.Fatal("the Redis client logged nothing about the failed dial")
	}
	for line := range strings.Lines(buf.String()) {
		var rec struct {
			Level  string `json:"level"`
			Msg    string `json:"msg"`
			Detail string `json:"detail"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		if rec.Level != "WARN" || rec.Msg != "redis client" || rec.Detail == "" {
			t.Errorf("log record = %+v, want a WARN \"redis client\" record with the detail", rec)
		}
	}
}
