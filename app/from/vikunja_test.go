package from_test

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tend/app/from"
)

// vikunjaZip packs testdata/vikunja as Vikunja's export does: data.json,
// filters.json, VERSION and the files of attachments under files/.
func vikunjaZip(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, name := range []string{"data.json", "filters.json", "VERSION"} {
		body, err := os.ReadFile(filepath.Join("testdata", "vikunja", name))
		if err != nil {
			t.Fatal(err)
		}
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(body)
	}
	w, _ := z.Create("files/1")
	_, _ = w.Write([]byte("%PDF-1.4 a spec"))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestVikunja(t *testing.T) {
	m, err := from.Vikunja(bytes.NewReader(vikunjaZip(t)), from.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	checkMigration(t, "vikunja/export", m)
	plain, err := from.Vikunja(open(t, "testdata/vikunja/data.json"), from.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Projects) != len(m.Projects) || len(plain.Links) != len(m.Links) {
		t.Errorf("data.json alone reads differently from the archive")
	}
}

func TestVikunjaRefusals(t *testing.T) {
	var noData bytes.Buffer
	z := zip.NewWriter(&noData)
	_, _ = z.Create("VERSION")
	_ = z.Close()
	for _, tc := range []struct{ name, file, want string }{
		{"not JSON", "[{\"id\":1,\n\"title\":\"x\",}]", "data.json, line 2: not JSON"},
		{"a field of the wrong kind", "[{\"id\":1,\"title\":\"x\",\n\"tasks\":[{\"id\":\"seven\"}]}]", "data.json, line 2: tasks.id holds string where the format has int64"},
		{"not a list of projects", `{"id":1}`, "data.json, line 1:"},
		{"an archive without data.json", noData.String(), "the archive holds no data.json"},
		{"a project twice", `[{"id":1,"title":"a"},{"id":1,"title":"b"}]`, "data.json: project 1 is in it twice"},
		{"a task twice", `[{"id":1,"title":"a","tasks":[{"id":5}]},{"id":2,"title":"b","tasks":[{"id":5}]}]`, "data.json: task 5 is in it twice"},
		{"a broken archive", "PK\x03\x04broken", "the archive does not open as a zip"},
		{"a key twice", "[{\"id\":1,\"title\":\"a\",\n\"tasks\":[{\"id\":5,\"done\":false,\"done\":true}]}]", `data.json, line 2: an object names "done" twice`},
		{"a key twice, nested", `[{"id":1,"title":"a","tasks":[{"id":5,"labels":[{"title":"x","title":"y"}]}]}]`, `data.json, line 1: an object names "title" twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := from.Vikunja(strings.NewReader(tc.file), from.DefaultMaxSize)
			refused(t, err, tc.want)
		})
	}
}

func FuzzVikunja(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "vikunja", "data.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`[{"id":1,"parent_project_id":2},{"id":2,"parent_project_id":1,"tasks":[{"id":1,"related_tasks":{"subtask":[{"id":1}]}}]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := from.Vikunja(bytes.NewReader(b), from.DefaultMaxSize)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, p := range m.Projects {
			if p.Parent != "" && !seen[p.Parent] {
				t.Fatalf("project %s comes before its parent %s", p.ExternalID, p.Parent)
			}
			seen[p.ExternalID] = true
		}
	})
}
