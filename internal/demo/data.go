package demo

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"productsearch/internal/catalog"
)

// Axes are the dimensions a model line varies along. Every distinct
// combination of axis values is one product. The order matters: an option
// may override the values of any later axis (a model sets its own screen
// sizes, a colour its own bands).
const (
	axModel = iota
	axScreen
	axCPU
	axGPU
	axRAM
	axStorage
	axRes
	axHz
	axWatt
	axWifi
	axConn
	axColour
	axVariant
	axSize
	axFit
	numAxes
)

var axisNames = [numAxes]string{
	"model", "screen", "cpu", "gpu", "ram", "storage", "res", "hz", "watt",
	"wifi", "conn", "colour", "variant", "size", "fit",
}

func axisIndex(name string) int {
	for i, n := range axisNames {
		if n == name {
			return i
		}
	}
	return -1
}

// Attribute indexes, in the order of catalog.AttributeNames.
const (
	atMemory = iota
	atStorage
	atScreen
	atRes
	atHz
	atPower
	atWifi
	numAttrs
)

// attrNames are the catalog attribute names by attribute index, in the
// default table's order (a test holds them to it).
var attrNames = [numAttrs]string{
	catalog.MemoryGB, catalog.StorageGB, catalog.ScreenIn, catalog.ResolutionP,
	catalog.RefreshHz, catalog.PowerW, catalog.WifiGen,
}

// axisAttr maps an axis to the attribute its values state, or -1.
var axisAttr = [numAxes]int{
	axModel: -1, axScreen: atScreen, axCPU: -1, axGPU: -1, axRAM: atMemory,
	axStorage: atStorage, axRes: atRes, axHz: atHz, axWatt: atPower,
	axWifi: atWifi, axConn: -1, axVariant: -1, axSize: -1, axFit: -1, axColour: -1,
}

// option is one value of an axis with its effect on the price, written in
// the data files either as a string ("16 +80", "Midnight", "55 =1399") or as
// a mapping ({v: "S27CG552", price: 229, screen: 27, res: 1440}).
type option struct {
	Value string
	Op    byte    // 0, '+', '-', '*' or '=' (replace the price so far)
	Num   float64 // operand of Op
	MPN   string  // replaces the line's model-number pattern
	Noun  *string // replaces the line's noun when set (possibly with "")
	Short *string // replaces the line's short noun when set
	Over  map[int]axis
}

// axis is the list of options of one axis.
type axis []option

// parseOption reads the string form of an option: a value optionally
// followed by one price operand token ("+80", "-30", "*1.1", "=499").
func parseOption(s string) (option, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return option{}, errors.New("empty option")
	}
	o := option{Value: s}
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		tok := s[i+1:]
		if len(tok) > 1 && strings.ContainsRune("+-*=", rune(tok[0])) {
			n, err := strconv.ParseFloat(tok[1:], 64)
			if err != nil {
				return option{}, fmt.Errorf("option %q: price operand %q is not a number", s, tok)
			}
			o.Value, o.Op, o.Num = strings.TrimSpace(s[:i]), tok[0], n
		}
	}
	return o, nil
}

func (o *option) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		p, err := parseOption(n.Value)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		*o = p
		return nil
	case yaml.MappingNode:
		*o = option{}
		hasV := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			var err error
			switch k {
			case "v":
				o.Value, hasV = v.Value, true
			case "price":
				o.Op = '='
				o.Num, err = strconv.ParseFloat(v.Value, 64)
			case "add":
				o.Op = '+'
				o.Num, err = strconv.ParseFloat(v.Value, 64)
			case "mpn":
				o.MPN = v.Value
			case "noun":
				o.Noun = &v.Value
			case "short":
				o.Short = &v.Value
			default:
				ax := axisIndex(k)
				if ax < 0 {
					return fmt.Errorf("line %d: unknown option key %q", v.Line, k)
				}
				var a axis
				if err := v.Decode(&a); err != nil {
					return err
				}
				if o.Over == nil {
					o.Over = map[int]axis{}
				}
				o.Over[ax] = a
			}
			if err != nil {
				return fmt.Errorf("line %d: option key %s: %w", v.Line, k, err)
			}
		}
		if !hasV {
			return fmt.Errorf("line %d: option has no value (v)", n.Line)
		}
		return nil
	}
	return fmt.Errorf("line %d: an option is a string or a mapping", n.Line)
}

