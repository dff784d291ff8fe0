package catalog

// maxShared bounds the distinct values one interner keeps.
const maxShared = 1 << 14

// interner makes a decoded product's repeated values share one copy each:
// every product and offer repeats a few retailers, currencies,
// availabilities, categories, statuses and field names, which decoding
// allocates anew for each. One interner serves one goroutine.
type interner map[string]string

// share replaces p's repeated values with their shared copies.
func (in interner) share(p *Product) {
	p.Brand, p.Currency, p.DeliveryTime = shared(in, p.Brand), shared(in, p.Currency), shared(in, p.DeliveryTime)
	p.Availability, p.Category, p.ProductType = shared(in, p.Availability), shared(in, p.Category), shared(in, p.ProductType)
	p.Provenance.Source = shared(in, p.Provenance.Source)
	for name, a := range p.Attributes {
		a.Status = shared(in, a.Status)
		in.sources(a.Sources)
		for i := range a.Values {
			in.sources(a.Values[i].Sources)
		}
		p.Attributes[name] = a
	}
	for i := range p.Offers {
		o := &p.Offers[i]
		o.Source, o.Currency, o.DeliveryTime = shared(in, o.Source), shared(in, o.Currency), shared(in, o.DeliveryTime)
		o.Availability = shared(in, o.Availability)
	}
}

func (in interner) sources(ss []Source) {
	for i := range ss {
		ss[i].Retailer, ss[i].Field = shared(in, ss[i].Retailer), shared(in, ss[i].Field)
	}
}

// shared returns the interner's copy of v, keeping v as the copy when it
// has none and room for more.
func shared[T ~string](in interner, v T) T {
	if v == "" {
		return v
	}
	if c, ok := in[string(v)]; ok {
		return T(c)
	}
	if len(in) < maxShared {
		in[string(v)] = string(v)
	}
	return v
}
