package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type rawResponse struct {
	status      int
	contentType string
	header      http.Header
	body        []byte
}

func post(t *testing.T, url, body string, header ...string) rawResponse {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) rawResponse {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return rawResponse{status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), header: resp.Header, body: b}
}

// rpcResponse is a JSON-RPC response as a plain caller parses it.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent map[string]any `json:"structuredContent"`
		IsError           bool           `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestPlainCallers posts JSON-RPC with only Content-Type: application/json
// (no Accept, no initialize, no session), as some callers do, and parses
// the reply as plain JSON.
func TestPlainCallers(t *testing.T) {
	ts := httptest.NewServer(NewHandler(fixtureEngine(t), Options{}))
	defer ts.Close()
	ct := []string{"Content-Type", "application/json"}

	t.Run("tools/list", func(t *testing.T) {
		r := post(t, ts.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, ct...)
		if r.status != http.StatusOK || r.contentType != "application/json" {
			t.Fatalf("status %d, Content-Type %q; want 200 application/json; body %.300s", r.status, r.contentType, r.body)
		}
		var resp rpcResponse
		if err := json.Unmarshal(r.body, &resp); err != nil {
			t.Fatalf("reply is not one JSON object: %v: %.300s", err, r.body)
		}
		var names []string
		for _, tool := range resp.Result.Tools {
			names = append(names, tool.Name)
		}
		if diff := cmp.Diff([]string{ToolGetProduct, ToolSearchProducts}, names); diff != "" {
			t.Errorf("tools mismatch (-want +got):\n%s", diff)
		}
		if string(resp.ID) != "1" || resp.JSONRPC != "2.0" {
			t.Errorf("id %s jsonrpc %q, want 1 and 2.0", resp.ID, resp.JSONRPC)
		}
	})
	t.Run("tools/call", func(t *testing.T) {
		r := post(t, ts.URL, `{"jsonrpc":"2.0","id":"a-7","method":"tools/call","params":{"name":"search_products",`+
			`"arguments":{"category":"Laptops","constraints":{"memory_gb":{"gte":32}}}}}`, ct...)
		if r.status != http.StatusOK || r.contentType != "application/json" {
			t.Fatalf("status %d, Content-Type %q; want 200 application/json; body %.300s", r.status, r.contentType, r.body)
		}
		var resp rpcResponse
		if err := json.Unmarshal(r.body, &resp); err != nil {
			t.Fatal(err)
		}
		if string(resp.ID) != `"a-7"` || resp.Result.IsError || len(resp.Result.Content) != 1 {
			t.Fatalf("unexpected reply %.300s", r.body)
		}
		var text map[string]any
		if err := json.Unmarshal([]byte(resp.Result.Content[0].Text), &text); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(text, resp.Result.StructuredContent); diff != "" {
			t.Errorf("structured content differs from text (-text +structured):\n%s", diff)
		}
		if text["total"] != 1.0 || text["unverified_total"] != 2.0 || text["excluded_by_constraints"] != 2.0 {
			t.Errorf("counts total %v unverified %v excluded %v; want 1, 2, 2", text["total"], text["unverified_total"], text["excluded_by_constraints"])
		}
	})
	t.Run("tools/call error result", func(t *testing.T) {
		r := post(t, ts.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_product","arguments":{"product_id":"nope"}}}`, ct...)
		var resp rpcResponse
		if err := json.Unmarshal(r.body, &resp); err != nil || r.status != http.StatusOK {
			t.Fatalf("status %d err %v body %.300s", r.status, err, r.body)
		}
		if !resp.Result.IsError || !strings.HasPrefix(resp.Result.Content[0].Text, "Product not found: nope.") {
			t.Errorf("reply %.300s; want an isError result saying Product not found", r.body)
		}
	})
	t.Run("no Content-Type either", func(t *testing.T) {
		r := post(t, ts.URL, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
		if r.status != http.StatusOK || r.contentType != "application/json" {
			t.Errorf("status %d, Content-Type %q; want 200 application/json", r.status, r.contentType)
		}
	})
	t.Run("Accept application/json only", func(t *testing.T) {
		r := post(t, ts.URL, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, "Content-Type", "application/json", "Accept", "application/json")
		if r.status != http.StatusOK || r.contentType != "application/json" {
			t.Errorf("status %d, Content-Type %q; want 200 application/json", r.status, r.contentType)
		}
	})
	t.Run("notification", func(t *testing.T) {
		r := post(t, ts.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ct...)
		if r.status != http.StatusAccepted || len(r.body) != 0 {
			t.Errorf("status %d body %q; want 202 and no body", r.status, r.body)
		}
	})
	t.Run("batch without a protocol version", func(t *testing.T) {
		r := post(t, ts.URL, `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, ct...)
		var resps []rpcResponse
		if err := json.Unmarshal(r.body, &resps); err != nil || r.status != http.StatusOK || len(resps) != 2 {
			t.Fatalf("status %d err %v body %.300s; want 200 and two responses", r.status, err, r.body)
		}
	})
	t.Run("batch at 2025-06-18", func(t *testing.T) {
		r := post(t, ts.URL, `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, "Content-Type", "application/json", "MCP-Protocol-Version", "2025-06-18")
		checkRPCError(t, r, http.StatusBadRequest, "null", codeInvalidRequest, "batching is not supported")
	})
}

