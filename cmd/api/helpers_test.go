package main

import (
	"bytes"
	"sync"
	"testing"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
	"productsearch/internal/search/memory"
)

// fixturePath is the API's twelve-product test catalog.
const fixturePath = "../../internal/api/testdata/catalog.snapshot"

// fixtureSnapshot reads the test catalog.
func fixtureSnapshot(t testing.TB) *catalog.Snapshot {
	t.Helper()
	s, err := catalog.ReadSnapshot(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fixtureEngine is the memory engine over the test catalog.
func fixtureEngine(t testing.TB) search.Engine {
	t.Helper()
	eng, err := memory.New(fixtureSnapshot(t), memory.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// syncBuffer collects log output from concurrent goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}
