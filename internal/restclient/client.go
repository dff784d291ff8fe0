// Package restclient calls the product search REST API: GET /api/search
// and GET /api/product/{id} with a bearer key. It returns the response
// bodies as they are, and turns every failure into an error whose message
// says what went wrong and what to do, for an AI agent to read: the API's
// own 400 message (*search.InvalidError), search.ErrNotFound for an
// unknown product, and *Error for an unreachable API, a rejected key, rate
// limiting and server failures. The local stdio MCP server is built on it.
package restclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"productsearch/internal/config"
	"productsearch/internal/search"
)

// Defaults of the client.
const (
	DefaultBaseURL = config.DefaultClientBaseURL
	DefaultTimeout = config.DefaultClientTimeout
	// maxResponseBytes bounds a response body; a page of 100 full
	// products is well under 2 MiB.
	maxResponseBytes = 32 << 20
)

// The environment variables that configure the client, named in messages.
const (
	EnvBaseURL = config.EnvClientBaseURL
	EnvAPIKey  = config.EnvClientAPIKey
)

// Options configure a Client.
type Options struct {
	// BaseURL is the API's address, e.g. http://127.0.0.1:8080 or
	// https://search.example.com/prefix; DefaultBaseURL when empty.
	BaseURL string
	// APIKey is sent as Authorization: Bearer <APIKey>.
	APIKey string
	// Timeout bounds one request; DefaultTimeout when zero.
	Timeout time.Duration
	// Transport sends the requests; http.DefaultTransport when nil.
	Transport http.RoundTripper
	// UserAgent is sent as User-Agent when set.
	UserAgent string
	// Now is the clock for rate-limit waits; time.Now when nil.
	Now func() time.Time
}

// Client calls the REST API. It is safe for concurrent use.
type Client struct {
	base    string // without a trailing slash
	key     string
	timeout time.Duration
	http    *http.Client
	agent   string
	now     func() time.Time
}

// New checks the options and returns a client.
func New(opt Options) (*Client, error) {
	base := strings.TrimSpace(opt.BaseURL)
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%s %q is not an http(s) base address; use e.g. %s", EnvBaseURL, base, DefaultBaseURL)
	}
	if strings.TrimSpace(opt.APIKey) == "" {
		return nil, fmt.Errorf("%s is empty; set it to an API key of the product search API", EnvAPIKey)
	}
	if opt.Timeout < 0 {
		return nil, fmt.Errorf("restclient: negative timeout %v", opt.Timeout)
	}
	c := &Client{
		base:    strings.TrimRight(u.String(), "/"),
		key:     strings.TrimSpace(opt.APIKey),
		timeout: opt.Timeout,
		http:    &http.Client{Transport: opt.Transport},
		agent:   opt.UserAgent,
		now:     opt.Now,
	}
	if c.timeout == 0 {
		c.timeout = DefaultTimeout
	}
	c.http.Timeout = c.timeout
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// BaseURL returns the API's base address.
func (c *Client) BaseURL() string { return c.base }

// Error is a failed API call. Message is complete and safe to show.
type Error struct {
	// Status is the HTTP status, 0 when no answer came.
	Status  int
	Message string
	// Err is the underlying transport error, if any.
	Err error
}

func (e *Error) Error() string { return e.Message }

func (e *Error) Unwrap() error { return e.Err }

// SearchQuery encodes a request as the query parameters of GET
// /api/search: query, min_price and max_price (only when above 0), brand,
// category, constraints (JSON), lite, limit, sort and offset (when above
// 0). Empty values are left out.
func SearchQuery(req search.Request) url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set(search.ParamQuery, req.Query)
	for _, p := range []struct {
		name string
		v    *float64
	}{{search.ParamMinPrice, req.MinPrice}, {search.ParamMaxPrice, req.MaxPrice}} {
		if p.v != nil && *p.v > 0 {
			q.Set(p.name, strconv.FormatFloat(*p.v, 'f', -1, 64))
		}
	}
	set(search.ParamBrand, req.Brand)
	set(search.ParamCategory, req.Category)
	if len(req.Constraints) > 0 {
		// Bounds are plain numbers; Marshal cannot fail.
		b, _ := json.Marshal(req.Constraints)
		q.Set(search.ParamConstraints, string(b))
	}
	q.Set(search.ParamLite, strconv.FormatBool(req.Lite))
	if req.Limit > 0 {
		q.Set(search.ParamLimit, strconv.Itoa(req.Limit))
	}
	set(search.ParamSort, string(req.Sort))
	if req.Offset > 0 {
		q.Set(search.ParamOffset, strconv.Itoa(req.Offset))
	}
	return q
}

