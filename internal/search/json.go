package search

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"productsearch/internal/catalog"
)

// ProductJSON holds a product's JSON encodings, computed once when an index
// is built so that responses are written without encoding products again.
// Engines attach it to hits; a hit without it is encoded on the fly.
type ProductJSON struct {
	// Full is the full product object, as AppendProduct writes it.
	Full []byte
	// Split is the offset in Full where constraint_status belongs: just
	// before ,"provenance".
	Split int
	// Lite is the lite product object, as AppendLiteProduct writes it.
	Lite []byte
	// Stored, set by an engine that keeps products only in stored form,
	// stands for the product: see StoredProduct.
	Stored *StoredProduct
}

// StoredProduct is what a hit carries of a product an engine keeps only in
// stored form: its type and its attributes as AppendLiteAttrs writes them,
// for lite hits that show them, and its snapshot record, which Hit.Item
// decodes.
type StoredProduct struct {
	Type   catalog.ProductType
	Attrs  []byte
	Record []byte
}

// AppendLiteAttrs appends p's attributes in their lite form to dst, in
// name order, each as a name length byte, the name, a uvarint value
// length and the value's JSON; a name longer than 255 bytes is left out.
func AppendLiteAttrs(dst []byte, p *catalog.Product) []byte {
	names := make([]string, 0, len(p.Attributes))
	for name := range p.Attributes {
		if len(name) <= math.MaxUint8 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var val []byte
	for _, name := range names {
		val = appendAttribute(val[:0], p.Attributes[name], false)
		dst = append(dst, byte(len(name)))
		dst = append(dst, name...)
		dst = binary.AppendUvarint(dst, uint64(len(val)))
		dst = append(dst, val...)
	}
	return dst
}

// liteAttr finds name's value in attrs, as AppendLiteAttrs writes them;
// malformed attrs find nothing.
func liteAttr(attrs []byte, name string) ([]byte, bool) {
	for len(attrs) > 0 {
		n := int(attrs[0])
		if 1+n > len(attrs) {
			return nil, false
		}
		key := attrs[1 : 1+n]
		attrs = attrs[1+n:]
		l, w := binary.Uvarint(attrs)
		if w <= 0 || l > uint64(len(attrs)-w) {
			return nil, false
		}
		val := attrs[w : w+int(l)]
		attrs = attrs[w+int(l):]
		if string(key) == name {
			return val, true
		}
	}
	return nil, false
}

// NewProductJSON encodes p in both forms.
func NewProductJSON(p *catalog.Product) *ProductJSON {
	pj, _ := AppendProductJSON(nil, p)
	return &pj
}

// AppendProductJSON appends p's full then lite object to buf and returns
// them, slices of the returned buf that later appends to it cannot
// overwrite. Many products encoded into one buffer share its allocation.
func AppendProductJSON(buf []byte, p *catalog.Product) (ProductJSON, []byte) {
	start := len(buf)
	buf, split := appendProduct(buf, p)
	full := len(buf)
	buf = AppendLiteProduct(buf, p)
	return ProductJSON{Full: buf[start:full:full], Split: split - start, Lite: buf[full:len(buf):len(buf)]}, buf
}

// AppendProduct appends the full product object of the interface (every
// field, attributes with sources, offers in their stored order) to dst.
// Fields appear in catalog.Product order; optional fields are left out when
// empty, attributes is {} and offers [] when there are none. Map keys are
// sorted, so the output is deterministic.
func AppendProduct(dst []byte, p *catalog.Product) []byte {
	dst, _ = appendProduct(dst, p)
	return dst
}

func appendProduct(b []byte, p *catalog.Product) ([]byte, int) {
	b = append(b, `{"id":`...)
	b = appendString(b, p.ID)
	b = append(b, `,"title":`...)
	b = appendString(b, p.Title)
	if p.Brand != "" {
		b = append(b, `,"brand":`...)
		b = appendString(b, p.Brand)
	}
	b = append(b, `,"price":`...)
	b = appendFloat(b, p.Price)
	b = append(b, `,"currency":`...)
	b = appendString(b, p.Currency)
	b = append(b, `,"availability":`...)
	b = appendString(b, string(p.Availability))
	if p.Stock != nil {
		b = append(b, `,"stock":`...)
		b = strconv.AppendInt(b, int64(*p.Stock), 10)
	}
	if p.DeliveryTime != "" {
		b = append(b, `,"delivery_time":`...)
		b = appendString(b, p.DeliveryTime)
	}
	if p.ImageURL != "" {
		b = append(b, `,"image_url":`...)
		b = appendString(b, p.ImageURL)
	}
	b = append(b, `,"category":`...)
	b = appendString(b, p.Category)
	b = append(b, `,"product_type":`...)
	b = appendString(b, string(p.ProductType))
	b = append(b, `,"specs":{`...)
	sep := byte(0)
	for _, f := range [...]struct{ key, val string }{
		{"description", p.Specs.Description}, {"model_number", p.Specs.ModelNumber}, {"dimensions", p.Specs.Dimensions},
	} {
		if f.val == "" {
			continue
		}
		if sep != 0 {
			b = append(b, sep)
		}
		sep = ','
		b = appendString(b, f.key)
		b = append(b, ':')
		b = appendString(b, f.val)
	}
	b = append(b, `},"attributes":{`...)
	for i, name := range sortedAttributeNames(p.Attributes) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, name)
		b = append(b, ':')
		b = appendAttribute(b, p.Attributes[name], true)
	}
	b = append(b, '}')
	split := len(b)
	b = append(b, `,"provenance":{"source":`...)
	b = appendString(b, p.Provenance.Source)
	b = append(b, `,"last_updated":`...)
	b = appendTime(b, p.Provenance.LastUpdated)
	b = append(b, `},"purchase_url":`...)
	b = appendString(b, p.PurchaseURL)
	b = append(b, `,"offer_count":`...)
	b = strconv.AppendInt(b, int64(p.OfferCount), 10)
	b = append(b, `,"offers":[`...)
	for i := range p.Offers {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOffer(b, &p.Offers[i])
	}
	b = append(b, "]}"...)
	return b, split
}

