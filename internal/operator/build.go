package operator

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"productsearch/internal/operator/v1alpha1"
)

// Labels and names shared by the objects the operator makes.
const (
	// CatalogLabel marks every ConfigMap, CronJob and Job of a catalog
	// with the catalog's name.
	CatalogLabel = "search.productsearch.dev/catalog"
	// SyncContainer is the name of the container that runs the sync and
	// leaves its account as the termination message.
	SyncContainer = "sync"
	// FinishesLabel marks the Job that finishes a partitioned sync with
	// the name of the partitions' Job.
	FinishesLabel = "search.productsearch.dev/finishes"
	// RunEnv names the run of a partitioned sync in its pods: their Job's
	// name.
	RunEnv    = "INDEXER_RUN"
	configKey = "retailers.yaml"
	configDir = "/etc/indexer"
	dataDir   = "/data"
	demoDir   = dataDir + "/demo"
)

// indexerConfig is the indexer's retailers.yaml.
type indexerConfig struct {
	LowStockThreshold *int32           `yaml:"low_stock_threshold,omitempty"`
	MaxShrink         float64          `yaml:"max_shrink"`
	Retailers         []retailerConfig `yaml:"retailers"`
}

type retailerConfig struct {
	Name     string            `yaml:"name"`
	Slug     string            `yaml:"slug"`
	Format   string            `yaml:"format"`
	Location string            `yaml:"location"`
	AuthEnv  string            `yaml:"auth_env,omitempty"`
	Fields   map[string]string `yaml:"fields,omitempty"`
}

// resourceName is the name of a catalog's ConfigMap and CronJob.
func resourceName(pc *v1alpha1.ProductCatalog) string { return pc.Name + "-indexer" }

// authEnv is the variable that carries a retailer's Authorization header.
func authEnv(slug string) string {
	return "FEED_AUTH_" + strings.ToUpper(strings.ReplaceAll(slug, "-", "_"))
}

func maxShrink(pc *v1alpha1.ProductCatalog) float64 {
	if pc.Spec.MaxShrinkPercent == nil {
		return 0.30
	}
	return float64(*pc.Spec.MaxShrinkPercent) / 100
}

// desiredConfigMap is the indexer configuration of a catalog.
func desiredConfigMap(pc *v1alpha1.ProductCatalog) (*corev1.ConfigMap, error) {
	cfg := indexerConfig{LowStockThreshold: pc.Spec.LowStockThreshold, MaxShrink: maxShrink(pc), Retailers: []retailerConfig{}}
	for _, r := range pc.Spec.Retailers {
		rc := retailerConfig{Name: r.Name, Slug: r.Slug, Format: r.Format, Location: r.Location, Fields: r.Fields}
		if r.Authorization != nil {
			rc.AuthEnv = authEnv(r.Slug)
		}
		cfg.Retailers = append(cfg.Retailers, rc)
	}
	data, err := yaml.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("indexer configuration of %s: %w", pc.Name, err)
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: resourceName(pc), Namespace: pc.Namespace, Labels: labels(pc)},
		Data:       map[string]string{configKey: string(data)},
	}, nil
}

func labels(pc *v1alpha1.ProductCatalog) map[string]string {
	return map[string]string{
		CatalogLabel:                  pc.Name,
		"app.kubernetes.io/name":      "product-search",
		"app.kubernetes.io/component": "indexer",
	}
}

// desiredCronJob is the scheduled sync of a catalog; image is the
// operator's default indexer image and env the environment every sync
// container gets (see TelemetryEnv).
func desiredCronJob(pc *v1alpha1.ProductCatalog, image string, env []corev1.EnvVar) *batchv1.CronJob {
	return &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: resourceName(pc), Namespace: pc.Namespace, Labels: labels(pc)},
		Spec: batchv1.CronJobSpec{
			Schedule:                   pc.Spec.Schedule,
			TimeZone:                   pc.Spec.TimeZone,
			Suspend:                    &pc.Spec.Suspend,
			ConcurrencyPolicy:          batchv1.ForbidConcurrent,
			StartingDeadlineSeconds:    ptr[int64](600),
			SuccessfulJobsHistoryLimit: ptr[int32](3),
			FailedJobsHistoryLimit:     ptr[int32](3),
			JobTemplate: batchv1.JobTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels(pc)},
				Spec:       jobSpec(pc, image, env),
			},
		},
	}
}

