package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"productsearch/internal/search/elastic"
)

// batch is one bulk request: NDJSON action and source lines, and the
// products they hold.
type batch struct {
	body []byte
	docs []int // product positions, in body order
	offs []int // offset of each document's action line in body
}

// bulkLoad indexes every product of cat into index: one goroutine encodes
// batches of at most opt.BatchBytes, opt.Workers send them.
//
// It is written here rather than on esutil.BulkIndexer from
// go-elasticsearch, which cannot give what a publish needs:
//   - Documents a bulk answer rejects one by one (429 from a full write
//     queue, 5xx) are retried with backoff until opt.Retries. BulkIndexer
//     hands each to OnFailure and drops it, and adding it again from that
//     callback runs on the worker that flushes and can block on the
//     indexer's own queue; a dropped document fails the count the publish
//     verifies, so every publish under load would fail.
//   - A batch that cannot be sent at all stops the load at once (the new
//     index is then deleted). BulkIndexer reports every item of that batch
//     as failed and goes on with the rest.
//   - Retries of whole requests count in Report.Retries with the
//     publisher's own limit and backoff; BulkIndexer leaves them to the
//     transport, whose retries the search client shares.
//   - Each product's source is appended straight into its batch body;
//     BulkIndexer takes one io.ReadSeeker per document and copies it into
//     a buffer of its own.
//
// docs selects the products to index by position; nil indexes every one.
func bulkLoad(ctx context.Context, c *elastic.Client, cat *elastic.Catalog, index string, docs []int, opt *Options, rep *Report) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan *batch, opt.Workers)
	encErr := make(chan error, 1)
	go func() {
		defer close(batches)
		encErr <- encode(ctx, cat, index, docs, opt.BatchBytes, opt.hashed, batches)
	}()
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for range opt.Workers {
		wg.Go(func() {
			for b := range batches {
				res, err := send(ctx, c, b, opt)
				mu.Lock()
				rep.Batches++
				rep.Retries += res.retries
				rep.Bytes += int64(len(b.body))
				rep.Indexed += res.indexed
				for _, f := range res.failures {
					rep.Failed++
					if len(rep.Failures) < maxFailures {
						rep.Failures = append(rep.Failures, f)
					}
				}
				if err != nil && firstErr == nil {
					firstErr = err
					cancel()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := <-encErr; err != nil && firstErr == nil && !errors.Is(err, context.Canceled) {
		firstErr = err
	}
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// encode writes the products at positions docs (every product when docs is
// nil) as index actions into batches of at most maxBytes (a single larger
// document gets a batch of its own); hashed, when not nil, receives each
// document's sourceHash.
func encode(ctx context.Context, cat *elastic.Catalog, index string, docs []int, maxBytes int, hashed func(string, uint64), out chan<- *batch) error {
	if docs == nil {
		docs = make([]int, cat.Len())
		for i := range docs {
			docs[i] = i
		}
	}
	cur := &batch{}
	var src []byte
	for _, i := range docs {
		var err error
		src, err = cat.AppendSource(src[:0], i)
		if err != nil {
			return err
		}
		if hashed != nil {
			hashed(cat.DocID(i), sourceHash(src))
		}
		action, err := json.Marshal(map[string]map[string]string{"index": {"_index": index, "_id": cat.DocID(i)}})
		if err != nil {
			return err
		}
		size := len(action) + len(src) + 2
		if len(cur.docs) > 0 && len(cur.body)+size > maxBytes {
			select {
			case out <- cur:
			case <-ctx.Done():
				return ctx.Err()
			}
			cur = &batch{}
		}
		cur.offs = append(cur.offs, len(cur.body))
		cur.docs = append(cur.docs, i)
		cur.body = append(cur.body, action...)
		cur.body = append(cur.body, '\n')
		cur.body = append(cur.body, src...)
		cur.body = append(cur.body, '\n')
	}
	if len(cur.docs) > 0 {
		select {
		case out <- cur:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// sent is the outcome of one batch.
type sent struct {
	indexed  int
	retries  int
	failures []Failure
}

// bulkAnswer is the part of a _bulk answer publish reads.
type bulkAnswer struct {
	Errors bool `json:"errors"`
	Items  []map[string]struct {
		ID     string `json:"_id"`
		Status int    `json:"status"`
		Error  *struct {
			Type   string `json:"type"`
			Reason string `json:"reason"`
		} `json:"error"`
	} `json:"items"`
}

// retryable reports whether a status is worth retrying: too many requests
// or a server-side failure.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// send posts a batch, retrying the whole request on a transport error,
// 429 or 5xx, and the documents rejected with 429 or 5xx, with exponential
// backoff. Documents still failing, or failing for another reason, are
// returned as failures; the error is set only when the batch could not be
// sent at all.
func send(ctx context.Context, c *elastic.Client, b *batch, opt *Options) (sent, error) {
	var res sent
	pending := b
	for attempt := 0; ; attempt++ {
		status, data, err := c.Raw(ctx, http.MethodPost, "/_bulk", nil, pending.body)
		switch {
		case err == nil && status >= 200 && status <= 299:
		case attempt < opt.Retries && ctx.Err() == nil && (err != nil || retryable(status)):
			res.retries++
			if err := sleep(ctx, opt.backoff(attempt)); err != nil {
				return res, err
			}
			continue
		case err != nil:
			return res, fmt.Errorf("bulk request: %w", err)
		default:
			return res, fmt.Errorf("bulk request: %w", elastic.ParseError(status, data))
		}
		var ans bulkAnswer
		if err := json.Unmarshal(data, &ans); err != nil {
			return res, fmt.Errorf("decode bulk answer: %w", err)
		}
		if len(ans.Items) != len(pending.docs) {
			return res, fmt.Errorf("bulk answer has %d items for %d documents", len(ans.Items), len(pending.docs))
		}
		retry := &batch{}
		for k, item := range ans.Items {
			for _, r := range item {
				switch {
				case r.Status >= 200 && r.Status <= 299:
					res.indexed++
				case retryable(r.Status) && attempt < opt.Retries:
					end := len(pending.body)
					if k+1 < len(pending.offs) {
						end = pending.offs[k+1]
					}
					retry.offs = append(retry.offs, len(retry.body))
					retry.docs = append(retry.docs, pending.docs[k])
					retry.body = append(retry.body, pending.body[pending.offs[k]:end]...)
				default:
					reason := "status " + strconv.Itoa(r.Status)
					if r.Error != nil {
						reason = r.Error.Type + ": " + r.Error.Reason
					}
					res.failures = append(res.failures, Failure{ID: r.ID, Status: r.Status, Reason: reason})
				}
			}
		}
		if len(retry.docs) == 0 {
			return res, nil
		}
		res.retries++
		if err := sleep(ctx, opt.backoff(attempt)); err != nil {
			return res, err
		}
		pending = retry
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
