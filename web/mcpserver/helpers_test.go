package mcpserver_test

import (
	"flag"
	"testing"

	"tend/web/webtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// env is the shared test instance (webtest.Env) with this package's
// helpers as methods.
type env struct{ *webtest.Env }

func newEnv(t *testing.T) *env { return &env{webtest.New(t)} }