// jobSpec runs one sync: the demo generator first when the catalog asks
// for the demo feeds, then `indexer sync --publish elasticsearch`, whose
// --status-file is the container's termination message.
func jobSpec(pc *v1alpha1.ProductCatalog, image string, env []corev1.EnvVar) batchv1.JobSpec {
	if pc.Spec.Image != "" {
		image = pc.Spec.Image
	}
	es := pc.Spec.Elasticsearch
	index, keep, shards := es.Index, es.Keep, es.Shards
	if index == "" {
		index = "products"
	}
	if keep < 1 {
		keep = 2
	}
	if shards < 1 {
		shards = 1
	}
	config := configDir + "/" + configKey
	if pc.Spec.DemoFeeds {
		config = demoDir + "/" + configKey
	}
	args := []string{"sync", "--config", config, "--out", dataDir + "/catalog.snapshot", "--quiet",
		"--status-file", corev1.TerminationMessagePathDefault,
		"--publish", "elasticsearch", "--es-url", es.URL, "--es-index", index,
		"--es-keep", strconv.Itoa(int(keep)),
		"--es-shards", strconv.Itoa(int(shards)), "--es-replicas", strconv.Itoa(int(es.Replicas))}
	parts := partitions(pc)
	if parts > 1 {
		args = append(args, "--partitions", strconv.Itoa(int(parts)))
		env = append(slices.Clone(env), corev1.EnvVar{Name: RunEnv, ValueFrom: &corev1.EnvVarSource{
			FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['" + batchv1.JobNameLabel + "']"}}})
	}
	sync := corev1.Container{
		Name: SyncContainer, Image: image, Command: []string{"/indexer"}, Args: args,
		Resources:                pc.Spec.Resources,
		TerminationMessagePath:   corev1.TerminationMessagePathDefault,
		TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		SecurityContext:          restricted(),
		Env:                      slices.Clone(env),
		VolumeMounts: []corev1.VolumeMount{
			{Name: "config", MountPath: configDir, ReadOnly: true},
			{Name: "data", MountPath: dataDir},
		},
	}
	if es.CredentialsSecret != "" {
		sync.EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: es.CredentialsSecret}}}}
	}
	for _, r := range pc.Spec.Retailers {
		if r.Authorization != nil {
			sync.Env = append(sync.Env, corev1.EnvVar{Name: authEnv(r.Slug), ValueFrom: &corev1.EnvVarSource{SecretKeyRef: r.Authorization}})
		}
	}
	pod := corev1.PodSpec{
		RestartPolicy:                corev1.RestartPolicyNever,
		ServiceAccountName:           pc.Spec.ServiceAccountName,
		AutomountServiceAccountToken: ptr(false),
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot: ptr(true), RunAsUser: ptr[int64](65532), RunAsGroup: ptr[int64](65532), FSGroup: ptr[int64](65532),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		Containers: []corev1.Container{sync},
		Volumes: []corev1.Volume{
			{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: resourceName(pc)}}}},
			{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		},
	}
	if pc.Spec.DemoFeeds {
		pod.InitContainers = []corev1.Container{{
			Name: "demo-feeds", Image: image, Command: []string{"/indexer"}, Args: []string{"demo", "--out", demoDir},
			Resources: pc.Spec.Resources, SecurityContext: restricted(),
			VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: dataDir}},
		}}
	}
	// Six retries with the Job controller's doubling back-off (10 s to
	// 5 min) outlast an Elasticsearch that is still starting, as on a
	// first install.
	spec := batchv1.JobSpec{
		BackoffLimit:          ptr[int32](6),
		ActiveDeadlineSeconds: ptr[int64](3600),
		Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: labels(pc)},
			Spec:       pod,
		},
	}
	if parts > 1 {
		// One pod per partition, each with six retries of its own; the
		// first partition that uses them up fails the Job, so nothing is
		// finished and the alias stays.
		spec.CompletionMode = ptr(batchv1.IndexedCompletion)
		spec.Completions = ptr(parts)
		spec.Parallelism = ptr(parts)
		if pc.Spec.Parallelism != nil {
			spec.Parallelism = ptr(min(*pc.Spec.Parallelism, parts))
		}
		spec.BackoffLimit = nil
		spec.BackoffLimitPerIndex = ptr[int32](6)
		spec.MaxFailedIndexes = ptr[int32](0)
	}
	return spec
}