// Search calls GET /api/search and returns the search response body.
func (c *Client) Search(ctx context.Context, req search.Request) ([]byte, error) {
	body, err := c.get(ctx, "/api/search?"+SearchQuery(req).Encode(), "")
	if errors.Is(err, errNotFound) {
		return nil, &Error{Status: http.StatusNotFound, Message: fmt.Sprintf("the server at %s has no /api/search: "+
			"is %s the base address of the product search API?", c.base, EnvBaseURL)}
	}
	return body, err
}

// Product calls GET /api/product/{id} and returns the product body; an
// unknown id gives an error wrapping search.ErrNotFound.
func (c *Client) Product(ctx context.Context, id string) ([]byte, error) {
	body, err := c.get(ctx, "/api/product/"+url.PathEscape(id), id)
	if errors.Is(err, errNotFound) {
		return nil, fmt.Errorf("product %q: %w", id, search.ErrNotFound)
	}
	return body, err
}

// errNotFound marks a 404 for the caller to explain.
var errNotFound = errors.New("not found")

func (c *Client) get(ctx context.Context, path, id string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Accept", "application/json")
	if c.agent != "" {
		req.Header.Set("User-Agent", c.agent)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, c.transportError(ctx, err)
	}
	if len(body) > maxResponseBytes {
		return nil, &Error{Status: resp.StatusCode, Message: fmt.Sprintf("the answer of the product search API at %s is larger than %d bytes; ask for fewer results (limit) or lite results", c.base, maxResponseBytes)}
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		if !json.Valid(body) {
			return nil, &Error{Status: resp.StatusCode, Message: fmt.Sprintf("the server at %s answered with something that is not JSON: "+
				"is %s the base address of the product search API?", c.base, EnvBaseURL)}
		}
		return body, nil
	case resp.StatusCode == http.StatusBadRequest:
		if msg := apiMessage(body); msg != "" {
			return nil, &search.InvalidError{Message: msg}
		}
		return nil, &Error{Status: resp.StatusCode, Message: "the product search API rejected the request as invalid (400) without saying why"}
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, &Error{Status: resp.StatusCode, Message: fmt.Sprintf("the product search API at %s rejected the API key (%d %s): "+
			"set %s to a valid key", c.base, resp.StatusCode, http.StatusText(resp.StatusCode), EnvAPIKey)}
	case resp.StatusCode == http.StatusNotFound:
		return nil, errNotFound
	case resp.StatusCode == http.StatusTooManyRequests:
		return nil, c.rateLimited(resp, body)
	case resp.StatusCode >= 500:
		detail := apiMessage(body)
		if detail == "" {
			detail = http.StatusText(resp.StatusCode)
		}
		return nil, &Error{Status: resp.StatusCode, Message: fmt.Sprintf("the product search API at %s failed (%d: %s); retry in a little while",
			c.base, resp.StatusCode, detail)}
	}
	detail := apiMessage(body)
	if detail == "" {
		detail = http.StatusText(resp.StatusCode)
	}
	return nil, &Error{Status: resp.StatusCode, Message: fmt.Sprintf("the product search API at %s answered %d: %s", c.base, resp.StatusCode, detail)}
}

// apiMessage reads the error field of a flat JSON error body.
func apiMessage(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	return strings.TrimSpace(e.Error)
}

// rateLimited explains a 429: until when, and how long to wait.
func (c *Client) rateLimited(resp *http.Response, body []byte) error {
	var b struct {
		ResetAt string `json:"resetAt"`
	}
	_ = json.Unmarshal(body, &b)
	reset, err := time.Parse(time.RFC3339, b.ResetAt)
	if err != nil {
		reset = time.Time{}
		if unix, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			reset = time.Unix(unix, 0).UTC()
		}
	}
	wait := -1.0
	if s, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); err == nil && s >= 0 {
		wait = float64(s)
	} else if !reset.IsZero() {
		wait = math.Max(0, math.Ceil(reset.Sub(c.now()).Seconds()))
	}
	msg := "the product search API rate limit is exceeded"
	if !reset.IsZero() {
		msg += " until " + reset.UTC().Format(time.RFC3339)
	}
	if wait >= 0 {
		msg += fmt.Sprintf("; retry after %.0f s", wait)
	}
	msg += fmt.Sprintf(". The public key shares a small hourly budget per IP address; set %s to a production key for a higher limit", EnvAPIKey)
	return &Error{Status: resp.StatusCode, Message: msg}
}

// transportError explains a request that got no answer.
func (c *Client) transportError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return &Error{Message: "the request to the product search API was cancelled", Err: err}
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return &Error{Message: fmt.Sprintf("the product search API at %s did not answer within %v; retry in a little while, "+
			"or check %s", c.base, c.timeout, EnvBaseURL), Err: err}
	}
	return &Error{Message: fmt.Sprintf("cannot reach the product search API at %s: %v. Is the server running? Set %s to its address",
		c.base, rootCause(err), EnvBaseURL), Err: err}
}

// rootCause drops the url.Error wrapper, which repeats the URL.
func rootCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
