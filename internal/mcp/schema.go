package mcp

import (
	"encoding/json"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"productsearch/internal/catalog"
	"productsearch/internal/search"
)

// Tool and argument names.
const (
	ToolSearchProducts = "search_products"
	ToolGetProduct     = "get_product"

	argProductID = "product_id"
)

// searchArgNames lists the arguments of search_products in schema order.
func searchArgNames() []string {
	return []string{
		search.ParamQuery, search.ParamCategory, search.ParamBrand, search.ParamMinPrice, search.ParamMaxPrice,
		search.ParamConstraints, search.ParamProductType, search.ParamSort, search.ParamLimit, search.ParamOffset,
		search.ParamLite,
	}
}

// defaultLite is the lite default of search_products: compact products keep
// a page of 50 results small enough for a model's context; get_product
// gives the full record.
const defaultLite = true

func ptr[T any](v T) *T { return &v }

func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

func enumOf[T ~string](values ...T) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// boundSchema is the schema of one constraint: any of eq, gte, lte.
func boundSchema(d *catalog.AttributeDef) *jsonschema.Schema {
	doc := d.Doc
	if doc == "" {
		doc = d.Name
	}
	num := func(desc string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "number", Minimum: ptr(0.0), Description: desc}
	}
	return &jsonschema.Schema{
		Type:        "object",
		Description: doc + " Give eq, or gte and/or lte (both for a range).",
		Properties: map[string]*jsonschema.Schema{
			"eq":  num("equal to (within the matching tolerance)"),
			"gte": num("at least"),
			"lte": num("at most"),
		},
		PropertyOrder:        []string{"eq", "gte", "lte"},
		AdditionalProperties: falseSchema(),
		MinProperties:        ptr(1),
	}
}

// searchInputSchema is the input schema of search_products, with a
// constraint property per attribute of the table.
func searchInputSchema(attrs *catalog.AttributeTable) *jsonschema.Schema {
	cons := &jsonschema.Schema{
		Type: "object",
		Description: "Hard spec requirements, checked per product against the specs retailers state in titles. " +
			"Keys are the attribute names below; each value is an object with eq, gte and/or lte numbers in the attribute's unit. " +
			"Example: {\"memory_gb\": {\"gte\": 16}, \"storage_gb\": {\"gte\": 1000}, \"screen_in\": {\"gte\": 15, \"lte\": 16}}. " +
			"Needs a category or brand (or model words in query) to search within. Leave out a requirement that is ambiguous, " +
			"such as a bare \"16GB\" that could be RAM or storage.",
		Properties:           map[string]*jsonschema.Schema{},
		PropertyOrder:        attrs.Names(),
		AdditionalProperties: falseSchema(),
	}
	for i := range attrs.Len() {
		d := attrs.At(i)
		cons.Properties[d.Name] = boundSchema(d)
	}
	props := map[string]*jsonschema.Schema{
		search.ParamQuery: {
			Type:      "string",
			MaxLength: ptr(search.MaxQueryLen),
			Description: "Refinement words only: model lines, series, variants and model numbers, each model number with its prefix " +
				"(\"RTX 4070\" not \"4070\"; \"Galaxy S24 Ultra\", \"WH-1000XM5\", \"MacBook Air M3\"). Every word must appear in the title, " +
				"except category words and bare numbers, which only affect ranking. Not a category, brand or price, and no use-case " +
				"words (gaming, cheap, best, good, for students). Omit it when browsing a category or brand.",
		},
		search.ParamCategory: {
			Type: "string",
			Enum: enumOf(catalog.Categories()...),
			Description: "Product kind, one of the exact values. Phones (not Smartphones), TVs (not Televisions); gaming laptops are " +
				"Laptops, gaming monitors Monitors, gaming headsets Headphones; Gaming holds consoles, controllers and gaming " +
				"accessories; Cables & Chargers holds cables, chargers and power banks. A phone case or screen protector is an " +
				"accessory in the category of the device it fits.",
		},
		search.ParamBrand: {
			Type:        "string",
			MaxLength:   ptr(search.MaxBrandLen),
			Description: "Manufacturer, exact name, case-insensitive. Example: \"Samsung\", \"Apple\", \"Lenovo\".",
		},
		search.ParamMinPrice: {
			Type: "number", Minimum: ptr(0.0),
			Description: "Lowest price in GBP (pounds, a plain number). Example: 200.",
		},
		search.ParamMaxPrice: {
			Type: "number", Minimum: ptr(0.0),
			Description: "Highest price in GBP (pounds, a plain number). Example: \"under £800\" -> 800.",
		},
		search.ParamConstraints: cons,
		search.ParamProductType: {
			Type: "string",
			Enum: enumOf(catalog.TypeProduct, catalog.TypeAccessory),
			Description: "Only devices (product) or only accessories such as cases, screen protectors, straps and " +
				"chargers (accessory); leave it out for both. Use product when the request is for the device itself, " +
				"above all with sort price_asc, which otherwise lists the cheapest accessories of a model line first; " +
				"products then carry product_type even when lite. An extension of the interface.",
		},
		search.ParamSort: {
			Type:    "string",
			Enum:    enumOf(search.SortRelevance, search.SortPriceAsc, search.SortPriceDesc),
			Default: json.RawMessage(`"` + string(search.SortRelevance) + `"`),
			Description: "Order of results: relevance (default), price_asc (cheapest first) or price_desc. With constraints, " +
				"matched products always come before unverified ones.",
		},
		search.ParamLimit: {
			Type: "integer", Minimum: ptr(1.0), Maximum: ptr(float64(search.MaxLimit)),
			Default:     json.RawMessage(strconv.Itoa(search.DefaultLimit)),
			Description: "Number of products to return, 1 to 100 (default 50).",
		},
		search.ParamOffset: {
			Type: "integer", Minimum: ptr(0.0), Maximum: ptr(float64(search.MaxOffset)),
			Default:     json.RawMessage("0"),
			Description: "Number of products to skip, for the next page (e.g. offset 50 with limit 50). Prefer narrowing the search to deep paging.",
		},
		search.ParamLite: {
			Type:    "boolean",
			Default: json.RawMessage(strconv.FormatBool(defaultLite)),
			Description: "true (default): compact products (id, title, brand, price, currency, availability, image_url, " +
				"purchase_url, offer_count, and with constraints constraint_status and the constrained attributes). " +
				"false: full products with specs, all " +
				"attributes with their retailer sources, and every offer.",
		},
	}
	return &jsonschema.Schema{
		Type:                 "object",
		Properties:           props,
		PropertyOrder:        searchArgNames(),
		AdditionalProperties: falseSchema(),
	}
}

