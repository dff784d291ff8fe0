package connlimit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"productsearch/internal/connlimit/fdflood"
)

// server accepts connections from l and holds them open, reading and
// discarding, until they are closed.
func server(t *testing.T, l net.Listener) (accepted chan net.Conn) {
	t.Helper()
	accepted = make(chan net.Conn, 100)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
			go func() { _, _ = io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return accepted
}

func listen(t *testing.T, opt Options) *Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return Listen(ln, opt)
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// expectAccepted waits for n connections to be accepted, then checks that
// no more are within a short while.
func expectAccepted(t *testing.T, accepted chan net.Conn, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-accepted:
		case <-time.After(5 * time.Second):
			t.Fatalf("accepted %d connections, want %d", i, n)
		}
	}
	select {
	case <-accepted:
		t.Fatalf("accepted more than %d connections", n)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestPerAddr(t *testing.T) {
	tests := []struct {
		name       string
		exempt     bool
		dials      int
		wantServed int
	}{
		{name: "limited", dials: 5, wantServed: 3},
		{name: "exempt address", exempt: true, dials: 5, wantServed: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := Options{PerAddr: 3}
			if tt.exempt {
				opt.Exempt = func(a netip.Addr) bool { return a == netip.MustParseAddr("127.0.0.1") }
			}
			l := listen(t, opt)
			accepted := server(t, l)
			var conns []net.Conn
			for range tt.dials {
				conns = append(conns, dial(t, l.Addr().String()))
			}
			expectAccepted(t, accepted, tt.wantServed)
			if got := l.Refused(); got != int64(tt.dials-tt.wantServed) {
				t.Errorf("refused %d, want %d", got, tt.dials-tt.wantServed)
			}
			if got := refusedMetric(t, l); got != int64(tt.dials-tt.wantServed) {
				t.Errorf("productsearch.connections.refused = %d, want %d", got, tt.dials-tt.wantServed)
			}
			if tt.exempt {
				return
			}
			// The refused ones are answered 429 and closed.
			for _, c := range conns[tt.wantServed:] {
				_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					t.Fatalf("refused connection: %v", err)
				}
				body, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "Too many open connections") {
					t.Errorf("refused connection answered %d %s", resp.StatusCode, body)
				}
			}
			// Closing a served connection makes room for one more.
			conns[0].Close()
			time.Sleep(50 * time.Millisecond) // the server sees EOF and closes its side
			dial(t, l.Addr().String())
			expectAccepted(t, accepted, 1)
		})
	}
}

func TestMax(t *testing.T) {
	l := listen(t, Options{Max: 2})
	accepted := server(t, l)
	a := dial(t, l.Addr().String())
	dial(t, l.Addr().String())
	dial(t, l.Addr().String()) // waits in the backlog
	expectAccepted(t, accepted, 2)
	a.Close()
	expectAccepted(t, accepted, 1)
}

// flaky fails Accept with errs, one per call, then accepts from the
// embedded listener.
type flaky struct {
	net.Listener
	mu   sync.Mutex
	errs []error
}

func (f *flaky) Accept() (net.Conn, error) {
	f.mu.Lock()
	if len(f.errs) > 0 {
		err := f.errs[0]
		f.errs = f.errs[1:]
		f.mu.Unlock()
		return nil, err
	}
	f.mu.Unlock()
	return f.Listener.Accept()
}

func TestAcceptErrors(t *testing.T) {
	opErr := func(errno syscall.Errno) error {
		return &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", errno)}
	}
	tests := []struct {
		name        string
		errs        []error
		wantErr     bool
		wantRetried int64
	}{
		{name: "too many open files", errs: []error{opErr(syscall.EMFILE), opErr(syscall.EMFILE), opErr(syscall.ENFILE)}, wantRetried: 3},
		{name: "aborted", errs: []error{opErr(syscall.ECONNABORTED)}, wantRetried: 1},
		{name: "closed", errs: []error{fmt.Errorf("accept: %w", net.ErrClosed)}, wantErr: true},
		{name: "permanent", errs: []error{opErr(syscall.EINVAL)}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			l := Listen(&flaky{Listener: ln, errs: tt.errs}, Options{Max: 10})
			dial(t, ln.Addr().String())
			c, err := l.Accept()
			if (err != nil) != tt.wantErr {
				t.Fatalf("Accept error %v, want error %v", err, tt.wantErr)
			}
			if c != nil {
				c.Close()
			}
			if got := l.AcceptErrors(); got != tt.wantRetried {
				t.Errorf("retried %d accept errors, want %d", got, tt.wantRetried)
			}
		})
	}
}

// childEnv marks the test binary re-executed as a server with a low
// open-file limit.
const childEnv = "CONNLIMIT_TEST_CHILD"

// TestDescriptorExhaustion runs a fasthttp server in a child process whose
// open-file limit is 64, opens 200 connections to it (more than it has
// descriptors), closes them, and checks that the server still answers and
// is still running. The global limit is set above the descriptor limit, so
// that accept really fails with "too many open files" and is retried.
func TestDescriptorExhaustion(t *testing.T) {
	if _, ok := fdflood.ChildValue(childEnv); ok {
		runChild()
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	for _, max := range []string{"1000", "default"} {
		t.Run("max="+max, func(t *testing.T) {
			fdflood.Flood{Test: "TestDescriptorExhaustion", Env: childEnv, Value: max,
				Conns: 200, MinConns: 64, Health: "/health", Within: 15 * time.Second}.Run(t)
		})
	}
}

// runChild serves /health with fasthttp behind Listen, with RLIMIT_NOFILE
// set to 64, and prints its address.
func runChild() {
	fdflood.LimitFiles(64)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	opt := Options{Max: DefaultMax()}
	if os.Getenv(childEnv) != "default" {
		opt.Max = 1000
	}
	fmt.Println("http://" + ln.Addr().String())
	srv := &fasthttp.Server{
		Handler:     func(ctx *fasthttp.RequestCtx) { ctx.SetBodyString(`{"status":"ok"}`) },
		IdleTimeout: time.Second,
		ReadTimeout: time.Second,
	}
	err = srv.Serve(Listen(ln, opt))
	fmt.Fprintln(os.Stderr, "serve:", err)
	if errors.Is(err, syscall.EMFILE) {
		os.Exit(3)
	}
	os.Exit(1)
}

// refusedMetric collects the listener's metrics once and returns
// productsearch.connections.refused.
func refusedMetric(t *testing.T, l *Listener) int64 {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	if _, err := l.RegisterMetrics(mp.Meter("test")); err != nil {
		t.Fatal(err)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == "productsearch.connections.refused" && len(sum.DataPoints) == 1 {
				return sum.DataPoints[0].Value
			}
		}
	}
	t.Fatal("productsearch.connections.refused not exported")
	return 0
}
