package ingest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
)

// An incremental sync keeps, beside its snapshot, the state of the run:
// each offer's content hash (of the listing as the feed gave it) and the
// product it went to. In the next incremental sync an offer whose content
// did not change is tied to that product before grouping, as a stale
// retailer's offers are: its group stays, and only changed and new offers
// are weighed against the others. A full sync (the default) reads no state.

// stateVersion changes when the hash or the file changes meaning.
const stateVersion = 1

// offerState is what the state keeps of one offer.
type offerState struct {
	Hash    uint64 `json:"h"`
	Product string `json:"p"`
}

// syncState is the state file: one JSON object.
type syncState struct {
	Version int                   `json:"version"`
	Offers  map[string]offerState `json:"offers"`
}

// StatePath is where the state of an incremental sync writing snapshot
// is kept.
func StatePath(snapshot string) string {
	return strings.TrimSuffix(snapshot, filepath.Ext(snapshot)) + ".state.json"
}

// readState reads the state at path; a missing file or one of another
// version is no state.
func readState(path string) (map[string]offerState, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var st syncState
	if err := json.NewDecoder(bufio.NewReader(f)).Decode(&st); err != nil {
		return nil, fmt.Errorf("sync state %s: %w", path, err)
	}
	if st.Version != stateVersion {
		return nil, nil
	}
	return st.Offers, nil
}

// writeState writes the offers read from feeds into the catalog c, each
// with its hash and product, to path.
func writeState(path string, o *offers, c *catalogue) error {
	st := syncState{Version: stateVersion, Offers: map[string]offerState{}}
	for _, p := range c.products {
		for _, i := range c.groups[p.group] {
			if s := &o.sides[i]; !s.stale {
				st.Offers[o.offerID(i)] = offerState{Hash: s.hash, Product: p.id}
			}
		}
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = json.NewEncoder(w).Encode(&st)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write sync state: %w", err)
	}
	return os.Rename(tmp, path)
}

// listingHash hashes what a feed said of one offer (its row number
// aside), before any default is filled in.
func listingHash(l *catalog.Listing) uint64 {
	h := fnv.New64a()
	for _, s := range []string{l.Retailer, l.OfferID, l.MerchantID, l.Title, l.Description, string(l.Availability),
		l.DeliveryTime, l.URL, l.ImageURL, l.GTIN, l.MPN, l.ModelNumber, l.Brand, l.Colour, l.CategoryPath,
		l.TaxonomyID, l.Dimensions} {
		io.WriteString(h, s)
		h.Write([]byte{0})
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], math.Float64bits(l.Price))
	h.Write(b[:])
	stock := int64(-1)
	if l.Stock != nil {
		stock = int64(*l.Stock)
	}
	binary.LittleEndian.PutUint64(b[:], uint64(stock))
	h.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], uint64(l.LastUpdated.UnixNano()))
	h.Write(b[:])
	return h.Sum64()
}
