package search_test

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoNetHTTP keeps the search semantics and the embedded engine free of
// HTTP: they parse and search, and the transports build on them.
func TestNoNetHTTP(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found; cannot list dependencies")
	}
	for _, pkg := range []string{"productsearch/internal/search", "productsearch/internal/search/memory"} {
		out, err := exec.Command(goBin, "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == "net/http" || strings.HasPrefix(dep, "net/http/") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}

// TestPackageDocs checks that every package here has a doc comment.
func TestPackageDocs(t *testing.T) {
	for _, dir := range []string{".", "memory", "searchtest"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		documented, name := false, ""
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments|parser.PackageClauseOnly)
			if err != nil {
				t.Fatal(err)
			}
			name = f.Name.Name
			if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package "+name+" ") {
				documented = true
			}
		}
		if !documented {
			t.Errorf("package %s in %s has no doc comment", name, dir)
		}
	}
}
