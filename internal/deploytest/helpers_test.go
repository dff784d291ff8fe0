package deploytest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"productsearch/internal/operator/v1alpha1"
)

// Object is one rendered manifest, decoded.
type Object struct {
	Kind, Name string
	Obj        runtime.Object
	Raw        []byte
}

// Key names an object in a rendering.
func (o Object) Key() string { return o.Kind + "/" + o.Name }

// Tool runs scripts/tools.sh from the repository root and returns the
// path of the pinned tool.
func Tool(root, name string) (string, error) {
	out, err := exec.Command(filepath.Join(root, "scripts", "tools.sh"), name).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("scripts/tools.sh %s: %v: %s", name, err, ee.Stderr)
		}
		return "", fmt.Errorf("scripts/tools.sh %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Run runs a command in dir and returns its standard output.
func Run(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", filepath.Base(name), strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

// Decode splits a multi-document YAML stream and decodes each object into
// its typed struct, refusing unknown and duplicate fields.
func Decode(stream []byte) ([]Object, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme, v1alpha1.AddToScheme} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	dec := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	var objs []Object
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		obj, gvk, err := dec.Decode(doc, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("decode %.80q: %w", doc, err)
		}
		name := ""
		if m, ok := obj.(interface{ GetName() string }); ok {
			name = m.GetName()
		}
		objs = append(objs, Object{Kind: gvk.Kind, Name: name, Obj: obj, Raw: doc})
	}
}

func stripComments(doc []byte) []byte {
	var b bytes.Buffer
	for _, line := range bytes.Split(doc, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' && string(t) != "---" {
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
