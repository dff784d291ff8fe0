package demo

import (
	"embed"
	"io/fs"
)

// dataFiles holds the generator's product tables: catalog.yaml, shops.yaml,
// titles.yaml and products/*.yaml. They are embedded into the binary, so
// generating the demo needs nothing on disk.
//
//go:embed data
var dataFiles embed.FS

// tables returns the embedded data files rooted at internal/demo/data.
func tables() fs.FS {
	sub, err := fs.Sub(dataFiles, "data")
	if err != nil {
		// fs.Sub fails only for an invalid path, and "data" is valid.
		panic("demo: embedded data: " + err.Error())
	}
	return sub
}
