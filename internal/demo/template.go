package demo

import (
	"errors"
	"fmt"
	"strings"
)

// A title template is literal text with {placeholder} and {placeholder:mod}
// fields and [optional groups]. A group is written only when every
// placeholder directly inside it has a value; nested groups decide for
// themselves. Text outside groups is always written, so an empty placeholder
// there leaves nothing behind (runs of spaces are collapsed afterwards).
type segment struct {
	lit   string
	name  string // placeholder name; empty for literals and groups
	mod   string
	group []segment
	isGrp bool
}

type template []segment

// parseTemplate parses a title or description template.
func parseTemplate(s string) (template, error) {
	segs, rest, err := parseSegments(s, false)
	if err != nil {
		return nil, fmt.Errorf("template %q: %w", s, err)
	}
	if rest != "" {
		return nil, fmt.Errorf("template %q: unexpected %q", s, rest)
	}
	return segs, nil
}

// parseSegments parses until the end of s or, inside a group, until the
// closing bracket, and returns what follows it.
func parseSegments(s string, inGroup bool) ([]segment, string, error) {
	var segs []segment
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			segs = append(segs, segment{lit: lit.String()})
			lit.Reset()
		}
	}
	for s != "" {
		c := s[0]
		switch c {
		case '{':
			end := strings.IndexByte(s, '}')
			if end < 0 {
				return nil, "", errors.New("unclosed {")
			}
			body := s[1:end]
			name, mod, _ := strings.Cut(body, ":")
			if name == "" || strings.ContainsAny(body, "{[]") {
				return nil, "", fmt.Errorf("bad placeholder {%s}", body)
			}
			flush()
			segs = append(segs, segment{name: name, mod: mod})
			s = s[end+1:]
		case '}':
			return nil, "", errors.New("unmatched }")
		case '[':
			flush()
			inner, rest, err := parseSegments(s[1:], true)
			if err != nil {
				return nil, "", err
			}
			segs = append(segs, segment{group: inner, isGrp: true})
			s = rest
		case ']':
			if !inGroup {
				return nil, "", errors.New("unmatched ]")
			}
			flush()
			return segs, s[1:], nil
		default:
			lit.WriteByte(c)
			s = s[1:]
		}
	}
	if inGroup {
		return nil, "", errors.New("unclosed [")
	}
	flush()
	return segs, "", nil
}

// valuer supplies placeholder values with the specs each value states.
type valuer interface {
	value(name, mod string) (text string, stated [numAttrs]float64)
}

// rendered is the result of rendering a template: the text and the
// attributes it states.
type rendered struct {
	text   string
	stated [numAttrs]float64 // 0 = not stated
}

// render writes the template with values from v.
func (t template) render(v valuer) rendered {
	var r rendered
	buf := make([]byte, 0, 160)
	buf, _ = renderSegs(t, v, buf, &r.stated)
	r.text = collapseSpaces(buf)
	return r
}

// renderSegs appends segs to buf and reports whether every placeholder
// among them (not counting nested groups) had a value. A group whose
// placeholders are not all filled is cut off again, with the attributes it
// stated.
func renderSegs(segs []segment, v valuer, buf []byte, stated *[numAttrs]float64) ([]byte, bool) {
	complete := true
	for _, s := range segs {
		switch {
		case s.isGrp:
			mark, saved := len(buf), *stated
			var ok bool
			if buf, ok = renderSegs(s.group, v, buf, stated); !ok {
				buf, *stated = buf[:mark], saved
			}
		case s.name != "":
			text, st := v.value(s.name, s.mod)
			if text == "" {
				complete = false
				continue
			}
			buf = append(buf, text...)
			for a, num := range st {
				if num > 0 {
					stated[a] = num
				}
			}
		default:
			buf = append(buf, s.lit...)
		}
	}
	return buf, complete
}

// collapseSpaces trims s and turns every run of spaces into one, and drops a
// space left before a comma or a closing bracket by an empty placeholder.
func collapseSpaces(s []byte) string {
	out := make([]byte, 0, len(s))
	space := false
	for _, c := range s {
		if c == ' ' {
			space = true
			continue
		}
		if space && len(out) > 0 && c != ',' && c != ')' {
			out = append(out, ' ')
		}
		space = false
		out = append(out, c)
	}
	return string(out)
}
