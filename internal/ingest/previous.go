package ingest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
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
// product count, as catalog.ReadSnapshot does.
func eachPrevious(path string, fn func(line []byte) error) error {
	m, err := catalog.ReadManifest(path)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read snapshot: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	for err = bufio.ErrBufferFull; errors.Is(err, bufio.ErrBufferFull); {
		_, err = r.ReadSlice('\n') // the manifest, read above
	}
	if err != nil {
		return fmt.Errorf("read snapshot %s: %w", path, err)
	}
	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(r, h), 1<<20)
	lines := 0
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("read snapshot %s: %w", path, err)
		}
		if line = bytes.TrimSuffix(line, []byte("\n")); len(line) > 0 {
			lines++
			if ferr := fn(line); ferr != nil {
				// Line 1 is the manifest.
				return fmt.Errorf("read snapshot %s line %d: %w", path, lines+1, ferr)
			}
		}
		if err != nil {
			break
		}
	}
	if want := m.BodySHA256; want != "" {
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			return fmt.Errorf("read snapshot %s: %w (the file is damaged: manifest says %s, body hashes to %s)", path, catalog.ErrChecksum, want, got)
		}
	}
	if lines != m.Products {
		return fmt.Errorf("read snapshot %s: manifest says %d products, file has %d (truncated?)", path, m.Products, lines)
	}
	return nil
}

// staleOffers reads again from the previous snapshot the offers of the
// retailers named in failed, whose feeds could not be read, so that they
// keep their offers (with their product) until they can be; the listings
// are marked stale and their rest spilled to sp. It returns each failed
// retailer's offers.
func staleOffers(prev *previous, failed map[string]bool, sp *spill) (map[string]*offers, error) {
	out := map[string]*offers{}
	for name := range failed {
		out[name] = &offers{}
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
			if buf, err = out[o.Source].add(sp, &l, cls, specs, side{prevPID: strings.Clone(p.ID), stale: true}, buf); err != nil {
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
