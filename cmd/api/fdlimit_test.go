package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fdChildEnv marks the test binary re-executed as the API server with a
// low open-file limit; its value is MAX_CONNS.
const fdChildEnv = "API_TEST_FD_CHILD"

// TestDescriptorExhaustion runs the API in a child process whose open-file
// limit is 128, opens 400 connections to it from one address (more than
// it has descriptors), closes them, and checks that health answers and the
// process still runs. With MAX_CONNS above the descriptor limit, accept
// really fails with "too many open files" and must be retried; with the
// default, the budget keeps the server below the limit.
func TestDescriptorExhaustion(t *testing.T) {
	if v := os.Getenv(fdChildEnv); v != "" {
		runFDChild(v)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	for _, maxConns := range []string{"1000", "default"} {
		t.Run("MAX_CONNS="+maxConns, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestDescriptorExhaustion$")
			cmd.Env = append(os.Environ(), fdChildEnv+"="+maxConns)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr syncBuffer
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
				t.Fatal("the child printed no address")
			}
			base := strings.TrimSpace(lines.Text())
			go func() {
				waitErr = cmd.Wait()
				close(exited)
			}()

			var conns []net.Conn
			for range 400 {
				c, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second)
				if err != nil {
					break // the backlog is full
				}
				conns = append(conns, c)
			}
			time.Sleep(300 * time.Millisecond)
			for _, c := range conns {
				c.Close()
			}
			client := &http.Client{Timeout: 5 * time.Second}
			deadline := time.Now().Add(20 * time.Second)
			for {
				select {
				case <-exited:
					t.Fatalf("the server exited after %d connections: %v\n%s", len(conns), waitErr, stderr.String())
				default:
				}
				resp, err := client.Get(base + "/api/health")
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
			if len(conns) < 128 {
				t.Errorf("only %d connections were opened; the flood did not exceed the descriptor limit", len(conns))
			}
		})
	}
}

// runFDChild runs the API with RLIMIT_NOFILE 128 on a free loopback port
// and prints its base URL.
func runFDChild(maxConns string) {
	lim := syscall.Rlimit{Cur: 128, Max: 128}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		os.Exit(2)
	}
	env := map[string]string{"HOST": "127.0.0.1", "PORT": "0", "METRICS_ADDR": "off", "CATALOG_PATH": fixturePath,
		"RELOAD_INTERVAL": "0", "LOG_LEVEL": "error", "MAX_CONNS_PER_ADDR": "100000"}
	if maxConns != "default" {
		env["MAX_CONNS"] = maxConns
	}
	lookup := func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
	p := &process{env: lookup, stdout: os.Stderr, stderr: os.Stderr,
		ready: func(a net.Addr) { fmt.Println("http://" + a.String()) }}
	err := p.run(context.Background(), nil)
	fmt.Fprintln(os.Stderr, "run:", err)
	os.Exit(1)
}