func checkRPCError(t *testing.T, r rawResponse, status int, id string, code int, msg string) {
	t.Helper()
	var resp rpcResponse
	if err := json.Unmarshal(r.body, &resp); err != nil {
		t.Fatalf("reply is not JSON: %v: %q", err, r.body)
	}
	if r.status != status || r.contentType != "application/json" || resp.Error == nil || string(resp.ID) != id ||
		resp.Error.Code != code || !strings.Contains(resp.Error.Message, msg) {
		t.Errorf("got %d %q %s; want %d application/json with id %s, code %d, message containing %q",
			r.status, r.contentType, r.body, status, id, code, msg)
	}
}

func checkError(t *testing.T, r rawResponse, status int, msg string) {
	t.Helper()
	var body map[string]string
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("reply is not a flat JSON object: %v: %q", err, r.body)
	}
	if r.status != status || r.contentType != "application/json" || len(body) != 1 || !strings.Contains(body["error"], msg) {
		t.Errorf("got %d %q %s; want %d application/json {\"error\": ...%q...}", r.status, r.contentType, r.body, status, msg)
	}
}

// TestBadRequests checks that every failure is answered in JSON with the
// right status.
func TestBadRequests(t *testing.T) {
	ts := httptest.NewServer(NewHandler(fixtureEngine(t), Options{MaxBodyBytes: 4096, AllowedOrigins: []string{"https://Explorer.example.com:443"}}))
	defer ts.Close()
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	ct := "Content-Type"
	appJSON := "application/json"

	t.Run("malformed JSON", func(t *testing.T) {
		checkRPCError(t, post(t, ts.URL, `{"jsonrpc":`, ct, appJSON), http.StatusBadRequest, "null", codeParseError, "malformed payload")
	})
	t.Run("empty body", func(t *testing.T) {
		checkRPCError(t, post(t, ts.URL, ``, ct, appJSON), http.StatusBadRequest, "null", codeParseError, "non-empty body")
	})
	t.Run("no jsonrpc version", func(t *testing.T) {
		checkRPCError(t, post(t, ts.URL, `{"id":9,"method":"tools/list"}`, ct, appJSON), http.StatusBadRequest, "9", codeInvalidRequest, `expected "2.0"`)
	})
	t.Run("unknown method", func(t *testing.T) {
		checkRPCError(t, post(t, ts.URL, `{"jsonrpc":"2.0","id":5,"method":"tools/run"}`, ct, appJSON), http.StatusBadRequest, "5", codeMethodNotFound, "tools/run")
	})
	t.Run("unknown tool", func(t *testing.T) {
		r := post(t, ts.URL, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search","arguments":{}}}`, ct, appJSON)
		checkRPCError(t, r, http.StatusOK, "6", -32602, `unknown tool "search"`)
	})
	t.Run("not JSON", func(t *testing.T) {
		checkError(t, post(t, ts.URL, list, ct, "text/plain"), http.StatusUnsupportedMediaType, "Content-Type must be 'application/json'")
	})
	t.Run("Accept rules out JSON", func(t *testing.T) {
		checkError(t, post(t, ts.URL, list, ct, appJSON, "Accept", "text/html"), http.StatusNotAcceptable, "answers with application/json")
	})
	t.Run("unsupported protocol version", func(t *testing.T) {
		checkError(t, post(t, ts.URL, list, ct, appJSON, "MCP-Protocol-Version", "1999-01-01"), http.StatusBadRequest, "Unsupported protocol version")
	})
	t.Run("GET", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, ts.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		r := do(t, req)
		checkError(t, r, http.StatusMethodNotAllowed, "POST a JSON-RPC message")
		if r.header.Get("Allow") != http.MethodPost {
			t.Errorf("Allow %q, want POST", r.header.Get("Allow"))
		}
	})
	t.Run("oversize body", func(t *testing.T) {
		big := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`
		checkError(t, post(t, ts.URL, big, ct, appJSON), http.StatusRequestEntityTooLarge, "larger than 4096 bytes")
	})
	t.Run("oversize body without Content-Length", func(t *testing.T) {
		big := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`
		req, _ := http.NewRequest(http.MethodPost, ts.URL, io.MultiReader(strings.NewReader(big)))
		req.ContentLength = -1
		req.Header.Set(ct, appJSON)
		checkError(t, do(t, req), http.StatusRequestEntityTooLarge, "larger than 4096 bytes")
	})
}

