package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// incrScript increments a window counter and gives a new counter its expiry
// in one atomic step, so replicas sharing Redis together allow exactly the
// limit and no counter outlives its window by more than the grace period.
const incrScript = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`

// expireGrace keeps a counter a little past its window to absorb clock
// differences between replicas.
const expireGrace = time.Minute

// Redis is a Store whose counters live in Redis under prefix+key+":"+window.
type Redis struct {
	client redis.UniversalClient
	prefix string
	script *redis.Script
}

// NewRedis returns a store over client; prefix namespaces its keys.
func NewRedis(client redis.UniversalClient, prefix string) *Redis {
	return &Redis{client: client, prefix: prefix, script: redis.NewScript(incrScript)}
}

// OpenRedis opens a client for url with short timeouts and no retries, so
// an unreachable Redis fails a request quickly and Fallback takes over.
func OpenRedis(url string) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis url: %w", err)
	}
	opt.DialTimeout = 250 * time.Millisecond
	opt.ReadTimeout = 250 * time.Millisecond
	opt.WriteTimeout = 250 * time.Millisecond
	opt.PoolTimeout = 500 * time.Millisecond
	opt.MaxRetries = -1
	return redis.NewClient(opt), nil
}

// Incr implements Store.
func (r *Redis) Incr(ctx context.Context, key string, start time.Time, n int64) (int64, error) {
	k := r.prefix + key + ":" + strconv.FormatInt(start.Unix(), 10)
	ttl := int64((Window + expireGrace) / time.Second)
	count, err := r.script.Run(ctx, r.client, []string{k}, ttl, n).Int64()
	if err != nil {
		return 0, fmt.Errorf("redis incr: %w", err)
	}
	return count, nil
}

// Ping reports whether Redis answers.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.client.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis ping: %w", err)
	}
	return nil
}

// RedisLogger adapts log to the Redis client's logger (redis.SetLogger),
// so that the client's own messages, such as the connection pool's dial
// failures, reach the structured log as warnings instead of plain-text
// lines on stderr.
func RedisLogger(log *slog.Logger) interface {
	Printf(ctx context.Context, format string, v ...any)
} {
	return redisLogger{log: log}
}

type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.WarnContext(ctx, "redis client", slog.String("detail", fmt.Sprintf(format, v...)))
}
