package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// batchOf returns a JSON-RPC batch of n search_products calls with ids 1..n
// asking for every laptop in full.
func batchOf(n int) string {
	calls := make([]string, n)
	for i := range calls {
		calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_products",`+
			`"arguments":{"category":"Laptops","lite":false,"limit":100}}}`, i+1)
	}
	return "[" + strings.Join(calls, ",") + "]"
}

func TestBatches(t *testing.T) {
	engine := fixtureEngine(t)
	ct := []string{"Content-Type", "application/json"}
	// size is one full search response in a batch, brackets included; the
	// batch response limit holds three and a half.
	probe := httptest.NewServer(NewHandler(engine, Options{}))
	size := len(post(t, probe.URL, batchOf(1), ct...).body)
	probe.Close()
	var charged []int
	refuse := false
	opts := Options{
		MaxBatch:              5,
		MaxBatchResponseBytes: 3*size + size/2,
		ChargeBatch: func(w http.ResponseWriter, _ *http.Request, extra int) bool {
			charged = append(charged, extra)
			if refuse {
				writeError(w, http.StatusTooManyRequests, "Rate limit exceeded")
				return false
			}
			return true
		},
	}
	ts := httptest.NewServer(NewHandler(engine, opts))
	defer ts.Close()

	tests := []struct {
		name        string
		body        string
		header      []string
		refuse      bool
		wantStatus  int
		wantIDs     []string // ids of the responses, in order
		wantNotRun  []string // ids answered with codeNotRun
		wantCharged []int
		wantErr     string // JSON-RPC error message of a refused batch
	}{
		{name: "calls and a notification", body: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},` +
			`{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"ping"}]`,
			wantStatus: 200, wantIDs: []string{"1", `"b"`}, wantCharged: []int{2}},
		{name: "one call is still an array", body: batchOf(1), wantStatus: 200, wantIDs: []string{"1"}},
		{name: "notifications only", body: `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`, wantStatus: 202},
		{name: "an unknown method among calls", body: `[{"jsonrpc":"2.0","id":1,"method":"tools/run"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
			wantStatus: 200, wantIDs: []string{"1", "2"}, wantCharged: []int{1}},
		{name: "response bytes capped", body: batchOf(5), wantStatus: 200, wantIDs: []string{"1", "2", "3", "4", "5"},
			wantNotRun: []string{"4", "5"}, wantCharged: []int{4}},
		{name: "a batch in a batch", body: `[[` + strings.Repeat(`{"jsonrpc":"2.0","id":9,"method":"ping"},`, 9) + `{"jsonrpc":"2.0","id":9,"method":"ping"}],` +
			`{"jsonrpc":"2.0","id":1,"method":"ping"}]`, wantStatus: 200, wantIDs: []string{"null", "1"}, wantCharged: []int{1}},
		{name: "too many messages", body: batchOf(6), wantStatus: 400, wantErr: "holds 6 messages; send at most 5"},
		{name: "1000 messages", body: batchOf(1000), wantStatus: 400, wantErr: "holds 1000 messages"},
		{name: "2025-06-18 has no batches", body: batchOf(2), header: []string{"MCP-Protocol-Version", "2025-06-18"},
			wantStatus: 400, wantErr: "batching is not supported in 2025-06-18 and later"},
		{name: "2025-11-25 has no batches", body: batchOf(1), header: []string{"MCP-Protocol-Version", "2025-11-25"},
			wantStatus: 400, wantErr: "batching is not supported"},
		{name: "2025-03-26 has batches", body: batchOf(2), header: []string{"MCP-Protocol-Version", "2025-03-26"},
			wantStatus: 200, wantIDs: []string{"1", "2"}, wantCharged: []int{1}},
		{name: "budget spent", body: batchOf(3), refuse: true, wantStatus: 429, wantCharged: []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			charged, refuse = nil, tt.refuse
			r := post(t, ts.URL, tt.body, append(ct, tt.header...)...)
			if r.status != tt.wantStatus {
				t.Fatalf("status %d body %.300s; want %d", r.status, r.body, tt.wantStatus)
			}
			if diff := cmp.Diff(tt.wantCharged, charged); diff != "" {
				t.Errorf("charges mismatch (-want +got):\n%s", diff)
			}
			switch {
			case tt.wantErr != "":
				checkRPCError(t, r, tt.wantStatus, "null", codeInvalidRequest, tt.wantErr)
				return
			case tt.wantStatus != http.StatusOK:
				return
			}
			if len(r.body) > opts.MaxBatchResponseBytes {
				t.Errorf("response holds %d bytes, over the %d limit", len(r.body), opts.MaxBatchResponseBytes)
			}
			var resps []rpcResponse
			if err := json.Unmarshal(r.body, &resps); err != nil {
				t.Fatalf("reply is not a JSON array: %v: %.300s", err, r.body)
			}
			var ids, notRun []string
			for _, resp := range resps {
				ids = append(ids, string(resp.ID))
				if resp.Error != nil && resp.Error.Code == codeNotRun {
					notRun = append(notRun, string(resp.ID))
				}
			}
			if diff := cmp.Diff(tt.wantIDs, ids); diff != "" {
				t.Errorf("response ids mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantNotRun, notRun); diff != "" {
				t.Errorf("calls not run mismatch (-want +got):\n%s\nbody: %.500s", diff, r.body)
			}
		})
	}
}

