package memory

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// WriteIndex builds the index of the snapshot at path and writes it to
// IndexPath(path), atomically: it is written beside under a temporary
// name and renamed. The snapshot must carry its body's checksum.
//
// The snapshot is read twice, one product at a time: once, verified, for
// the document order, then in that order, a run of products at a time,
// each indexed (builder) and its JSON and record written to temporary
// files beside the snapshot, which become the file's sections. Memory
// holds the index's own arrays and postings, not the catalog.
func WriteIndex(path string, opt Options) error { return writeIndex(path, opt, readBatch) }

// writeIndex is WriteIndex reading runs of batch products.
func writeIndex(path string, opt Options, batch int) error {
	table := opt.Attributes
	if table == nil {
		table = catalog.DefaultAttributes()
	}
	sf, err := catalog.OpenSnapshot(path)
	if err != nil {
		return err
	}
	defer sf.Close()
	refs, err := scanOrder(sf)
	if err != nil {
		return err
	}
	b, err := newBuilder(sf.Manifest(), len(refs), table)
	if err != nil {
		return err
	}
	pf, err := newProductFiles(path, len(refs))
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	defer pf.remove()
	if err := readProducts(sf, refs, batch, b, pf); err != nil {
		return err
	}
	return b.finish().writeFile(path, pf)
}

// scanOrder reads the snapshot's products' prices and ids and returns
// where each document's product is, in document order (docOrder).
func scanOrder(sf *catalog.SnapshotFile) ([]catalog.ProductRef, error) {
	type key struct {
		price float64
		id    string
		ref   catalog.ProductRef
	}
	var keys []key
	err := sf.Scan(func(line []byte, ref catalog.ProductRef) error {
		var k struct {
			ID    string  `json:"id"`
			Price float64 `json:"price"`
		}
		if err := json.Unmarshal(line, &k); err != nil {
			return err
		}
		keys = append(keys, key{k.Price, k.ID, ref})
		return nil
	})
	if err != nil {
		return nil, err
	}
	order := docOrder(keys, func(k *key) (float64, string) { return k.price, k.id })
	refs := make([]catalog.ProductRef, len(order))
	for doc, i := range order {
		refs[doc] = keys[i].ref
	}
	return refs, nil
}

// readBatch is how many products WriteIndex holds at once.
const readBatch = 4096

// readProducts reads the products at refs, in runs of batch decoded and
// encoded in parallel, and gives each run to the builder and its JSON and
// records to pf.
func readProducts(sf *catalog.SnapshotFile, refs []catalog.ProductRef, batch int, b *builder, pf *productFiles) error {
	ps := make([]catalog.Product, min(batch, len(refs)))
	pos := make([]uint32, len(ps))
	enc := make([]encodedProduct, len(ps))
	workers := workersFor(len(ps))
	type scratch struct{ line, json []byte }
	scratches := make([]scratch, workers)
	errs := make([]error, len(ps))
	for lo := 0; lo < len(refs); lo += batch {
		run := refs[lo:min(len(refs), lo+batch)]
		var wg sync.WaitGroup
		for w := range workers {
			sc := &scratches[w]
			wg.Go(func() {
				for i := w; i < len(run); i += workers {
					p := &ps[i]
					sc.line, errs[i] = sf.ProductAt(run[i], p, sc.line)
					if errs[i] == nil {
						sortOffers(p)
						sc.json, errs[i] = enc[i].encode(p, sc.json)
					}
				}
			})
		}
		wg.Wait()
		for i := range run {
			if errs[i] != nil {
				return errs[i]
			}
			pos[i] = run[i].Pos
		}
		if err := b.add(ps[:len(run)], pos); err != nil {
			return err
		}
		if err := pf.write(enc[:len(run)]); err != nil {
			return fmt.Errorf("write index: %w", err)
		}
		clear(ps)
	}
	return nil
}

// encodedProduct is a product's parts as the index file stores them: its
// jsonParts JSON parts (see writeProducts), then its snapshot record, one
// after another in b, each ending at ends.
type encodedProduct struct {
	b    []byte
	ends [docOffs]int
}

