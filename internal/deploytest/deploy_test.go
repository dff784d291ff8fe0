package deploytest

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

const root = "../.."

// renderings are the chart and kustomize outputs the tests check.
type rendering struct {
	name string
	tool string // helm or kustomize
	args []string
}

func renderings() []rendering {
	chart := "charts/product-search"
	helm := func(name string, args ...string) rendering {
		return rendering{name, "helm", append([]string{"template", "product-search", chart, "--namespace", "product-search", "--include-crds"}, args...)}
	}
	return []rendering{
		helm("chart defaults"),
		helm("chart production", "-f", chart+"/values-production.yaml"),
		helm("chart without operator", "--set", "operator.enabled=false"),
		helm("chart local cluster", "-f", "scripts/k8s-local/values.yaml"),
		{"kustomize base", "kustomize", []string{"build", "k8s/base"}},
		{"kustomize dev", "kustomize", []string{"build", "k8s/overlays/dev"}},
		{"kustomize prod", "kustomize", []string{"build", "k8s/overlays/prod"}},
	}
}

func render(t *testing.T, r rendering) []Object {
	t.Helper()
	bin, err := Tool(root, r.tool)
	if err != nil {
		t.Skipf("no %s: %v", r.tool, err)
	}
	out, err := Run(root, bin, r.args...)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Decode(out)
	if err != nil {
		t.Fatalf("%s: %v", r.name, err)
	}
	if len(objs) == 0 {
		t.Fatalf("%s rendered nothing", r.name)
	}
	return objs
}

// TestRenderedObjectsAreTyped decodes every object of every rendering
// into its Kubernetes type with unknown fields refused, and checks the
// settings every workload must have.
func TestRenderedObjectsAreTyped(t *testing.T) {
	for _, r := range renderings() {
		t.Run(r.name, func(t *testing.T) {
			for _, o := range render(t, r) {
				for _, c := range containers(o.Obj) {
					if c.SecurityContext == nil || c.SecurityContext.AllowPrivilegeEscalation == nil || *c.SecurityContext.AllowPrivilegeEscalation {
						t.Errorf("%s container %s may escalate privileges", o.Key(), c.Name)
					}
					if c.Resources.Requests.Cpu().IsZero() && c.Resources.Requests.Memory().IsZero() {
						t.Errorf("%s container %s has no resource requests", o.Key(), c.Name)
					}
					if c.Image == "" || strings.HasSuffix(c.Image, ":") {
						t.Errorf("%s container %s has image %q", o.Key(), c.Name, c.Image)
					}
				}
			}
		})
	}
}

// containers returns the containers of a workload.
func containers(o runtime.Object) []corev1.Container {
	var spec *corev1.PodSpec
	switch w := o.(type) {
	case *appsv1.Deployment:
		spec = &w.Spec.Template.Spec
	case *appsv1.StatefulSet:
		spec = &w.Spec.Template.Spec
	case *batchv1.Job:
		spec = &w.Spec.Template.Spec
	case *batchv1.CronJob:
		spec = &w.Spec.JobTemplate.Spec.Template.Spec
	default:
		return nil
	}
	return append(slices.Clone(spec.InitContainers), spec.Containers...)
}

// TestKustomizeBaseMatchesChart: k8s/base is the chart with its defaults,
// less Helm's bookkeeping labels and checksums (scripts/k8s-base.sh
// writes it).
func TestKustomizeBaseMatchesChart(t *testing.T) {
	rs := renderings()
	noHooks := rs[0]
	noHooks.args = append(slices.Clone(noHooks.args), "--no-hooks")
	chart, base := index(t, render(t, noHooks)), index(t, render(t, rs[4]))
	if diff := cmp.Diff(slices.Sorted(maps.Keys(chart)), slices.Sorted(maps.Keys(base))); diff != "" {
		t.Fatalf("objects differ (-chart +k8s/base); run scripts/k8s-base.sh:\n%s", diff)
	}
	for k, c := range chart {
		if diff := cmp.Diff(normalise(t, c), normalise(t, base[k])); diff != "" {
			t.Errorf("%s differs (-chart +k8s/base); run scripts/k8s-base.sh:\n%s", k, diff)
		}
	}
}