// productInputSchema is the input schema of get_product.
func productInputSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			argProductID: {
				Type:      "string",
				MinLength: ptr(1),
				Description: "A product id from search_products results (the id field), or a retailer offer id " +
					"(offers[].id). Example: \"" + exampleProductID + "\".",
			},
		},
		Required:             []string{argProductID},
		AdditionalProperties: falseSchema(),
	}
}

// exampleProductID is the shape of a canonical id, for descriptions.
const exampleProductID = "pk4t2mq7xvbza"

func str(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc}
}

func integer(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Minimum: ptr(0.0), Description: desc}
}

func availabilitySchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "string",
		Enum:        enumOf(catalog.InStock, catalog.LowStock, catalog.OutOfStock),
		Description: "in_stock, low_stock or out_of_stock",
	}
}

func sourcesSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "array",
		Description: "The retailers whose listing titles state this value.",
		Items: &jsonschema.Schema{
			Type:     "object",
			Required: []string{"retailer", "field"},
			Properties: map[string]*jsonschema.Schema{
				"retailer": str("retailer name"),
				"field":    {Type: "string", Enum: enumOf(catalog.FieldTitle), Description: "listing field the value was read from"},
			},
		},
	}
}

func attributeSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"status"},
		Properties: map[string]*jsonschema.Schema{
			"status": {
				Type: "string", Enum: enumOf(catalog.Confirmed, catalog.Inferred, catalog.Conflicting),
				Description: "confirmed: two or more retailers state the value; inferred: one retailer's title states it; " +
					"conflicting: retailers state different values (see values) and none is picked.",
			},
			"value":   {Type: "number", Description: "The value, for confirmed and inferred attributes."},
			"sources": sourcesSchema(),
			"values": {
				Type:        "array",
				Description: "The different values retailers state, only when conflicting.",
				Items: &jsonschema.Schema{
					Type:     "object",
					Required: []string{"value"},
					Properties: map[string]*jsonschema.Schema{
						"value":   {Type: "number"},
						"sources": sourcesSchema(),
					},
				},
			},
		},
		PropertyOrder: []string{"status", "value", "sources", "values"},
	}
}

func offerSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"id", "source", "title", "price", "purchase_url"},
		Properties: map[string]*jsonschema.Schema{
			"id":            str("retailer offer id (get_product accepts it)"),
			"source":        str("retailer name"),
			"title":         str("this retailer's listing title; it shows which configuration this offer is"),
			"price":         {Type: "number", Description: "GBP at this retailer"},
			"currency":      str("GBP"),
			"availability":  availabilitySchema(),
			"stock":         integer("stock count"),
			"delivery_time": str("retailer's delivery estimate"),
			"purchase_url":  str("direct link to buy from this retailer"),
			"image_url":     str("image URL"),
			"last_updated":  {Type: "string", Format: "date-time"},
		},
		PropertyOrder: []string{"id", "source", "title", "price", "currency", "availability", "stock", "delivery_time",
			"purchase_url", "image_url", "last_updated"},
	}
}