// encode encodes p, using scratch for its JSON and returning it for the
// next call.
func (e *encodedProduct) encode(p *catalog.Product, scratch []byte) ([]byte, error) {
	var pj search.ProductJSON
	pj, scratch = search.AppendProductJSON(scratch[:0], p)
	b := append(e.b[:0], pj.Full[:pj.Split]...)
	e.ends[0] = len(b)
	b = append(b, pj.Full[pj.Split:]...)
	e.ends[1] = len(b)
	b = append(b, pj.Lite...)
	e.ends[2] = len(b)
	b = search.AppendLiteAttrs(b, p)
	e.ends[3] = len(b)
	b, err := catalog.AppendRecord(b, p)
	e.ends[4] = len(b)
	e.b = b
	return scratch, err
}

// productFiles holds the documents' JSON parts and records, in document
// order, in two temporary files beside the snapshot (named as its own are,
// catalog.TempPattern, so that a sync removes them if a crash leaves
// them), and their offsets: jsonOff jsonParts per document and the end,
// recOff one per document and the end.
type productFiles struct {
	json, rec       *os.File
	jsonW, recW     *bufio.Writer
	jsonOff, recOff []uint64
}

func newProductFiles(snapshot string, n int) (*productFiles, error) {
	pf := &productFiles{jsonOff: make([]uint64, 1, jsonParts*n+1), recOff: make([]uint64, 1, n+1)}
	var err error
	for _, f := range []**os.File{&pf.json, &pf.rec} {
		if *f, err = os.CreateTemp(filepath.Dir(snapshot), catalog.TempPattern(snapshot)); err != nil {
			pf.remove()
			return nil, err
		}
	}
	pf.jsonW, pf.recW = bufio.NewWriterSize(pf.json, 1<<20), bufio.NewWriterSize(pf.rec, 1<<20)
	return pf, nil
}

// write appends the next documents' parts.
func (pf *productFiles) write(enc []encodedProduct) error {
	for i := range enc {
		e := &enc[i]
		start, end := pf.jsonOff[len(pf.jsonOff)-1], 0
		for _, at := range e.ends[:jsonParts] {
			pf.jsonOff = append(pf.jsonOff, start+uint64(at))
		}
		end = e.ends[jsonParts-1]
		if _, err := pf.jsonW.Write(e.b[:end]); err != nil {
			return err
		}
		pf.recOff = append(pf.recOff, pf.recOff[len(pf.recOff)-1]+uint64(e.ends[jsonParts]-end))
		if _, err := pf.recW.Write(e.b[end:e.ends[jsonParts]]); err != nil {
			return err
		}
	}
	return nil
}

// copyTo writes the section kind from f, which holds size bytes, after
// flushing w to it.
func (pf *productFiles) copyTo(w *fileWriter, kind uint32, f *os.File, fw *bufio.Writer, size uint64) {
	if w.err != nil {
		return
	}
	if w.err = fw.Flush(); w.err != nil {
		return
	}
	if _, w.err = f.Seek(0, io.SeekStart); w.err != nil {
		return
	}
	w.sectionFrom(kind, io.LimitReader(&releasingReader{f: f, chunk: releaseChunk}, int64(size)), size)
}

// releaseChunk is how much of a temporary file is read before its blocks
// are given back.
const releaseChunk = 64 << 20

// releasingReader reads a file from its start and gives the disk blocks
// of what it has read back (releaseRange) every chunk bytes and at its
// end, so that copying the products' temporary files into the index file
// needs little more disk than the index file.
type releasingReader struct {
	f              *os.File
	chunk          int64
	read, released int64
}

func (r *releasingReader) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	r.read += int64(n)
	if r.read-r.released >= r.chunk || err != nil && r.read > r.released {
		releaseRange(r.f, r.released, r.read-r.released)
		r.released = r.read
	}
	return n, err
}

// remove closes and removes the files.
func (pf *productFiles) remove() {
	for _, f := range []*os.File{pf.json, pf.rec} {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
}
