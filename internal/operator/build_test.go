package operator

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"productsearch/internal/operator/v1alpha1"
	"productsearch/internal/syncstatus"
)

func catalog(mod func(*v1alpha1.ProductCatalog)) *v1alpha1.ProductCatalog {
	pc := &v1alpha1.ProductCatalog{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: "ns"},
		Spec: v1alpha1.ProductCatalogSpec{
			Schedule:      "0 */6 * * *",
			Retailers:     []v1alpha1.Retailer{{Name: "Volt Line", Slug: "volt-line", Format: "awin_csv", Location: "https://x.example/f.csv"}},
			Elasticsearch: v1alpha1.ElasticsearchTarget{URL: "http://es:9200"},
		},
	}
	if mod != nil {
		mod(pc)
	}
	return pc
}

func TestDesiredObjects(t *testing.T) {
	tests := []struct {
		name       string
		pc         *v1alpha1.ProductCatalog
		wantArgs   string // substring of the sync container's args
		wantImage  string
		wantInit   bool
		wantEnv    []string
		wantConfig string // substring of retailers.yaml
	}{
		{"defaults", catalog(nil), "--config /etc/indexer/retailers.yaml --out /data/catalog.snapshot --quiet --status-file /dev/termination-log --publish elasticsearch --es-url http://es:9200 --es-index products --es-keep 2 --es-shards 1 --es-replicas 0",
			"default:1", false, nil, "max_shrink: 0.3\n"},
		{"demo feeds", catalog(func(pc *v1alpha1.ProductCatalog) { pc.Spec.DemoFeeds = true }), "--config /data/demo/retailers.yaml", "default:1", true, nil, "slug: volt-line"},
		{"image, alias, retention, shards, shrink guard", catalog(func(pc *v1alpha1.ProductCatalog) {
			pc.Spec.Image = "mine:2"
			es := &pc.Spec.Elasticsearch
			es.Index, es.Keep, es.Shards, es.Replicas = "shop", 4, 3, 1
			pc.Spec.MaxShrinkPercent = ptr[int32](10)
		}), "--es-index shop --es-keep 4 --es-shards 3 --es-replicas 1", "mine:2", false, nil, "max_shrink: 0.1\n"},
		{"feed authorization", catalog(func(pc *v1alpha1.ProductCatalog) {
			pc.Spec.Retailers[0].Authorization = &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Key: "k"}
		}), "--publish elasticsearch", "default:1", false, []string{"FEED_AUTH_VOLT_LINE"}, "auth_env: FEED_AUTH_VOLT_LINE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cm, err := desiredConfigMap(tt.pc)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(cm.Data[configKey], tt.wantConfig) {
				t.Errorf("retailers.yaml lacks %q:\n%s", tt.wantConfig, cm.Data[configKey])
			}
			cj := desiredCronJob(tt.pc, "default:1", nil)
			pod := cj.Spec.JobTemplate.Spec.Template.Spec
			c := pod.Containers[0]
			if args := strings.Join(c.Args, " "); !strings.Contains(args, tt.wantArgs) {
				t.Errorf("args %q lack %q", args, tt.wantArgs)
			}
			if c.Image != tt.wantImage {
				t.Errorf("image %q, want %q", c.Image, tt.wantImage)
			}
			if got := len(pod.InitContainers) == 1; got != tt.wantInit {
				t.Errorf("demo init container: %v, want %v", got, tt.wantInit)
			}
			var env []string
			for _, e := range c.Env {
				env = append(env, e.Name)
			}
			if strings.Join(env, ",") != strings.Join(tt.wantEnv, ",") {
				t.Errorf("env %v, want %v", env, tt.wantEnv)
			}
			if cj.Spec.ConcurrencyPolicy != batchv1.ForbidConcurrent || c.TerminationMessagePolicy != corev1.TerminationMessageFallbackToLogsOnError ||
				!*c.SecurityContext.ReadOnlyRootFilesystem || !*pod.SecurityContext.RunAsNonRoot {
				t.Errorf("cronjob lost a fixed setting: %+v", cj.Spec)
			}
			j1, j2 := syncNowJob(tt.pc, cj, "a"), syncNowJob(tt.pc, cj, "b")
			if j1.Name == j2.Name || j1.Name != syncNowJob(tt.pc, cj, "a").Name || j1.Labels[CatalogLabel] != "shop" {
				t.Errorf("sync-now jobs %s, %s: want one stable name per value and the catalog label", j1.Name, j2.Name)
			}
		})
	}
}