func (a *axis) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode, yaml.MappingNode:
		var o option
		if err := n.Decode(&o); err != nil {
			return err
		}
		*a = axis{o}
		return nil
	case yaml.SequenceNode:
		out := make(axis, 0, len(n.Content))
		for _, c := range n.Content {
			var o option
			if err := c.Decode(&o); err != nil {
				return err
			}
			out = append(out, o)
		}
		*a = out
		return nil
	}
	return fmt.Errorf("line %d: an axis is a value or a list of values", n.Line)
}

// line is one model line of the data files: a brand's product family and
// the axes its products vary along.
type line struct {
	ID     string
	Brand  string
	Name   string  // the line name as retailers write it ("IdeaPad Slim 5")
	Kind   string  // title family (titles.yaml)
	Dept   string  // department (catalog.yaml)
	Noun   string  // what the product is ("Laptop", "Wireless Headphones")
	Short  string  // terse noun for terse titles
	Price  float64 // base price in GBP
	MPN    string  // model-number pattern
	Offers float64 // popularity: scales how many retailers list it
	Axes   [numAxes]axis
	Skip   []map[string]string
	file   string
}

func (l *line) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: a model line is a mapping", n.Line)
	}
	*l = line{Offers: 1}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		var err error
		switch k {
		case "id":
			l.ID = v.Value
		case "brand":
			l.Brand = v.Value
		case "line":
			l.Name = v.Value
		case "kind":
			l.Kind = v.Value
		case "dept":
			l.Dept = v.Value
		case "noun":
			l.Noun = v.Value
		case "short":
			l.Short = v.Value
		case "price":
			l.Price, err = strconv.ParseFloat(v.Value, 64)
		case "mpn":
			l.MPN = v.Value
		case "offers":
			l.Offers, err = strconv.ParseFloat(v.Value, 64)
		case "skip":
			err = v.Decode(&l.Skip)
		default:
			ax := axisIndex(k)
			if ax < 0 {
				return fmt.Errorf("line %d: unknown model-line key %q", v.Line, k)
			}
			err = v.Decode(&l.Axes[ax])
		}
		if err != nil {
			return fmt.Errorf("line %d: key %s: %w", v.Line, k, err)
		}
	}
	return nil
}

// department is a shelf of the catalog: its category, product type, Google
// taxonomy id and the paths retailers file it under.
type department struct {
	Category string  `yaml:"category"`
	Type     string  `yaml:"type"`
	Google   int     `yaml:"google"`
	GPath    string  `yaml:"gpath"`
	Path     string  `yaml:"path"`
	Alt      string  `yaml:"alt"`
	Dims     string  `yaml:"dims"`
	Refurb   bool    `yaml:"refurb"` // sold refurbished too
	Offers   float64 `yaml:"offers"` // popularity multiplier, default 1
}

// catalogFile is catalog.yaml.
type catalogFile struct {
	Departments map[string]*department `yaml:"departments"`
	Lists       map[string]axis        `yaml:"lists"`
	Brands      map[string]string      `yaml:"brand_aliases"`
}

// kindTitles is one title family of titles.yaml: per-retailer title
// templates, Kestrel's taglines and description templates.
type kindTitles struct {
	Titles map[string][]string `yaml:",inline"`
	Tags   []string            `yaml:"tags"`
	Desc   []string            `yaml:"desc"`
}

// style is how a retailer writes specs in titles.
type style struct {
	GB   string            `yaml:"gb"`   // after a GB number: "GB" or " GB"
	TB   string            `yaml:"tb"`   // after a TB number
	Inch string            `yaml:"inch"` // after a screen size: `"`, " inch", "in"
	Hz   string            `yaml:"hz"`
	Watt string            `yaml:"watt"`
	Res  map[int]string    `yaml:"res"`
	Wifi map[string]string `yaml:"wifi"`
}

