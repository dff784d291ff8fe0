package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"productsearch/internal/search"
)

// acceptBoth is the Accept header the SDK requires of Streamable HTTP
// clients.
const acceptBoth = "application/json, text/event-stream"

// NewHandler serves the two tools over an in-process search engine at POST
// /api/mcp; see NewHTTPHandler.
func NewHandler(engine search.Engine, opts Options) http.Handler {
	return NewHTTPHandler(NewServer(engine, opts), opts)
}

// NewHTTPHandler serves s over Streamable HTTP in stateless mode with JSON
// responses: every POST is answered on its own, with no session, by one
// application/json JSON-RPC response (202 and no body for notifications).
//
// In front of the SDK's handler it
//   - rejects a browser Origin other than localhost, 127.0.0.1, [::1] and
//     Options.AllowedOrigins (403); the request's Host is never trusted to
//     name an allowed origin, since a DNS-rebinding page controls both;
//   - rejects methods other than POST (405, Allow: POST) and bodies over
//     Options.MaxBodyBytes (413);
//   - rejects a body that is not valid UTF-8, including \u escapes of
//     unpaired surrogates, with a 400 parse error, as the REST API rejects
//     such parameters, rather than letting the decoder turn them into
//     U+FFFD;
//   - serves JSON-RPC batches itself (see serveBatch): refused under
//     protocol versions without batches, capped in messages and response
//     bytes, every message charged through Options.ChargeBatch;
//   - lets plain JSON-RPC callers in: a missing Content-Type counts as
//     application/json, and a missing Accept header, or one that accepts
//     JSON but not an event stream, is completed to
//     "application/json, text/event-stream" (the SDK answers 400
//     otherwise); Accept values that rule out JSON get 406;
//   - turns the SDK's plain-text HTTP errors into JSON: {"error": message}
//     for HTTP-level failures, and a JSON-RPC error response (id null) when
//     the body is not a valid JSON-RPC message or names an unknown method.
//
// Rate limiting is left to the server that mounts the handler.
func NewHTTPHandler(s *sdk.Server, opts Options) http.Handler {
	maxBody := opts.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	h := &handler{
		maxBody:       maxBody,
		maxBatch:      opts.MaxBatch,
		maxBatchBytes: opts.MaxBatchResponseBytes,
		chargeBatch:   opts.ChargeBatch,
		origins:       map[string]bool{},
		sdk: sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{
			Stateless:           true,
			JSONResponse:        true,
			Logger:              opts.sdkLogger(),
			MaxRequestBodyBytes: maxBody,
		}),
	}
	if h.maxBatch <= 0 {
		h.maxBatch = DefaultMaxBatch
	}
	if h.maxBatchBytes <= 0 {
		h.maxBatchBytes = DefaultMaxBatchResponseBytes
	}
	for _, o := range opts.AllowedOrigins {
		if n, ok := normalizeOrigin(o); ok {
			h.origins[n] = true
		}
	}
	return h
}

type handler struct {
	sdk           http.Handler
	maxBody       int64
	maxBatch      int
	maxBatchBytes int
	chargeBatch   func(w http.ResponseWriter, r *http.Request, extra int) bool
	origins       map[string]bool
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !h.allowOrigin(origin) {
		writeError(w, http.StatusForbidden, fmt.Sprintf("origin %q may not call this endpoint; call it from a server "+
			"(without an Origin header), from localhost, or from an allowed origin", echo(origin)))
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "method "+echo(r.Method)+" is not allowed: POST a JSON-RPC message")
		return
	}
	if r.ContentLength > h.maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, h.tooLarge())
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, h.maxBody+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, "cannot read the request body")
		return
	}
	if int64(len(body)) > h.maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, h.tooLarge())
		return
	}
	if msg := invalidText(body); msg != "" {
		writeRPCError(w, http.StatusBadRequest, nil, codeParseError, msg)
		return
	}
	r = r.Clone(r.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	if strings.TrimSpace(r.Header.Get("Content-Type")) == "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if accept := r.Header.Values("Accept"); len(accept) == 0 {
		r.Header.Set("Accept", acceptBoth)
	} else if jsonOK, streamOK := accepts(accept); !jsonOK {
		writeError(w, http.StatusNotAcceptable, "this endpoint answers with application/json: send Accept: "+acceptBoth+" or no Accept header")
		return
	} else if !streamOK {
		r.Header.Set("Accept", acceptBoth)
	}
	if isBatch(body) && h.serveBatch(w, r, body) {
		return
	}
	jw := &jsonErrorWriter{ResponseWriter: w}
	h.sdk.ServeHTTP(jw, r)
	jw.finish(body)
}