func finishedJob(name string, ok bool, at time.Time) batchv1.Job {
	typ := batchv1.JobFailed
	if ok {
		typ = batchv1.JobComplete
	}
	return batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: batchv1.JobStatus{Conditions: []batchv1.JobCondition{
		{Type: typ, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at)}}}}
}

func TestSyncStatus(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	good := string(syncstatus.Summary{Result: syncstatus.Succeeded, Products: 7, Offers: 9, Index: "products-1",
		Retailers: []syncstatus.Retailer{{Slug: "a", Rows: 3, Rejected: 1}}}.Encode())
	refused := string(syncstatus.Summary{Result: syncstatus.Refused, Reason: syncstatus.ReasonShrinkGuard, Message: "shrinks", Index: "products-0"}.Encode())
	tests := []struct {
		name                    string
		jobs                    []batchv1.Job
		message                 string
		wantJob                 string
		wantActive              int
		wantResult, wantReason  string
		wantReady, wantDegraded metav1.ConditionStatus
	}{
		{"good sync", []batchv1.Job{finishedJob("j1", true, t0)}, good, "j1", 0, syncstatus.Succeeded, "", metav1.ConditionTrue, metav1.ConditionFalse},
		{"latest wins, one running", []batchv1.Job{finishedJob("j1", true, t0), finishedJob("j2", false, t0.Add(time.Hour)), {ObjectMeta: metav1.ObjectMeta{Name: "j3"}}},
			refused, "j2", 1, syncstatus.Refused, syncstatus.ReasonShrinkGuard, metav1.ConditionTrue, metav1.ConditionTrue},
		{"died without an account", []batchv1.Job{finishedJob("j1", false, t0)}, "panic: boom\ngoroutine 1", "j1", 0, syncstatus.Failed, ReasonJobFailed,
			metav1.ConditionFalse, metav1.ConditionTrue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			last, active := latestFinished(tt.jobs)
			if last == nil || last.Name != tt.wantJob || len(active) != tt.wantActive {
				t.Fatalf("latest %v, active %v; want %s and %d running", last, active, tt.wantJob, tt.wantActive)
			}
			r := syncResult(last, tt.message)
			if r.Result != tt.wantResult || r.Reason != tt.wantReason {
				t.Errorf("result %s/%s, want %s/%s", r.Result, r.Reason, tt.wantResult, tt.wantReason)
			}
			st := &v1alpha1.ProductCatalogStatus{LastSync: &r, LiveIndex: liveIndex(tt.message), ActiveJobs: active}
			setConditions(st, 1)
			if c := meta.FindStatusCondition(st.Conditions, v1alpha1.ConditionReady); c.Status != tt.wantReady {
				t.Errorf("Ready %s (%s), want %s", c.Status, c.Reason, tt.wantReady)
			}
			if c := meta.FindStatusCondition(st.Conditions, v1alpha1.ConditionDegraded); c.Status != tt.wantDegraded {
				t.Errorf("Degraded %s (%s), want %s", c.Status, c.Reason, tt.wantDegraded)
			}
		})
	}
}

func TestTerminationMessagePicksNewestPod(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pod := func(msg string, at time.Time) corev1.Pod {
		return corev1.Pod{Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: SyncContainer,
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Message: msg, FinishedAt: metav1.NewTime(at)}}}}}}
	}
	got := terminationMessage([]corev1.Pod{pod("first try", t0), pod("retry", t0.Add(time.Minute)), {}})
	if got != "retry" {
		t.Errorf("message %q, want the retry's", got)
	}
}

// TestTelemetryEnv checks that the sync containers get the downward API's
// pod and namespace and the operator's OpenTelemetry variables that are
// set, never the exporter headers.
func TestTelemetryEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"none set", nil, []string{"K8S_POD_NAME", "K8S_NAMESPACE_NAME"}},
		{"endpoint and sampler", map[string]string{
			"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_TRACES_SAMPLER": "always_on",
			"OTEL_EXPORTER_OTLP_HEADERS": "authorization=secret", "HOME": "/root",
		}, []string{"K8S_POD_NAME", "K8S_NAMESPACE_NAME", "OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318",
			"OTEL_TRACES_SAMPLER=always_on"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := TelemetryEnv(func(k string) string { return tt.env[k] })
			cj := desiredCronJob(&v1alpha1.ProductCatalog{}, "default:1", env)
			var got []string
			for _, e := range cj.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Env {
				switch {
				case e.ValueFrom != nil && e.ValueFrom.FieldRef != nil:
					got = append(got, e.Name)
				default:
					got = append(got, e.Name+"="+e.Value)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("sync env mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
