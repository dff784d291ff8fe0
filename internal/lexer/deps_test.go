package lexer_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the lexer a leaf: it reads text and imports
// nothing of this module and nothing of HTTP.
func TestDependencies(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found; cannot list dependencies")
	}
	out, err := exec.Command(goBin, "list", "-deps", "productsearch/internal/lexer").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "net/") || strings.HasPrefix(dep, "productsearch/") && dep != "productsearch/internal/lexer" {
			t.Errorf("the lexer depends on %s", dep)
		}
	}
}