func TestOrigins(t *testing.T) {
	ts := httptest.NewServer(NewHandler(fixtureEngine(t), Options{AllowedOrigins: []string{"https://Explorer.example.com:443", "not an origin"}}))
	defer ts.Close()
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	tests := []struct {
		origin string
		ok     bool
		host   string // the request's Host, when not the server's address
	}{
		// The Host is never an allowed origin: a DNS-rebinding page is
		// served from its own name, which then resolves to this server,
		// so its Origin equals the Host it sends. (The SDK refuses a
		// non-loopback Host on a loopback listener; these run without one,
		// as behind the Fiber adaptor or on a public address.)
		{"http://rebind.example.com", false, "rebind.example.com"},
		{"http://rebind.example.com:8080", false, "rebind.example.com:8080"},
		{"https://rebind.example.com", false, "rebind.example.com"},
		{"", true, ""},
		{"http://localhost:3000", true, ""},
		{"http://127.0.0.1", true, ""},
		{"https://[::1]:8443", true, ""},
		{"https://explorer.example.com", true, ""},
		{ts.URL, true, ""}, // loopback
		{"https://evil.example.com", false, ""},
		{"http://explorer.example.com", false, ""},
		{"https://explorer.example.com:8443", false, ""},
		{"null", false, ""},
		{"file://", false, ""},
		{"http://localhost.evil.com", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.origin, func(t *testing.T) {
			h := []string{"Content-Type", "application/json"}
			if tt.origin != "" {
				h = append(h, "Origin", tt.origin)
			}
			var r rawResponse
			if tt.host == "" {
				r = post(t, ts.URL, list, h...)
			} else {
				req := httptest.NewRequest(http.MethodPost, "http://"+tt.host+"/api/mcp", strings.NewReader(list))
				for i := 0; i+1 < len(h); i += 2 {
					req.Header.Set(h[i], h[i+1])
				}
				rec := httptest.NewRecorder()
				ts.Config.Handler.ServeHTTP(rec, req)
				r = rawResponse{status: rec.Code, contentType: rec.Header().Get("Content-Type"), header: rec.Header(), body: rec.Body.Bytes()}
			}
			if tt.ok {
				if r.status != http.StatusOK {
					t.Errorf("status %d body %.200s; want 200", r.status, r.body)
				}
				return
			}
			checkError(t, r, http.StatusForbidden, "may not call this endpoint")
		})
	}
}
