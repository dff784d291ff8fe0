package publish

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"productsearch/internal/catalog"
	"productsearch/internal/search/elastic"
)

func snapshot(n int) *catalog.Snapshot {
	s := &catalog.Snapshot{Manifest: catalog.Manifest{SyncTime: time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)}}
	for i := range n {
		s.Products = append(s.Products, catalog.Product{
			ID: fmt.Sprintf("p%03d", i), Title: fmt.Sprintf("Product %d Laptop", i), Price: float64(100 + i),
			Currency: catalog.Currency, Availability: catalog.InStock, Category: "Laptops", ProductType: catalog.TypeProduct,
			OfferCount: 1, Offers: []catalog.Offer{{ID: fmt.Sprintf("o%03d", i), Source: "Currys", Price: float64(100 + i)}},
		})
	}
	return s
}

// fakeBulk is a _bulk endpoint that answers each request with the
// function's per-document statuses (or a whole-request status), and
// records the ids of every request.
type fakeBulk struct {
	mu       sync.Mutex
	requests [][]string
	answer   func(call int, ids []string) (status int, itemStatus []int)
}

func (f *fakeBulk) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Elastic-Product", "Elasticsearch")
	var ids []string
	sc := bufio.NewScanner(r.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 0; sc.Scan(); line++ {
		if line%2 == 1 {
			continue
		}
		var action struct {
			Index struct {
				ID string `json:"_id"`
			} `json:"index"`
		}
		if err := json.Unmarshal(sc.Bytes(), &action); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		ids = append(ids, action.Index.ID)
	}
	f.mu.Lock()
	call := len(f.requests)
	f.requests = append(f.requests, ids)
	f.mu.Unlock()
	status, items := f.answer(call, ids)
	if status != http.StatusOK {
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"type":"es_rejected_execution_exception","reason":"queue full"},"status":%d}`, status)
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"errors":true,"items":[`)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		st := http.StatusCreated
		if items != nil {
			st = items[i]
		}
		if st >= 300 {
			fmt.Fprintf(&b, `{"index":{"_id":%q,"status":%d,"error":{"type":"mapper_parsing_exception","reason":"bad %s"}}}`, id, st, id)
		} else {
			fmt.Fprintf(&b, `{"index":{"_id":%q,"status":%d}}`, id, st)
		}
	}
	b.WriteString(`]}`)
	w.Write(b.Bytes())
}

// rejectOnce answers 429 for the first two ids the first time each is
// sent, 400 for the third always, 201 otherwise.
func rejectOnce(first, second, bad string) func(int, []string) (int, []int) {
	var mu sync.Mutex
	seen := map[string]bool{}
	return func(_ int, ids []string) (int, []int) {
		mu.Lock()
		defer mu.Unlock()
		st := make([]int, len(ids))
		for i, id := range ids {
			switch {
			case id == bad:
				st[i] = http.StatusBadRequest
			case (id == first || id == second) && !seen[id]:
				st[i] = http.StatusTooManyRequests
			default:
				st[i] = http.StatusCreated
			}
			seen[id] = true
		}
		return http.StatusOK, st
	}
}