// shop is one retailer's profile from shops.yaml.
type shop struct {
	Name     string             `yaml:"name"`
	Slug     string             `yaml:"slug"`
	Format   string             `yaml:"format"`
	Gzip     bool               `yaml:"gzip"`
	Domain   string             `yaml:"domain"`
	Link     string             `yaml:"link"`   // product URL pattern with {id} and {slug}
	IDFormat string             `yaml:"id"`     // merchant id pattern with {n:width}
	Reach    float64            `yaml:"reach"`  // how likely it lists a product
	Favour   map[string]float64 `yaml:"favour"` // category multipliers of Reach
	Bias     float64            `yaml:"bias"`   // price bias, fraction of the base price
	Endings  []string           `yaml:"endings"`
	Delivery []string           `yaml:"delivery"`
	NoStock  string             `yaml:"no_stock"`      // delivery text when out of stock
	Counts   float64            `yaml:"counts"`        // share of rows that give a stock count
	OutShare float64            `yaml:"out"`           // share of rows out of stock
	LowShare float64            `yaml:"low"`           // share of rows with 1-5 in stock
	Sale     float64            `yaml:"sale"`          // share of rows with a was/sale price
	GTIN     string             `yaml:"gtin"`          // ean13 | gtin14 | none
	NoGTIN   float64            `yaml:"no_gtin"`       // share of rows without a GTIN
	NoMPN    float64            `yaml:"no_mpn"`        // share of rows without an MPN
	Paths    string             `yaml:"paths"`         // path | gpath | alt
	Brands   bool               `yaml:"brand_aliases"` // writes some brands its own way
	// SimpleColour writes basic colour words ("Grey" for "Cloud Grey").
	SimpleColour bool               `yaml:"simple_colour"`
	Dups         float64            `yaml:"dups"` // share of rows listed twice
	Rejects      map[string]float64 `yaml:"rejects"`
	MinReject    map[string]int     `yaml:"min_rejects"`
	Style        style              `yaml:"style"`
	Desc         string             `yaml:"desc"` // full | short | marketing
}

// data is every data file, decoded, checked and cross-referenced.
type data struct {
	catalogFile
	Kinds map[string]*kindTitles
	Shops []*shop
	Lines []*line
	// brandCode numbers the brands in order of first appearance; it prefixes
	// their GTINs.
	brandCode map[string]int
}

// The four feed formats.
const (
	fmtAwinCSV   = "awin_csv"
	fmtGoogleXML = "google_xml"
	fmtGoogleTSV = "google_tsv"
	fmtJSONL     = "jsonl"
)

