// Package npmclient finds, for a test, the npm packages CI installs for
// the real-client tests (npm ci --prefix .ci/mcpclients) and the node that
// runs them.
package npmclient

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Node answers the node on PATH and the absolute node_modules that
// TEND_MCP_CLIENTS names, which must hold pkg. Without them the test is
// skipped, or fails when TEND_MCP_CLIENTS_REQUIRED=1, as in CI.
func Node(t testing.TB, pkg string) (node, modules string) {
	t.Helper()
	modules = os.Getenv("TEND_MCP_CLIENTS")
	if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); modules == "" || err != nil {
		if os.Getenv("TEND_MCP_CLIENTS_REQUIRED") == "1" {
			t.Fatalf("TEND_MCP_CLIENTS=%q holds no %s package and TEND_MCP_CLIENTS_REQUIRED=1: %v", modules, pkg, err)
		}
		t.Skip("set TEND_MCP_CLIENTS to .ci/mcpclients/node_modules after npm ci --prefix .ci/mcpclients")
	}
	modules, _ = filepath.Abs(modules)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("no node on PATH to run %s with: %v", pkg, err)
	}
	return node, modules
}
