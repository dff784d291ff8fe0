// Package connlimit bounds the connections a server holds, so that no
// client can make it run out of file descriptors: a listener that accepts
// at most a global number of connections at once (further clients wait in
// the kernel's backlog), at most a number per client address (further
// connections are answered 429 and closed), and that retries accept errors
// such as "too many open files" with backoff, as net/http does, instead of
// returning them to the server, which would stop serving.
package connlimit

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.opentelemetry.io/otel/metric"
	"golang.org/x/net/netutil"
)

// Accept backoff bounds, as net/http uses.
const (
	minBackoff = 5 * time.Millisecond
	maxBackoff = time.Second
)

// refusalTimeout bounds the write of the answer to a refused connection.
const refusalTimeout = time.Second

// Options configure a Listener.
type Options struct {
	// Max is the number of connections open at once (0: no limit).
	Max int
	// PerAddr is the number of connections open at once from one client
	// address, an IPv4 address or an IPv6 /64 (0: no limit).
	PerAddr int
	// Exempt reports whether a peer address has no per-address limit
	// (trusted proxies, which carry many clients' connections).
	Exempt func(netip.Addr) bool
	// Logger receives accept errors and refusals, at most one line per
	// second of each kind (nil discards).
	Logger *slog.Logger
}

// Listener is a net.Listener with the limits of Options.
type Listener struct {
	net.Listener // the listener with the global limit
	opt          Options
	log          *slog.Logger

	mu    sync.Mutex
	conns map[netip.Addr]int // open connections per address key

	refused     atomic.Int64
	acceptErrs  atomic.Int64
	lastRefusal atomic.Int64 // Unix nanoseconds of the last refusal logged
	lastErr     atomic.Int64 // same for accept errors
}

// Listen wraps ln with the limits of opt.
func Listen(ln net.Listener, opt Options) *Listener {
	l := &Listener{opt: opt, log: opt.Logger, conns: map[netip.Addr]int{}}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	var inner net.Listener = retryListener{Listener: ln, l: l}
	if opt.Max > 0 {
		inner = netutil.LimitListener(inner, opt.Max)
	}
	l.Listener = inner
	return l
}

// Refused returns how many connections were refused for their address.
func (l *Listener) Refused() int64 { return l.refused.Load() }

// AcceptErrors returns how many accept errors were retried.
func (l *Listener) AcceptErrors() int64 { return l.acceptErrs.Load() }

// Accept returns the next connection within the limits.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.opt.PerAddr <= 0 {
			return c, nil
		}
		peer, key, ok := addrKey(c.RemoteAddr())
		if !ok || (l.opt.Exempt != nil && l.opt.Exempt(peer)) {
			return c, nil
		}
		if l.register(key) {
			return &conn{Conn: c, l: l, key: key}, nil
		}
		l.refuse(c, key)
	}
}

// register counts one more connection from key, unless it has PerAddr.
func (l *Listener) register(key netip.Addr) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conns[key] >= l.opt.PerAddr {
		return false
	}
	l.conns[key]++
	return true
}

func (l *Listener) unregister(key netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conns[key] <= 1 {
		delete(l.conns, key)
		return
	}
	l.conns[key]--
}

// refusalBody is the body of the answer to a connection over the
// per-address limit.
const refusalBody = `{"error":"Too many open connections from your address: close some or reuse one (keep-alive)"}`

// refuse answers c 429 and closes it, without holding up Accept.
func (l *Listener) refuse(c net.Conn, key netip.Addr) {
	l.refused.Add(1)
	if l.every(&l.lastRefusal) {
		l.log.Warn("connection refused: too many open from one address", slog.String("client", key.String()),
			slog.Int("limit", l.opt.PerAddr), slog.Int64("refused_total", l.refused.Load()))
	}
	go func() {
		_ = c.SetWriteDeadline(time.Now().Add(refusalTimeout))
		_, _ = c.Write([]byte("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nConnection: close\r\n" +
			"Retry-After: 1\r\nContent-Length: " + strconv.Itoa(len(refusalBody)) + "\r\n\r\n" + refusalBody))
		_ = c.Close()
	}()
}

// every reports whether a second has passed since *last, and if so moves
// it to now.
func (l *Listener) every(last *atomic.Int64) bool {
	now := time.Now().UnixNano()
	prev := last.Load()
	return now-prev >= int64(time.Second) && last.CompareAndSwap(prev, now)
}

// addrKey returns the peer address of a connection and the key it is
// counted under: the IPv4 address, or the /64 of an IPv6 one.
func addrKey(a net.Addr) (peer, key netip.Addr, ok bool) {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.Addr{}, netip.Addr{}, false
	}
	peer = tcp.AddrPort().Addr().Unmap().WithZone("")
	key = peer
	if key.Is6() {
		p, _ := key.Prefix(64)
		key = p.Addr()
	}
	return peer, key, true
}

// conn releases its address's count when closed.
type conn struct {
	net.Conn
	l    *Listener
	key  netip.Addr
	once sync.Once
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.unregister(c.key) })
	return err
}

// retryListener retries the accept errors that pass (descriptors or
// buffers exhausted, a connection reset before it was accepted), waiting
// from 5ms doubling to 1s between tries, as net/http's Server.Serve does.
type retryListener struct {
	net.Listener
	l *Listener
}

func (r retryListener) Accept() (net.Conn, error) {
	var wait time.Duration
	for {
		c, err := r.Listener.Accept()
		if err == nil || !transient(err) {
			return c, err
		}
		r.l.acceptErrs.Add(1)
		wait = min(max(2*wait, minBackoff), maxBackoff)
		if r.l.every(&r.l.lastErr) {
			r.l.log.Error("accept failed; retrying", slog.Any("err", err), slog.Duration("retry_in", wait),
				slog.Int64("errors_total", r.l.acceptErrs.Load()))
		}
		time.Sleep(wait)
	}
}

// transient reports whether an accept error passes with time.
func transient(err error) bool {
	if errors.Is(err, net.ErrClosed) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	for _, e := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM,
		syscall.ECONNABORTED, syscall.ECONNRESET, syscall.EINTR, syscall.EAGAIN, syscall.EPROTO, syscall.ETIMEDOUT} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// RegisterMetrics exports the listener's counts on m:
// productsearch.connections.refused (connections closed at once because
// their address had PerAddr open) and productsearch.accept.errors (accept
// errors retried, such as running out of file descriptors).
func (l *Listener) RegisterMetrics(m metric.Meter) (metric.Registration, error) {
	refused, err := m.Int64ObservableCounter("productsearch.connections.refused", metric.WithUnit("{connection}"),
		metric.WithDescription("Connections closed on accept because their client address had its limit of open connections"))
	if err != nil {
		return nil, err
	}
	acceptErrs, err := m.Int64ObservableCounter("productsearch.accept.errors", metric.WithUnit("{error}"),
		metric.WithDescription("Accept errors retried with backoff, such as running out of file descriptors"))
	if err != nil {
		return nil, err
	}
	return m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		o.ObserveInt64(refused, l.Refused())
		o.ObserveInt64(acceptErrs, l.AcceptErrors())
		return nil
	}, refused, acceptErrs)
}
