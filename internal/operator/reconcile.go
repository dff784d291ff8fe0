package operator

import (
	"context"
	"fmt"
	"slices"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"productsearch/internal/operator/v1alpha1"
	"productsearch/internal/syncstatus"
)

// Finalizer holds a ProductCatalog until its CronJob, ConfigMap and Jobs
// are deleted (running syncs included).
const Finalizer = "search.productsearch.dev/cleanup"

// Reconciler keeps each ProductCatalog's indexer CronJob and ConfigMap in
// line with its spec, starts a sync when asked and reports the syncs in
// its status.
type Reconciler struct {
	Client client.Client
	// Reader reads pods uncached (only list is needed, not watch).
	Reader   client.Reader
	Recorder record.EventRecorder
	// Image is the indexer image of catalogs that name none.
	Image string
	// SyncEnv is set on every sync container (TelemetryEnv).
	SyncEnv []corev1.EnvVar
}

// SetupWithManager registers the reconciler: it watches ProductCatalogs,
// the ConfigMaps and CronJobs they own, and every Job that carries a
// catalog's label (the CronJob's and the sync-now ones).
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1alpha1.ProductCatalog{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&batchv1.CronJob{}).
		Watches(&batchv1.Job{}, handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
			name, ok := o.GetLabels()[CatalogLabel]
			if !ok {
				return nil
			}
			return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: o.GetNamespace(), Name: name}}}
		})).
		Named("productcatalog").
		Complete(r)
}

// Reconcile brings one ProductCatalog's objects and status up to date.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pc v1alpha1.ProductCatalog
	if err := r.Client.Get(ctx, req.NamespacedName, &pc); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !pc.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.cleanup(ctx, &pc)
	}
	if controllerutil.AddFinalizer(&pc, Finalizer) {
		if err := r.Client.Update(ctx, &pc); err != nil {
			return ctrl.Result{}, err
		}
	}
	cj, err := r.apply(ctx, &pc)
	if err != nil {
		r.Recorder.Eventf(&pc, corev1.EventTypeWarning, "ApplyFailed", "%v", err)
		return ctrl.Result{}, err
	}
	st := pc.Status.DeepCopy()
	st.ObservedGeneration = pc.Generation
	if v := pc.Annotations[v1alpha1.SyncNowAnnotation]; v != "" && v != st.SyncNowHandled {
		if err := r.syncNow(ctx, &pc, cj, v); err != nil {
			return ctrl.Result{}, err
		}
		st.SyncNowHandled = v
	}
	if err := r.observe(ctx, &pc, st); err != nil {
		return ctrl.Result{}, err
	}
	setConditions(st, pc.Generation)
	if !equality.Semantic.DeepEqual(&pc.Status, st) {
		pc.Status = *st
		if err := r.Client.Status().Update(ctx, &pc); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// apply creates or updates the catalog's ConfigMap and CronJob.
func (r *Reconciler) apply(ctx context.Context, pc *v1alpha1.ProductCatalog) (*batchv1.CronJob, error) {
	wantCM, err := desiredConfigMap(pc)
	if err != nil {
		return nil, err
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: wantCM.Name, Namespace: wantCM.Namespace}}
	op, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		cm.Labels, cm.Data = wantCM.Labels, wantCM.Data
		return controllerutil.SetControllerReference(pc, cm, r.Client.Scheme())
	})
	if err != nil {
		return nil, fmt.Errorf("configmap %s: %w", cm.Name, err)
	}
	r.record(pc, op, "ConfigMap", cm.Name)
	wantCJ := desiredCronJob(pc, r.Image, r.SyncEnv)
	cj := &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: wantCJ.Name, Namespace: wantCJ.Namespace}}
	op, err = controllerutil.CreateOrUpdate(ctx, r.Client, cj, func() error {
		cj.Labels, cj.Spec = wantCJ.Labels, wantCJ.Spec
		return controllerutil.SetControllerReference(pc, cj, r.Client.Scheme())
	})
	if err != nil {
		return nil, fmt.Errorf("cronjob %s: %w", cj.Name, err)
	}
	r.record(pc, op, "CronJob", cj.Name)
	return cj, nil
}

func (r *Reconciler) record(pc *v1alpha1.ProductCatalog, op controllerutil.OperationResult, kind, name string) {
	switch op {
	case controllerutil.OperationResultCreated:
		r.Recorder.Eventf(pc, corev1.EventTypeNormal, "Created", "created %s %s", kind, name)
	case controllerutil.OperationResultUpdated:
		r.Recorder.Eventf(pc, corev1.EventTypeNormal, "Updated", "updated %s %s", kind, name)
	}
}

// syncNow starts the Job for sync-now value v unless it exists already.
func (r *Reconciler) syncNow(ctx context.Context, pc *v1alpha1.ProductCatalog, cj *batchv1.CronJob, v string) error {
	job := syncNowJob(pc, cj, v)
	if err := controllerutil.SetControllerReference(pc, job, r.Client.Scheme()); err != nil {
		return err
	}
	err := r.Client.Create(ctx, job)
	switch {
	case apierrors.IsAlreadyExists(err):
		return nil
	case err != nil:
		return fmt.Errorf("sync now: %w", err)
	}
	r.Recorder.Eventf(pc, corev1.EventTypeNormal, "SyncStarted", "started Job %s (%s=%s)", job.Name, v1alpha1.SyncNowAnnotation, v)
	return nil
}

