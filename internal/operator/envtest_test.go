package operator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"productsearch/internal/operator/v1alpha1"
	"productsearch/internal/syncstatus"
)

// startCluster starts a kube-apiserver and etcd from KUBEBUILDER_ASSETS
// with the ProductCatalog CRD and the operator running against them, and
// returns a client. The test is skipped when the binaries are absent
// (scripts/k8s-local.sh envtest prints the variable; make test-operator
// sets it).
func startCluster(t *testing.T) client.Client {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		t.Skip("KUBEBUILDER_ASSETS is not set: no kube-apiserver and etcd to test against (make test-operator provides them)")
	}
	for _, b := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, b)); err != nil {
			t.Skipf("KUBEBUILDER_ASSETS=%s has no %s", assets, b)
		}
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "charts", "product-search", "crds")},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("start envtest: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stop envtest: %v", err)
		}
	})
	mgr, err := NewManager(cfg, Options{Image: "registry.example/productsearch:test", HealthAddr: "0", MetricsAddr: "0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	c, err := client.New(cfg, client.Options{Scheme: mgr.GetScheme()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// eventually polls check until it returns nil or 20 seconds pass.
func eventually(t *testing.T, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// finish marks a Job finished the way the Job controller does and gives it
// a pod whose sync container left message as its termination message.
func finish(t *testing.T, c client.Client, job *batchv1.Job, succeeded bool, message string) {
	t.Helper()
	ctx := context.Background()
	now := metav1.Now()
	start := metav1.NewTime(now.Add(-time.Minute))
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: job.Name + "-pod", Namespace: job.Namespace,
			Labels: map[string]string{batchv1.JobNameLabel: job.Name}},
		Spec: job.Spec.Template.Spec,
	}
	if err := c.Create(ctx, pod); err != nil {
		t.Fatal(err)
	}
	exit := int32(0)
	if !succeeded {
		exit = 2
	}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: SyncContainer, Image: pod.Spec.Containers[0].Image,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: exit, Message: message, FinishedAt: now}}}}
	if err := c.Status().Update(ctx, pod); err != nil {
		t.Fatal(err)
	}
	job.Status.StartTime = &start
	if succeeded {
		job.Status.CompletionTime = &now
		job.Status.Succeeded = 1
		job.Status.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: now},
			{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: now},
		}
	} else {
		job.Status.Failed = 1
		job.Status.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", LastTransitionTime: now},
			{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", LastTransitionTime: now},
		}
	}
	if err := c.Status().Update(ctx, job); err != nil {
		t.Fatalf("finish job %s: %v", job.Name, err)
	}
}

func TestProductCatalogLifecycle(t *testing.T) {
	c := startCluster(t)
	t.Run("partitioned sync", func(t *testing.T) { partitionedSync(t, c) })
	ctx := context.Background()
	ns := "default"
	pc := &v1alpha1.ProductCatalog{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: ns},
		Spec: v1alpha1.ProductCatalogSpec{
			Schedule: "0 */6 * * *",
			Retailers: []v1alpha1.Retailer{
				{Name: "Voltline", Slug: "voltline", Format: "awin_csv", Location: "https://feeds.example/voltline.csv.gz",
					Authorization: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "feeds"}, Key: "voltline"}},
			},
			Elasticsearch: v1alpha1.ElasticsearchTarget{URL: "http://elasticsearch:9200", CredentialsSecret: "es"},
		},
	}
	if err := c.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(pc)
	name := resourceName(pc)

	// The CronJob and ConfigMap appear, owned by the catalog, with the
	// CRD's defaults applied.
	var cj batchv1.CronJob
	eventually(t, "cronjob", func() error { return c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &cj) })
	var cm corev1.ConfigMap
	eventually(t, "configmap", func() error { return c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &cm) })
	checks := []struct {
		name string
		ok   bool
	}{
		{"cronjob owned by the catalog", len(cj.OwnerReferences) == 1 && cj.OwnerReferences[0].Kind == v1alpha1.Kind},
		{"configmap owned by the catalog", len(cm.OwnerReferences) == 1 && cm.OwnerReferences[0].Name == pc.Name},
		{"schedule", cj.Spec.Schedule == "0 */6 * * *"},
		{"forbid concurrent syncs", cj.Spec.ConcurrencyPolicy == batchv1.ForbidConcurrent},
		{"default alias and retention", strings.Contains(strings.Join(cj.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Args, " "), "--es-index products --es-keep 2")},
		{"shrink guard in the config", strings.Contains(cm.Data[configKey], "max_shrink: 0.3\n")},
		{"feed auth from the secret", len(cj.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Env) == 1},
	}
	for _, ch := range checks {
		if !ch.ok {
			t.Errorf("%s: not so; cronjob %+v configmap %v", ch.name, cj.Spec, cm.Data)
		}
	}

	// A spec change reaches the CronJob.
	eventually(t, "schedule update", func() error {
		if err := c.Get(ctx, key, pc); err != nil {
			return err
		}
		pc.Spec.Schedule = "30 2 * * *"
		return c.Update(ctx, pc)
	})
	eventually(t, "cronjob schedule", func() error {
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &cj); err != nil {
			return err
		}
		if cj.Spec.Schedule != "30 2 * * *" {
			return fmt.Errorf("schedule is %s", cj.Spec.Schedule)
		}
		return nil
	})

	// Sync now: one Job per annotation value.
	job := syncNow(t, c, key, "1")
	eventually(t, "syncing", func() error { return condition(c, key, v1alpha1.ConditionSyncing, metav1.ConditionTrue, "JobRunning") })
	ok := syncstatus.Summary{Result: syncstatus.Succeeded, Products: 1200, Offers: 3400, Index: "products-20260101t000000z", Alias: "products",
		Retailers: []syncstatus.Retailer{{Slug: "voltline", Rows: 3500, Accepted: 3400, Rejected: 100, Offers: 3400}}}
	finish(t, c, job, true, string(ok.Encode()))
	eventually(t, "ready", func() error { return condition(c, key, v1alpha1.ConditionReady, metav1.ConditionTrue, "IndexLive") })
	if err := c.Get(ctx, key, pc); err != nil {
		t.Fatal(err)
	}
	ls := pc.Status.LastSync
	if ls == nil || ls.Products != 1200 || len(ls.Retailers) != 1 || ls.Retailers[0].Rejected != 100 || pc.Status.LiveIndex != ok.Index {
		t.Errorf("status after a good sync: %+v", pc.Status)
	}

	// A refused sync: Degraded with the report's reason, the index stays.
	refused := syncstatus.Summary{Result: syncstatus.Refused, Reason: syncstatus.ReasonShrinkGuard,
		Message: "catalog shrinks beyond the allowed fraction", Index: ok.Index}
	job = syncNow(t, c, key, "2")
	finish(t, c, job, false, string(refused.Encode()))
	eventually(t, "degraded", func() error {
		return condition(c, key, v1alpha1.ConditionDegraded, metav1.ConditionTrue, syncstatus.ReasonShrinkGuard)
	})
	if err := condition(c, key, v1alpha1.ConditionReady, metav1.ConditionTrue, "IndexLive"); err != nil {
		t.Errorf("ready after a refused sync: %v", err)
	}

	// A Job that died without an account. Job conditions have whole
	// seconds: let it finish in a later second than the refused one.
	time.Sleep(1100 * time.Millisecond)
	job = syncNow(t, c, key, "3")
	finish(t, c, job, false, "panic: out of memory\n")
	eventually(t, "job failed", func() error {
		return condition(c, key, v1alpha1.ConditionDegraded, metav1.ConditionTrue, ReasonJobFailed)
	})

	deleteAndCheck(t, c, pc)
}

