// Package golden compares what a test made with a file kept beside it in
// testdata/, and rewrites the file instead when the test binary runs with
// -update: the one way every package's golden tests read and refresh their
// files, so a changed golden is reviewed as a diff.
package golden

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that imports golden; a
// package using golden defines no flag of its own by that name.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the tests' output")

// Updating reports whether this run rewrites the golden files.
func Updating() bool { return *update }

// Check fails t unless got is the content of the file at path, showing the
// first line where they part. With -update it first writes got to path.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (run with -update if the change is intended):\n%s", path, FirstDiff(string(want), string(got)))
	}
}

// FirstDiff shows the first line where want and got part.
func FirstDiff(want, got string) string { return Diffs(want, got, 1) }

// Diffs shows the first most lines where want and got part.
func Diffs(want, got string, most int) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < max(len(w), len(g)) && len(out) < most; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			out = append(out, fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl))
		}
	}
	if len(out) == 0 {
		return "(no line differs; line endings?)"
	}
	return strings.Join(out, "\n")
}