func TestBulkLoad(t *testing.T) {
	tests := []struct {
		name    string
		retries int
		answer  func(call int, ids []string) (int, []int)
		// want: indexed count, failures, retries, and whether an error
		wantIndexed  int
		wantFailures []Failure
		wantRetries  int
		wantErr      string
	}{
		{
			name:        "all indexed",
			retries:     3,
			answer:      func(int, []string) (int, []int) { return http.StatusOK, nil },
			wantIndexed: 20,
		},
		{
			name:    "429 and 500 answers are retried",
			retries: 3,
			answer: func(call int, ids []string) (int, []int) {
				if call < 2 {
					return []int{http.StatusTooManyRequests, http.StatusInternalServerError}[call], nil
				}
				return http.StatusOK, nil
			},
			wantIndexed: 20, wantRetries: 2,
		},
		{
			name:         "rejected documents are retried, a bad one is reported",
			retries:      3,
			answer:       rejectOnce("p003", "p011", "p007"),
			wantIndexed:  19,
			wantFailures: []Failure{{ID: "p007", Status: 400, Reason: "mapper_parsing_exception: bad p007"}},
			wantRetries:  2,
		},
		{
			name:    "retries run out",
			retries: 2,
			answer: func(call int, ids []string) (int, []int) {
				st := make([]int, len(ids))
				for i, id := range ids {
					st[i] = http.StatusCreated
					if id == "p005" {
						st[i] = http.StatusTooManyRequests
					}
				}
				return http.StatusOK, st
			},
			wantIndexed:  19,
			wantFailures: []Failure{{ID: "p005", Status: 429, Reason: "mapper_parsing_exception: bad p005"}},
			wantRetries:  2,
		},
		{
			name:        "a request that keeps failing fails the load",
			retries:     2,
			answer:      func(int, []string) (int, []int) { return http.StatusBadGateway, nil },
			wantRetries: 2, wantErr: "status 502",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fb := &fakeBulk{answer: tt.answer}
			srv := httptest.NewServer(fb)
			defer srv.Close()
			c, err := newClient(elastic.Connection{Addresses: []string{srv.URL}})
			if err != nil {
				t.Fatal(err)
			}
			cat, err := elastic.Prepare(snapshot(20))
			if err != nil {
				t.Fatal(err)
			}
			opt := Options{Connection: elastic.Connection{Addresses: []string{srv.URL}}, Workers: 1,
				BatchBytes: 1, Retries: tt.retries, backoff: func(int) time.Duration { return time.Millisecond }}
			if err := opt.fill(); err != nil {
				t.Fatal(err)
			}
			// The transport's own retries on 502-504 are part of the
			// client; count what publish retries.
			rep := &Report{}
			err = bulkLoad(context.Background(), c, cat, "products-x", nil, &opt, rep)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("bulkLoad error = %v, want it to contain %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			got := []any{rep.Indexed, rep.Failed, rep.Retries}
			want := []any{tt.wantIndexed, len(tt.wantFailures), tt.wantRetries}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("indexed, failed, retries mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantFailures, rep.Failures); diff != "" {
				t.Errorf("failures mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEncodeBatchesBySize(t *testing.T) {
	cat, err := elastic.Prepare(snapshot(50))
	if err != nil {
		t.Fatal(err)
	}
	for _, maxBytes := range []int{1, 2000, 10000, 1 << 20} {
		t.Run(fmt.Sprint(maxBytes), func(t *testing.T) {
			out := make(chan *batch, 100)
			hashes := map[string]uint64{}
			if err := encode(context.Background(), cat, "idx", nil, maxBytes, func(id string, h uint64) { hashes[id] = h }, out); err != nil {
				t.Fatal(err)
			}
			want, err := docHashes(cat)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, hashes); diff != "" {
				t.Errorf("hashes of the encoded documents mismatch (-want +got):\n%s", diff)
			}
			close(out)
			seen := 0
			for b := range out {
				if len(b.docs) > 1 && len(b.body) > maxBytes {
					t.Errorf("batch of %d documents is %d bytes, over %d", len(b.docs), len(b.body), maxBytes)
				}
				if got := bytes.Count(b.body, []byte("\n")); got != 2*len(b.docs) {
					t.Errorf("batch has %d lines for %d documents", got, len(b.docs))
				}
				for k, doc := range b.docs {
					if doc != seen {
						t.Fatalf("document %d out of order: got %d", seen, doc)
					}
					if !bytes.HasPrefix(b.body[b.offs[k]:], []byte(`{"index":{"_id":"`+cat.DocID(doc)+`"`)) {
						t.Errorf("offset of document %d does not start its action line", doc)
					}
					seen++
				}
			}
			if seen != 50 {
				t.Errorf("%d documents encoded, want 50", seen)
			}
		})
	}
}

func TestIsVersion(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"products-20250601t080000z", true},
		{"products-20250601t080000z-2", true},
		{"products-20250601t080000z-1", false},
		{"products-20250601t080000z-x", false},
		{"products-2025", false},
		{"products-old", false},
		{"products", false},
		{"other-20250601t080000z", false},
		{"products-20251301t080000z", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isVersion("products", tt.name); got != tt.want {
				t.Errorf("isVersion(products, %q) = %t, want %t", tt.name, got, tt.want)
			}
		})
	}
}

func FuzzIsVersion(f *testing.F) {
	f.Add("products", "products-20250601t080000z-3")
	f.Add("p", "p-")
	f.Fuzz(func(t *testing.T, alias, name string) {
		if isVersion(alias, name) && !strings.HasPrefix(name, alias+"-") {
			t.Errorf("isVersion(%q, %q) without the alias prefix", alias, name)
		}
	})
}
