package feed

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// feedServer serves the fixtures: /secret/awin.csv.gz needs the
// Authorization header "Bearer s3cret"; /stall sends part of a feed and then
// nothing.
func feedServer(t *testing.T) *httptest.Server {
	t.Helper()
	gz, err := os.ReadFile(filepath.Join("testdata", "awin.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	xml, err := os.ReadFile(filepath.Join("testdata", "google.xml"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/secret/awin.csv.gz", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "unauthorised", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(gz)
	})
	mux.HandleFunc("/google.xml", func(w http.ResponseWriter, r *http.Request) {
		if ua := r.Header.Get("User-Agent"); ua != userAgent {
			http.Error(w, "unexpected user agent "+ua, http.StatusBadRequest)
			return
		}
		w.Write(xml)
	})
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("merchant_product_id,product_name,search_price\nS-1,First,1.00\nS-2,Sec"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestFetch(t *testing.T) {
	srv := feedServer(t)
	local := readAll(t, Source{Format: FormatAwinCSV, Location: "testdata/awin.csv"}, Options{Now: fixedNow})

	t.Run("auth header sent", func(t *testing.T) {
		t.Setenv("TEST_FEED_TOKEN", "Bearer s3cret")
		got := readAll(t, Source{Format: FormatAwinCSV, Location: srv.URL + "/secret/awin.csv.gz?apikey=k123", AuthEnv: "TEST_FEED_TOKEN"}, Options{Now: fixedNow})
		if diff := cmp.Diff(local, got); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})

	t.Run("auth env empty", func(t *testing.T) {
		t.Setenv("TEST_FEED_TOKEN", "")
		_, err := Open(context.Background(), Source{Format: FormatAwinCSV, Location: srv.URL + "/secret/awin.csv.gz?apikey=k123", AuthEnv: "TEST_FEED_TOKEN"})
		var httpErr *HTTPError
		if !errors.As(err, &httpErr) || httpErr.StatusCode != http.StatusUnauthorized {
			t.Fatalf("Open() = %v, want an HTTPError 401", err)
		}
		for _, secret := range []string{"secret", "apikey", "k123"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error %q shows %q from the URL", err, secret)
			}
		}
	})

	t.Run("404", func(t *testing.T) {
		_, err := Open(context.Background(), Source{Format: FormatGoogleXML, Location: srv.URL + "/nothing-here.xml"})
		var httpErr *HTTPError
		if !errors.As(err, &httpErr) || httpErr.StatusCode != http.StatusNotFound {
			t.Fatalf("Open() = %v, want an HTTPError 404", err)
		}
		if !strings.Contains(err.Error(), "404 Not Found") {
			t.Errorf("error %q does not name the status", err)
		}
	})

	t.Run("plain xml", func(t *testing.T) {
		want := readAll(t, Source{Format: FormatGoogleXML, Location: "testdata/google.xml"}, Options{Now: fixedNow})
		got := readAll(t, Source{Format: FormatGoogleXML, Location: srv.URL + "/google.xml"}, Options{Now: fixedNow})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})

	t.Run("stalled download", func(t *testing.T) {
		r, err := OpenWith(context.Background(), Source{Format: FormatAwinCSV, Location: srv.URL + "/stall"}, Options{IdleTimeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		rec, err := r.Next()
		if err != nil || rec.ID != "S-1" {
			t.Fatalf("Next() = %+v, %v; want record S-1", rec, err)
		}
		_, err = r.Next()
		if err == nil || !strings.Contains(err.Error(), "no data received for 100ms") {
			t.Fatalf("Next() = %v, want a stall error", err)
		}
		var rowErr *RowError
		if errors.As(err, &rowErr) {
			t.Fatalf("stall reported as a row error: %v", err)
		}
	})

	t.Run("cancelled during download", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		r, err := OpenWith(ctx, Source{Format: FormatAwinCSV, Location: srv.URL + "/stall"}, Options{IdleTimeout: 3 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err := r.Next(); !errors.Is(err, context.Canceled) {
			t.Fatalf("Next() = %v, want context.Canceled", err)
		}
	})

	t.Run("connection refused", func(t *testing.T) {
		closed := httptest.NewServer(http.NotFoundHandler())
		url := closed.URL + "/private/path?token=zzz"
		closed.Close()
		_, err := Open(context.Background(), Source{Format: FormatAwinCSV, Location: url})
		if err == nil {
			t.Fatal("Open() = nil error for a closed server")
		}
		if strings.Contains(err.Error(), "private") || strings.Contains(err.Error(), "zzz") {
			t.Errorf("error %q shows the URL path or query", err)
		}
	})
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://example.co.uk", "https://example.co.uk"},
		{"https://example.co.uk/", "https://example.co.uk"},
		{"https://example.co.uk/feed.xml", "https://example.co.uk/..."},
		{"https://user:pass@example.co.uk/f?key=1", "https://example.co.uk/..."},
		{"http://example.co.uk:8080?key=1", "http://example.co.uk:8080/..."},
		{"https://productdata.awin.com/datafeed/download/apikey/abc123/fid/1/", "https://productdata.awin.com/..."},
		{"http://[::1", "<invalid feed URL>"},
		{"not a url", "<invalid feed URL>"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := redactURL(tt.in); got != tt.want {
				t.Errorf("redactURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
