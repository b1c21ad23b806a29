package from_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tend/app"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares what a reader made of a file with testdata/NAME.golden,
// the migration as indented JSON.
func golden(t *testing.T, name string, m app.Migration) {
	t.Helper()
	got, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (run with -update if the change is intended):\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + "\n- " + a + "\n+ " + b
		}
	}
	return ""
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// refused checks that reading fails with invalid and a detail beginning want.
func refused(t *testing.T, err error, want string) {
	t.Helper()
	if app.CodeOf(err) != app.CodeInvalid || !strings.HasPrefix(app.AsError(err).Detail, want) {
		t.Fatalf("err = %v; want invalid: %s…", err, want)
	}
}

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}
