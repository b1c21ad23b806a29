package mcpserver_test

import (
	"testing"

	"tend/web/webtest"
)

// env is the shared test instance (webtest.Env) with this package's
// helpers as methods.
type env struct{ *webtest.Env }

func newEnv(t *testing.T) *env { return &env{webtest.New(t)} }
