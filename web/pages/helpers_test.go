package pages_test

import (
	"strconv"
	"testing"

	"tend/web/webtest"
)

// env is the shared test instance (webtest.Env) with this package's
// helpers as methods.
type env struct{ *webtest.Env }

func newEnv(t *testing.T) *env { return &env{webtest.New(t)} }

// number is a JSON number of an answer (a ref, a version) as the text a
// URL or a form carries.
func number(v any) string {
	f, _ := v.(float64)
	return strconv.FormatInt(int64(f), 10)
}
