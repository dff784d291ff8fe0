package elastic

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/elastic/elastic-transport-go/v8/elastictransport"
	"github.com/elastic/go-elasticsearch/v8"
	json "github.com/goccy/go-json"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"productsearch/internal/search"
)

// Connection holds how to reach and authenticate to a cluster.
type Connection struct {
	// Addresses are the node URLs, e.g. http://127.0.0.1:9200.
	Addresses []string
	// APIKey is a base64-encoded API key; it takes precedence over
	// Username and Password (HTTP basic authentication).
	APIKey             string
	Username, Password string
	// CACertFile is a PEM file of certificate authorities to trust for
	// https addresses; empty uses the system pool.
	CACertFile string
	// Tracing, when set, records a client span of every request with the
	// client's own OpenTelemetry instrumentation.
	Tracing trace.TracerProvider
	// RetryStatuses are the answer statuses retried on the next node;
	// nil is RetryStatuses().
	RetryStatuses []int
	// Meter, when set, records the duration of every request as
	// db.client.operation.duration (see Client.Raw).
	Meter metric.Meter
}

// Validate checks the addresses.
func (c Connection) Validate() error {
	if len(c.Addresses) == 0 {
		return errors.New("no Elasticsearch address: set ELASTICSEARCH_URL, e.g. http://127.0.0.1:9200")
	}
	for _, a := range c.Addresses {
		u, err := url.Parse(a)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("elasticsearch address %q is not an http(s) URL such as http://127.0.0.1:9200", a)
		}
	}
	if (c.Username == "") != (c.Password == "") {
		return errors.New("elasticsearch basic authentication needs both a username and a password")
	}
	return nil
}

// Client is a thin JSON client over the Elasticsearch REST API. It is safe
// for concurrent use.
type Client struct {
	es       *elasticsearch.Client
	inst     elastictransport.Instrumentation // nil without tracing
	duration metric.Float64Histogram          // nil without a meter
	// answers holds the buffers Do reads answers into: an answer is
	// decoded (its values copied) before its buffer is used again.
	answers sync.Pool // *bytes.Buffer
}

