package main

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"productsearch/internal/catalog"
)

// loader is an engine whose catalog can be replaced while it serves: Load
// builds the new index completely, then swaps it in atomically.
type loader interface {
	Load(s *catalog.Snapshot) error
}

// reloader watches a snapshot file and loads every new version into an
// engine. A version that fails to read or load is logged and skipped; the
// engine keeps serving the catalog it has.
type reloader struct {
	path    string
	engine  loader
	log     *slog.Logger
	onLoad  func(error)
	seen    fileVersion // the version last loaded or rejected
	statErr bool        // a stat failure was logged and not yet cleared
}

// fileVersion identifies a version of the snapshot file.
type fileVersion struct {
	mtime time.Time
	size  int64
}

func newReloader(path string, engine loader, log *slog.Logger, onLoad func(error)) *reloader {
	r := &reloader{path: path, engine: engine, log: log, onLoad: onLoad}
	if fi, err := os.Stat(path); err == nil {
		r.seen = fileVersion{fi.ModTime(), fi.Size()}
	}
	return r
}

// run polls the file every interval (never when interval is 0) and reloads
// unconditionally on every receive from hup, until ctx is done.
func (r *reloader) run(ctx context.Context, interval time.Duration, hup <-chan struct{}) {
	var tick <-chan time.Time
	if interval > 0 {
		t := time.NewTicker(interval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			r.check(false)
		case <-hup:
			r.log.Info("reload requested", slog.String("path", r.path))
			r.check(true)
		}
	}
}

// check loads the file when it changed since the version last seen, or
// when force is set. It reports whether a new catalog was loaded.
func (r *reloader) check(force bool) bool {
	fi, err := os.Stat(r.path)
	if err != nil {
		if !r.statErr || force {
			r.log.Error("catalog snapshot unreadable; serving the loaded catalog", slog.String("path", r.path), slog.Any("err", err))
		}
		r.statErr = true
		return false
	}
	r.statErr = false
	v := fileVersion{fi.ModTime(), fi.Size()}
	if !force && v == r.seen {
		return false
	}
	r.seen = v
	start := time.Now()
	// While the new catalog is built beside the one serving, the heap may
	// grow by a quarter of what is live before it is collected, not by as
	// much again: the process peaks near the two catalogs, not twice that.
	defer debug.SetGCPercent(debug.SetGCPercent(reloadGCPercent))
	snap, err := catalog.ReadSnapshot(r.path)
	if err == nil {
		err = r.engine.Load(snap)
	}
	r.onLoad(err)
	if err != nil {
		r.log.Error("catalog reload failed; serving the loaded catalog", slog.String("path", r.path), slog.Any("err", err))
		return false
	}
	products, sync := len(snap.Products), snap.Manifest.SyncTime
	releaseMemory()
	r.log.Info("catalog reloaded", slog.String("path", r.path), slog.Int("products", products),
		slog.Time("sync_time", sync), slog.Duration("took", time.Since(start)))
	return true
}

// reloadGCPercent is the garbage collector's target percentage while a
// catalog loads (GOGC; the default is 100).
const reloadGCPercent = 25

// releaseMemory hands back to the operating system the memory a catalog
// load left free: the catalog it replaced, the decoded snapshot and the
// buffers of building the index. The garbage collector frees them but the
// runtime returns freed pages slowly, so without it the process would stay
// at its peak, twice its size, long after every reload.
func releaseMemory() { debug.FreeOSMemory() }