// deleteAndCheck deletes the catalogs of pc's namespace (as the chart's
// pre-delete hook does) and checks that pc's CronJob, ConfigMap and Jobs
// go, then pc.
func deleteAndCheck(t *testing.T, c client.Client, pc *v1alpha1.ProductCatalog) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ns, key, name := pc.Namespace, client.ObjectKeyFromObject(pc), resourceName(pc)
	if err := DeleteCatalogs(ctx, c, []string{ns}, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := gone(c, key, &v1alpha1.ProductCatalog{}); err != nil {
		t.Fatal(err)
	}
	for _, o := range []client.Object{&batchv1.CronJob{}, &corev1.ConfigMap{}} {
		if err := gone(c, client.ObjectKey{Namespace: ns, Name: name}, o); err != nil {
			t.Errorf("%T after delete: %v", o, err)
		}
	}
	var jobs batchv1.JobList
	if err := c.List(ctx, &jobs, client.InNamespace(ns), client.MatchingLabels{CatalogLabel: pc.Name}); err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs.Items {
		if j.DeletionTimestamp.IsZero() {
			t.Errorf("job %s left after delete", j.Name)
		}
	}
}

// syncNow sets the sync-now annotation and returns the Job it starts,
// checking that the value starts exactly one.
func syncNow(t *testing.T, c client.Client, key client.ObjectKey, v string) *batchv1.Job {
	t.Helper()
	ctx := context.Background()
	eventually(t, "annotate", func() error {
		var pc v1alpha1.ProductCatalog
		if err := c.Get(ctx, key, &pc); err != nil {
			return err
		}
		if pc.Annotations == nil {
			pc.Annotations = map[string]string{}
		}
		pc.Annotations[v1alpha1.SyncNowAnnotation] = v
		return c.Update(ctx, &pc)
	})
	var found *batchv1.Job
	eventually(t, "sync-now job", func() error {
		var jobs batchv1.JobList
		if err := c.List(ctx, &jobs, client.InNamespace(key.Namespace), client.MatchingLabels{CatalogLabel: key.Name}); err != nil {
			return err
		}
		n := 0
		for i := range jobs.Items {
			if jobs.Items[i].Annotations[v1alpha1.SyncNowAnnotation] == v {
				found = &jobs.Items[i]
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%d jobs for the value", n)
		}
		return nil
	})
	return found
}

func condition(c client.Client, key client.ObjectKey, typ string, status metav1.ConditionStatus, reason string) error {
	var pc v1alpha1.ProductCatalog
	if err := c.Get(context.Background(), key, &pc); err != nil {
		return err
	}
	cond := meta.FindStatusCondition(pc.Status.Conditions, typ)
	if cond == nil || cond.Status != status || cond.Reason != reason {
		return fmt.Errorf("condition %s is %s, want %s/%s", typ, describe(cond), status, reason)
	}
	return nil
}

func describe(c *metav1.Condition) string {
	if c == nil {
		return "absent"
	}
	return string(c.Status) + "/" + c.Reason + " (" + c.Message + ")"
}

func gone(c client.Client, key client.ObjectKey, o client.Object) error {
	err := c.Get(context.Background(), key, o)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%T %s still there", o, key)
}
