package elastic

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	json "github.com/goccy/go-json"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// productFields makes a search or get return each product in full (the
// source) or in its lite form (the stored lite object, without the
// source), with the stored lite attributes when attrs (a lite result shows
// them only beside constraints).
func productFields(body obj, lite, attrs bool) obj {
	switch {
	case !lite:
		body["_source"] = true
	case attrs:
		body["_source"] = false
		body["stored_fields"] = []string{fieldLite, fieldLiteAttrs}
	default:
		body["_source"] = false
		body["stored_fields"] = []string{fieldLite}
	}
	return body
}

// fields is productFields for the query's hits.
func (q *query) fields(body obj) obj { return productFields(body, q.req.Lite, len(q.cons) > 0) }

// candidateFields makes a search return its hits without loading stored
// fields: the product id comes from doc values. Reading the stored _id of
// thousands of candidates would decompress their stored documents, an
// order of magnitude slower.
func candidateFields(body obj) obj {
	body["stored_fields"] = "_none_"
	body["docvalue_fields"] = []string{fieldID}
	return body
}

// products reads the products of the query's hits with one _mget, from
// the index each hit came from.
func (q *query) products(ctx context.Context, hits []*hit) ([]search.Hit, error) {
	if len(hits) == 0 {
		return []search.Hit{}, nil
	}
	docs := make([]obj, len(hits))
	for i, h := range hits {
		docs[i] = q.fields(obj{"_index": h.Index, "_id": h.ID})
	}
	b, err := json.Marshal(obj{"docs": docs})
	if err != nil {
		return nil, err
	}
	var ans struct {
		Docs []struct {
			ID     string          `json:"_id"`
			Found  bool            `json:"found"`
			Source json.RawMessage `json:"_source"`
			Fields storedFields    `json:"fields"`
			Error  json.RawMessage `json:"error"`
		} `json:"docs"`
	}
	if err := q.e.client.Do(ctx, http.MethodPost, "/_mget", nil, b, &ans); err != nil {
		return nil, err
	}
	if len(ans.Docs) != len(hits) {
		return nil, fmt.Errorf("_mget answered %d documents of %d", len(ans.Docs), len(hits))
	}
	out := make([]search.Hit, len(hits))
	for i := range ans.Docs {
		d := &ans.Docs[i]
		if !d.Found || len(d.Error) > 0 {
			return nil, fmt.Errorf("_mget: product %s is gone from index %s", hits[i].ID, hits[i].Index)
		}
		var err error
		if out[i], err = q.decode(d.ID, d.Source, &d.Fields); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// storedFields are the stored fields a hit or document returns.
type storedFields struct {
	ID        []string `json:"id"` // doc values, for candidates
	Lite      []string `json:"lite"`
	LiteAttrs []string `json:"lite_attrs"`
}

// decode reads the product of one of the query's hits or documents: from
// the source, or in a lite result the stored lite object, shown as it is,
// with the attributes beside when the query has constraints. A lite hit's
// product holds only what a lite result reads besides its object: its id,
// product type (that of the request's product type filter, which every
// hit has) and attributes. Lite hits are made in q.slab when it has room.
func (q *query) decode(id string, source json.RawMessage, f *storedFields) (search.Hit, error) {
	if !q.req.Lite {
		p, err := decodeProduct(source)
		return search.Hit{Product: p}, err
	}
	if len(f.Lite) != 1 {
		return search.Hit{}, fmt.Errorf("decode product %s: document has %d lite fields, want 1", id, len(f.Lite))
	}
	h := q.slab.next(f.Lite[0])
	h.p = catalog.Product{ID: id, ProductType: q.req.ProductType}
	if len(q.cons) > 0 && len(f.LiteAttrs) == 1 {
		if err := json.Unmarshal([]byte(f.LiteAttrs[0]), &h.p.Attributes); err != nil {
			return search.Hit{}, fmt.Errorf("decode the attributes of product %s: %w", id, err)
		}
	}
	return search.Hit{Product: &h.p, JSON: &h.j}, nil
}

// liteHit is the product and JSON of one lite hit.
type liteHit struct {
	p catalog.Product
	j search.ProductJSON
}

// liteSlab holds a page's lite hits and their objects' bytes in one
// allocation each (a page's results live and die together).
type liteSlab struct {
	hits  []liteHit
	bytes []byte
}

// reserve makes room for the lite hits of hits.
func (s *liteSlab) reserve(hits []hit) {
	n := 0
	for i := range hits {
		if l := hits[i].Fields.Lite; len(l) == 1 {
			n += len(l[0])
		}
	}
	s.hits, s.bytes = make([]liteHit, 0, len(hits)), make([]byte, 0, n)
}

// next returns a lite hit whose JSON holds a copy of lite, from the slab
// when it has room.
func (s *liteSlab) next(lite string) *liteHit {
	var h *liteHit
	if len(s.hits) < cap(s.hits) {
		s.hits = s.hits[:len(s.hits)+1]
		h = &s.hits[len(s.hits)-1]
	} else {
		h = new(liteHit)
	}
	if cap(s.bytes)-len(s.bytes) >= len(lite) {
		start := len(s.bytes)
		s.bytes = append(s.bytes, lite...)
		h.j.Lite = s.bytes[start:len(s.bytes):len(s.bytes)]
	} else {
		h.j.Lite = []byte(lite)
	}
	return h
}

// hit reads the product of one of the query's hits (see decode).
func (q *query) hit(h *hit) (search.Hit, error) { return q.decode(h.ID, h.Source, &h.Fields) }

// page returns the results of hits, in order, without constraint statuses.
func (q *query) page(hits []hit) ([]search.Hit, error) {
	out := make([]search.Hit, len(hits))
	if q.req.Lite {
		q.slab.reserve(hits)
	}
	for i := range hits {
		var err error
		if out[i], err = q.hit(&hits[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeProduct reads the product from a document source.
func decodeProduct(source json.RawMessage) (*catalog.Product, error) {
	var doc struct {
		Product *catalog.Product `json:"product"`
	}
	if err := json.Unmarshal(source, &doc); err != nil {
		return nil, fmt.Errorf("decode product: %w", err)
	}
	if doc.Product == nil {
		return nil, errors.New("decode product: document has no product")
	}
	return doc.Product, nil
}
