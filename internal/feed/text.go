package feed

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// field cleans one raw value: surrounding white space trimmed, and bytes
// that are not UTF-8 read as Windows-1252 (the encoding of many spreadsheet
// exports, where "£" is the single byte 0xA3).
func field(s string) string {
	s = strings.TrimSpace(s)
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			r = cp1252(s[i])
		}
		b.WriteRune(r)
		i += n
	}
	return strings.TrimSpace(b.String())
}

// cp1252 returns the character of one Windows-1252 byte. Bytes below 0x80
// are ASCII, 0xA0 and above are Latin-1; the five undefined bytes give
// U+FFFD.
func cp1252(b byte) rune {
	if b < 0x80 || b >= 0xA0 {
		return rune(b)
	}
	switch b {
	case 0x80:
		return '€'
	case 0x82:
		return '‚'
	case 0x83:
		return 'ƒ'
	case 0x84:
		return '„'
	case 0x85:
		return '…'
	case 0x86:
		return '†'
	case 0x87:
		return '‡'
	case 0x88:
		return 'ˆ'
	case 0x89:
		return '‰'
	case 0x8A:
		return 'Š'
	case 0x8B:
		return '‹'
	case 0x8C:
		return 'Œ'
	case 0x8E:
		return 'Ž'
	case 0x91:
		return '‘'
	case 0x92:
		return '’'
	case 0x93:
		return '“'
	case 0x94:
		return '”'
	case 0x95:
		return '•'
	case 0x96:
		return '–'
	case 0x97:
		return '—'
	case 0x98:
		return '˜'
	case 0x99:
		return '™'
	case 0x9A:
		return 'š'
	case 0x9B:
		return '›'
	case 0x9C:
		return 'œ'
	case 0x9E:
		return 'ž'
	case 0x9F:
		return 'Ÿ'
	}
	return utf8.RuneError
}

// charsetReader converts the single-byte encodings XML feeds declare besides
// UTF-8 (ISO-8859-1, Windows-1252, ASCII) to UTF-8; it is the xml.Decoder's
// CharsetReader.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252", "us-ascii", "ascii":
		return &cp1252Reader{r: bufio.NewReader(input)}, nil
	}
	return nil, fmt.Errorf("XML encoding %q is not supported: use UTF-8, ISO-8859-1 or Windows-1252", label)
}

// cp1252Reader decodes Windows-1252 into UTF-8.
type cp1252Reader struct {
	r       *bufio.Reader
	pending []byte // encoded bytes of a character that did not fit into p
}

func (c *cp1252Reader) Read(p []byte) (int, error) {
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	var buf [utf8.UTFMax]byte
	for n < len(p) {
		b, err := c.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if b < 0x80 {
			p[n] = b
			n++
			continue
		}
		enc := buf[:utf8.EncodeRune(buf[:], cp1252(b))]
		k := copy(p[n:], enc)
		n += k
		if k < len(enc) {
			c.pending = append(c.pending[:0], enc[k:]...)
		}
	}
	return n, nil
}
