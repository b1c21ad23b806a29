package from_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tend/app"
	"tend/internal/golden"
)

// checkMigration compares what a reader made of a file with testdata/NAME.golden,
// the migration as indented JSON.
func checkMigration(t *testing.T, name string, m app.Migration) {
	t.Helper()
	got, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", name+".golden"), append(got, '\n'))
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
