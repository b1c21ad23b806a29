package web_test

import (
	"strconv"
	"testing"

	"tend/app"
	"tend/web/webtest"
)

// lstSub is e answering to a subtest's t, so e.ok and e.problem fail the
// subtest and not its parent.
func lstSub(e *env, t *testing.T) *env { return &env{e.On(t)} }

func lstNum(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func lstItems(m map[string]any) []map[string]any {
	raw, _ := m["items"].([]any)
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i], _ = it.(map[string]any)
	}
	return out
}

func lstPage(m map[string]any) map[string]any {
	p, _ := m["page"].(map[string]any)
	return p
}

func lstItoa(n int64) string { return strconv.FormatInt(n, 10) }

func lstRefs(items []map[string]any) []int64 {
	out := []int64{}
	for _, it := range items {
		out = append(out, lstNum(it["ref"]))
	}
	return out
}

// env is the shared test instance (webtest.Env) with this package's
// helpers as methods.
type env struct{ *webtest.Env }

func newEnv(t *testing.T) *env { return &env{webtest.New(t)} }

// newEnvWith is newEnv with the service's options (limits, public URL).
func newEnvWith(t *testing.T, opts app.Options) *env { return &env{webtest.NewWith(t, opts)} }
