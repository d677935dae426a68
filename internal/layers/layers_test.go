// Package layers holds the test that keeps yarngym's packages in their
// layers (ARCHITECTURE.md): a package imports only packages of layers below
// its own, so that the core never depends on a policy, scenario loading on
// no policy implementation, and the environment on no learner.
package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// layers lists yarngym's packages (import paths below the module) from the
// bottom up. A package may import packages of the layers before its own,
// never of its own layer or those after.
var layers = [][]string{
	{"env/sim", "data", "registry", "internal/testprogress", "internal/atomicfile", "internal/cputime"},
	{"env/policy", "env/workload", "internal/fakehandle"},
	{"policies/base"},
	{"policies/fifo", "policies/fair", "policies/capacity", "policies/ras"},
	{"policies/opera", "policies/autoadmin", "policies/dress", "policies/ikayak"},
	{"policies", "env/scenario"},
	{"env", "internal/simtest"},
	{"env/task"},
	{"learn"},
	{"runner"},
	{"benchmarks/baselines", "benchmarks/models", "benchmarks/repro", "oracle", "benchmarks"},
	{"benchmarks/repro/autoadmin", "benchmarks/repro/dress", "benchmarks/repro/ikayak", "benchmarks/repro/opera", "benchmarks/repro/ras", "benchmarks/repro/rumen"},
	{"benchmarks/repro/all"},
	{"benchmarks/suite"},
	{"benchmarks/report"},
	{"bindings/capi", "cmd/yarngym"},
}

// skip are folders that hold no package of the module's own layers.
var skip = map[string]bool{".git": true, ".venv": true, "node_modules": true, "testdata": true, "bindings/python": true,
	"notebooks": true, "oracle/src": true, "oracle/target": true, "out": true, "bin": true, "internal/layers": true, "internal/dbgtrace": true}

const module = "yarngym/"

func TestLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	rank := map[string]int{}
	for i, l := range layers {
		for _, p := range l {
			rank[p] = i
		}
	}
	imports := packageImports(t, root)
	if len(imports) < 20 {
		t.Fatalf("found %d packages under %s: the walk is broken", len(imports), root)
	}
	var pkgs []string
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		r, ok := rank[p]
		if !ok {
			t.Errorf("package %s is in no layer: add it to layers (internal/layers/layers_test.go) and ARCHITECTURE.md", p)
			continue
		}
		for _, imp := range imports[p] {
			ir, known := rank[imp]
			switch {
			case !known:
				t.Errorf("%s imports %s, which is in no layer", p, imp)
			case ir >= r:
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only layers below its own", p, r, imp, ir)
			}
		}
	}
}

// packageImports maps each package of the module under root to the
// module's packages its non-test files import.
func packageImports(t *testing.T, root string) map[string][]string {
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skip[rel] || skip[d.Name()] || (rel != "." && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, im := range f.Imports {
			v := strings.Trim(im.Path.Value, `"`)
			if strings.HasPrefix(v, module) {
				out[pkg] = append(out[pkg], strings.TrimPrefix(v, module))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPoliciesSeeOnlyTheHandle: no policy package names *sim.Sim in its
// non-test code (a parameter, a field, a type assertion): policy parts get
// the run through sim.Handle alone, so that a fake can stand in for it in
// their unit tests and the engine's own fields stay the engine's.
func TestPoliciesSeeOnlyTheHandle(t *testing.T) {
	root, err := filepath.Abs("../../policies")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sim" {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "sim" {
					t.Errorf("%s: names sim.Sim; a policy part takes a sim.Handle", fset.Position(sel.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 30 {
		t.Fatalf("read %d policy files under %s: the walk is broken", files, root)
	}
}
