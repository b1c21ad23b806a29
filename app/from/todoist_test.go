package from_test

import (
	"bytes"
	"strings"
	"testing"

	"tend/app/from"
)

func TestTodoist(t *testing.T) {
	m, err := from.Todoist(open(t, "testdata/todoist/Groceries.csv"), "Groceries", from.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	checkMigration(t, "todoist/Groceries", m)
}

func TestTodoistRefusals(t *testing.T) {
	const head = "TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\n"
	for _, tc := range []struct{ name, file, want string }{
		{"empty", "", "the file is empty"},
		{"no header", "task,Buy milk,,4,1\n", "line 1: no TYPE column"},
		{"a quote left open", head + "task,\"Buy milk,,4,1\ntask,Next,,4,1\n", "line 2: not CSV"},
		{"a stray quote", head + "task,Buy \"milk\",,4,1\n", "line 2: not CSV"},
		{"an unknown type", head + "task,Buy milk,,4,1\nsubtask,Skim,,4,2\n", `line 3: TYPE "subtask" is not one of task, section or note`},
		{"a row without a type", head + ",Buy milk,,4,1\n", "line 2: a row without a TYPE"},
		{"a task without a title", head + "task,@errands,,4,1\n", "line 2: a task without a title"},
		{"a priority out of range", head + "task,Buy milk,,5,1\n", `line 2: PRIORITY "5" is not a whole number from 1 to 4`},
		{"an indent that skips", head + "task,Buy milk,,4,1\ntask,Skim,,4,3\n", "line 3: INDENT 3 under a task of INDENT 1"},
		{"an indent not a number", head + "task,Buy milk,,4,one\n", `line 2: INDENT "one"`},
		{"a section without a name", head + "section,,,,\n", "line 2: a section without a name"},
		{"a column twice", "TYPE,CONTENT,PRIORITY,priority\ntask,Buy milk,1,4\n", "line 1: the header names PRIORITY twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := from.Todoist(strings.NewReader(tc.file), "x", from.DefaultMaxSize)
			refused(t, err, tc.want)
		})
	}
}

func FuzzTodoist(f *testing.F) {
	f.Add([]byte("TYPE,CONTENT,PRIORITY,INDENT,DATE\ntask,Buy milk @errands,1,1,every monday\ntask,Skim,4,2,\nnote,\"a, b\",,,\nsection,S,,,\n"))
	f.Add([]byte("\xef\xbb\xbfTYPE,CONTENT\r\nmeta,view_style\r\n,\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := from.Todoist(bytes.NewReader(b), "p", from.DefaultMaxSize)
		if err != nil {
			return
		}
		for _, p := range m.Projects {
			for _, task := range p.Tasks {
				if task.Title == "" || task.ExternalID == "" {
					t.Fatalf("a task without a title or an id: %+v", task)
				}
			}
		}
	})
}

// TestTodoistText: bytes that are not UTF-8 come out as U+FFFD, as
// encoding/json makes them of the other readers' files and of the API's
// bodies; a CSV says nothing of its encoding.
func TestTodoistText(t *testing.T) {
	m, err := from.Todoist(strings.NewReader("TYPE,CONTENT,DESCRIPTION\ntask,Buy \xff milk,\xc3 cold\n"), "p", from.DefaultMaxSize)
	if err != nil {
		t.Fatal(err)
	}
	task := m.Projects[0].Tasks[0]
	if task.Title != "Buy \uFFFD milk" || task.Description != "\uFFFD cold" {
		t.Errorf("title %q, description %q", task.Title, task.Description)
	}
}