// loadData reads and checks the data files.
func loadData(fsys fs.FS) (*data, error) {
	d := &data{Kinds: map[string]*kindTitles{}, brandCode: map[string]int{}}
	if err := decodeFile(fsys, "catalog.yaml", &d.catalogFile); err != nil {
		return nil, err
	}
	if err := decodeFile(fsys, "titles.yaml", &d.Kinds); err != nil {
		return nil, err
	}
	var shops struct {
		Shops []*shop `yaml:"shops"`
	}
	if err := decodeFile(fsys, "shops.yaml", &shops); err != nil {
		return nil, err
	}
	d.Shops = shops.Shops
	files, err := fs.Glob(fsys, "products/*.yaml")
	if err != nil {
		return nil, fmt.Errorf("demo data: %w", err)
	}
	if len(files) == 0 {
		return nil, errors.New("demo data: no products/*.yaml files")
	}
	slices.Sort(files)
	for _, f := range files {
		var pf struct {
			Lines []*line `yaml:"lines"`
		}
		if err := decodeFile(fsys, f, &pf); err != nil {
			return nil, err
		}
		for _, l := range pf.Lines {
			l.file = path.Base(f)
		}
		d.Lines = append(d.Lines, pf.Lines...)
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	return d, nil
}

func decodeFile(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("demo data: %w", err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		return fmt.Errorf("demo data %s: %w", name, err)
	}
	return nil
}

// check validates the data files and resolves list references ("@iphones").
// Problems are reported in a stable order.
func (d *data) check() error {
	var errs []error
	for _, name := range sortedKeys(d.Departments) {
		dep := d.Departments[name]
		if !catalog.IsCategory(dep.Category) {
			errs = append(errs, fmt.Errorf("department %s: category %q is not one of the 19", name, dep.Category))
		}
		if dep.Type != string(catalog.TypeProduct) && dep.Type != string(catalog.TypeAccessory) {
			errs = append(errs, fmt.Errorf("department %s: type %q is not product or accessory", name, dep.Type))
		}
		if dep.Path == "" || dep.GPath == "" || dep.Google == 0 {
			errs = append(errs, fmt.Errorf("department %s: path, gpath and google are required", name))
		}
		if dep.Offers == 0 {
			dep.Offers = 1
		}
		if dep.Dims != "" {
			if _, err := parseDims(dep.Dims); err != nil {
				errs = append(errs, fmt.Errorf("department %s: %w", name, err))
			}
		}
	}
	errs = append(errs, d.checkShops()...)
	for _, name := range sortedKeys(d.Kinds) {
		k := d.Kinds[name]
		for _, slug := range sortedKeys(k.Titles) {
			if !slices.ContainsFunc(d.Shops, func(s *shop) bool { return s.Slug == slug }) {
				errs = append(errs, fmt.Errorf("titles %s: %s is not a retailer", name, slug))
			}
		}
		for _, s := range d.Shops {
			if len(k.Titles[s.Slug]) == 0 {
				errs = append(errs, fmt.Errorf("titles %s: no template for %s", name, s.Slug))
			}
			for _, t := range k.Titles[s.Slug] {
				if _, err := parseTemplate(t); err != nil {
					errs = append(errs, fmt.Errorf("titles %s.%s: %w", name, s.Slug, err))
				}
			}
		}
		for _, t := range k.Desc {
			if _, err := parseTemplate(t); err != nil {
				errs = append(errs, fmt.Errorf("titles %s: %w", name, err))
			}
		}
		if len(k.Tags) == 0 || len(k.Desc) == 0 {
			errs = append(errs, fmt.Errorf("titles %s: tags and desc are required", name))
		}
	}
	ids := map[string]bool{}
	for _, l := range d.Lines {
		where := fmt.Sprintf("%s: line %s", l.file, l.ID)
		switch {
		case l.ID == "" || l.Brand == "" || l.Kind == "" || l.Dept == "":
			errs = append(errs, fmt.Errorf("%s: id, brand, kind and dept are required", where))
			continue
		case ids[l.ID]:
			errs = append(errs, fmt.Errorf("%s: duplicate id", where))
		case d.Departments[l.Dept] == nil:
			errs = append(errs, fmt.Errorf("%s: unknown dept %q", where, l.Dept))
		case d.Kinds[l.Kind] == nil:
			errs = append(errs, fmt.Errorf("%s: unknown kind %q", where, l.Kind))
		case l.MPN == "":
			errs = append(errs, fmt.Errorf("%s: mpn pattern is required", where))
		}
		ids[l.ID] = true
		if _, ok := d.brandCode[l.Brand]; !ok {
			d.brandCode[l.Brand] = len(d.brandCode)
		}
		for ax := range l.Axes {
			a, err := d.resolve(l.Axes[ax])
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %w", where, axisNames[ax], err))
			}
			l.Axes[ax] = a
		}
		for _, sk := range l.Skip {
			for k := range sk {
				if axisIndex(k) < 0 {
					errs = append(errs, fmt.Errorf("%s: skip names unknown axis %q", where, k))
				}
			}
		}
	}
	if len(d.brandCode) > 9999 {
		errs = append(errs, errors.New("more than 9,999 brands"))
	}
	return errors.Join(errs...)
}

