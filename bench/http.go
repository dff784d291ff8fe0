package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"productsearch/internal/search"
)

// HTTPSearcher sends searches to a running API server: GET /api/search
// with the request's REST parameters and a bearer key. It checks the
// status and reads the body; the result it returns is empty.
type HTTPSearcher struct {
	Base   string // "http://127.0.0.1:8080"
	Key    string
	Client *http.Client
}

// Search sends one request.
func (h *HTTPSearcher) Search(ctx context.Context, req search.Request) (*search.Result, error) {
	return &search.Result{}, h.get(ctx, Query{Req: req}.String())
}

func (h *HTTPSearcher) get(ctx context.Context, params string) error {
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, h.Base+"/api/search?"+params, nil)
	if err != nil {
		return err
	}
	r.Header.Set("Authorization", "Bearer "+h.Key)
	resp, err := h.Client.Do(r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// Throughput is what Saturate measured.
type Throughput struct {
	Requests, Failed int64
	Elapsed          time.Duration
}

// Rate is requests per second.
func (t Throughput) Rate() float64 { return float64(t.Requests) / t.Elapsed.Seconds() }

// Saturate sends the lite form of every query of the mix from workers
// closed-loop clients for d, and counts the answers.
func (h *HTTPSearcher) Saturate(ctx context.Context, mix []Query, workers int, d time.Duration) Throughput {
	params := make([]string, len(mix))
	for i, q := range mix {
		q.Req.Lite = true
		params[i] = q.String()
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var n, failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			for i := w * 7919; ctx.Err() == nil; i++ {
				err := h.get(ctx, params[i%len(params)])
				switch {
				case ctx.Err() != nil:
				case err != nil:
					failed.Add(1)
				default:
					n.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return Throughput{Requests: n.Load(), Failed: failed.Load(), Elapsed: time.Since(start)}
}
