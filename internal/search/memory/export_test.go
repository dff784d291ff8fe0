package memory

import (
	"encoding/binary"
	"hash/crc32"
	"testing"

	"productsearch/internal/catalog"
)

// Reseal recomputes the checksums of an index file's bytes, so that a
// test can reach the checks behind them.
func Reseal(b []byte) {
	start := int(dataStart())
	if len(b) < start {
		return
	}
	binary.LittleEndian.PutUint32(b[16:], crc32.Checksum(b[headerSize:headerSize+entrySize*numSections], castagnoli))
	binary.LittleEndian.PutUint32(b[20:], crc32.Checksum(b[start:], castagnoli))
}

// OnUnmap sets the function called when an index file is unmapped.
func OnUnmap(opt *Options, fn func()) { opt.unmapped = fn }

// ExtendedTable is the default attributes and one more.
func ExtendedTable(t *testing.T) *catalog.AttributeTable { return extendedTable(t, 0) }

// WriteIndexInRuns is WriteIndex reading runs of batch products.
func WriteIndexInRuns(path string, opt Options, batch int) error { return writeIndex(path, opt, batch) }