// checkShops validates the retailer profiles.
func (d *data) checkShops() []error {
	var errs []error
	if len(d.Shops) != 7 {
		errs = append(errs, fmt.Errorf("shops.yaml: want 7 retailers, have %d", len(d.Shops)))
	}
	share := func(s *shop, name string, v float64) {
		if v < 0 || v > 1 {
			errs = append(errs, fmt.Errorf("shop %s: %s %v is not a share between 0 and 1", s.Slug, name, v))
		}
	}
	slugs := map[string]bool{}
	for _, s := range d.Shops {
		if s.Name == "" || s.Slug == "" || slugs[s.Slug] {
			errs = append(errs, fmt.Errorf("shop %q: a unique name and slug are required", s.Slug))
		}
		slugs[s.Slug] = true
		if !slices.Contains([]string{fmtAwinCSV, fmtGoogleXML, fmtGoogleTSV, fmtJSONL}, s.Format) {
			errs = append(errs, fmt.Errorf("shop %s: unknown format %q", s.Slug, s.Format))
		}
		if len(s.Endings) == 0 || len(s.Delivery) == 0 {
			errs = append(errs, fmt.Errorf("shop %s: endings and delivery are required", s.Slug))
		}
		if !strings.Contains(s.Link, "{id}") || !strings.HasPrefix(s.Link, "https://") {
			errs = append(errs, fmt.Errorf("shop %s: link %q must be an https URL pattern with {id}", s.Slug, s.Link))
		}
		if !strings.Contains(s.IDFormat, "{n:") {
			errs = append(errs, fmt.Errorf("shop %s: id %q must hold a {n:width} number", s.Slug, s.IDFormat))
		}
		if !slices.Contains([]string{"path", "gpath", "alt"}, s.Paths) {
			errs = append(errs, fmt.Errorf("shop %s: paths %q is not path, gpath or alt", s.Slug, s.Paths))
		}
		if !slices.Contains([]string{"ean13", "gtin14", "none"}, s.GTIN) {
			errs = append(errs, fmt.Errorf("shop %s: gtin %q is not ean13, gtin14 or none", s.Slug, s.GTIN))
		}
		if !slices.Contains([]string{"full", "short", "none"}, s.Desc) {
			errs = append(errs, fmt.Errorf("shop %s: desc %q is not full, short or none", s.Slug, s.Desc))
		}
		if s.Reach <= 0 {
			errs = append(errs, fmt.Errorf("shop %s: reach must be positive", s.Slug))
		}
		share(s, "counts", s.Counts)
		share(s, "out", s.OutShare)
		share(s, "low", s.LowShare)
		share(s, "sale", s.Sale)
		share(s, "no_gtin", s.NoGTIN)
		share(s, "no_mpn", s.NoMPN)
		share(s, "dups", s.Dups)
		for _, reason := range sortedKeys(s.Rejects) {
			if !slices.Contains(rejectReasons[:], reason) {
				errs = append(errs, fmt.Errorf("shop %s: unknown reject reason %q", s.Slug, reason))
			}
			share(s, "rejects."+reason, s.Rejects[reason])
		}
		if s.Format == fmtGoogleXML && (s.Rejects[RejectMalformed] > 0 || s.MinReject[RejectMalformed] > 0) {
			errs = append(errs, fmt.Errorf("shop %s: a google_xml feed carries no malformed rows (the document must stay well-formed)", s.Slug))
		}
	}
	return errs
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// resolve expands list references ("@iphones") in an axis and in the
// overrides of its options.
func (d *data) resolve(a axis) (axis, error) { return d.resolveDepth(a, 0) }

func (d *data) resolveDepth(a axis, depth int) (axis, error) {
	var out axis
	for _, o := range a {
		if name, ok := strings.CutPrefix(o.Value, "@"); ok && o.Op == 0 && o.Over == nil {
			list, found := d.Lists[name]
			if !found {
				return nil, fmt.Errorf("unknown list @%s", name)
			}
			if depth > 4 {
				return nil, fmt.Errorf("list @%s: references nest too deep", name)
			}
			sub, err := d.resolveDepth(list, depth+1)
			if err != nil {
				return nil, fmt.Errorf("list @%s: %w", name, err)
			}
			out = append(out, sub...)
			continue
		}
		for oax, over := range o.Over {
			r, err := d.resolveDepth(over, depth)
			if err != nil {
				return nil, err
			}
			o.Over[oax] = r
		}
		out = append(out, o)
	}
	return out, nil
}

// attrValue reads the number an attribute axis value states: "16" is 16;
// a name the attribute table gives a value after the attribute's prefix
// word is that value ("6E" is Wi-Fi 6E, 6.5).
func attrValue(attr int, v string) (float64, error) {
	if d := catalog.DefaultAttributes().Lookup(attrNames[attr]); d != nil {
		for _, nv := range d.Query.Names {
			if strings.EqualFold(nv.Name, v) {
				return nv.Value, nil
			}
		}
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("%s value %q is not a positive number", attrNames[attr], v)
	}
	return f, nil
}
