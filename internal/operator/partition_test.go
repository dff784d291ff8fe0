package operator

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"productsearch/internal/operator/v1alpha1"
)

// TestPartitionedJobShape: one partition is today's Job; several make an
// Indexed Job whose pods take their partition from the completion index
// and their run from their Job's name, and whose finish moves the alias.
func TestPartitionedJobShape(t *testing.T) {
	tests := []struct {
		name            string
		partitions      int32
		parallelism     *int32
		wantIndexed     bool
		wantParallelism int32
		wantArgs        string
	}{
		{name: "default", wantArgs: "--es-replicas 0"},
		{name: "one", partitions: 1, wantArgs: "--es-replicas 0"},
		{name: "four", partitions: 4, wantIndexed: true, wantParallelism: 4, wantArgs: "--es-replicas 0 --partitions 4"},
		{name: "four, two at once", partitions: 4, parallelism: ptr[int32](2), wantIndexed: true, wantParallelism: 2, wantArgs: "--partitions 4"},
		{name: "parallelism above partitions", partitions: 3, parallelism: ptr[int32](9), wantIndexed: true, wantParallelism: 3, wantArgs: "--partitions 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pc := catalog(func(pc *v1alpha1.ProductCatalog) {
				pc.Spec.Partitions, pc.Spec.Parallelism = tt.partitions, tt.parallelism
			})
			spec := desiredCronJob(pc, "default:1", nil).Spec.JobTemplate.Spec
			c := spec.Template.Spec.Containers[0]
			if args := strings.Join(c.Args, " "); !strings.HasSuffix(args, tt.wantArgs) {
				t.Errorf("args %q do not end with %q", args, tt.wantArgs)
			}
			hasRun := false
			for _, e := range c.Env {
				if e.Name == RunEnv && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil &&
					e.ValueFrom.FieldRef.FieldPath == "metadata.labels['"+batchv1.JobNameLabel+"']" {
					hasRun = true
				}
			}
			if !tt.wantIndexed {
				if spec.CompletionMode != nil || spec.Completions != nil || hasRun || *spec.BackoffLimit != 6 {
					t.Errorf("one partition: job %+v, run variable %v; want today's Job", spec, hasRun)
				}
				return
			}
			if !partitioned(&batchv1.Job{Spec: spec}) || *spec.Completions != tt.partitions || *spec.Parallelism != tt.wantParallelism ||
				*spec.BackoffLimitPerIndex != 6 || *spec.MaxFailedIndexes != 0 || spec.BackoffLimit != nil || !hasRun {
				t.Errorf("indexed job: %+v, run variable %v", spec, hasRun)
			}
			job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "shop-indexer-29000000", Namespace: "ns"}, Spec: spec}
			fj := finishJob(pc, job)
			fc := fj.Spec.Template.Spec.Containers[0]
			want := "publish --finish --partitions " + itoa(tt.partitions) + " --run shop-indexer-29000000 --status-file /dev/termination-log --max-shrink 0.3 " +
				"--es-url http://es:9200 --es-index products --es-keep 2 --es-shards 1 --es-replicas 0"
			if diff := cmp.Diff(want, strings.Join(fc.Args, " ")); diff != "" {
				t.Errorf("finish args mismatch (-want +got):\n%s", diff)
			}
			if fj.Name != "shop-indexer-29000000-finish" || fj.Labels[FinishesLabel] != job.Name || fj.Spec.CompletionMode != nil ||
				len(fj.Spec.Template.Spec.InitContainers) != 0 || fc.Name != SyncContainer {
				t.Errorf("finish job: %+v", fj)
			}
			for _, e := range fc.Env {
				if e.Name == RunEnv {
					t.Errorf("finish container keeps %s", RunEnv)
				}
			}
		})
	}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

func TestFinishName(t *testing.T) {
	long := strings.Repeat("a", 60)
	tests := []struct{ job, want string }{
		{"shop-indexer-29000000", "shop-indexer-29000000-finish"},
		{long, long[:47] + "-" + "finish"},
	}
	for _, tt := range tests {
		got := finishName(tt.job)
		if len(got) > 63 || !strings.HasSuffix(got, "-finish") {
			t.Errorf("finishName(%q) = %q: too long or unmarked", tt.job, got)
		}
		if tt.job != long && got != tt.want {
			t.Errorf("finishName(%q) = %q, want %q", tt.job, got, tt.want)
		}
		if finishName(tt.job) != got || (tt.job == long && finishName(long+"b") == got) {
			t.Errorf("finishName(%q) is not one name per job", tt.job)
		}
	}
}

func TestCountIndexes(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0}, {"0", 1}, {"0-3", 4}, {"1,3-5", 4}, {"0,2,4", 3}, {"5-3", 0}, {"x,1", 1}, {"-1", 0},
	}
	for _, tt := range tests {
		if got := countIndexes(tt.in); got != tt.want {
			t.Errorf("countIndexes(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func FuzzCountIndexes(f *testing.F) {
	for _, s := range []string{"", "0-3", "1,3-5", "9-0", "a-b,", "0-99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := countIndexes(s); n < 0 {
			t.Fatalf("countIndexes(%q) = %d", s, n)
		}
	})
}