// NewClient builds a client; it does not contact the cluster.
func NewClient(c Connection) (*Client, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ExpectContinueTimeout: time.Second,
		ForceAttemptHTTP2:     true,
		// Answers are not gzipped: inside a cluster network, compressing
		// hundreds of kilobytes of hits costs more time on both ends than
		// the transfer it saves.
		DisableCompression: true,
		// A page of hits is read in one or two reads, not in 4 KiB steps;
		// a judging search's body leaves in one write.
		ReadBufferSize:  64 << 10,
		WriteBufferSize: 16 << 10,
	}
	if c.CACertFile != "" {
		pem, err := os.ReadFile(c.CACertFile)
		if err != nil {
			return nil, fmt.Errorf("elasticsearch CA file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("elasticsearch CA file %s holds no PEM certificate", c.CACertFile)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	var inst elastictransport.Instrumentation
	if c.Tracing != nil {
		inst = elasticsearch.NewOpenTelemetryInstrumentation(c.Tracing, false)
	}
	retry := c.RetryStatuses
	if retry == nil {
		retry = RetryStatuses()
	}
	es, err := elasticsearch.NewClient(elasticsearch.Config{
		Instrumentation: inst,
		Addresses:       c.Addresses,
		APIKey:          c.APIKey,
		Username:        c.Username,
		Password:        c.Password,
		Transport:       tr,
		// Requests are bounded by their context. A request that fails to
		// connect, or is answered 429 (a full queue) or 502-504, is retried
		// on the next node; a node that fails is left out of the rotation
		// until it answers again. Every node gets a try.
		MaxRetries:    max(2, len(c.Addresses)),
		RetryOnStatus: retry,
		RetryBackoff:  retryBackoff(len(c.Addresses)),
	})
	if err != nil {
		return nil, fmt.Errorf("elasticsearch client: %w", err)
	}
	cl := &Client{es: es, inst: inst}
	if c.Meter != nil {
		cl.duration, err = c.Meter.Float64Histogram("db.client.operation.duration", metric.WithUnit("s"),
			metric.WithDescription("Duration of Elasticsearch requests by operation and outcome"))
		if err != nil {
			return nil, fmt.Errorf("elasticsearch client metrics: %w", err)
		}
	}
	return cl, nil
}

// RetryStatuses are the answers retried on another node by default: a
// node's full queue (429) and a node or proxy that cannot serve (502, 503,
// 504).
func RetryStatuses() []int {
	return []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}
}

// retryBackoff returns the wait before retry attempt (1, 2, ...): with
// several nodes the first retry goes at once to the next node, as one
// node's failure says nothing of the others'; later retries, and every
// retry on a single node, wait 50ms doubling per attempt up to 1s, with
// jitter so that clients that failed together do not retry together.
func retryBackoff(nodes int) func(attempt int) time.Duration {
	return func(attempt int) time.Duration {
		if nodes > 1 {
			attempt--
		}
		if attempt <= 0 {
			return 0
		}
		d := time.Second
		if attempt <= 5 {
			d = min(50*time.Millisecond<<(attempt-1), d)
		}
		return d/2 + rand.N(d/2+1)
	}
}

// Error is an error answer of Elasticsearch.
type Error struct {
	Status int
	Type   string
	Reason string
}

func (e *Error) Error() string {
	if e.Type == "" {
		return fmt.Sprintf("status %d", e.Status)
	}
	return fmt.Sprintf("status %d: %s: %s", e.Status, e.Type, e.Reason)
}

// errorBody is the body of an error answer.
type errorBody struct {
	Error json.RawMessage `json:"error"`
}

// errorCause is the error object of an error answer.
type errorCause struct {
	Type     string `json:"type"`
	Reason   string `json:"reason"`
	CausedBy *struct {
		Type   string `json:"type"`
		Reason string `json:"reason"`
	} `json:"caused_by"`
}

// parseError reads an error answer; the error field may be an object or a
// string.
func parseError(status int, body []byte) *Error {
	e := &Error{Status: status}
	var eb errorBody
	if json.Unmarshal(body, &eb) != nil || len(eb.Error) == 0 {
		e.Reason = truncate(string(body), 300)
		return e
	}
	var cause errorCause
	if json.Unmarshal(eb.Error, &cause) == nil && cause.Type != "" {
		e.Type, e.Reason = cause.Type, cause.Reason
		if cause.CausedBy != nil && cause.CausedBy.Reason != "" {
			e.Reason += " (" + cause.CausedBy.Type + ": " + cause.CausedBy.Reason + ")"
		}
		return e
	}
	var s string
	if json.Unmarshal(eb.Error, &s) == nil {
		e.Reason = s
	}
	return e
}

// ParseError reads an Elasticsearch error answer of the given status.
func ParseError(status int, body []byte) error { return parseError(status, body) }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Do sends one request. body, when not nil, is sent as JSON (or NDJSON for
// paths ending in _bulk or _msearch). A 2xx answer is decoded into out
// unless out is nil; any other answer is an *Error. Transport failures are
// returned as they are.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body []byte, out any) error {
	buf, _ := c.answers.Get().(*bytes.Buffer)
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	defer c.release(buf)
	status, data, err := c.send(ctx, method, path, query, body, buf)
	if err != nil {
		return err
	}
	if status < 200 || status > 299 {
		return parseError(status, data)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("decode %s %s answer: %w", method, path, err)
	}
	return nil
}

// maxPooledAnswer is the largest buffer Do keeps for the next answer.
const maxPooledAnswer = 1 << 20

// release returns an answer buffer to the pool unless it grew too large.
func (c *Client) release(buf *bytes.Buffer) {
	if buf.Cap() <= maxPooledAnswer {
		buf.Reset()
		c.answers.Put(buf)
	}
}

// Raw sends one request and returns the status and body of the answer,
// whatever the status. With tracing, the request is a client span named
// for its endpoint (see Endpoint); with a meter, its duration is recorded
// with db.operation.name (the endpoint) and outcome (see outcome).
func (c *Client) Raw(ctx context.Context, method, path string, query url.Values, body []byte) (status int, data []byte, err error) {
	return c.send(ctx, method, path, query, body, new(bytes.Buffer))
}

// send is Raw reading the answer into buf.
func (c *Client) send(ctx context.Context, method, path string, query url.Values, body []byte, buf *bytes.Buffer) (status int, data []byte, err error) {
	if c.duration != nil {
		start := time.Now()
		defer func() {
			c.duration.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(
				semconv.DBSystemNameElasticsearch, semconv.DBOperationName(Endpoint(method, path)),
				attribute.String("outcome", outcome(status, err))))
		}()
	}
	if c.inst != nil {
		endpoint := Endpoint(method, path)
		ctx = c.inst.Start(ctx, endpoint)
		defer func() {
			if err != nil {
				c.inst.RecordError(ctx, err)
			} else if status >= 500 {
				c.inst.RecordError(ctx, parseError(status, data))
			}
			if status != 0 {
				trace.SpanFromContext(ctx).SetAttributes(semconv.HTTPResponseStatusCode(status))
			}
			c.inst.Close(ctx)
		}()
	}
	return c.raw(ctx, method, path, query, body, buf)
}

