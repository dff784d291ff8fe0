// Package operator runs the ProductCatalog controller on controller-runtime:
// each ProductCatalog (package v1alpha1) becomes an indexer CronJob and its
// ConfigMap, owned by the catalog and removed with it; a sync-now
// annotation starts a Job from the CronJob's template; and the status
// reports the last sync (result, products and offers per retailer,
// rejected rows, the live index) from the account the indexer leaves as
// its termination message, with Ready, Syncing and Degraded conditions.
package operator

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"productsearch/internal/operator/v1alpha1"
)

// Options configure the operator.
type Options struct {
	// Namespaces limits the operator to these namespaces (and its RBAC to
	// Roles in them); empty watches all.
	Namespaces []string
	// Image is the indexer image of catalogs that name none.
	Image string
	// SyncEnv is set on every sync container (TelemetryEnv).
	SyncEnv []corev1.EnvVar
	// HealthAddr serves /healthz and /readyz; MetricsAddr serves
	// Prometheus metrics ("0" turns it off).
	HealthAddr, MetricsAddr string
	// LeaderElection lets several replicas run with one active.
	LeaderElection bool
	// LeaderElectionNamespace holds the lease (needed outside a cluster).
	LeaderElectionNamespace string
	Logger                  logr.Logger
}

// NewScheme returns a scheme with the built-in kinds and ProductCatalog.
func NewScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		return nil, err
	}
	if err := v1alpha1.AddToScheme(s); err != nil {
		return nil, err
	}
	return s, nil
}

// NewManager builds a manager with the ProductCatalog controller.
func NewManager(cfg *rest.Config, o Options) (ctrl.Manager, error) {
	if o.Image == "" {
		return nil, errors.New("no indexer image: set --indexer-image (INDEXER_IMAGE)")
	}
	scheme, err := NewScheme()
	if err != nil {
		return nil, err
	}
	var co cache.Options
	if len(o.Namespaces) > 0 {
		co.DefaultNamespaces = map[string]cache.Config{}
		for _, ns := range o.Namespaces {
			co.DefaultNamespaces[ns] = cache.Config{}
		}
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  scheme,
		Cache:                   co,
		Logger:                  o.Logger,
		HealthProbeBindAddress:  o.HealthAddr,
		Metrics:                 metricsserver.Options{BindAddress: o.MetricsAddr},
		LeaderElection:          o.LeaderElection,
		LeaderElectionID:        "productcatalog-operator.search.productsearch.dev",
		LeaderElectionNamespace: o.LeaderElectionNamespace,
	})
	if err != nil {
		return nil, fmt.Errorf("manager: %w", err)
	}
	r := &Reconciler{Client: mgr.GetClient(), Reader: mgr.GetAPIReader(),
		Recorder: mgr.GetEventRecorderFor("productcatalog-operator"), Image: o.Image, SyncEnv: o.SyncEnv}
	if err := r.SetupWithManager(mgr); err != nil {
		return nil, fmt.Errorf("controller: %w", err)
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return nil, err
	}
	if err := mgr.AddReadyzCheck("ping", healthz.Ping); err != nil {
		return nil, err
	}
	return mgr, nil
}

// Run parses the command line (getenv supplies the defaults), connects to
// the cluster of the in-cluster config or $KUBECONFIG and runs the
// operator until ctx is done.
func Run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	fs := flag.NewFlagSet("operator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	namespaces := fs.String("namespaces", getenv("WATCH_NAMESPACES"), "comma-separated `namespaces` to watch; empty watches all (WATCH_NAMESPACES)")
	fs.StringVar(&o.Image, "indexer-image", getenv("INDEXER_IMAGE"), "indexer `image` of catalogs that name none (INDEXER_IMAGE)")
	fs.StringVar(&o.HealthAddr, "health-addr", ":8081", "`address` of /healthz and /readyz")
	fs.StringVar(&o.MetricsAddr, "metrics-addr", "0", "`address` of Prometheus metrics; 0 turns them off")
	fs.BoolVar(&o.LeaderElection, "leader-elect", false, "elect one active replica through a Lease")
	fs.StringVar(&o.LeaderElectionNamespace, "leader-election-namespace", getenv("POD_NAMESPACE"), "`namespace` of the Lease (POD_NAMESPACE)")
	debug := fs.Bool("debug", false, "log at debug level")
	deleteCatalogs := fs.Bool("delete-catalogs", false, "delete every ProductCatalog in --namespaces, wait until the operator has cleaned them up, and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	o.SyncEnv = TelemetryEnv(getenv)
	for _, ns := range strings.Split(*namespaces, ",") {
		if ns = strings.TrimSpace(ns); ns != "" {
			o.Namespaces = append(o.Namespaces, ns)
		}
	}
	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	o.Logger = logr.FromSlogHandler(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctrl.SetLogger(o.Logger)
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return fmt.Errorf("kubernetes configuration: %w", err)
	}
	if *deleteCatalogs {
		scheme, err := NewScheme()
		if err != nil {
			return err
		}
		c, err := client.New(cfg, client.Options{Scheme: scheme})
		if err != nil {
			return err
		}
		return DeleteCatalogs(ctx, c, o.Namespaces, time.Second)
	}
	mgr, err := NewManager(cfg, o)
	if err != nil {
		return err
	}
	return mgr.Start(ctx)
}
