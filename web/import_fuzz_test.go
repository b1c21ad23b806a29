package web_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"tend/app"
	"tend/internal/golden"
	"tend/store/storetest"
	"tend/web/wire"
)

// FuzzExportImport: whatever a file holds (fields named twice, huge and
// negative numbers, references to rows of the instance it is imported
// into), an import either succeeds, after which the instance still writes,
// or is refused with an error of the contract, after which the instance is
// as it was. The seeds (testdata/fuzz/FuzzExportImport) are exports of
// another instance, crafted; {{WS}}, {{PROJECT}}, {{TASK}} and {{USER}} in
// them name rows of this one. One database serves every input.
func FuzzExportImport(f *testing.F) {
	ctx := context.Background()
	svc := app.New(storetest.Open(f), app.Options{Version: "test"})
	first, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		f.Fatal(err)
	}
	admin, err := svc.Authenticate(ctx, first.Token.Secret, "test")
	if err != nil {
		f.Fatal(err)
	}
	here, err := svc.CreateTask(ctx, admin, "default", app.TaskCreate{Title: "here"})
	if err != nil {
		f.Fatal(err)
	}
	fill := strings.NewReplacer("{{WS}}", first.Workspace.ID, "{{PROJECT}}", here.ProjectID, "{{TASK}}", here.ID, "{{USER}}", first.Admin.ID)
	state := func(t *testing.T) []byte {
		var b bytes.Buffer
		if err := svc.Export(ctx, app.SystemActor("cli"), "", wire.NewExportEncoder(&b, nil)); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		before := state(t)
		_, err := svc.Import(ctx, app.SystemActor("cli"), wire.NewExportDecoder(strings.NewReader(fill.Replace(string(file)))), false)
		if err == nil {
			if _, err := svc.CreateTask(ctx, admin, "default", app.TaskCreate{Title: "after an import"}); err != nil {
				t.Fatalf("the instance no longer writes after an import: %v", err)
			}
			return
		}
		if code := app.CodeOf(err); code == app.CodeInternal || code == "" {
			t.Fatalf("refused with no code of the contract: %v", err)
		}
		if after := state(t); !bytes.Equal(before, after) {
			t.Fatalf("a refused import (%v) changed the instance:\n%s", err, golden.Diffs(string(before), string(after), 6))
		}
	})
}
