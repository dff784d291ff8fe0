package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	json "github.com/goccy/go-json"

	"productsearch/internal/search/elastic"
)

// forceMerge merges index into one segment per shard, waiting at most
// opt.MergeWait. A merge still running then is left to finish in the
// background and the index is published as it is: it serves the same
// answers unmerged, only slower, whereas a cluster that cannot merge (its
// free disk below the merge watermark, indices.merge.disk.watermark.high)
// would otherwise hold the publish forever.
func forceMerge(ctx context.Context, c *elastic.Client, index string, opt *Options) error {
	q := url.Values{"max_num_segments": {"1"}, "wait_for_completion": {"false"}}
	var started struct {
		Task string `json:"task"`
	}
	if err := c.Do(ctx, http.MethodPost, "/"+url.PathEscape(index)+"/_forcemerge", q, nil, &started); err != nil {
		return fmt.Errorf("force merge %s: %w", index, err)
	}
	if started.Task == "" {
		return nil // answered as done
	}
	deadline := time.Now().Add(opt.MergeWait)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			opt.Log("the merge of %s is not done after %s (merges stop while the nodes' free disk is below "+
				"indices.merge.disk.watermark.high); publishing it unmerged, the merge goes on in the background",
				index, opt.MergeWait)
			return nil
		}
		var task struct {
			Completed bool            `json:"completed"`
			Error     json.RawMessage `json:"error"`
		}
		wait := url.Values{"wait_for_completion": {"true"}, "timeout": {strconv.FormatInt(min(left, 30*time.Second).Milliseconds(), 10) + "ms"}}
		err := c.Do(ctx, http.MethodGet, "/_tasks/"+url.PathEscape(started.Task), wait, nil, &task)
		switch {
		case isTimeout(err):
			continue
		case err != nil:
			return fmt.Errorf("force merge %s: task %s: %w", index, started.Task, err)
		case len(task.Error) > 0:
			return fmt.Errorf("force merge %s: %s", index, task.Error)
		case task.Completed:
			return nil
		}
	}
}

// isTimeout reports whether err is a task wait that timed out (408, or
// the timeout exception some versions answer with 500).
func isTimeout(err error) bool {
	var e *elastic.Error
	if !errors.As(err, &e) {
		return false
	}
	return e.Status == http.StatusRequestTimeout || e.Type == "timeout_exception" || e.Type == "receive_timeout_transport_exception"
}
