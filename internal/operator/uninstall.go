package operator

import (
	"context"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"productsearch/internal/operator/v1alpha1"
)

// DeleteCatalogs deletes every ProductCatalog in the namespaces and waits
// until they are gone, that is until the running operator has removed
// their CronJobs, ConfigMaps and Jobs and released the finalizer. The
// chart runs it (operator --delete-catalogs) as a pre-delete hook, so that
// an uninstall does not remove the operator while catalogs still wait for
// it.
func DeleteCatalogs(ctx context.Context, c client.Client, namespaces []string, poll time.Duration) error {
	if len(namespaces) == 0 {
		namespaces = []string{""}
	}
	for _, ns := range namespaces {
		if err := c.DeleteAllOf(ctx, &v1alpha1.ProductCatalog{}, client.InNamespace(ns)); err != nil {
			return fmt.Errorf("delete catalogs in %q: %w", ns, err)
		}
	}
	for {
		left := 0
		for _, ns := range namespaces {
			var l v1alpha1.ProductCatalogList
			if err := c.List(ctx, &l, client.InNamespace(ns)); err != nil {
				return fmt.Errorf("list catalogs in %q: %w", ns, err)
			}
			left += len(l.Items)
		}
		if left == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d catalogs still being deleted: %w", left, ctx.Err())
		case <-time.After(poll):
		}
	}
}
