package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// API group and version of ProductCatalog.
const (
	Group   = "search.productsearch.dev"
	Version = "v1alpha1"
	Kind    = "ProductCatalog"
)

// GroupVersion is the API group and version of ProductCatalog.
func GroupVersion() schema.GroupVersion { return schema.GroupVersion{Group: Group, Version: Version} }

// AddToScheme registers the types of this package in a scheme.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion(), &ProductCatalog{}, &ProductCatalogList{})
	metav1.AddToGroupVersion(s, GroupVersion())
	return nil
}

// SyncNowAnnotation asks for a sync outside the schedule: set it to a new
// value (a time stamp, say) and the operator starts one Job from the
// CronJob's template, once per value.
const SyncNowAnnotation = "search.productsearch.dev/sync-now"

// Condition types of a ProductCatalog.
const (
	// ConditionReady: the last finished sync published a catalog, or an
	// earlier one did and its index is still live.
	ConditionReady = "Ready"
	// ConditionSyncing: a sync Job is running.
	ConditionSyncing = "Syncing"
	// ConditionDegraded: the last finished sync failed or was refused; the
	// reason comes from the indexer's report.
	ConditionDegraded = "Degraded"
)

// ProductCatalog is a catalog kept fresh from retailer feeds by a scheduled
// indexer that publishes it into Elasticsearch.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=pcat
// +kubebuilder:printcolumn:name="Schedule",type=string,JSONPath=`.spec.schedule`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Products",type=integer,JSONPath=`.status.lastSync.products`
// +kubebuilder:printcolumn:name="Index",type=string,JSONPath=`.status.liveIndex`
// +kubebuilder:printcolumn:name="Last sync",type=date,JSONPath=`.status.lastSync.completionTime`
type ProductCatalog struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ProductCatalogSpec   `json:"spec"`
	Status ProductCatalogStatus `json:"status,omitempty"`
}

// ProductCatalogSpec says which feeds make the catalog, when to read them
// and where the result goes.
type ProductCatalogSpec struct {
	// Schedule of the sync in cron format, e.g. "0 */6 * * *".
	// +kubebuilder:default="0 */6 * * *"
	// +kubebuilder:validation:MinLength=9
	Schedule string `json:"schedule,omitempty"`
	// TimeZone of the schedule (IANA name); the controller manager's when unset.
	// +optional
	TimeZone *string `json:"timeZone,omitempty"`
	// Suspend stops scheduled syncs; "sync now" still works.
	// +optional
	Suspend bool `json:"suspend,omitempty"`
	// Retailers and their feeds, in the indexer's retailers.yaml form.
	// +optional
	// +listType=map
	// +listMapKey=slug
	Retailers []Retailer `json:"retailers,omitempty"`
	// DemoFeeds generates the demo feed set (seven fictional retailers) in
	// the Job and syncs it instead of Retailers: for trying the service out.
	// +optional
	DemoFeeds bool `json:"demoFeeds,omitempty"`
	// MaxShrinkPercent is the shrink guard: a new catalog with more than
	// this percentage fewer products than the live one is not published.
	// +kubebuilder:default=30
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	MaxShrinkPercent *int32 `json:"maxShrinkPercent,omitempty"`
	// LowStockThreshold: stock counts at or below it are low_stock.
	// +kubebuilder:validation:Minimum=0
	// +optional
	LowStockThreshold *int32 `json:"lowStockThreshold,omitempty"`
	// Elasticsearch is where the catalog is published.
	Elasticsearch ElasticsearchTarget `json:"elasticsearch"`
	// Image of the indexer; the operator's default when unset.
	// +optional
	Image string `json:"image,omitempty"`
	// Resources of the sync container.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
	// ServiceAccountName of the sync Jobs' pods.
	// +optional
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// Partitions splits each sync into this many partitions of the
	// catalog's categories, run as the pods of an Indexed Job that each
	// load their partition into the run's index; once every partition has
	// succeeded the operator starts a finishing Job that verifies the index
	// and moves the alias. A failed partition moves nothing: the previous
	// index keeps serving. 1, the default, is one pod that publishes the
	// whole catalog.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=19
	// +optional
	Partitions int32 `json:"partitions,omitempty"`
	// Parallelism is how many partitions run at once; all of them when
	// unset.
	// +kubebuilder:validation:Minimum=1
	// +optional
	Parallelism *int32 `json:"parallelism,omitempty"`
}