// AppendLiteProduct appends the lite product object of the interface: id,
// title, brand, price, currency, availability, image_url, purchase_url and
// offer_count, leaving out brand and image_url when empty.
func AppendLiteProduct(b []byte, p *catalog.Product) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, p.ID)
	b = append(b, `,"title":`...)
	b = appendString(b, p.Title)
	if p.Brand != "" {
		b = append(b, `,"brand":`...)
		b = appendString(b, p.Brand)
	}
	b = append(b, `,"price":`...)
	b = appendFloat(b, p.Price)
	b = append(b, `,"currency":`...)
	b = appendString(b, p.Currency)
	b = append(b, `,"availability":`...)
	b = appendString(b, string(p.Availability))
	if p.ImageURL != "" {
		b = append(b, `,"image_url":`...)
		b = appendString(b, p.ImageURL)
	}
	b = append(b, `,"purchase_url":`...)
	b = appendString(b, p.PurchaseURL)
	b = append(b, `,"offer_count":`...)
	b = strconv.AppendInt(b, int64(p.OfferCount), 10)
	return append(b, '}')
}

func sortedAttributeNames(attrs map[string]catalog.Attribute) []string {
	if len(attrs) == 0 {
		return nil
	}
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// appendAttribute writes an attribute; without sources it is the lite form.
func appendAttribute(b []byte, a catalog.Attribute, sources bool) []byte {
	b = append(b, `{"status":`...)
	b = appendString(b, a.Status)
	if a.Value != 0 {
		b = append(b, `,"value":`...)
		b = appendFloat(b, a.Value)
	}
	if sources && len(a.Sources) > 0 {
		b = append(b, `,"sources":`...)
		b = appendSources(b, a.Sources)
	}
	if len(a.Values) > 0 {
		b = append(b, `,"values":[`...)
		for i, v := range a.Values {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"value":`...)
			b = appendFloat(b, v.Value)
			if sources && len(v.Sources) > 0 {
				b = append(b, `,"sources":`...)
				b = appendSources(b, v.Sources)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendSources(b []byte, sources []catalog.Source) []byte {
	b = append(b, '[')
	for i, s := range sources {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"retailer":`...)
		b = appendString(b, s.Retailer)
		b = append(b, `,"field":`...)
		b = appendString(b, s.Field)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendOffer(b []byte, o *catalog.Offer) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, o.ID)
	b = append(b, `,"source":`...)
	b = appendString(b, o.Source)
	b = append(b, `,"title":`...)
	b = appendString(b, o.Title)
	b = append(b, `,"price":`...)
	b = appendFloat(b, o.Price)
	b = append(b, `,"currency":`...)
	b = appendString(b, o.Currency)
	b = append(b, `,"availability":`...)
	b = appendString(b, string(o.Availability))
	if o.Stock != nil {
		b = append(b, `,"stock":`...)
		b = strconv.AppendInt(b, int64(*o.Stock), 10)
	}
	if o.DeliveryTime != "" {
		b = append(b, `,"delivery_time":`...)
		b = appendString(b, o.DeliveryTime)
	}
	b = append(b, `,"purchase_url":`...)
	b = appendString(b, o.PurchaseURL)
	if o.ImageURL != "" {
		b = append(b, `,"image_url":`...)
		b = appendString(b, o.ImageURL)
	}
	b = append(b, `,"last_updated":`...)
	b = appendTime(b, o.LastUpdated)
	return append(b, '}')
}

// appendTime writes t as encoding/json does (RFC 3339 with nanoseconds).
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// appendFloat writes f as encoding/json does; NaN and infinities, which
// JSON cannot hold, are written as 0.
func appendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0')
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string as encoding/json does with HTML
// escaping off: quotes, backslashes and control characters escaped, invalid
// UTF-8 replaced by U+FFFD, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendBound writes a constraint bound as {"eq":..,"gte":..,"lte":..}.
func appendBound(b []byte, bd Bound) []byte {
	b = append(b, '{')
	sep := false
	for _, o := range [...]struct {
		key string
		v   *float64
	}{{`"eq":`, bd.Eq}, {`"gte":`, bd.Gte}, {`"lte":`, bd.Lte}} {
		if o.v == nil {
			continue
		}
		if sep {
			b = append(b, ',')
		}
		sep = true
		b = append(b, o.key...)
		b = appendFloat(b, *o.v)
	}
	return append(b, '}')
}

// MarshalJSON writes the search response of the interface; see AppendJSON.
// (encoding/json then escapes <, > and & in it; AppendJSON does not.)
func (r Result) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, 512+len(r.Products)*512)), nil
}