// observe reads the catalog's Jobs into the status: the running ones and
// the outcome of the one that finished last, when it is newer than the
// one already recorded.
func (r *Reconciler) observe(ctx context.Context, pc *v1alpha1.ProductCatalog, st *v1alpha1.ProductCatalogStatus) error {
	var jobs batchv1.JobList
	if err := r.Client.List(ctx, &jobs, client.InNamespace(pc.Namespace), client.MatchingLabels{CatalogLabel: pc.Name}); err != nil {
		return fmt.Errorf("list jobs: %w", err)
	}
	started, err := r.finishRuns(ctx, pc, jobs.Items)
	if err != nil {
		return err
	}
	last, active := latestFinished(jobs.Items)
	st.ActiveJobs = append(active, started...)
	slices.Sort(st.ActiveJobs)
	if last == nil || (st.LastSync != nil && st.LastSync.Job == last.Name) {
		return nil
	}
	if _, _, at := jobFinished(last); st.LastSync != nil && st.LastSync.CompletionTime != nil && at.Before(st.LastSync.CompletionTime.Time) {
		return nil
	}
	var pods corev1.PodList
	if err := r.Reader.List(ctx, &pods, client.InNamespace(pc.Namespace), client.MatchingLabels{batchv1.JobNameLabel: last.Name}); err != nil {
		return fmt.Errorf("list pods of job %s: %w", last.Name, err)
	}
	msg := terminationMessage(pods.Items)
	res := syncResult(last, msg)
	if parts := partitionsOf(last, jobs.Items); parts != nil {
		res.Partitions = partitionsResult(parts)
		if parts == last { // the partitions failed: no finish ran
			res.Result, res.Reason, res.Message = syncstatus.Failed, ReasonPartitionsFailed, partitionsMessage(res.Partitions)
			msg = ""
		}
	}
	st.LastSync = &res
	if idx := liveIndex(msg); idx != "" {
		st.LiveIndex = idx
	}
	if res.Result == "Succeeded" {
		r.Recorder.Eventf(pc, corev1.EventTypeNormal, "SyncSucceeded", "Job %s: %d products, %d offers, index %s", last.Name, res.Products, res.Offers, st.LiveIndex)
	} else {
		r.Recorder.Eventf(pc, corev1.EventTypeWarning, "Sync"+res.Result, "Job %s: %s: %s", last.Name, res.Reason, res.Message)
	}
	return nil
}

// finishRuns starts the finishing Job of every partitioned sync Job whose
// partitions all succeeded and that has none yet, and returns the names
// of the Jobs it started. A partitioned Job that failed gets none: the
// alias stays on the previous index.
func (r *Reconciler) finishRuns(ctx context.Context, pc *v1alpha1.ProductCatalog, jobs []batchv1.Job) ([]string, error) {
	finished := map[string]bool{}
	for i := range jobs {
		if f := jobs[i].Labels[FinishesLabel]; f != "" {
			finished[f] = true
		}
	}
	var started []string
	for i := range jobs {
		j := &jobs[i]
		if !partitioned(j) || finished[j.Name] {
			continue
		}
		if done, ok, _ := jobFinished(j); !done || !ok {
			continue
		}
		fj := finishJob(pc, j)
		if err := controllerutil.SetControllerReference(pc, fj, r.Client.Scheme()); err != nil {
			return nil, err
		}
		err := r.Client.Create(ctx, fj)
		switch {
		case apierrors.IsAlreadyExists(err):
			continue
		case err != nil:
			return nil, fmt.Errorf("finish %s: %w", j.Name, err)
		}
		started = append(started, fj.Name)
		r.Recorder.Eventf(pc, corev1.EventTypeNormal, "PartitionsSucceeded", "all %d partitions of Job %s succeeded; started Job %s to move the alias",
			ptrValue(j.Spec.Completions), j.Name, fj.Name)
	}
	return started, nil
}

// cleanup deletes the catalog's Jobs, CronJob and ConfigMap (running
// syncs stop), then releases the finalizer. Owner references would let the
// garbage collector do the same later; doing it here means a deleted
// catalog starts no further sync and leaves nothing behind when it is gone.
func (r *Reconciler) cleanup(ctx context.Context, pc *v1alpha1.ProductCatalog) error {
	if !controllerutil.ContainsFinalizer(pc, Finalizer) {
		return nil
	}
	bg := client.PropagationPolicy(metav1.DeletePropagationBackground)
	objs := []client.Object{
		&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: resourceName(pc), Namespace: pc.Namespace}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: resourceName(pc), Namespace: pc.Namespace}},
	}
	for _, o := range objs {
		if err := r.Client.Delete(ctx, o, bg); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("delete %s: %w", o.GetName(), err)
		}
	}
	if err := r.Client.DeleteAllOf(ctx, &batchv1.Job{}, client.InNamespace(pc.Namespace),
		client.MatchingLabels{CatalogLabel: pc.Name}, bg); err != nil {
		return fmt.Errorf("delete jobs: %w", err)
	}
	r.Recorder.Eventf(pc, corev1.EventTypeNormal, "CleanedUp", "deleted the indexer CronJob, ConfigMap and Jobs")
	controllerutil.RemoveFinalizer(pc, Finalizer)
	return r.Client.Update(ctx, pc)
}
