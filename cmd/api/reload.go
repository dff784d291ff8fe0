package main

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"productsearch/internal/search/memory"
)

// loader is an engine whose catalog can be replaced while it serves:
// LoadFile maps the snapshot's index file, or builds the index in memory,
// then swaps it in atomically.
type loader interface {
	LoadFile(path string) (memory.FileLoad, error)
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

// fileVersion identifies a version of the snapshot file and of its index
// file (zero when there is none).
type fileVersion struct {
	mtime, indexMtime time.Time
	size, indexSize   int64
}

// statVersion stats the snapshot and its index file.
func statVersion(path string) (fileVersion, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileVersion{}, err
	}
	v := fileVersion{mtime: fi.ModTime(), size: fi.Size()}
	if fi, err := os.Stat(memory.IndexPath(path)); err == nil {
		v.indexMtime, v.indexSize = fi.ModTime(), fi.Size()
	}
	return v, nil
}

// indexPending reports whether the index file is older than the snapshot
// that replaced it, and the snapshot recent enough that the indexer is
// likely still writing the new one: the reload then waits for it rather
// than indexing the snapshot in memory. Without an index file, nothing is
// awaited.
func (v fileVersion) indexPending(now time.Time) bool {
	return !v.indexMtime.IsZero() && v.indexMtime.Before(v.mtime) && now.Sub(v.mtime) < indexWait
}

// indexWait is how long after a new snapshot its index file is awaited.
const indexWait = 5 * time.Minute

func newReloader(path string, engine loader, log *slog.Logger, onLoad func(error)) *reloader {
	r := &reloader{path: path, engine: engine, log: log, onLoad: onLoad}
	if v, err := statVersion(path); err == nil {
		r.seen = v
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
	v, err := statVersion(r.path)
	if err != nil {
		if !r.statErr || force {
			r.log.Error("catalog snapshot unreadable; serving the loaded catalog", slog.String("path", r.path), slog.Any("err", err))
		}
		r.statErr = true
		return false
	}
	r.statErr = false
	if !force && (v == r.seen || v.indexPending(time.Now())) {
		return false
	}
	r.seen = v
	start := time.Now()
	// While a new catalog is built in memory beside the one serving, the
	// heap may grow by a quarter of what is live before it is collected,
	// not by as much again: the process peaks near the two catalogs, not
	// twice that. A mapped index file adds little to the heap.
	defer debug.SetGCPercent(debug.SetGCPercent(reloadGCPercent))
	fl, err := r.engine.LoadFile(r.path)
	r.onLoad(err)
	if err != nil {
		r.log.Error("catalog reload failed; serving the loaded catalog", slog.String("path", r.path), slog.Any("err", err))
		return false
	}
	logFileLoad(r.log, r.path, fl)
	releaseMemory()
	r.log.Info("catalog reloaded", slog.String("path", r.path), slog.Int("products", fl.Products),
		slog.Time("sync_time", fl.SyncTime), slog.Duration("took", time.Since(start)))
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
