package lazyre

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every expression the module gives MustCompile compiles: what the program's
// start used to prove (a regexp.MustCompile of a package variable panicked
// there) is proved here, for expressions a test may never reach. Each call's
// argument is read from the source: string literals, the package's string
// constants (and variables declared with one) and their sums. An argument made at run time (a call) is named
// in runTime with the test that compiles it.
func TestEveryUseCompiles(t *testing.T) {
	root := moduleRoot(t)
	runTime := map[string]string{
		// compileAlias's trailing mention of a game, built of its alias:
		// contract's TestMentionAt compiles it for every game's aliases.
		"contract/parse.go": "TestMentionAt",
		// A verb's pattern, anchored: NewEngine parses and compiles it
		// first as regexp.Compile does, and refuses one that fails.
		"contract/engine.go": "TestNewEngineRefusesABadPattern",
	}
	uses := 0
	fset := token.NewFileSet()
	constsOf := map[string]map[string]string{} // by folder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		of := func(dir string) map[string]string {
			consts, ok := constsOf[dir]
			if !ok {
				consts = packageConsts(t, fset, dir)
				constsOf[dir] = consts
			}
			return consts
		}
		consts := withImported(f, of(filepath.Dir(path)), root, of)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "MustCompile" {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "lazyre" {
				return true
			}
			uses++
			expr, ok := stringValue(call.Args[0], consts)
			if !ok {
				if _, named := runTime[filepath.ToSlash(rel)]; !named {
					t.Errorf("%s: an expression made at run time, which this test cannot compile: name it in runTime with the test that does", fset.Position(call.Pos()))
				}
				return true
			}
			if _, err := regexp.Compile(expr); err != nil {
				t.Errorf("%s: %v", fset.Position(call.Pos()), err)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if uses == 0 {
		t.Fatal("no use of lazyre.MustCompile found under " + root)
	}
}

// withImported is consts and the string constants of the module's own
// packages that f imports, each named as f names it ("contract.WholeNumber").
func withImported(f *ast.File, consts map[string]string, root string, of func(dir string) map[string]string) map[string]string {
	const module = "referee/"
	out, cloned := consts, false
	for _, im := range f.Imports {
		path, err := strconv.Unquote(im.Path.Value)
		if err != nil || !strings.HasPrefix(path, module) {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		if !cloned {
			out, cloned = maps.Clone(consts), true
		}
		for k, v := range of(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(path, module)))) {
			out[name+"."+k] = v
		}
	}
	return out
}

// A bad expression in the source is found: the check above reads what
// MustCompile is given, not only that it is called.
func TestStringValueReadsSums(t *testing.T) {
	consts := map[string]string{"part": `\d+`}
	e, err := parser.ParseExpr("`(?i)^a` + part + \"(\"")
	if err != nil {
		t.Fatal(err)
	}
	v, ok := stringValue(e, consts)
	if !ok || v != `(?i)^a\d+(` {
		t.Fatalf("read %q, %v; want the sum of the three", v, ok)
	}
	if _, err := regexp.Compile(v); err == nil {
		t.Fatal("an unclosed group compiled")
	}
	// Another package's constant, named as its importer names it.
	e, err = parser.ParseExpr("`^` + contract.WholeNumber + `$`")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := stringValue(e, map[string]string{"contract.WholeNumber": `\d+`}); !ok || v != `^\d+$` {
		t.Fatalf("read %q, %v; want the sum with contract.WholeNumber", v, ok)
	}
	call, _ := parser.ParseExpr(`strings.Join(x, "|")`)
	if _, ok := stringValue(call, consts); ok {
		t.Fatal("a call was read as a constant")
	}
}

// stringValue is the value of a constant string expression: literals, the
// constants named in consts and their sums.
func stringValue(e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		return constant.StringVal(v), v.Kind() == constant.String
	case *ast.Ident:
		v, ok := consts[e.Name]
		return v, ok
	case *ast.ParenExpr:
		return stringValue(e.X, consts)
	case *ast.SelectorExpr:
		// Another package's constant, as withImported names it.
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return "", false
		}
		v, ok := consts[x.Name+"."+e.Sel.Name]
		return v, ok
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok := stringValue(e.X, consts)
		if !ok {
			return "", false
		}
		b, ok := stringValue(e.Y, consts)
		return a + b, ok
	}
	return "", false
}

// packageConsts is every string constant declared at the top of the
// package in dir, by name, and every variable declared there with a
// constant string (the pieces expressions are built of).
func packageConsts(t *testing.T, fset *token.FileSet, dir string) map[string]string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var decls []*ast.ValueSpec
	for _, en := range entries {
		if !strings.HasSuffix(en.Name(), ".go") || strings.HasSuffix(en.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, en.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && (g.Tok == token.CONST || g.Tok == token.VAR) {
				for _, s := range g.Specs {
					decls = append(decls, s.(*ast.ValueSpec))
				}
			}
		}
	}
	consts := map[string]string{}
	// A constant may be the sum of others declared after it: read until
	// nothing more is learnt.
	for more := true; more; {
		more = false
		for _, s := range decls {
			for i, name := range s.Names {
				if _, known := consts[name.Name]; known || i >= len(s.Values) {
					continue
				}
				if v, ok := stringValue(s.Values[i], consts); ok {
					consts[name.Name], more = v, true
				}
			}
		}
	}
	return consts
}

// moduleRoot is the folder of the module's go.mod, above this package's.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}