// productSchema covers full and lite products alike: only the fields every
// form carries are required.
func productSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"id", "title", "price", "currency", "availability", "purchase_url"},
		Properties: map[string]*jsonschema.Schema{
			"id":            str("canonical product id (pass it to get_product)"),
			"title":         str("listing title"),
			"brand":         str("manufacturer"),
			"price":         {Type: "number", Description: "GBP; the cheapest offer's price"},
			"currency":      str("GBP"),
			"availability":  availabilitySchema(),
			"stock":         integer("stock count of the cheapest offer"),
			"delivery_time": str("delivery estimate of the cheapest offer"),
			"image_url":     str("image URL"),
			"category":      {Type: "string", Enum: enumOf(catalog.Categories()...)},
			"product_type":  {Type: "string", Enum: enumOf(catalog.TypeProduct, catalog.TypeAccessory), Description: "accessory: e.g. a phone case"},
			"specs": {
				Type:        "object",
				Description: "Retailer-supplied details that are not attributes.",
				Properties: map[string]*jsonschema.Schema{
					"description":  str("the retailer's own prose (processor, ports, GPU, battery...); it may describe another configuration or a maximum and never overrides attributes"),
					"model_number": str("model number"),
					"dimensions":   str("dimensions, free text"),
				},
			},
			"attributes": {
				Type:                 "object",
				Description:          "Specs read from retailer titles, by attribute name; a name no retailer states is absent (unknown).",
				AdditionalProperties: attributeSchema(),
			},
			"constraint_status": {
				Type: "object",
				Description: "Per constraint name: matched (a retailer's title states a value that meets it) or unverified " +
					"(not known to meet it; never a match).",
				AdditionalProperties: &jsonschema.Schema{Type: "string", Enum: enumOf(search.StatusMatched, search.StatusUnverified)},
			},
			"provenance": {
				Type:     "object",
				Required: []string{"source", "last_updated"},
				Properties: map[string]*jsonschema.Schema{
					"source":       str("retailer of the canonical price"),
					"last_updated": {Type: "string", Format: "date-time"},
				},
			},
			"purchase_url": str("direct link to buy from the cheapest retailer"),
			"offer_count":  integer("number of retailer offers"),
			"offers": {
				Type:        "array",
				Description: "Every retailer offer, cheapest first.",
				Items:       offerSchema(),
			},
		},
		PropertyOrder: []string{"id", "title", "brand", "price", "currency", "availability", "stock", "delivery_time",
			"image_url", "category", "product_type", "specs", "attributes", "constraint_status", "provenance",
			"purchase_url", "offer_count", "offers"},
	}
}

// searchOutputSchema is the output schema of search_products: the search
// response of GET /api/search, with the attributes of the table.
func searchOutputSchema(attrs *catalog.AttributeTable) *jsonschema.Schema {
	cons := &jsonschema.Schema{
		Type:          "object",
		Description:   "The constraints applied, from the constraints argument or from specs written in query.",
		Properties:    map[string]*jsonschema.Schema{},
		PropertyOrder: attrs.Names(),
	}
	for _, name := range attrs.Names() {
		cons.Properties[name] = &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"eq": {Type: "number"}, "gte": {Type: "number"}, "lte": {Type: "number"},
			},
			PropertyOrder: []string{"eq", "gte", "lte"},
		}
	}
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"products", "total"},
		Properties: map[string]*jsonschema.Schema{
			"products": {Type: "array", Items: productSchema(), Description: "This page of products; with constraints, matched products first."},
			"total": integer("Matching products; may exceed the number returned. With constraints: the products known to " +
				"meet every constraint. 0 means no product is known to meet the requirement."),
			"constraints":             cons,
			"excluded_by_constraints": integer("Products left out because their stated value fails a constraint."),
			"unverified_total":        integer("Products not known to meet every constraint (unknown or conflicting value); never matches."),
			"candidates_truncated": {
				Type: "boolean",
				Description: "Present and true when more than 2,000 candidates existed and only the first were checked: " +
					"add a brand, category or narrower query and search again.",
			},
		},
		PropertyOrder: []string{"products", "total", "constraints", "excluded_by_constraints", "unverified_total", "candidates_truncated"},
	}
}