// AppendJSON appends the search response of the interface to dst: products
// (full or lite per r.Lite) and total; with constraints also constraints,
// excluded_by_constraints and unverified_total, candidates_truncated when
// true, and on every product constraint_status (and, in lite mode,
// attributes limited to the constrained names, without sources). Lite
// products carry product_type when r.LiteType is set.
func (r *Result) AppendJSON(dst []byte) []byte {
	var names []string
	if len(r.Constraints) > 0 {
		names = make([]string, 0, len(r.Constraints))
		for name := range r.Constraints {
			names = append(names, name)
		}
		slices.Sort(names)
	}
	dst = append(dst, `{"products":[`...)
	for i := range r.Products {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = r.appendHit(dst, &r.Products[i], names)
	}
	dst = append(dst, `],"total":`...)
	dst = strconv.AppendInt(dst, int64(r.Total), 10)
	if names != nil {
		dst = append(dst, `,"constraints":{`...)
		for i, name := range names {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, name)
			dst = append(dst, ':')
			dst = appendBound(dst, r.Constraints[name])
		}
		dst = append(dst, `},"excluded_by_constraints":`...)
		dst = strconv.AppendInt(dst, int64(r.ExcludedByConstraints), 10)
		dst = append(dst, `,"unverified_total":`...)
		dst = strconv.AppendInt(dst, int64(r.UnverifiedTotal), 10)
		if r.CandidatesTruncated {
			dst = append(dst, `,"candidates_truncated":true`...)
		}
	}
	return append(dst, '}')
}

func (r *Result) appendHit(dst []byte, h *Hit, names []string) []byte {
	// A hit without its encoded forms (an engine that keeps none) is
	// encoded in the one form the result shows.
	pj := h.JSON
	if !r.Lite {
		switch {
		case pj == nil && names == nil:
			return AppendProduct(dst, h.Product)
		case pj == nil:
			var split int
			dst, split = appendProduct(dst, h.Product)
			tail := slices.Clone(dst[split:])
			dst = appendStatus(dst[:split], h, names)
			return append(dst, tail...)
		case names == nil:
			return append(dst, pj.Full...)
		}
		dst = append(dst, pj.Full[:pj.Split]...)
		dst = appendStatus(dst, h, names)
		return append(dst, pj.Full[pj.Split:]...)
	}
	if pj != nil {
		dst = append(dst, pj.Lite...)
	} else {
		dst = AppendLiteProduct(dst, h.Product)
	}
	if names == nil && !r.LiteType {
		return dst
	}
	dst = dst[:len(dst)-1]
	var stored *StoredProduct
	if h.Product == nil && pj != nil {
		stored = pj.Stored
	}
	if r.LiteType {
		dst = append(dst, `,"product_type":`...)
		if stored != nil {
			dst = appendString(dst, string(stored.Type))
		} else {
			dst = appendString(dst, string(h.Product.ProductType))
		}
	}
	if names == nil {
		return append(dst, '}')
	}
	dst = appendStatus(dst, h, names)
	dst = append(dst, `,"attributes":{`...)
	first := true
	for _, name := range names {
		var val []byte
		var a catalog.Attribute
		var ok bool
		if stored != nil {
			val, ok = liteAttr(stored.Attrs, name)
		} else {
			a, ok = h.Product.Attributes[name]
		}
		if !ok {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendString(dst, name)
		dst = append(dst, ':')
		if stored != nil {
			dst = append(dst, val...)
		} else {
			dst = appendAttribute(dst, a, false)
		}
	}
	return append(dst, "}}"...)
}

func appendStatus(dst []byte, h *Hit, names []string) []byte {
	dst = append(dst, `,"constraint_status":{`...)
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, name)
		if h.ConstraintStatus[name] == StatusMatched {
			dst = append(dst, `:"matched"`...)
		} else {
			dst = append(dst, `:"unverified"`...)
		}
	}
	return append(dst, '}')
}
