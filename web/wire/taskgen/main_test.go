package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedIsCurrent fails while web/wire/task_encode_gen.go is not what
// taskgen makes of Task today: a field was added to or removed from the
// record and go generate was not run.
func TestGeneratedIsCurrent(t *testing.T) {
	want, err := generate("..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", genFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("web/wire/%s is stale: run go generate ./web/wire", genFile)
	}
}

// TestRefusesWhatItDoesNotKnow: a field whose encoding taskgen would have to
// guess stops the generation, naming the field.
func TestRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"type Task struct { M map[string]int `json:\"m\"` }", "map[string]int"},
		{"type Task struct { N *int `json:\"n,omitempty\"` }", "omitempty"},
		{"type Task struct { part; A string `json:\"a\"` }\ntype part struct { B string `json:\"a\"` }", `"a" is given twice`},
		{"type Task struct { *part }\ntype part struct{}", "*part"},
		{"type Task struct { Q string `json:\"a<b\"` }", "needs escaping"},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package wire\n"+c.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := encoder(structsOf([]*ast.File{f}), "Task", "AppendTask"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %s", c.src, err, c.want)
		}
	}
}
