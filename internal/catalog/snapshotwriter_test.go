package catalog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshotWriter writes a snapshot product by product, some as lines
// a RecordEncoder made, and gets the file WriteSnapshot writes.
func TestSnapshotWriter(t *testing.T) {
	dir := t.TempDir()
	s := sampleSnapshot(5)
	s.Products[0].Title = "Black & Decker <Drill>"
	whole := filepath.Join(dir, "whole.snapshot")
	if err := WriteSnapshot(whole, s); err != nil {
		t.Fatal(err)
	}
	parts := filepath.Join(dir, "parts.snapshot")
	w, err := NewSnapshotWriter(parts)
	if err != nil {
		t.Fatal(err)
	}
	enc := NewRecordEncoder()
	for i := range s.Products {
		if i%2 == 0 {
			err = w.Add(&s.Products[i])
		} else {
			var line []byte
			if line, err = enc.Line(&s.Products[i]); err == nil {
				err = w.AddLine(line)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(s.Manifest); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(parts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("written product by product:\n%s\nwant:\n%s", got, want)
	}
	if !bytes.Contains(got, []byte("Black & Decker <Drill>")) {
		t.Error("a record escapes HTML characters")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files beside the snapshots, want none", len(entries)-2)
	}
}

// TestSnapshotWriterAbort starts a snapshot over an existing one and
// abandons it: the old snapshot stays and no temporary file is left.
func TestSnapshotWriterAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "catalog.snapshot")
	if err := WriteSnapshot(path, sampleSnapshot(2)); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewSnapshotWriter(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		p := sampleSnapshot(3).Products[i]
		if err := w.Add(&p); err != nil {
			t.Fatal(err)
		}
	}
	w.Abort()
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the snapshot changed: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want the snapshot alone", len(entries))
	}
}

// TestAppendRecordIsTheLine checks that a product's record is its line of
// the snapshot's body, HTML characters included, without the newline.
func TestAppendRecordIsTheLine(t *testing.T) {
	p := sampleSnapshot(1).Products[0]
	p.Title = "Black & Decker <Drill>"
	line, err := NewRecordEncoder().Line(&p)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := AppendRecord([]byte("x"), &p)
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]byte("x"), bytes.TrimSuffix(line, []byte("\n"))...); !bytes.Equal(rec, want) {
		t.Errorf("record:\n%s\nwant the line:\n%s", rec, want)
	}
}
