package operator

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"productsearch/internal/operator/v1alpha1"
	"productsearch/internal/syncstatus"
)

// ReasonJobFailed is the Degraded reason when a sync Job failed without
// leaving the indexer's account (killed, image missing, deadline passed).
const ReasonJobFailed = "JobFailed"

// jobFinished returns whether a Job is done, whether it succeeded and when
// it finished.
func jobFinished(j *batchv1.Job) (done, ok bool, at time.Time) {
	for _, c := range j.Status.Conditions {
		if c.Status != corev1.ConditionTrue {
			continue
		}
		switch c.Type {
		case batchv1.JobComplete:
			return true, true, c.LastTransitionTime.Time
		case batchv1.JobFailed:
			return true, false, c.LastTransitionTime.Time
		}
	}
	return false, false, time.Time{}
}

// latestFinished returns the Job that finished last, or nil, and the names
// of the Jobs still running, sorted. A partitioned Job that succeeded is
// not a finished sync: its finishing Job is.
func latestFinished(jobs []batchv1.Job) (*batchv1.Job, []string) {
	var (
		last   *batchv1.Job
		lastAt time.Time
		active []string
	)
	for i := range jobs {
		done, ok, at := jobFinished(&jobs[i])
		if !done {
			active = append(active, jobs[i].Name)
			continue
		}
		if ok && partitioned(&jobs[i]) {
			continue
		}
		if last == nil || at.After(lastAt) || (at.Equal(lastAt) && jobs[i].Name > last.Name) {
			last, lastAt = &jobs[i], at
		}
	}
	slices.Sort(active)
	return last, active
}

// ReasonPartitionsFailed is the Degraded reason when a partition of a
// partitioned sync failed: nothing was finished and the alias stayed.
const ReasonPartitionsFailed = "PartitionsFailed"

// partitioned reports whether j runs the partitions of a sync.
func partitioned(j *batchv1.Job) bool {
	return j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion
}

// partitionsOf returns the partitions' Job of a finished sync Job: j
// itself when it is one, the Job it finishes when it is a finishing Job,
// else nil.
func partitionsOf(j *batchv1.Job, jobs []batchv1.Job) *batchv1.Job {
	if partitioned(j) {
		return j
	}
	if f := j.Labels[FinishesLabel]; f != "" {
		for i := range jobs {
			if jobs[i].Name == f {
				return &jobs[i]
			}
		}
	}
	return nil
}

// partitionsResult counts the partitions of a partitioned Job.
func partitionsResult(j *batchv1.Job) *v1alpha1.PartitionsResult {
	r := &v1alpha1.PartitionsResult{Total: ptrValue(j.Spec.Completions), Succeeded: int32(countIndexes(j.Status.CompletedIndexes))}
	if j.Status.FailedIndexes != nil {
		r.FailedIndexes = *j.Status.FailedIndexes
		r.Failed = int32(countIndexes(r.FailedIndexes))
	}
	return r
}

func partitionsMessage(r *v1alpha1.PartitionsResult) string {
	msg := fmt.Sprintf("%d of %d partitions succeeded", r.Succeeded, r.Total)
	if r.FailedIndexes != "" {
		msg += "; failed: " + r.FailedIndexes
	}
	return msg + "; the alias stays on the previous index"
}

// countIndexes counts the indexes of a Job's index list, e.g. "1,3-5" (4);
// parts it cannot read count nothing.
func countIndexes(list string) int {
	n := 0
	for part := range strings.SplitSeq(list, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 1<<20 {
				continue
			}
		}
		n += b - a + 1
	}
	return n
}

// terminationMessage returns the sync container's termination message of
// the newest of a Job's pods.
func terminationMessage(pods []corev1.Pod) string {
	var (
		msg    string
		newest time.Time
	)
	for _, p := range pods {
		for _, cs := range p.Status.ContainerStatuses {
			if cs.Name != SyncContainer || cs.State.Terminated == nil {
				continue
			}
			if t := cs.State.Terminated.FinishedAt.Time; msg == "" || t.After(newest) {
				msg, newest = cs.State.Terminated.Message, t
			}
		}
	}
	return msg
}