func TestInvalidText(t *testing.T) {
	ts := httptest.NewServer(NewHandler(fixtureEngine(t), Options{}))
	defer ts.Close()
	call := func(brand string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_products","arguments":{"brand":"` + brand + `"}}}`
	}
	tests := []struct {
		name, body, wantErr string
	}{
		{name: "raw invalid byte", body: call("Len\xffovo"), wantErr: "not valid UTF-8"},
		{name: "truncated sequence", body: call("Len\xe2\x82"), wantErr: "not valid UTF-8"},
		{name: "lone high surrogate", body: call(`Len\ud800ovo`), wantErr: `unpaired UTF-16 surrogate (\ud800)`},
		{name: "lone low surrogate", body: call(`Len\uDC00`), wantErr: `(\uDC00)`},
		{name: "high then not low", body: call(`\ud83d\u0041`), wantErr: "unpaired"},
		{name: "in a batch", body: "[" + call("\xff") + "]", wantErr: "not valid UTF-8"},
		{name: "pair", body: call(`Lenovo \ud83d\ude00`)},
		{name: "escaped backslash then u", body: call(`Lenovo \\ud800`)},
		{name: "valid UTF-8", body: call("Lenovo café ✓")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := post(t, ts.URL, tt.body, "Content-Type", "application/json")
			if tt.wantErr != "" {
				checkRPCError(t, r, http.StatusBadRequest, "null", codeParseError, tt.wantErr)
				return
			}
			if r.status != http.StatusOK {
				t.Errorf("status %d body %.300s; want 200", r.status, r.body)
			}
		})
	}
}

// TestFullResultBounded asks for every product in full with a small
// result limit: the response keeps its first products only, and total
// still counts them all.
func TestFullResultBounded(t *testing.T) {
	engine := fixtureEngine(t)
	tests := []struct {
		name      string
		maxResult int
		wantMax   int // most products returned
	}{
		{name: "unbounded", maxResult: 1 << 30, wantMax: 100},
		{name: "small", maxResult: 6000, wantMax: 3},
		{name: "below one product", maxResult: 10, wantMax: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(NewHandler(engine, Options{MaxResultBytes: tt.maxResult}))
			defer ts.Close()
			r := post(t, ts.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_products",`+
				`"arguments":{"query":"","lite":false,"limit":100,"min_price":1}}}`, "Content-Type", "application/json")
			var resp rpcResponse
			if err := json.Unmarshal(r.body, &resp); err != nil || resp.Result.IsError {
				t.Fatalf("status %d err %v body %.300s", r.status, err, r.body)
			}
			text := resp.Result.Content[0].Text
			var res struct {
				Products []json.RawMessage `json:"products"`
				Total    int               `json:"total"`
			}
			if err := json.Unmarshal([]byte(text), &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Products) == 0 || len(res.Products) > tt.wantMax || res.Total < 8 {
				t.Errorf("%d products of total %d; want 1 to %d of at least 8", len(res.Products), res.Total, tt.wantMax)
			}
			if len(res.Products) > 1 && len(text) > tt.maxResult {
				t.Errorf("result holds %d bytes and %d products, over the %d-byte limit", len(text), len(res.Products), tt.maxResult)
			}
		})
	}
}
