package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"productsearch/internal/search"
)

// Error is a failure with the HTTP status and the message the client sees.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return strconv.Itoa(e.Status) + " " + e.Message }

// The fixed errors of the API.
var (
	errUnauthorized = &Error{http.StatusUnauthorized, "Unauthorized"}
	errInternal     = &Error{http.StatusInternalServerError, "Internal server error"}
	errUnavailable  = &Error{http.StatusServiceUnavailable, "Search backend unavailable; retry shortly"}
	errBodyOnGet    = &Error{http.StatusRequestEntityTooLarge, "A GET request must not carry a body"}
	errURITooLong   = &Error{http.StatusRequestURITooLong, "Request URI too long (at most " + strconv.Itoa(maxURILen) + " bytes)"}
)

// maxEcho bounds how much of a client-supplied value an error message
// repeats.
const maxEcho = 120

// echo returns s cut to maxEcho bytes on a rune boundary, with invalid
// UTF-8 replaced, for quoting client input in messages.
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

// classify maps an error to its status and client message; internal is
// true when the detail belongs in the log, not the response.
func classify(c *fiber.Ctx, err error) (status int, msg string, internal bool) {
	var (
		apiErr   *Error
		invalid  *search.InvalidError
		fiberErr *fiber.Error
	)
	switch {
	case errors.As(err, &apiErr):
		return apiErr.Status, apiErr.Message, apiErr.Status >= 500
	case errors.As(err, &invalid):
		return http.StatusBadRequest, invalid.Message, false
	case errors.Is(err, search.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return errUnavailable.Status, errUnavailable.Message, true
	case errors.As(err, &fiberErr):
		switch fiberErr.Code {
		case http.StatusNotFound:
			return http.StatusNotFound, "Not found: " + echo(string(c.Request().URI().PathOriginal())), false
		case http.StatusMethodNotAllowed:
			return http.StatusMethodNotAllowed, "Method not allowed", false
		case http.StatusRequestEntityTooLarge:
			return http.StatusRequestEntityTooLarge, "Request body too large", false
		case http.StatusRequestHeaderFieldsTooLarge:
			return http.StatusRequestHeaderFieldsTooLarge, "Request header fields too large", false
		case http.StatusRequestTimeout:
			return http.StatusRequestTimeout, "Request timeout", false
		case http.StatusBadRequest, http.StatusBadGateway:
			return http.StatusBadRequest, "Malformed HTTP request", false
		}
		if text := http.StatusText(fiberErr.Code); text != "" && fiberErr.Code < 500 {
			return fiberErr.Code, text, false
		}
	}
	return errInternal.Status, errInternal.Message, true
}

// errorBody is the flat error object of the interface.
type errorBody struct {
	Error string `json:"error"`
}

// rateLimitBody is the 429 body.
type rateLimitBody struct {
	Error   string `json:"error"`
	ResetAt string `json:"resetAt"`
}

// writeJSONError writes {"error": msg} with status, keeping headers already
// set (rate-limit headers, request id).
func writeJSONError(c *fiber.Ctx, status int, msg string) {
	body, _ := json.Marshal(errorBody{Error: msg})
	c.Status(status)
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	c.Response().SetBodyRaw(body)
}

// writeRateLimited writes the 429 response for a window ending at reset.
func writeRateLimited(c *fiber.Ctx, reset, now time.Time) {
	retryAfter, body := rateLimited(reset, now)
	c.Set(fiber.HeaderRetryAfter, retryAfter)
	c.Status(http.StatusTooManyRequests)
	c.Response().Header.SetContentType(fiber.MIMEApplicationJSON)
	c.Response().SetBodyRaw(body)
}

// rateLimited returns the Retry-After value (whole seconds until reset,
// at least one) and the body of a 429.
func rateLimited(reset, now time.Time) (retryAfter string, body []byte) {
	wait := max(1, int64((reset.Sub(now)+time.Second-1)/time.Second))
	body, _ = json.Marshal(rateLimitBody{Error: "Rate limit exceeded", ResetAt: reset.UTC().Format(time.RFC3339)})
	return strconv.FormatInt(wait, 10), body
}

// errorHandler is Fiber's error handler: it answers errors raised outside
// the middleware chain (fasthttp parse failures, oversize headers or
// bodies) in the same JSON shape.
func (s *Server) errorHandler(c *fiber.Ctx, err error) error {
	status, msg, internal := classify(c, err)
	if internal {
		s.log.Error("request failed", slog.Int("status", status), slog.Any("err", err))
	}
	writeJSONError(c, status, msg)
	return nil
}
