package feed

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
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
// are ASCII, 0xA0 and above are Latin-1; the five bytes the code page leaves
// undefined give U+FFFD.
func cp1252(b byte) rune {
	return defined(charmap.Windows1252.DecodeByte(b))
}

// defined replaces the C1 control characters charmap gives for the five
// undefined Windows-1252 bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) with U+FFFD.
func defined(r rune) rune {
	if r >= 0x80 && r < 0xA0 {
		return utf8.RuneError
	}
	return r
}

// charsetReader converts the single-byte encodings XML feeds declare besides
// UTF-8 (ISO-8859-1, Windows-1252, ASCII) to UTF-8; it is the xml.Decoder's
// CharsetReader.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252", "us-ascii", "ascii":
		return transform.NewReader(input, transform.Chain(charmap.Windows1252.NewDecoder(), runes.Map(defined))), nil
	}
	return nil, fmt.Errorf("XML encoding %q is not supported: use UTF-8, ISO-8859-1 or Windows-1252", label)
}
