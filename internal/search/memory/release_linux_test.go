package memory

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReleasingReader reads a file through a releasingReader in several
// chunk sizes: the bytes come out unchanged and the file holds no disk
// blocks once read (unless the file system punches no holes).
func TestReleasingReader(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	probe, err := os.Create(filepath.Join(t.TempDir(), "probe"))
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	if err := unix.Fallocate(int(probe.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, 0, 4096); errors.Is(err, unix.EOPNOTSUPP) {
		t.Skip("the file system punches no holes")
	}
	for _, chunk := range []int64{4096, 1 << 18, 1 << 30} {
		path := filepath.Join(t.TempDir(), "products.tmp")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := f.Sync(); err != nil { // the blocks are allocated
			t.Fatal(err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(&releasingReader{f: f, chunk: chunk})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("chunk %d: read %d bytes unlike the %d written", chunk, len(got), len(data))
		}
		var st syscall.Stat_t
		if err := syscall.Stat(path, &st); err != nil {
			t.Fatal(err)
		}
		if st.Size != int64(len(data)) {
			t.Errorf("chunk %d: size %d, want %d kept", chunk, st.Size, len(data))
		}
		if blocks := st.Blocks * 512; blocks > 64<<10 {
			t.Errorf("chunk %d: %d bytes of blocks kept after reading", chunk, blocks)
		}
	}
}