func (h *handler) tooLarge() string {
	return "request body is larger than " + strconv.FormatInt(h.maxBody, 10) + " bytes; send one JSON-RPC message at a time"
}

// accepts reports whether Accept values admit JSON and an event stream,
// as the SDK reads them.
func accepts(values []string) (jsonOK, streamOK bool) {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(mt)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK, streamOK
}

// allowOrigin admits loopback origins and the configured ones.
func (h *handler) allowOrigin(origin string) bool {
	n, ok := normalizeOrigin(origin)
	if !ok {
		return false
	}
	u, _ := url.Parse(n)
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return h.origins[n]
}

// normalizeOrigin lower-cases an http(s) origin and drops a default port.
func normalizeOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return "", false
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host, true
}

// errorBody is the flat error object of the interface (interface specification §7 Errors).
type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	body, _ := json.Marshal(errorBody{Error: msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// echo cuts a client-supplied value for quoting in a message.
func echo(s string) string {
	if len(s) > 120 {
		s = strings.ToValidUTF8(s[:120], "") + "…"
	}
	return s
}

// jsonErrorWriter passes responses through, except plain-text error
// responses (the SDK's http.Error calls), which it collects and rewrites
// as JSON in finish.
type jsonErrorWriter struct {
	http.ResponseWriter
	status int
	text   *bytes.Buffer // non-nil while collecting a plain-text error
}

func (w *jsonErrorWriter) WriteHeader(status int) {
	if w.status != 0 {
		return
	}
	w.status = status
	if status >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.text = &bytes.Buffer{}
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *jsonErrorWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.text != nil {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *jsonErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes a collected plain-text error as JSON. body is the
// request body, for the JSON-RPC error code and the request id.
func (w *jsonErrorWriter) finish(body []byte) {
	if w.text == nil {
		return
	}
	msg := strings.TrimSpace(w.text.String())
	w.Header().Del("X-Content-Type-Options")
	if w.status != http.StatusBadRequest || !isPayloadError(msg) {
		writeError(w.ResponseWriter, w.status, msg)
		return
	}
	resp := rpcErrorResponse{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: rpcError{Code: codeInvalidRequest, Message: msg}}
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	switch {
	case !json.Valid(body):
		resp.Error.Code = codeParseError
	case json.Unmarshal(body, &req) == nil && isRPCID(req.ID):
		resp.ID = req.ID
	}
	if strings.Contains(msg, "not handled") {
		resp.Error.Code = codeMethodNotFound
	}
	out, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "application/json")
	w.ResponseWriter.WriteHeader(w.status)
	_, _ = w.ResponseWriter.Write(out)
}

// isPayloadError tells the SDK's messages about the JSON-RPC payload from
// HTTP-level ones (protocol version header, session).
func isPayloadError(msg string) bool {
	for _, prefix := range []string{"malformed payload", "POST requires a non-empty body", "invalid request",
		"JSON RPC not handled", "JSON-RPC batching"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

// isRPCID reports whether v is a JSON-RPC request id: a string or number.
func isRPCID(v json.RawMessage) bool {
	return len(v) > 0 && (v[0] == '"' || v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))
}

// rpcErrorResponse is a JSON-RPC 2.0 error response.
type rpcErrorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcError        `json:"error"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// JSON-RPC 2.0 error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
)
