package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/classify"
	"productsearch/internal/extract"
)

// previous is what a sync uses of the snapshot it replaces: how many
// products it had and which product each offer belonged to (in an
// incremental sync also each offer's time of update). The snapshot is
// streamed, one product at a time, never held whole; the offers of a
// retailer whose feed failed are read from it again (staleOffers).
type previous struct {
	path     string
	products int
	pid      map[string]string    // offer id: product id
	updated  map[string]time.Time // offer id: last update, in an incremental sync
}

// prevProduct is what readPrevious decodes of a product.
type prevProduct struct {
	ID     string `json:"id"`
	Offers []struct {
		ID          string    `json:"id"`
		LastUpdated time.Time `json:"last_updated"`
	} `json:"offers"`
}

// readPrevious reads the snapshot at path, or returns nil when there is
// none. An unreadable, damaged or truncated snapshot is an error.
func readPrevious(path string, incremental bool) (*previous, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	prev := &previous{path: path, pid: map[string]string{}}
	if incremental {
		prev.updated = map[string]time.Time{}
	}
	err := eachPrevious(path, func(line []byte) error {
		var p prevProduct
		if err := json.Unmarshal(line, &p); err != nil {
			return err
		}
		prev.products++
		id := strings.Clone(p.ID)
		for _, o := range p.Offers {
			oid := strings.Clone(o.ID)
			prev.pid[oid] = id
			if incremental {
				prev.updated[oid] = o.LastUpdated
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("previous snapshot unreadable: %w", err)
	}
	return prev, nil
}

// eachPrevious calls fn with each product line of the snapshot at path,
// in order, and checks the body against the manifest's checksum and
// product count (catalog.SnapshotFile.Scan).
func eachPrevious(path string, fn func(line []byte) error) error {
	sf, err := catalog.OpenSnapshot(path)
	if err != nil {
		return err
	}
	defer sf.Close()
	return sf.Scan(func(line []byte, _ catalog.ProductRef) error { return fn(line) })
}

// staleOffers reads again from the previous snapshot the offers of the
// retailers named in failed, whose feeds could not be read, so that they
// keep their offers (with their product) until they can be; the listings
// are marked stale and kept in st. It returns each failed
// retailer's offers.
func staleOffers(prev *previous, failed map[string]bool, st *store) (map[string]*offers, error) {
	out := map[string]*offers{}
	for name := range failed {
		out[name] = newOffers(st)
	}
	var buf []byte
	err := eachPrevious(prev.path, func(line []byte) error {
		p, err := catalog.DecodeRecord(line)
		if err != nil {
			return err
		}
		for _, o := range p.Offers {
			if !failed[o.Source] {
				continue
			}
			l := catalog.Listing{
				Retailer: o.Source, OfferID: o.ID, Title: o.Title, Price: o.Price, Availability: o.Availability,
				Stock: o.Stock, DeliveryTime: o.DeliveryTime, URL: o.PurchaseURL, ImageURL: o.ImageURL,
				Brand: p.Brand, LastUpdated: o.LastUpdated,
			}
			cls := classify.Result{Category: p.Category, Type: p.ProductType}
			specs := extract.Title(o.Title, extract.Context{Category: cls.Category, Accessory: cls.Type == catalog.TypeAccessory})
			if buf, err = out[o.Source].add(&l, cls, specs, origin{prevPID: p.ID, stale: true}, buf); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("previous snapshot unreadable: %w", err)
	}
	return out, nil
}
