package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"productsearch/internal/connlimit/fdflood"
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
	if v, ok := fdflood.ChildValue(fdChildEnv); ok {
		runFDChild(v)
		return
	}
	if testing.Short() {
		t.Skip("starts a child process")
	}
	for _, maxConns := range []string{"1000", "default"} {
		t.Run("MAX_CONNS="+maxConns, func(t *testing.T) {
			fdflood.Flood{Test: "TestDescriptorExhaustion", Env: fdChildEnv, Value: maxConns,
				Conns: 400, MinConns: 128, Health: "/api/health", Within: 20 * time.Second}.Run(t)
		})
	}
}

// runFDChild runs the API with RLIMIT_NOFILE 128 on a free loopback port
// and prints its base URL.
func runFDChild(maxConns string) {
	fdflood.LimitFiles(128)
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
