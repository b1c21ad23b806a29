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

// TestGeneratedIsCurrent fails while a file taskgen writes is not what it
// makes of the records today: a field was added to or removed from one
// and go generate was not run.
func TestGeneratedIsCurrent(t *testing.T) {
	files, err := generate("..")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("web/wire/%s is stale: run go generate ./web/wire", name)
		}
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
		if _, err := encoder(structsOf(parseSrc(t, c.src)), "Task", "AppendTask"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %s", c.src, err, c.want)
		}
	}
}

// TestRecordsRefuseWhatTheyDoNotKnow: a field of app's records whose type
// wire does not declare, or whose JSON name taskgen would have to guess,
// stops the generation, naming it.
func TestRecordsRefuseWhatTheyDoNotKnow(t *testing.T) {
	wire := parseSrc(t, "type Task struct { A string `json:\"a\"` }\ntype TaskPreview struct{}\ntype Patch[T any] struct{}")
	for _, c := range []struct{ src, want string }{
		{"type TaskCreate struct { V Visibility }", "wire declares no Visibility"},
		{"type TaskCreate struct { V Patch[Visibility] }", "wire declares no Visibility"},
		{"type TaskCreate struct { V url.URL }", "url.URL is not known"},
		{"type TaskCreate struct { UserID string }", "capitals in a row"},
		{"type TaskCreate struct { part }", "embeds part"},
		{"type TaskCreate struct{}", "no struct type TaskUpdate"},
	} {
		if _, err := appRecords(wire, parseSrc(t, c.src)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %s", c.src, err, c.want)
		}
	}
}

// parseSrc is a file of package wire that holds src.
func parseSrc(t *testing.T, src string) []*ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package wire\n"+src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return []*ast.File{f}
}
