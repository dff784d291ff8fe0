// Package fdflood is test support for servers that must survive running
// out of file descriptors: it re-executes the test binary as a child
// server with a low open-file limit, opens more connections to it than it
// has descriptors, closes them, and checks that the child still answers
// its health check and still runs.
package fdflood

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Flood describes one run.
type Flood struct {
	// Test is the name of the test function that, in the child, serves
	// (it must check ChildValue(Env) first).
	Test string
	// Env is the variable that marks the child; Value is its value there.
	Env, Value string
	// Conns is how many connections to open; at least MinConns must open
	// for the flood to have exceeded the child's descriptor limit.
	Conns, MinConns int
	// Health is the path answered 200 when the child is well, e.g. "/health".
	Health string
	// Within bounds the wait for health after the flood.
	Within time.Duration
}

// ChildValue returns the value of env when this process is the child.
func ChildValue(env string) (string, bool) {
	v := os.Getenv(env)
	return v, v != ""
}

// LimitFiles sets this process's open-file limit to n, or exits 2.
func LimitFiles(n uint64) {
	lim := syscall.Rlimit{Cur: n, Max: n}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		os.Exit(2)
	}
}

// Run starts the child, which prints its base URL ("http://host:port") as
// its first line of output, floods it and checks that it survives.
func (f Flood) Run(t *testing.T) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+f.Test+"$")
	cmd.Env = append(os.Environ(), f.Env+"="+f.Value)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		_ = cmd.Process.Kill()
		go func() { _ = cmd.Wait(); close(exited) }()
		t.Fatalf("the child printed no address\n%s", stderr.String())
	}
	base := strings.TrimSpace(lines.Text())
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()

	var conns []net.Conn
	for range f.Conns {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second)
		if err != nil {
			break // the backlog is full: the server is saturated
		}
		conns = append(conns, c)
	}
	time.Sleep(300 * time.Millisecond) // let the server hit the limit
	for _, c := range conns {
		c.Close()
	}
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(f.Within)
	for {
		select {
		case <-exited:
			t.Fatalf("the server exited after %d connections: %v\n%s", len(conns), waitErr, stderr.String())
		default:
		}
		resp, err := client.Get(base + f.Health)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("health did not answer after %d connections: %v\n%s", len(conns), err, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(conns) < f.MinConns {
		t.Errorf("only %d connections were opened; the flood did not exceed the descriptor limit", len(conns))
	}
}

// lockedBuffer is a bytes.Buffer safe for the child's stderr copier and
// the test reading it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
