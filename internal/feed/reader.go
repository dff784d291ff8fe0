package feed

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Defaults of Options.
const (
	DefaultIdleTimeout  = 2 * time.Minute
	DefaultMaxLineBytes = 1 << 20
)

// Options tune reading. The zero value uses the defaults.
type Options struct {
	// HTTP fetches http(s) locations. Nil uses a client with connect, TLS
	// handshake and response-header timeouts.
	HTTP HTTPDoer
	// IdleTimeout aborts an http(s) download that delivers no data for this
	// long (DefaultIdleTimeout when zero). The whole download is bounded only
	// by the context.
	IdleTimeout time.Duration
	// MaxLineBytes is the longest jsonl or TSV line (DefaultMaxLineBytes when
	// zero); a longer line is a RowError with reason line_too_long.
	MaxLineBytes int
	// Now is the time a Google sale_price_effective_date window is checked
	// against (time.Now at Open when zero).
	Now time.Time
}

func (o Options) withDefaults() Options {
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	return o
}

// Reader streams the records of one feed. It is not safe for concurrent use.
type Reader struct {
	ctx    context.Context
	name   string // the file path or the URL without credentials, for errors
	in     *stickyReader
	dec    decoder
	closer func() error
	err    error // sticky: io.EOF or the fatal error
}

// decoder is one format's record stream over the decompressed input.
type decoder interface {
	// next returns the next record, io.EOF, a *RowError or a fatal error.
	next() (Record, error)
}

// Open validates src and opens its feed with the default Options.
func Open(ctx context.Context, src Source) (*Reader, error) {
	return OpenWith(ctx, src, Options{})
}

// OpenWith validates src, opens the file or fetches the URL, detects gzip and
// reads the header. Its errors are fatal for the feed: the source cannot be
// fetched, is not gzip-decodable or has a bad header.
func OpenWith(ctx context.Context, src Source, opt Options) (*Reader, error) {
	if err := src.Validate(); err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	var (
		body io.ReadCloser
		name string
		err  error
	)
	if src.IsURL() {
		name = redactURL(src.Location)
		body, err = fetch(ctx, src, opt)
	} else {
		name = src.Location
		body, err = os.Open(src.Location)
		if err != nil {
			err = fmt.Errorf("open feed: %w", err)
		}
	}
	if err != nil {
		return nil, err
	}
	r, err := newReader(ctx, body, src, opt, name)
	if err != nil {
		body.Close()
		return nil, err
	}
	return r, nil
}

// NewReader reads a feed of src.Format (using src.Fields for jsonl) from rd,
// plain or gzip-compressed; src.Location is ignored. Close does not close rd.
func NewReader(rd io.Reader, src Source) (*Reader, error) {
	src.Location = "input"
	if err := src.Validate(); err != nil {
		return nil, err
	}
	return newReader(context.Background(), io.NopCloser(rd), src, Options{}.withDefaults(), "input")
}

func newReader(ctx context.Context, body io.ReadCloser, src Source, opt Options, name string) (*Reader, error) {
	raw := bufio.NewReaderSize(body, 64<<10)
	magic, peekErr := raw.Peek(2)
	if peekErr != nil && !errors.Is(peekErr, io.EOF) {
		return nil, fmt.Errorf("read %s: %w", name, peekErr)
	}
	var (
		in      io.Reader = raw
		closeGz func() error
	)
	if bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(raw)
		if err != nil {
			return nil, fmt.Errorf("read %s: not gzip-decodable: %w", name, err)
		}
		in, closeGz = gz, gz.Close
	}
	sticky := &stickyReader{r: in}
	text := bufio.NewReaderSize(sticky, 64<<10)
	if bom, _ := text.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		if _, err := text.Discard(3); err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
	}
	var (
		dec decoder
		err error
	)
	switch src.Format {
	case FormatAwinCSV:
		dec, err = newAwinDecoder(text)
	case FormatGoogleTSV:
		dec, err = newTSVDecoder(text, opt)
	case FormatGoogleXML:
		dec, err = newXMLDecoder(text, opt)
	case FormatJSONL:
		dec = newJSONLDecoder(text, src.Fields, opt)
	}
	if err != nil {
		if sticky.err != nil {
			err = sticky.err
		}
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return &Reader{
		ctx:  ctx,
		name: name,
		in:   sticky,
		dec:  dec,
		closer: func() error {
			var gzErr error
			if closeGz != nil {
				gzErr = closeGz()
			}
			return errors.Join(gzErr, body.Close())
		},
	}, nil
}

// Next returns the next record. At the end of the feed it returns io.EOF. A
// malformed row yields a *RowError: count it and call Next again. Any other
// error is fatal for the feed (a truncated gzip stream, broken XML, a failed
// download, a cancelled context) and is returned again by later calls.
func (r *Reader) Next() (Record, error) {
	if r.err != nil {
		return Record{}, r.err
	}
	if err := r.ctx.Err(); err != nil {
		r.err = fmt.Errorf("read %s: %w", r.name, context.Cause(r.ctx))
		return Record{}, r.err
	}
	rec, err := r.dec.next()
	if err == nil {
		return rec, nil
	}
	if r.in.err != nil {
		// The input failed under the decoder: whatever it made of the
		// broken bytes, the feed cannot be read further.
		r.err = fmt.Errorf("read %s: %w", r.name, r.in.err)
		return Record{}, r.err
	}
	var rowErr *RowError
	if errors.As(err, &rowErr) {
		return Record{}, err
	}
	if errors.Is(err, io.EOF) {
		r.err = io.EOF
	} else {
		r.err = fmt.Errorf("read %s: %w", r.name, err)
	}
	return Record{}, r.err
}

// Close releases the file or the HTTP connection.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	err := r.closer()
	r.closer = nil
	if r.err == nil {
		r.err = errors.New("feed reader closed")
	}
	if err != nil {
		return fmt.Errorf("close %s: %w", r.name, err)
	}
	return nil
}

// stickyReader remembers the first error other than io.EOF of the input, so
// that a decoder error caused by broken input is reported as fatal.
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		s.err = err
	}
	return n, err
}

// lineReader reads lines of at most max bytes without holding longer ones in
// memory.
type lineReader struct {
	br  *bufio.Reader
	max int
	buf []byte
}

// next returns the next line without its line end ("\n" or "\r\n"). A line
// longer than max is skipped and reported with tooLong. err is io.EOF after
// the last line, or the input's error.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.br.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max+2 { // room for the line end
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, false, err
		case errors.Is(err, io.EOF) && len(l.buf) == 0 && !tooLong:
			return nil, false, io.EOF
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(l.buf, []byte("\n")), []byte("\r"))
		if !tooLong && len(line) > l.max {
			tooLong = true
		}
		if tooLong {
			return nil, true, nil
		}
		return line, false, nil
	}
}
