package operator

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"productsearch/internal/operator/v1alpha1"
	"productsearch/internal/syncstatus"
)

// finishPartitions marks an Indexed Job finished the way the Job
// controller does: every index completed, or those of failed failed.
func finishPartitions(t *testing.T, c client.Client, job *batchv1.Job, failed string) {
	t.Helper()
	now := metav1.Now()
	start := metav1.NewTime(now.Add(-time.Minute))
	n := *job.Spec.Completions
	job.Status.StartTime = &start
	if failed == "" {
		job.Status.CompletionTime = &now
		job.Status.Succeeded = n
		job.Status.CompletedIndexes = fmt.Sprintf("0-%d", n-1)
		job.Status.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: now},
		}
	} else {
		job.Status.Succeeded = n - int32(countIndexes(failed))
		var done []string
		for i := range n {
			if !strings.Contains(","+failed+",", fmt.Sprintf(",%d,", i)) {
				done = append(done, fmt.Sprint(i))
			}
		}
		job.Status.CompletedIndexes = strings.Join(done, ",")
		job.Status.FailedIndexes = &failed
		job.Status.Failed = 7
		job.Status.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonMaxFailedIndexesExceeded, LastTransitionTime: now},
			{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonMaxFailedIndexesExceeded, LastTransitionTime: now},
		}
	}
	if err := c.Status().Update(context.Background(), job); err != nil {
		t.Fatalf("finish partitions of %s: %v", job.Name, err)
	}
}

// finishJobs lists the finishing Jobs of a catalog by the Job they finish.
func finishJobs(t *testing.T, c client.Client, key client.ObjectKey) map[string]*batchv1.Job {
	t.Helper()
	var jobs batchv1.JobList
	if err := c.List(context.Background(), &jobs, client.InNamespace(key.Namespace), client.MatchingLabels{CatalogLabel: key.Name}); err != nil {
		t.Fatal(err)
	}
	out := map[string]*batchv1.Job{}
	for i := range jobs.Items {
		if f := jobs.Items[i].Labels[FinishesLabel]; f != "" {
			out[f] = &jobs.Items[i]
		}
	}
	return out
}

// partitionedSync: a catalog of three partitions syncs as an Indexed Job;
// its finishing Job is created only once every partition succeeded, and a
// sync whose partition failed gets none, so the alias stays. It runs in
// TestProductCatalogLifecycle's cluster (one operator per test binary).
func partitionedSync(t *testing.T, c client.Client) {
	ctx := context.Background()
	pc := &v1alpha1.ProductCatalog{
		ObjectMeta: metav1.ObjectMeta{Name: "parts", Namespace: "default"},
		Spec: v1alpha1.ProductCatalogSpec{
			Schedule: "0 */6 * * *", Partitions: 3, Parallelism: ptr[int32](2), DemoFeeds: true,
			Elasticsearch: v1alpha1.ElasticsearchTarget{URL: "http://elasticsearch:9200"},
		},
	}
	if err := c.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(pc)

	job := syncNow(t, c, key, "1")
	spec := job.Spec
	if !partitioned(job) || *spec.Completions != 3 || *spec.Parallelism != 2 || *spec.BackoffLimitPerIndex != 6 {
		t.Fatalf("sync job is not an Indexed Job of 3 partitions, 2 at once: %+v", spec)
	}
	if args := strings.Join(spec.Template.Spec.Containers[0].Args, " "); !strings.HasSuffix(args, "--partitions 3") {
		t.Errorf("sync args %q", args)
	}
	time.Sleep(time.Second)
	if f := finishJobs(t, c, key); len(f) != 0 {
		t.Fatalf("finishing Jobs while the partitions run: %v", f)
	}

	finishPartitions(t, c, job, "")
	var fj *batchv1.Job
	eventually(t, "finishing job", func() error {
		if fj = finishJobs(t, c, key)[job.Name]; fj == nil {
			return fmt.Errorf("no finishing job for %s", job.Name)
		}
		return nil
	})
	if args := strings.Join(fj.Spec.Template.Spec.Containers[0].Args, " "); !strings.HasPrefix(args, "publish --finish --partitions 3 --run "+job.Name+" ") {
		t.Errorf("finish args %q", args)
	}
	eventually(t, "syncing while finishing", func() error { return condition(c, key, v1alpha1.ConditionSyncing, metav1.ConditionTrue, "JobRunning") })
	ok := syncstatus.Summary{Result: syncstatus.Succeeded, Products: 900, Index: "products-run-" + job.Name, Alias: "products"}
	finish(t, c, fj, true, string(ok.Encode()))
	eventually(t, "ready", func() error { return condition(c, key, v1alpha1.ConditionReady, metav1.ConditionTrue, "IndexLive") })
	if err := c.Get(ctx, key, pc); err != nil {
		t.Fatal(err)
	}
	want := v1alpha1.PartitionsResult{Total: 3, Succeeded: 3}
	if ls := pc.Status.LastSync; ls == nil || ls.Job != fj.Name || ls.Products != 900 || ls.Partitions == nil || *ls.Partitions != want ||
		pc.Status.LiveIndex != ok.Index {
		t.Errorf("status after the finish: %+v (partitions %+v)", pc.Status, pc.Status.LastSync.Partitions)
	}

	// Partition 1 fails: no finish, Degraded, the index stays.
	time.Sleep(1100 * time.Millisecond)
	job = syncNow(t, c, key, "2")
	finishPartitions(t, c, job, "1")
	eventually(t, "degraded", func() error {
		return condition(c, key, v1alpha1.ConditionDegraded, metav1.ConditionTrue, ReasonPartitionsFailed)
	})
	time.Sleep(time.Second)
	if f := finishJobs(t, c, key)[job.Name]; f != nil {
		t.Errorf("a failed partitioned sync got a finishing Job %s", f.Name)
	}
	if err := c.Get(ctx, key, pc); err != nil {
		t.Fatal(err)
	}
	want = v1alpha1.PartitionsResult{Total: 3, Succeeded: 2, Failed: 1, FailedIndexes: "1"}
	ls := pc.Status.LastSync
	if ls == nil || ls.Partitions == nil || *ls.Partitions != want || pc.Status.LiveIndex != ok.Index ||
		!strings.Contains(ls.Message, "2 of 3 partitions succeeded; failed: 1") {
		t.Errorf("status after a failed partition: %+v", pc.Status)
	}
	if err := condition(c, key, v1alpha1.ConditionReady, metav1.ConditionTrue, "IndexLive"); err != nil {
		t.Errorf("ready after a failed partition: %v", err)
	}
}
