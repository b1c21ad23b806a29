package from_test

import (
	"strings"
	"testing"

	"tend/app/from"
)

func TestBeads(t *testing.T) {
	m, err := from.Beads(open(t, "testdata/beads/issues.jsonl"), from.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	checkMigration(t, "beads/issues", m)
}

func TestBeadsRefusals(t *testing.T) {
	const ok = `{"id":"bd-1","title":"fine","status":"open","priority":2}` + "\n"
	for _, tc := range []struct{ name, file, want string }{
		{"empty", "", "the file holds no issue"},
		{"not JSON", ok + "{\"id\":\"bd-2\",\n", "line 2: not JSON"},
		{"a field of the wrong kind", ok + `{"id":"bd-2","title":"x","priority":"high"}`, "line 2: priority holds string where the format has int"},
		{"a bad time", ok + `{"id":"bd-2","title":"x","due_at":"tomorrow"}`, "line 2: "},
		{"no title", ok + `{"id":"bd-2","title":"  "}`, "line 2: an issue needs an id and a title"},
		{"no id", `{"title":"x"}`, "line 1: an issue needs an id and a title"},
		{"an issue twice", ok + "\n" + ok, "line 3: issue bd-1 is on line 1 already"},
		{"a key twice", ok + `{"id":"bd-2","title":"x","comments":[{"id":"c1","author":"a","author":"b"}]}`, `line 2: an object names "author" twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := from.Beads(strings.NewReader(tc.file), from.DefaultMaxSize)
			refused(t, err, tc.want)
		})
	}
}

func FuzzBeads(f *testing.F) {
	f.Add([]byte(`{"id":"bd-1","title":"a","dependencies":[{"issue_id":"bd-1","depends_on_id":"bd-1","type":"parent-child"}]}` + "\n"))
	f.Add([]byte(`{"id":"bd-1","title":"a","comments":[{"id":1,"text":"x"}]}` + "\n\n" + `{"id":"bd-2","title":"b","status":"closed"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := from.Beads(strings.NewReader(string(b)), from.DefaultMaxSize)
		if err != nil {
			return
		}
		if len(m.Projects) != 1 || m.Projects[0].ExternalID == "" {
			t.Fatalf("projects %+v", m.Projects)
		}
	})
}
