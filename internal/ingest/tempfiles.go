package ingest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"productsearch/internal/catalog"
)

// staleTempAge is how long a temporary snapshot file must have gone
// unmodified before a sync removes it. A write in progress touches its
// files every few seconds; one left this long belongs to a sync that was
// killed or crashed.
const staleTempAge = 10 * time.Minute

// removeStaleTemps removes the temporary files that writing a snapshot at
// out creates (catalog.TempPattern: out's name, a dot, random digits,
// ".tmp", beside it) and that nothing has modified for staleAge. It
// returns how many files and bytes it removed; a file it cannot remove is
// left, and named in the error.
func removeStaleTemps(out string, now time.Time, staleAge time.Duration) (files int, size int64, err error) {
	dir := filepath.Dir(out)
	prefix, suffix, _ := strings.Cut(catalog.TempPattern(out), "*")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("look for stale temporary snapshots: %w", err)
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !isTempName(name, prefix, suffix) {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < staleAge {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			errs = append(errs, err)
			continue
		}
		files++
		size += fi.Size()
	}
	if err := errors.Join(errs...); err != nil {
		return files, size, fmt.Errorf("remove stale temporary snapshots: %w", err)
	}
	return files, size, nil
}

// isTempName reports whether name is prefix, one or more digits (what
// os.CreateTemp puts in place of "*"), then suffix.
func isTempName(name, prefix, suffix string) bool {
	mid, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	mid, ok = strings.CutSuffix(mid, suffix)
	if !ok || mid == "" {
		return false
	}
	for _, c := range mid {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
