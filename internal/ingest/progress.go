package ingest

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress receives the stages of a sync as they advance.
type Progress interface {
	Update(stage string, done, total int)
}

type nopProgress struct{}

func (nopProgress) Update(string, int, int) {}

// NewProgress reports to w: a redrawn bar when w is a terminal, plain lines
// (one per stage start and end) otherwise.
func NewProgress(w io.Writer, terminal bool) Progress {
	if terminal {
		return &barProgress{w: w}
	}
	return &lineProgress{w: w, start: time.Now()}
}

type lineProgress struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	last  string
}

func (p *lineProgress) Update(stage string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if stage == p.last && done < total {
		return
	}
	p.last = stage
	fmt.Fprintf(p.w, "%6.2fs %s %d/%d\n", time.Since(p.start).Seconds(), stage, done, total)
}

type barProgress struct {
	mu sync.Mutex
	w  io.Writer
}

func (p *barProgress) Update(stage string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	const width = 30
	filled := width
	if total > 0 {
		filled = width * done / total
	}
	fmt.Fprintf(p.w, "\r\033[K%-20s [%s%s] %d/%d", stage, strings.Repeat("#", filled), strings.Repeat(" ", width-filled), done, total)
	if done >= total {
		fmt.Fprint(p.w, "\n")
	}
}
