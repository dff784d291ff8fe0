package feed

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// xmlDecoder streams the <item> elements of a Google Merchant Center RSS 2.0
// feed (or the <entry> elements of an Atom one), decoding one at a time.
type xmlDecoder struct {
	d   *xml.Decoder
	now time.Time
	row int
}

// newXMLDecoder reads up to the root element, which must be <rss> or <feed>.
func newXMLDecoder(r io.Reader, opt Options) (*xmlDecoder, error) {
	d := xml.NewDecoder(r)
	d.CharsetReader = charsetReader
	// HTML entities such as &pound; and &nbsp; are common in feeds though not
	// XML; the decoder stays strict about everything else.
	d.Entity = xml.HTMLEntity
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("google_xml feed has no root element (empty file?)")
		}
		if err != nil {
			return nil, fmt.Errorf("google_xml: %w", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root := se.Name.Local; root != "rss" && root != "feed" {
				return nil, fmt.Errorf("google_xml root element is <%s>, want <rss> (RSS 2.0) or <feed> (Atom)", root)
			}
			return &xmlDecoder{d: d, now: opt.Now}, nil
		}
	}
}

func (x *xmlDecoder) next() (Record, error) {
	for {
		tok, err := x.d.Token()
		if errors.Is(err, io.EOF) {
			return Record{}, io.EOF
		}
		if err != nil {
			return Record{}, fmt.Errorf("google_xml: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local != "item" && se.Name.Local != "entry" {
			continue
		}
		x.row++
		var it googleItem
		if err := x.d.DecodeElement(&it, &se); err != nil {
			return Record{}, fmt.Errorf("google_xml item %d: %w", x.row, err)
		}
		return it.record(x.row, x.now), nil
	}
}

// UnmarshalXML decodes one <item> or <entry>, matching child elements by
// local name in the Google namespace, in no namespace, or with an undeclared
// "g:" prefix. Unknown children (g:product_detail, g:additional_image_link,
// ...) are skipped.
func (it *googleItem) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if err := it.decodeChild(d, t); err != nil {
				return err
			}
		}
	}
}

func (it *googleItem) decodeChild(d *xml.Decoder, se xml.StartElement) error {
	name := strings.ToLower(se.Name.Local)
	plain := se.Name.Space != googleNS && se.Name.Space != "g"
	switch name {
	case "shipping":
		var s googleShipping
		if err := d.DecodeElement(&s, &se); err != nil {
			return err
		}
		s.clean()
		it.Shipping = append(it.Shipping, s)
		return nil
	case "link":
		// RSS and Google put the URL in the text, Atom in href.
		var l struct {
			Href string `xml:"href,attr"`
			Rel  string `xml:"rel,attr"`
			Text string `xml:",chardata"`
		}
		if err := d.DecodeElement(&l, &se); err != nil {
			return err
		}
		if l.Rel == "" || l.Rel == "alternate" {
			it.set(name, plain, firstOf(strings.TrimSpace(l.Text), l.Href))
		}
		return nil
	}
	dst := it.slot(name, plain)
	if dst == nil {
		return d.Skip()
	}
	var text string
	if err := d.DecodeElement(&text, &se); err != nil {
		return err
	}
	if *dst == "" {
		*dst = field(text)
	}
	return nil
}