// maxSizedAnswer is the largest announced answer length a buffer is
// sized to before reading; longer answers grow as they are read.
const maxSizedAnswer = 64 << 20

func (c *Client) raw(ctx context.Context, method, path string, query url.Values, body []byte, buf *bytes.Buffer) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	u := path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, fmt.Errorf("build request %s %s: %w", method, path, err)
	}
	if body != nil {
		ct := "application/json"
		if strings.HasSuffix(path, "/_bulk") || strings.HasSuffix(path, "/_msearch") || path == "_bulk" || path == "_msearch" {
			ct = "application/x-ndjson"
		}
		req.Header.Set("Content-Type", ct)
	}
	if c.inst != nil {
		c.inst.BeforeRequest(req, Endpoint(method, path))
	}
	res, err := c.es.Perform(req)
	if c.inst != nil {
		// Perform has filled in the node's address.
		c.inst.AfterRequest(req, "elasticsearch", Endpoint(method, path))
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			err = fmt.Errorf("%w (%w)", ctxErr, err)
		}
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	// An answer of known length is read into a buffer of at least that
	// size.
	if n := res.ContentLength; n > 0 && n <= maxSizedAnswer {
		buf.Grow(int(n) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(res.Body); err != nil {
		return 0, nil, fmt.Errorf("%s %s: read answer: %w", method, path, err)
	}
	return res.StatusCode, buf.Bytes(), nil
}

// outcome names how a request ended, for the duration metric: ok (2xx),
// not_found (404, as for an unknown product), error (any other answer) or
// unreachable (no answer: the node is down, the connection failed or the
// time ran out).
func outcome(status int, err error) string {
	switch {
	case err != nil:
		return "unreachable"
	case status >= 200 && status <= 299:
		return "ok"
	case status == http.StatusNotFound:
		return "not_found"
	}
	return "error"
}

// unavailable wraps a failure to reach or use the cluster as
// search.ErrUnavailable.
func unavailable(op string, err error) error {
	if errors.Is(err, search.ErrUnavailable) {
		return fmt.Errorf("%s: %w", op, err)
	}
	return fmt.Errorf("%s: %w: %w", op, search.ErrUnavailable, err)
}

// IsNotFound reports whether err is an Elasticsearch 404 answer.
func IsNotFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}
