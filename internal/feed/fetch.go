package feed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"
)

// HTTPDoer sends an HTTP request; *http.Client is one.
type HTTPDoer interface {
	Do(req *http.Request) (*http.Response, error)
}

// userAgent identifies the feed reader to retailers' servers.
const userAgent = "productsearch-feed/1.0"

// newClient returns a client whose connection, TLS handshake and
// response-header waits are bounded; the body download is bounded by the
// context and the idle timeout.
func newClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: 2 * time.Minute,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       30 * time.Second,
	}}
}

// fetch starts downloading src.Location and returns the response body. When
// src.AuthEnv names a non-empty environment variable its value is sent as the
// Authorization header. A status other than 2xx is an *HTTPError.
func fetch(ctx context.Context, src Source, opt Options) (io.ReadCloser, error) {
	display := redactURL(src.Location)
	client := opt.HTTP
	var own *http.Client
	if client == nil {
		own = newClient()
		client = own
	}
	reqCtx, cancel := context.WithCancelCause(ctx)
	fail := func(err error) (io.ReadCloser, error) {
		cancel(nil)
		if own != nil {
			own.CloseIdleConnections()
		}
		return nil, err
	}
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, src.Location, nil)
	if err != nil {
		return fail(fmt.Errorf("fetch %s: %w", display, redactErr(err)))
	}
	req.Header.Set("User-Agent", userAgent)
	if src.AuthEnv != "" {
		if v := os.Getenv(src.AuthEnv); v != "" {
			req.Header.Set("Authorization", v)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		return fail(fmt.Errorf("fetch %s: %w", display, redactErr(err)))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		return fail(&HTTPError{URL: display, StatusCode: resp.StatusCode, Status: resp.Status})
	}
	b := &httpBody{body: resp.Body, ctx: reqCtx, cancel: cancel, idle: opt.IdleTimeout, client: own}
	b.timer = time.AfterFunc(opt.IdleTimeout, func() { cancel(&stallError{opt.IdleTimeout}) })
	b.timer.Stop()
	return b, nil
}

// stallError cancels a download that delivered no data for too long.
type stallError struct{ idle time.Duration }

func (e *stallError) Error() string { return fmt.Sprintf("no data received for %s", e.idle) }

// httpBody is a response body that aborts the download when a read waits
// longer than the idle timeout.
type httpBody struct {
	body   io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer
	idle   time.Duration
	client *http.Client // closed with the body when the reader made it
}

func (b *httpBody) Read(p []byte) (int, error) {
	b.timer.Reset(b.idle)
	n, err := b.body.Read(p)
	b.timer.Stop()
	if err != nil && !errors.Is(err, io.EOF) {
		if cause := context.Cause(b.ctx); cause != nil && !errors.Is(err, cause) {
			err = fmt.Errorf("%w (%w)", cause, err)
		}
	}
	return n, err
}

func (b *httpBody) Close() error {
	b.timer.Stop()
	err := b.body.Close()
	b.cancel(nil)
	if b.client != nil {
		b.client.CloseIdleConnections()
	}
	return err
}

// redactURL shows a feed URL in errors and logs without what may be secret:
// user info, path and query (affiliate datafeed URLs carry API keys in
// both), keeping the scheme and host.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "<invalid feed URL>"
	}
	s := u.Scheme + "://" + u.Host
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		s += "/..."
	}
	return s
}

// redactErr drops the *url.Error layer, which repeats the full URL; the
// caller names the redacted one.
func redactErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
