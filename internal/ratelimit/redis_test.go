package ratelimit

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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
	if _, err := r.Incr(ctx, "k", start); err != nil {
		t.Fatal(err)
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
	if _, err := r.Incr(context.Background(), "k", time.Now()); err == nil {
		t.Error("Incr against a closed port succeeded")
	}
	if err := r.Ping(context.Background()); err == nil {
		t.Error("Ping against a closed port succeeded")
	}
}
