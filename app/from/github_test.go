package from_test

import (
	"strings"
	"testing"

	"tend/app/from"
)

func TestGitHub(t *testing.T) {
	m, err := from.GitHub(open(t, "testdata/github/issues.json"), "issues", from.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	checkMigration(t, "github/issues", m)
	bare, err := from.GitHub(strings.NewReader(`[{"number":3,"title":"Document the API","body":"see #2","state":"OPEN"}]`), "web", from.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	if p := bare.Projects[0]; p.ExternalID != "web" || p.Tasks[0].ExternalID != "web#3" || p.Tasks[0].Description != "see GH#2" {
		t.Errorf("without a URL to name the repository: %+v", p)
	}
}

func TestGitHubRefusals(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"not JSON", "[{\"number\":1,\n\"title\":\"x\"", "the file, line 2: not JSON"},
		{"not a list", `{"number":1}`, "the file, line 1:"},
		{"a number that is text", `[{"number":"14","title":"x"}]`, "the file, line 1: number holds string where the format has int"},
		{"no title", `[{"number":1,"title":"x"},{"number":2,"title":""}]`, "issue 2 of the list: an issue needs a number and a title"},
		{"an issue twice", `[{"number":1,"title":"x"},{"number":1,"title":"y"}]`, "issue #1 is in the list twice"},
		{"a key twice", "[{\"number\":1,\"title\":\"x\"},\n{\"number\":2,\"title\":\"y\",\"state\":\"OPEN\",\"state\":\"CLOSED\"}]", `the file, line 2: an object names "state" twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := from.GitHub(strings.NewReader(tc.file), "x", from.DefaultMaxSize)
			refused(t, err, tc.want)
		})
	}
}

func FuzzGitHub(f *testing.F) {
	f.Add([]byte(`[{"number":1,"title":"a #2","body":"#3\r\n","state":"CLOSED","comments":[{"id":"","author":{"login":""},"url":"https://github.com/o/r/issues/1#c"}]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := from.GitHub(strings.NewReader(string(b)), "x", from.DefaultMaxSize)
		if err != nil {
			return
		}
		for _, task := range m.Projects[0].Tasks {
			if strings.Contains(task.Description, "\r\n") {
				t.Fatalf("a CRLF left in %q", task.Description)
			}
		}
	})
}