// partitions is the number of partitions of a catalog's syncs.
func partitions(pc *v1alpha1.ProductCatalog) int32 { return max(pc.Spec.Partitions, 1) }

// finishJob is the Job that finishes the partitioned sync job once all its
// partitions succeeded: `indexer publish --finish` on the run of job (its
// name), in the job's pod template without the demo feeds. It is named
// after job and labelled with it, so one job gets one finish.
func finishJob(pc *v1alpha1.ProductCatalog, job *batchv1.Job) *batchv1.Job {
	spec := batchv1.JobSpec{
		BackoffLimit:          ptr[int32](6),
		ActiveDeadlineSeconds: ptr[int64](3600),
		Template:              *job.Spec.Template.DeepCopy(),
	}
	// The labels the Job controller gave the partitions' pods would tie
	// the finish's pods to that Job.
	spec.Template.ObjectMeta = metav1.ObjectMeta{Labels: labels(pc)}
	pod := &spec.Template.Spec
	pod.InitContainers = nil
	c := &pod.Containers[0]
	args := []string{"publish", "--finish", "--partitions", strconv.Itoa(int(ptrValue(job.Spec.Completions))),
		"--run", job.Name, "--status-file", corev1.TerminationMessagePathDefault,
		"--max-shrink", strconv.FormatFloat(maxShrink(pc), 'f', -1, 64)}
	for i := 0; i+1 < len(c.Args); i++ {
		switch c.Args[i] {
		case "--es-url", "--es-index", "--es-keep", "--es-shards", "--es-replicas":
			args = append(args, c.Args[i], c.Args[i+1])
		}
	}
	c.Args = args
	c.Env = slices.DeleteFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == RunEnv })
	lbl := labels(pc)
	lbl[FinishesLabel] = job.Name
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: finishName(job.Name), Namespace: job.Namespace, Labels: lbl},
		Spec:       spec,
	}
}

// finishName is the name of the Job that finishes job: its name with
// "-finish", shortened with a hash when that would be too long.
func finishName(job string) string {
	name := job + "-finish"
	if len(name) <= 63 {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(job))
	return fmt.Sprintf("%s-%08x-finish", job[:63-len("-00000000-finish")], h.Sum32())
}

func ptrValue(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// restricted is the container security context of the restricted Pod
// Security Standard with a read-only root file system.
func restricted() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr(false),
		ReadOnlyRootFilesystem:   ptr(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
}

// syncNowJob is the Job that answers the sync-now annotation value v: the
// CronJob's template under a name derived from v, so that one value starts
// one Job however often it is reconciled.
func syncNowJob(pc *v1alpha1.ProductCatalog, cj *batchv1.CronJob, v string) *batchv1.Job {
	h := fnv.New32a()
	h.Write([]byte(v))
	tmpl := cj.Spec.JobTemplate.DeepCopy()
	lbl := labels(pc)
	for k, val := range tmpl.Labels {
		lbl[k] = val
	}
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{
			Name:        fmt.Sprintf("%s-now-%08x", resourceName(pc), h.Sum32()),
			Namespace:   pc.Namespace,
			Labels:      lbl,
			Annotations: map[string]string{v1alpha1.SyncNowAnnotation: v},
		},
		Spec: tmpl.Spec,
	}
}

func ptr[T any](v T) *T { return &v }
