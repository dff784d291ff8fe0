package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"
)

// protocolVersionHeader carries the MCP protocol version of a request.
const protocolVersionHeader = "Mcp-Protocol-Version"

// firstBatchlessVersion is the first protocol version without JSON-RPC
// batches; versions are dates, so they compare as strings.
const firstBatchlessVersion = "2025-06-18"

// codeNotRun answers the calls of a batch left unrun once its responses
// reached the size limit (a server error code, JSON-RPC 2.0 §5.1).
const codeNotRun = -32000

// isBatch reports whether body is a JSON array, a JSON-RPC batch.
func isBatch(body []byte) bool {
	b := bytes.TrimLeft(body, " \t\r\n")
	return len(b) > 0 && b[0] == '['
}

// serveBatch answers a JSON-RPC batch, which protocol versions before
// 2025-06-18 allow. Each message runs on its own through the SDK, in
// order, and the responses are gathered into one array, so that the
// batch's cost is known before it runs and its response is bounded:
//   - a batch is refused (400) under a protocol version without batches,
//     and when it holds more than maxBatch messages;
//   - every message beyond the first is charged through chargeBatch (the
//     mounting server charged the request as one);
//   - once the responses reach maxBatchBytes, the calls left are answered
//     with an error instead of being run.
//
// It returns false, having written nothing, when body is not an array of
// messages (an empty or malformed batch), for the SDK to answer.
func (h *handler) serveBatch(w http.ResponseWriter, r *http.Request, body []byte) bool {
	var msgs []json.RawMessage
	if json.Unmarshal(body, &msgs) != nil || len(msgs) == 0 {
		return false
	}
	if v := r.Header.Get(protocolVersionHeader); v >= firstBatchlessVersion {
		writeRPCError(w, http.StatusBadRequest, nil, codeInvalidRequest, fmt.Sprintf(
			"JSON-RPC batching is not supported in %s and later (request version: %s): send one message per request",
			firstBatchlessVersion, echo(v)))
		return true
	}
	if len(msgs) > h.maxBatch {
		writeRPCError(w, http.StatusBadRequest, nil, codeInvalidRequest, fmt.Sprintf(
			"the batch holds %d messages; send at most %d per request", len(msgs), h.maxBatch))
		return true
	}
	if h.chargeBatch != nil && len(msgs) > 1 && !h.chargeBatch(w, r, len(msgs)-1) {
		return true
	}
	out := bytes.NewBufferString("[")
	answered, full := 0, false
	for _, msg := range msgs {
		id := messageID(msg)
		var resp []byte
		switch {
		case isBatch(msg):
			// Run on its own, a nested array would be a batch of its own,
			// outside these limits.
			resp = rpcErrorJSON(nil, codeInvalidRequest, "a batch may not hold another batch: put every message in one array")
		case full:
			if id == nil {
				continue // a notification gets no response
			}
			resp = rpcErrorJSON(id, codeNotRun, h.notRun())
		default:
			rec := h.runOne(r, msg)
			switch {
			case rec.status == http.StatusAccepted:
				continue
			case rec.status >= 400 && !strings.HasPrefix(rec.header.Get("Content-Type"), "application/json"):
				// An HTTP-level failure (a header the SDK refuses) is
				// the same for every message: answer the request with it.
				if !isPayloadError(strings.TrimSpace(rec.body.String())) {
					writeError(w, rec.status, strings.TrimSpace(rec.body.String()))
					return true
				}
				resp = rpcErrorJSON(id, payloadErrorCode(rec.body.String(), msg), strings.TrimSpace(rec.body.String()))
			default:
				resp = bytes.TrimSpace(rec.body.Bytes())
			}
			if out.Len()+len(resp)+1 > h.maxBatchBytes {
				full = true
				if id == nil {
					continue
				}
				resp = rpcErrorJSON(id, codeNotRun, h.notRun())
			}
		}
		if answered > 0 {
			out.WriteByte(',')
		}
		out.Write(resp)
		answered++
	}
	if answered == 0 {
		w.WriteHeader(http.StatusAccepted)
		return true
	}
	out.WriteByte(']')
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.Bytes())
	return true
}

func (h *handler) notRun() string {
	return fmt.Sprintf("not run: the responses to this batch reached %d bytes, the most one response may hold; "+
		"send this call again in another request", h.maxBatchBytes)
}

// runOne serves one message of a batch through the SDK and records the
// response.
func (h *handler) runOne(r *http.Request, msg []byte) *recorder {
	sub := r.Clone(r.Context())
	sub.Body = io.NopCloser(bytes.NewReader(msg))
	sub.ContentLength = int64(len(msg))
	rec := &recorder{header: http.Header{}}
	h.sdk.ServeHTTP(rec, sub)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec
}

// messageID returns the id of a JSON-RPC request, or nil for a
// notification (or a message whose id cannot be read).
func messageID(msg []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil || !isRPCID(m.ID) {
		return nil
	}
	return m.ID
}

// payloadErrorCode is the JSON-RPC error code of one of the SDK's payload
// errors about msg.
func payloadErrorCode(text string, msg []byte) int {
	switch {
	case !json.Valid(msg):
		return codeParseError
	case strings.Contains(text, "not handled"):
		return codeMethodNotFound
	}
	return codeInvalidRequest
}

// rpcErrorJSON encodes a JSON-RPC error response; a nil id is null.
func rpcErrorJSON(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	out, _ := json.Marshal(rpcErrorResponse{JSONRPC: "2.0", ID: id, Error: rpcError{Code: code, Message: msg}})
	return out
}

// writeRPCError answers the HTTP request with one JSON-RPC error response.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(rpcErrorJSON(id, code, msg))
}

// recorder is the http.ResponseWriter a message of a batch is served to.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// invalidText returns the message of a body that is not valid UTF-8 text
// or that escapes an unpaired UTF-16 surrogate (which decoders turn into
// U+FFFD), or "" for a valid one.
func invalidText(body []byte) string {
	if !utf8.Valid(body) {
		return "the request body is not valid UTF-8: send JSON text encoded in UTF-8"
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' || i+1 >= len(body) {
			continue
		}
		if body[i+1] != 'u' {
			i++ // an escaped character, possibly a backslash
			continue
		}
		r, ok := hex4(body, i+2)
		i += 5
		switch {
		case !ok || r < 0xD800 || r > 0xDFFF:
		case r <= 0xDBFF && i+6 < len(body) && body[i+1] == '\\' && body[i+2] == 'u':
			if low, ok := hex4(body, i+3); ok && low >= 0xDC00 && low <= 0xDFFF {
				i += 6
				continue
			}
			fallthrough
		default:
			return "the request body escapes an unpaired UTF-16 surrogate (\\u" + string(body[i-3:i+1]) +
				"), which is not text: send valid UTF-8"
		}
	}
	return ""
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
