package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The domain does not own the wire format: no type of package app names
// its fields in JSON or reads or writes itself as JSON. What clients send
// and receive is written down in web/wire (and the adapters beside it),
// which convert to and from app's types, so that renaming a domain field
// cannot change the API. (The cursor and the stored series values are
// app's own JSON, written member by member.)
func TestAppOwnsNoWireFormat(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				if n.Tag == nil {
					return true
				}
				tag, err := strconv.Unquote(n.Tag.Value)
				if err != nil {
					t.Errorf("%s: tag %s does not read", fset.Position(n.Pos()), n.Tag.Value)
					return true
				}
				if v, ok := reflect.StructTag(tag).Lookup("json"); ok {
					t.Errorf("%s: a JSON name (json:%q) in app; the wire's records go in web/wire", fset.Position(n.Pos()), v)
				}
			case *ast.FuncDecl:
				if n.Recv != nil && (n.Name.Name == "MarshalJSON" || n.Name.Name == "UnmarshalJSON") && receiverExported(n.Recv) {
					t.Errorf("%s: %s on an app type; reading and writing the wire is web/wire's", fset.Position(n.Pos()), n.Name.Name)
				}
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no source files found")
	}
}

// receiverExported reports whether a method's receiver is an exported type.
func receiverExported(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	typ := recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
		case *ast.IndexExpr:
			typ = x.X
		case *ast.IndexListExpr:
			typ = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}
