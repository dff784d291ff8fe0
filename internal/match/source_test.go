package match

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// brandsItems returns n listings of brands listings each, one brand after
// another: as many partitions as brands, each listing its own product.
func brandsItems(brands, listings int) Items {
	var items Items
	for b := range brands {
		for k := range listings {
			items = append(items, Item{Retailer: "A", Brand: fmt.Sprintf("Brand%d", b),
				Title: fmt.Sprintf("Brand%d Speaker SP%d%03d", b, b, k)})
		}
	}
	return items
}

// countingSource counts the reads of each listing.
type countingSource struct {
	Items
	mu    sync.Mutex
	reads []int
	fail  func(reads int) bool // fails a block when its listing's read count says so
}

func (s *countingSource) Read(idx []int, fn func(k int, it *Item)) error {
	s.mu.Lock()
	for _, i := range idx {
		s.reads[i]++
		if s.fail != nil && s.fail(s.reads[i]) && i >= len(s.Items)/2 {
			s.mu.Unlock()
			return fmt.Errorf("listing %d: %w", i, errRead)
		}
	}
	s.mu.Unlock()
	return s.Items.Read(idx, fn)
}

var errRead = errors.New("read failed")

func TestGroupSourceReadsEachPartitionOnce(t *testing.T) {
	items := brandsItems(12, 3)
	src := &countingSource{Items: items, reads: make([]int, len(items))}
	got, err := GroupSource(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Group(items), got); diff != "" {
		t.Errorf("GroupSource differs from Group (-Group +GroupSource):\n%s", diff)
	}
	for i, n := range src.reads {
		if n != 2 { // once for the whole set, once with its brand
			t.Errorf("listing %d read %d times, want 2", i, n)
		}
	}
}

func TestGroupSourceFailsWhenAPartitionCannotBeRead(t *testing.T) {
	for _, tt := range []struct {
		name string
		fail func(reads int) bool
	}{
		{"first reading", func(n int) bool { return n == 1 }},
		{"a brand's reading", func(n int) bool { return n == 2 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			items := brandsItems(12, 3)
			src := &countingSource{Items: items, reads: make([]int, len(items)), fail: tt.fail}
			if _, err := GroupSource(src, Options{}); !errors.Is(err, errRead) {
				t.Errorf("GroupSource error %v, want the read's", err)
			}
		})
	}
}

func TestReadAheadHoldsTwoPartitions(t *testing.T) {
	for _, tt := range []struct {
		name   string
		most   int
		unread bool
	}{
		{"every partition read ahead", 2, false},
		{"partitions too large left to the caller", 1, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			items := brandsItems(6, 2)
			g, err := newGroups(items, Options{})
			if err != nil {
				t.Fatal(err)
			}
			parts := g.partitions()
			if len(parts) != 6 {
				t.Fatalf("%d partitions, want 6", len(parts))
			}
			done := make(chan struct{})
			defer close(done)
			next, free := g.readAhead(parts, tt.most, done)
			bufs := map[*profile]bool{}
			k := 0
			for r := range next {
				if r.err != nil {
					t.Fatal(r.err)
				}
				if diff := cmp.Diff(parts[k], r.part); diff != "" {
					t.Errorf("partition %d (-want +got):\n%s", k, diff)
				}
				if r.unread != tt.unread {
					t.Errorf("partition %d: unread %v, want %v", k, r.unread, tt.unread)
				}
				if r.unread {
					if err := g.readProfiles(r.part); err != nil {
						t.Fatal(err)
					}
				} else {
					free <- g.use(r.partRead)
				}
				bufs[&g.prof[:1][0]] = true
				if got, want := g.item(parts[k][0]).Title, items[parts[k][0]].Title; got != want {
					t.Errorf("partition %d: listing %d reads %q, want %q", k, parts[k][0], got, want)
				}
				k++
			}
			if k != len(parts) {
				t.Errorf("%d partitions read, want %d", k, len(parts))
			}
			if len(bufs) > 2 {
				t.Errorf("%d buffers used, want at most 2", len(bufs))
			}
		})
	}
}

func TestReadAheadStops(t *testing.T) {
	items := brandsItems(6, 2)
	g, err := newGroups(items, Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	next, _ := g.readAhead(g.partitions(), 2, done)
	<-next
	close(done) // the caller gives up after one partition
	for range next {
	}
}
