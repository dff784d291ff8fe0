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
// source) or in its lite form (the stored lite field, without the source).
func productFields(body obj, lite bool) obj {
	if lite {
		body["_source"] = false
		body["stored_fields"] = []string{fieldLite}
	} else {
		body["_source"] = true
	}
	return body
}

// candidateFields makes a search return its hits without loading stored
// fields: the product id comes from doc values. Reading the stored _id of
// thousands of candidates would decompress their stored documents, an
// order of magnitude slower.
func candidateFields(body obj) obj {
	body["stored_fields"] = "_none_"
	body["docvalue_fields"] = []string{fieldID}
	return body
}

// products reads the products of hits (in full or lite) with one _mget,
// from the index each hit came from.
func (e *Engine) products(ctx context.Context, hits []*hit, lite bool) ([]*catalog.Product, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	docs := make([]obj, len(hits))
	for i, h := range hits {
		docs[i] = productFields(obj{"_index": h.Index, "_id": h.ID}, lite)
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
			Fields struct {
				Lite []string `json:"lite"`
			} `json:"fields"`
			Error json.RawMessage `json:"error"`
		} `json:"docs"`
	}
	if err := e.client.Do(ctx, http.MethodPost, "/_mget", nil, b, &ans); err != nil {
		return nil, err
	}
	if len(ans.Docs) != len(hits) {
		return nil, fmt.Errorf("_mget answered %d documents of %d", len(ans.Docs), len(hits))
	}
	out := make([]*catalog.Product, len(hits))
	for i, d := range ans.Docs {
		if !d.Found || len(d.Error) > 0 {
			return nil, fmt.Errorf("_mget: product %s is gone from index %s", hits[i].ID, hits[i].Index)
		}
		p, err := decodeHit(d.Source, d.Fields.Lite, lite, true)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// decodeHit reads the product of a hit or document: from the source, or
// from the stored lite field when lite, with its attributes only when
// attrs (a lite result shows them only beside constraints).
func decodeHit(source json.RawMessage, liteField []string, lite, attrs bool) (*catalog.Product, error) {
	if !lite {
		return decodeProduct(source)
	}
	if len(liteField) != 1 {
		return nil, fmt.Errorf("decode product: document has %d lite fields, want 1", len(liteField))
	}
	data := []byte(liteField[0])
	if attrs {
		var l liteProduct
		if err := json.Unmarshal(data, &l); err != nil {
			return nil, fmt.Errorf("decode lite product: %w", err)
		}
		p := l.product()
		p.Attributes = l.Attributes
		return p, nil
	}
	var l liteHead
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, fmt.Errorf("decode lite product: %w", err)
	}
	return l.product(), nil
}

// product reads the product of one of the query's hits, with its
// attributes when the query has constraints (see decodeHit).
func (q *query) product(h *hit) (*catalog.Product, error) {
	return decodeHit(h.Source, h.Fields.Lite, q.req.Lite, len(q.cons) > 0)
}

// page returns the results of hits, in order, without constraint statuses.
func (q *query) page(hits []hit) ([]search.Hit, error) {
	out := make([]search.Hit, len(hits))
	for i := range hits {
		p, err := q.product(&hits[i])
		if err != nil {
			return nil, err
		}
		out[i].Product = p
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
