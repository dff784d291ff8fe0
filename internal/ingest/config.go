// Package ingest turns retailer feeds into a catalog snapshot: it reads every
// configured feed, normalises and classifies each listing, reads specs from
// titles, groups listings into products, builds the canonical product records
// with stable ids, and publishes the snapshot with a sync report. A feed that
// fails keeps its retailer's offers from the previous snapshot, and a catalog
// that shrinks too far is not published without force.
package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"productsearch/internal/feed"
)

// Defaults of the configuration.
const (
	DefaultLowStockThreshold = 5
	DefaultMaxShrink         = 0.30
)

// Config is the indexer configuration (indexer/retailers.yaml).
type Config struct {
	// LowStockThreshold: stock counts at or below it are low_stock.
	LowStockThreshold *int `yaml:"low_stock_threshold"`
	// MaxShrink: a new catalog with fewer products than (1 - MaxShrink)
	// times the previous one is not published unless forced.
	MaxShrink *float64   `yaml:"max_shrink"`
	Retailers []Retailer `yaml:"retailers"`
}

// Retailer is one retailer and its feed.
type Retailer struct {
	Name        string `yaml:"name"` // display name, the offers' source
	Slug        string `yaml:"slug"` // prefix of offer ids: lower-case letters, digits, hyphens
	feed.Source `yaml:",inline"`
}

var slugPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// Threshold returns the low-stock threshold with its default applied.
func (c Config) Threshold() int {
	if c.LowStockThreshold == nil {
		return DefaultLowStockThreshold
	}
	return *c.LowStockThreshold
}

// Shrink returns the maximum shrink fraction with its default applied.
func (c Config) Shrink() float64 {
	if c.MaxShrink == nil {
		return DefaultMaxShrink
	}
	return *c.MaxShrink
}

// LoadConfig reads and validates a configuration file. Relative feed
// locations are resolved against the file's directory.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("read config: %w", err)
	}
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	for i := range c.Retailers {
		loc := c.Retailers[i].Location
		if loc != "" && !isURL(loc) && !filepath.IsAbs(loc) {
			c.Retailers[i].Location = filepath.Join(dir, loc)
		}
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// Validate checks the configuration and says what to change.
func (c Config) Validate() error {
	var errs []error
	if c.LowStockThreshold != nil && *c.LowStockThreshold < 0 {
		errs = append(errs, errors.New("low_stock_threshold must be 0 or more"))
	}
	if c.MaxShrink != nil && (*c.MaxShrink < 0 || *c.MaxShrink > 1) {
		errs = append(errs, errors.New("max_shrink must be a fraction between 0 and 1, e.g. 0.30"))
	}
	if len(c.Retailers) == 0 {
		errs = append(errs, errors.New("no retailers: add at least one entry under the retailers key"))
	}
	names, slugs := map[string]bool{}, map[string]bool{}
	for i, r := range c.Retailers {
		at := fmt.Sprintf("retailers[%d]", i)
		if strings.TrimSpace(r.Name) == "" {
			errs = append(errs, fmt.Errorf("%s: name is required", at))
		} else if names[r.Name] {
			errs = append(errs, fmt.Errorf("%s: duplicate name %q", at, r.Name))
		}
		names[r.Name] = true
		if !slugPattern.MatchString(r.Slug) {
			errs = append(errs, fmt.Errorf("%s (%s): slug %q must be 1-32 lower-case letters, digits or hyphens", at, r.Name, r.Slug))
		} else if slugs[r.Slug] {
			errs = append(errs, fmt.Errorf("%s (%s): duplicate slug %q", at, r.Name, r.Slug))
		}
		slugs[r.Slug] = true
		if r.Location == "" {
			errs = append(errs, fmt.Errorf("%s (%s): location is required (a file path or an http(s) URL)", at, r.Name))
		}
		if err := r.Source.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("%s (%s): %w", at, r.Name, err))
		}
	}
	for _, ra := range c.Retailers {
		for _, rb := range c.Retailers {
			if a, b := ra.Slug, rb.Slug; strings.HasPrefix(b, a+"-") {
				errs = append(errs, fmt.Errorf("slugs %q and %q: one slug must not be another plus a hyphen, or their offer ids could collide", a, b))
			}
		}
	}
	return errors.Join(errs...)
}

func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https")
}

// redact hides credentials and query strings of a feed URL for reports.
func redact(loc string) string {
	u, err := url.Parse(loc)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return loc
	}
	u.User = nil
	if u.RawQuery != "" {
		u.RawQuery = "…"
	}
	return u.String()
}