// TestOverlaysMatchChartValues: each overlay has the objects of the chart
// with the matching values file, and its workloads run the same
// containers with the same images, ports and configuration keys.
func TestOverlaysMatchChartValues(t *testing.T) {
	rs := renderings()
	pairs := []struct {
		name           string
		chart, overlay rendering
		ignore         []string // objects only the overlay has
	}{
		{"prod", rs[1], rs[6], []string{}},
		{"dev", rs[3], rs[5], []string{"Namespace/product-search"}},
	}
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			p.chart.args = append(slices.Clone(p.chart.args), "--no-hooks")
			chart, overlay := index(t, render(t, p.chart)), index(t, render(t, p.overlay))
			for _, k := range p.ignore {
				delete(overlay, k)
			}
			if diff := cmp.Diff(slices.Sorted(maps.Keys(chart)), slices.Sorted(maps.Keys(overlay))); diff != "" {
				t.Fatalf("objects differ (-chart +overlay):\n%s", diff)
			}
			for k, c := range chart {
				if diff := cmp.Diff(shape(c.Obj), shape(overlay[k].Obj)); diff != "" {
					t.Errorf("%s differs (-chart +overlay):\n%s", k, diff)
				}
			}
		})
	}
}

func index(t *testing.T, objs []Object) map[string]Object {
	t.Helper()
	m := map[string]Object{}
	for _, o := range objs {
		if _, dup := m[o.Key()]; dup {
			t.Errorf("%s rendered twice", o.Key())
		}
		m[o.Key()] = o
	}
	return m
}

// normalise returns an object as JSON-shaped data without Helm's labels,
// checksum annotations and the namespace kustomize adds.
func normalise(t *testing.T, o Object) any {
	t.Helper()
	data, err := json.Marshal(o.Obj)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if l, ok := x["labels"].(map[string]any); ok {
				delete(l, "helm.sh/chart")
				delete(l, "app.kubernetes.io/managed-by")
			}
			if a, ok := x["annotations"].(map[string]any); ok {
				for k := range a {
					if strings.HasPrefix(k, "checksum/") {
						delete(a, k)
					}
				}
				if len(a) == 0 {
					delete(x, "annotations")
				}
			}
			delete(x, "namespace")
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return v
}

// containerShape is what must agree between the chart and an overlay.
type containerShape struct {
	Name, Image string
	Command     []string
	Ports       []int32
	ConfigFrom  []string
	Env         []string
}

// shape is the part of an object compared between the chart and an
// overlay: workloads' containers, Services' ports, ConfigMaps' keys.
func shape(o runtime.Object) any {
	switch x := o.(type) {
	case *corev1.ConfigMap:
		return slices.Sorted(maps.Keys(x.Data))
	case *corev1.Service:
		var ports []string
		for _, p := range x.Spec.Ports {
			ports = append(ports, p.Name+":"+p.TargetPort.String())
		}
		return ports
	}
	var out []containerShape
	for _, c := range containers(o) {
		s := containerShape{Name: c.Name, Image: c.Image, Command: c.Command}
		for _, p := range c.Ports {
			s.Ports = append(s.Ports, p.ContainerPort)
		}
		for _, e := range c.EnvFrom {
			switch {
			case e.ConfigMapRef != nil:
				s.ConfigFrom = append(s.ConfigFrom, "configmap/"+e.ConfigMapRef.Name)
			case e.SecretRef != nil:
				s.ConfigFrom = append(s.ConfigFrom, "secret/"+e.SecretRef.Name)
			}
		}
		for _, e := range c.Env {
			s.Env = append(s.Env, e.Name)
		}
		out = append(out, s)
	}
	return out
}