// syncResult reads a finished Job and its sync container's termination
// message (the indexer's account, or the end of its log when it left none).
func syncResult(j *batchv1.Job, message string) v1alpha1.SyncResult {
	_, ok, at := jobFinished(j)
	r := v1alpha1.SyncResult{Job: j.Name, CompletionTime: &metav1.Time{Time: at}}
	s, err := syncstatus.Parse([]byte(strings.TrimSpace(message)))
	if err != nil {
		r.Result, r.Reason = syncstatus.Failed, ReasonJobFailed
		if ok { // finished without an account: say so, but it did not fail
			r.Result, r.Reason = syncstatus.Succeeded, ""
		}
		r.Message = clip(lastLine(message), 300)
		for _, c := range j.Status.Conditions {
			if c.Type == batchv1.JobFailed && c.Status == corev1.ConditionTrue && r.Message == "" {
				r.Message = c.Reason + ": " + c.Message
			}
		}
		return r
	}
	r.Result, r.Reason, r.Message = s.Result, s.Reason, clip(s.Message, 300)
	r.Products, r.Offers = int32(s.Products), int32(s.Offers)
	for _, rs := range s.Retailers {
		r.Retailers = append(r.Retailers, v1alpha1.RetailerSync{Slug: rs.Slug, Rows: int32(rs.Rows), Accepted: int32(rs.Accepted),
			Rejected: int32(rs.Rejected), Offers: int32(rs.Offers), Stale: rs.Stale, Error: clip(rs.Error, 200)})
	}
	return r
}

// liveIndex is the index named in a finished Job's account, if any.
func liveIndex(message string) string {
	s, err := syncstatus.Parse([]byte(strings.TrimSpace(message)))
	if err != nil {
		return ""
	}
	return s.Index
}

// setConditions derives Ready, Syncing and Degraded from the status.
func setConditions(st *v1alpha1.ProductCatalogStatus, generation int64) {
	set := func(typ string, ok bool, reason, msg string) {
		status := metav1.ConditionFalse
		if ok {
			status = metav1.ConditionTrue
		}
		meta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: typ, Status: status, Reason: reason,
			Message: msg, ObservedGeneration: generation})
	}
	if len(st.ActiveJobs) > 0 {
		set(v1alpha1.ConditionSyncing, true, "JobRunning", "sync running: "+strings.Join(st.ActiveJobs, ", "))
	} else {
		set(v1alpha1.ConditionSyncing, false, "Idle", "no sync running")
	}
	last := st.LastSync
	switch {
	case last == nil:
		set(v1alpha1.ConditionDegraded, false, "NoSyncYet", "no sync has finished yet")
	case last.Result == syncstatus.Succeeded:
		set(v1alpha1.ConditionDegraded, false, "SyncSucceeded", "the last sync succeeded")
	default:
		reason := last.Reason
		if reason == "" {
			reason = ReasonJobFailed
		}
		set(v1alpha1.ConditionDegraded, true, reason, orDefault(last.Message, "the last sync did not publish"))
	}
	switch {
	case st.LiveIndex != "":
		set(v1alpha1.ConditionReady, true, "IndexLive", "the alias names "+st.LiveIndex)
	case last != nil && last.Result == syncstatus.Succeeded:
		set(v1alpha1.ConditionReady, true, "SyncSucceeded", "the last sync succeeded")
	case last == nil:
		set(v1alpha1.ConditionReady, false, "NoSyncYet", "waiting for the first sync")
	default:
		set(v1alpha1.ConditionReady, false, orDefault(last.Reason, ReasonJobFailed), "no catalog has been published yet")
	}
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
