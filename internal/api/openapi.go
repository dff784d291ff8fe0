package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"
)

// openapiYAML is the hand-written OpenAPI 3.1.1 description of the API.
//
//go:embed openapi.yaml
var openapiYAML []byte

// OpenAPI returns the interface description as YAML, as served at
// /openapi.yaml.
func OpenAPI() []byte { return bytes.Clone(openapiYAML) }

// openapiDocs holds the two renderings served.
type openapiDocs struct {
	yaml, json []byte
}

// loadOpenAPI renders the embedded YAML as JSON, keeping key order and
// resolving aliases.
func loadOpenAPI() (openapiDocs, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(openapiYAML, &root); err != nil {
		return openapiDocs{}, fmt.Errorf("openapi.yaml: %w", err)
	}
	var buf bytes.Buffer
	if err := nodeJSON(&buf, &root); err != nil {
		return openapiDocs{}, fmt.Errorf("openapi.yaml: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return openapiDocs{}, fmt.Errorf("openapi.yaml as JSON: %w", err)
	}
	return openapiDocs{yaml: openapiYAML, json: out.Bytes()}, nil
}

// nodeJSON writes a YAML node as JSON.
func nodeJSON(w *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return fmt.Errorf("line %d: want one document", n.Line)
		}
		return nodeJSON(w, n.Content[0])
	case yaml.AliasNode:
		return nodeJSON(w, n.Alias)
	case yaml.MappingNode:
		w.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				w.WriteByte(',')
			}
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: mapping key is not a scalar", k.Line)
			}
			writeString(w, k.Value)
			w.WriteByte(':')
			if err := nodeJSON(w, n.Content[i+1]); err != nil {
				return err
			}
		}
		w.WriteByte('}')
	case yaml.SequenceNode:
		w.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := nodeJSON(w, c); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			w.WriteString("null")
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return fmt.Errorf("line %d: %w", n.Line, err)
			}
			w.WriteString(strconv.FormatBool(b))
		case "!!int", "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				return fmt.Errorf("line %d: %w", n.Line, err)
			}
			w.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
		default:
			writeString(w, n.Value)
		}
	default:
		return fmt.Errorf("line %d: unsupported YAML node", n.Line)
	}
	return nil
}

func writeString(w *bytes.Buffer, s string) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	w.Truncate(w.Len() - 1) // Encode appends a newline
}
