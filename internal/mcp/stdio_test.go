package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"productsearch/internal/search"
)

const testKey = "test-key-123456"

// restServer is a stand-in for the REST API: GET /api/search parsed by
// search.ParseQuery and GET /api/product/{id}, over engine, with bearer
// authentication and the API's flat JSON errors.
func restServer(t *testing.T, engine search.Engine, key string) *httptest.Server {
	t.Helper()
	fail := func(w http.ResponseWriter, status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": msg})
	}
	authorized := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("Authorization") != "Bearer "+key {
			fail(w, http.StatusUnauthorized, "Unauthorized")
			return false
		}
		return true
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/search", func(w http.ResponseWriter, r *http.Request) {
		if !authorized(w, r) {
			return
		}
		req, err := search.ParseQuery(r.URL.Query())
		if err != nil {
			fail(w, http.StatusBadRequest, err.Error())
			return
		}
		res, err := engine.Search(r.Context(), req)
		if err != nil {
			fail(w, http.StatusInternalServerError, "Internal server error")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(res.AppendJSON(nil))
	})
	mux.HandleFunc("GET /api/product/{id}", func(w http.ResponseWriter, r *http.Request) {
		if !authorized(w, r) {
			return
		}
		id := r.PathValue("id")
		p, err := engine.Product(r.Context(), id)
		if errors.Is(err, search.ErrNotFound) {
			fail(w, http.StatusNotFound, "Product not found: "+id)
			return
		}
		if err != nil {
			fail(w, http.StatusInternalServerError, "Internal server error")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(search.AppendProduct(nil, p))
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// stdioServer runs RunStdio on pipes until the test ends; stdout is teed
// into a buffer so the test can check that it only carries JSON-RPC.
type stdioServer struct {
	transport *sdk.IOTransport
	stdout    *lockedBuffer
	stderr    *lockedBuffer
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startStdio(t *testing.T, env map[string]string) *stdioServer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioServer{stdout: &lockedBuffer{}, stderr: &lockedBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
		done <- RunStdio(ctx, nil, lookup, inR, io.MultiWriter(outW, s.stdout), s.stderr)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("RunStdio: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("RunStdio did not return after stdin closed")
		}
		checkProtocolOnly(t, s.stdout.String())
	})
	s.transport = &sdk.IOTransport{Reader: outR, Writer: inW}
	return s
}

// checkProtocolOnly fails unless every line of stdout is a JSON-RPC
// message.
func checkProtocolOnly(t *testing.T, stdout string) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout line is not a JSON-RPC message: %.200s", sc.Text())
		}
	}
}

func stdioSession(t *testing.T, baseURL, key string) *sdk.ClientSession {
	t.Helper()
	s := startStdio(t, map[string]string{"PRODUCT_SEARCH_BASE_URL": baseURL, "PRODUCT_SEARCH_API_KEY": key})
	return connect(t, s.transport, "")
}

// TestStdioFailures checks what the model reads when the REST API cannot
// answer the stdio server.
func TestStdioFailures(t *testing.T) {
	engine := fixtureEngine(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	limited := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "1800")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":"Rate limit exceeded","resetAt":"2030-01-01T12:00:00Z"}`)
	}))
	t.Cleanup(limited.Close)
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusBadGateway)
	}))
	t.Cleanup(broken.Close)
	strict := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":"brand is not served by this API"}`)
	}))
	t.Cleanup(strict.Close)
	rest := restServer(t, engine, testKey).URL

	tests := []struct {
		name, url, key string
		call           sdk.CallToolParams
		want           []string
	}{
		{"wrong key", rest, "wrong-key-000", sdk.CallToolParams{Name: ToolSearchProducts, Arguments: map[string]any{"category": "Laptops"}},
			[]string{"rejected the API key (401 Unauthorized)", "set PRODUCT_SEARCH_API_KEY"}},
		{"unknown product", rest, testKey, sdk.CallToolParams{Name: ToolGetProduct, Arguments: map[string]any{"product_id": "no-such-id"}},
			[]string{"Product not found: no-such-id.", "search_products"}},
		{"rate limited", limited.URL, testKey, sdk.CallToolParams{Name: ToolSearchProducts, Arguments: map[string]any{"category": "Laptops"}},
			[]string{"rate limit is exceeded until 2030-01-01T12:00:00Z; retry after 1800 s"}},
		{"unreachable", closedURL, testKey, sdk.CallToolParams{Name: ToolSearchProducts, Arguments: map[string]any{"category": "Laptops"}},
			[]string{"cannot reach the product search API at " + closedURL, "Is the server running? Set PRODUCT_SEARCH_BASE_URL"}},
		{"server error", broken.URL, testKey, sdk.CallToolParams{Name: ToolGetProduct, Arguments: map[string]any{"product_id": "lap-hp-15s"}},
			[]string{"failed (502: Bad Gateway); retry in a little while"}},
		{"400 message passed through", strict.URL, testKey, sdk.CallToolParams{Name: ToolSearchProducts, Arguments: map[string]any{"brand": "HP"}},
			[]string{"brand is not served by this API"}},
		{"invalid arguments checked before calling", closedURL, testKey,
			sdk.CallToolParams{Name: ToolSearchProducts, Arguments: map[string]any{"category": "Laptops", "constraints": map[string]any{"ram": map[string]any{"gte": 8}}}},
			[]string{`unknown constraint name "ram"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := stdioSession(t, tt.url, tt.key)
			res, err := cs.CallTool(context.Background(), &tt.call)
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*sdk.TextContent).Text
			if !res.IsError {
				t.Fatalf("isError false; text %.200s", text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("message %q does not contain %q", text, w)
				}
			}
		})
	}
}

// TestRunStdioConfig checks the configuration errors and the usage text,
// which go to stderr.
func TestRunStdioConfig(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr string
		stderr  string
	}{
		{"help", []string{"-h"}, nil, "", "PRODUCT_SEARCH_BASE_URL"},
		{"bad base URL", nil, map[string]string{"PRODUCT_SEARCH_BASE_URL": "localhost:8080"}, `PRODUCT_SEARCH_BASE_URL "localhost:8080" is not an http(s) base address`, ""},
		{"bad timeout", nil, map[string]string{"PRODUCT_SEARCH_TIMEOUT": "soon"}, `PRODUCT_SEARCH_TIMEOUT: "soon" is not a positive duration`, ""},
		{"stray argument", []string{"serve"}, nil, "unexpected arguments", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			err := RunStdio(context.Background(), tt.args, lookup, strings.NewReader(""), &stdout, &stderr)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr = %q, want %q in it", stderr.String(), tt.stderr)
			}
		})
	}
}