// Retailer is one retailer and its feed.
type Retailer struct {
	// Name shown as the offers' source.
	// +kubebuilder:validation:MinLength=1
	Name string `json:"name"`
	// Slug prefixes the retailer's offer ids.
	// +kubebuilder:validation:Pattern=`^[a-z0-9][a-z0-9-]{0,31}$`
	Slug string `json:"slug"`
	// Format of the feed: awin_csv, google_xml, google_tsv or jsonl.
	// +kubebuilder:validation:Enum=awin_csv;google_xml;google_tsv;jsonl
	Format string `json:"format"`
	// Location of the feed: an http(s) URL.
	// +kubebuilder:validation:MinLength=1
	Location string `json:"location"`
	// Fields maps the catalog's fields to a jsonl feed's field paths.
	// +optional
	Fields map[string]string `json:"fields,omitempty"`
	// Authorization is the value of the Authorization header sent with the
	// feed request, read from a Secret.
	// +optional
	Authorization *corev1.SecretKeySelector `json:"authorization,omitempty"`
}

// ElasticsearchTarget is the cluster and alias a catalog is published to.
type ElasticsearchTarget struct {
	// URL of the cluster's nodes, comma-separated.
	// +kubebuilder:validation:MinLength=1
	URL string `json:"url"`
	// Index is the alias the API searches; versions are <index>-<sync time>.
	// +kubebuilder:default=products
	// +optional
	Index string `json:"index,omitempty"`
	// Keep is the index retention: versions kept, the live one included.
	// +kubebuilder:default=2
	// +kubebuilder:validation:Minimum=1
	// +optional
	Keep int32 `json:"keep,omitempty"`
	// Shards is the number of primary shards of each new index.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +optional
	Shards int32 `json:"shards,omitempty"`
	// Replicas per shard of each new index.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// CredentialsSecret names a Secret whose keys are passed to the indexer
	// as environment variables: ELASTICSEARCH_API_KEY, or
	// ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD.
	// +optional
	CredentialsSecret string `json:"credentialsSecret,omitempty"`
}

// ProductCatalogStatus is what the operator saw of the catalog's syncs.
type ProductCatalogStatus struct {
	// ObservedGeneration is the generation the CronJob was last built from.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// LastSync is the outcome of the last finished sync.
	// +optional
	LastSync *SyncResult `json:"lastSync,omitempty"`
	// LiveIndex is the index the alias names after the last sync.
	// +optional
	LiveIndex string `json:"liveIndex,omitempty"`
	// ActiveJobs are the sync Jobs running now.
	// +optional
	ActiveJobs []string `json:"activeJobs,omitempty"`
	// SyncNowHandled is the last sync-now annotation value acted on.
	// +optional
	SyncNowHandled string `json:"syncNowHandled,omitempty"`
	// Conditions: Ready, Syncing, Degraded.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// SyncResult is one finished sync, read from the indexer's report.
type SyncResult struct {
	// Job that ran the sync.
	Job string `json:"job"`
	// Result: Succeeded, Refused or Failed.
	Result string `json:"result"`
	// Reason of a refused or failed sync, e.g. ShrinkGuard, FeedsFailed.
	// +optional
	Reason string `json:"reason,omitempty"`
	// Message from the indexer.
	// +optional
	Message string `json:"message,omitempty"`
	// CompletionTime of the Job.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`
	// Products and Offers in the new catalog.
	// +optional
	Products int32 `json:"products,omitempty"`
	// +optional
	Offers int32 `json:"offers,omitempty"`
	// Retailers: what each feed gave.
	// +optional
	Retailers []RetailerSync `json:"retailers,omitempty"`
	// Partitions of a partitioned sync: how many succeeded and failed.
	// +optional
	Partitions *PartitionsResult `json:"partitions,omitempty"`
}

// PartitionsResult is what became of the partitions of one sync.
type PartitionsResult struct {
	// Total partitions of the sync.
	Total int32 `json:"total"`
	// Succeeded and Failed partitions (a failed one used up its retries).
	Succeeded int32 `json:"succeeded"`
	// +optional
	Failed int32 `json:"failed,omitempty"`
	// FailedIndexes are the failed partitions as the Job lists them,
	// e.g. "1,3-4".
	// +optional
	FailedIndexes string `json:"failedIndexes,omitempty"`
}

// RetailerSync is what one retailer's feed gave in a sync.
type RetailerSync struct {
	Slug string `json:"slug"`
	// Rows read, Accepted as listings, Rejected with a reason.
	Rows     int32 `json:"rows"`
	Accepted int32 `json:"accepted"`
	Rejected int32 `json:"rejected"`
	// Offers of the retailer in the new catalog.
	Offers int32 `json:"offers"`
	// Stale: the feed failed and the previous offers were kept.
	// +optional
	Stale bool `json:"stale,omitempty"`
	// +optional
	Error string `json:"error,omitempty"`
}

// ProductCatalogList is a list of ProductCatalogs.
//
// +kubebuilder:object:root=true
type ProductCatalogList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProductCatalog `json:"items"`
}
