// Package indexer carries the data files of the demo feed generator: the
// tables of brands, model lines, configurations, price ranges, colours,
// retailer title styles and category paths that internal/demo turns into
// seven retailers' product feeds. The files live in indexer/demo and are
// embedded into the binary, so generating the demo needs nothing on disk.
package indexer

import (
	"embed"
	"io/fs"
)

//go:embed demo
var demoFiles embed.FS

// DemoData returns the demo generator's data files, rooted at indexer/demo:
// catalog.yaml, shops.yaml, titles.yaml and products/*.yaml.
func DemoData() fs.FS {
	sub, err := fs.Sub(demoFiles, "demo")
	if err != nil {
		// fs.Sub fails only for an invalid path, and "demo" is valid.
		panic("indexer: embedded demo data: " + err.Error())
	}
	return sub
}
