package explorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/valyala/fasthttp"

	"productsearch/internal/search"
)

// The fixed error messages of the REST API, repeated here so that the
// explorer endpoints answer with the same bodies.
const (
	msgUnavailable = "Search backend unavailable; retry shortly"
	msgInternal    = "Internal server error"
)

// maxIDLen bounds the product ids looked up, as in the REST API.
const maxIDLen = 512

// maxEcho bounds how much of a client-supplied value an error message
// repeats, as in the REST API.
const maxEcho = 120

// Search returns the handler of GET /api/explorer/search: the REST search
// without a key. The query string is read exactly as GET /api/search reads
// it and the response body is the same.
func (e *Explorer) Search() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vals, err := queryValues(r.URL.RawQuery)
		if err != nil {
			e.fail(w, r, err)
			return
		}
		req, err := search.ParseQuery(vals)
		if err != nil {
			e.fail(w, r, err)
			return
		}
		res, err := e.engine.Search(r.Context(), req)
		if err != nil {
			e.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, res.AppendJSON(nil))
	})
}

// Product returns the handler of GET /api/explorer/product/{id}: the REST
// product detail without a key. {id} is a canonical product id or a
// retailer offer id, URL-encoded once.
func (e *Explorer) Product() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := productID(r.URL.EscapedPath())
		if err != nil {
			e.fail(w, r, err)
			return
		}
		p, err := e.engine.Product(r.Context(), id)
		if errors.Is(err, search.ErrNotFound) {
			err = notFound(id)
		}
		if err != nil {
			e.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, search.AppendProduct(nil, p))
	})
}

// queryValues parses a raw query string the way the REST API does (the
// fasthttp argument parser), rejecting names or values that are not UTF-8.
func queryValues(raw string) (url.Values, error) {
	var args fasthttp.Args
	args.Parse(raw)
	vals := url.Values{}
	var bad []byte
	args.VisitAll(func(k, v []byte) {
		if bad == nil && (!utf8.Valid(k) || !utf8.Valid(v)) {
			bad = append([]byte{}, k...)
		}
		vals.Add(string(k), string(v))
	})
	if bad != nil {
		return nil, &search.InvalidError{Message: fmt.Sprintf("parameter %q is not valid UTF-8 text; URL-encode UTF-8 text", echo(string(bad)))}
	}
	return vals, nil
}

// httpError is a failure with its status and client message.
type httpError struct {
	status  int
	message string
}

func (e *httpError) Error() string { return strconv.Itoa(e.status) + " " + e.message }

func notFound(id string) error {
	return &httpError{http.StatusNotFound, "Product not found: " + echo(id)}
}

// productID extracts the product id from the escaped request path
// /api/explorer/product/{id}. A path with no id or with more segments is
// not a route of the API (404 "Not found"); an id that is not validly
// URL-encoded is a 400; an id that cannot exist is a 404 for the product.
func productID(escapedPath string) (string, error) {
	raw, ok := strings.CutPrefix(escapedPath, PathProduct)
	if ok {
		raw = strings.TrimSuffix(raw, "/")
	}
	if !ok || raw == "" || strings.Contains(raw, "/") {
		return "", &httpError{http.StatusNotFound, "Not found: " + echo(escapedPath)}
	}
	id, err := url.PathUnescape(raw)
	if err != nil {
		// The message is the REST API's, word for word.
		return "", &search.InvalidError{Message: "the product id is not validly URL-encoded; encode it once, e.g. /api/product/" + url.PathEscape("abc:123")}
	}
	if len(id) > maxIDLen || !utf8.ValidString(id) {
		return "", notFound(id)
	}
	return id, nil
}

// fail answers err in the REST API's error shape: 400 with the validation
// message, the status of an httpError, 503 for an unavailable backend, and
// 500 (logged) for anything else.
func (e *Explorer) fail(w http.ResponseWriter, r *http.Request, err error) {
	var (
		invalid *search.InvalidError
		herr    *httpError
	)
	switch {
	case errors.As(err, &invalid):
		writeError(w, http.StatusBadRequest, invalid.Message)
	case errors.As(err, &herr):
		writeError(w, herr.status, herr.message)
	case errors.Is(err, search.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		e.log.Warn("explorer request failed", slog.String("path", r.URL.Path), slog.Any("err", err))
		writeError(w, http.StatusServiceUnavailable, msgUnavailable)
	default:
		e.log.Error("explorer request failed", slog.String("path", r.URL.Path), slog.Any("err", err))
		writeError(w, http.StatusInternalServerError, msgInternal)
	}
}

// writeJSON writes a JSON body.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(body) // a failed write means the client left
}

// writeError writes the flat error object {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg}) // a string field always encodes
	writeJSON(w, status, body)
}

// echo returns s cut to maxEcho bytes on a rune boundary, with invalid
// UTF-8 replaced, for quoting client input in messages (as the REST API
// does).
func echo(s string) string {
	if len(s) > maxEcho {
		cut := maxEcho
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if !utf8.ValidString(s) {
		s = string([]rune(s))
	}
	return s
}
