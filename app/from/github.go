package from

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"tend/app"
)

// The records gh prints for `gh issue list --json number,title,body,state,
// labels,assignees,createdAt,closedAt,comments,url` (cli/cli api.Issue's
// ExportData: its Comment, IssueLabel and GitHubUser).
type (
	ghIssue struct {
		Number    int         `json:"number"`
		Title     string      `json:"title"`
		Body      string      `json:"body"`
		State     string      `json:"state"`
		Labels    []ghLabel   `json:"labels"`
		Assignees []ghUser    `json:"assignees"`
		CreatedAt time.Time   `json:"createdAt"`
		ClosedAt  *time.Time  `json:"closedAt"`
		Comments  []ghComment `json:"comments"`
		URL       string      `json:"url"`
	}
	ghLabel struct {
		Name string `json:"name"`
	}
	ghUser struct {
		Login string `json:"login"`
	}
	ghComment struct {
		ID        string    `json:"id"`
		Author    ghUser    `json:"author"`
		Body      string    `json:"body"`
		CreatedAt time.Time `json:"createdAt"`
		URL       string    `json:"url"`
	}
)

// ghRepo finds owner/repo in an issue's or a comment's URL.
var ghRepo = regexp.MustCompile(`^https://[^/]+/([^/]+/[^/]+)/(?:issues|pull)/\d+`)

// GitHub reads the JSON that `gh issue list --state all --json number,
// title,body,state,labels,assignees,createdAt,closedAt,comments,url` prints:
// the issues of one repository, which become the tasks of one project
// (named after the repository when an issue's or a comment's URL names it,
// else name).
// A reference to an issue by number ("fixes #12") is written
// owner/repo#12, as GitHub writes one across repositories, so that tend
// does not read it as one to its own item #12. The file may hold at most
// max bytes (DefaultMaxSize).
func GitHub(r io.Reader, name string, max int64) (app.Migration, error) {
	data, err := io.ReadAll(Capped(r, max))
	if err != nil {
		return app.Migration{}, err
	}
	var issues []ghIssue
	if err := errors.Join(json.Unmarshal(data, &issues), uniqueKeys(data)); err != nil {
		return app.Migration{}, jsonError("the file", data, err)
	}
	repo := ""
	for _, is := range issues {
		for _, u := range append([]string{is.URL}, commentURLs(is)...) {
			if m := ghRepo.FindStringSubmatch(u); m != nil && repo == "" {
				repo = m[1]
			}
		}
	}
	scope, refAs := name, "GH"
	if repo != "" {
		scope, refAs = repo, repo
	}
	m := app.Migration{Source: "github"}
	p := app.MigratedProject{ExternalID: scope, Where: "the file", Title: scope}
	seen := map[int]bool{}
	for i, is := range issues {
		where := fmt.Sprintf("issue #%d", is.Number)
		if is.Number <= 0 || strings.TrimSpace(is.Title) == "" {
			return app.Migration{}, app.Errorf(app.CodeInvalid, "issue %d of the list: an issue needs a number and a title", i+1)
		}
		if seen[is.Number] {
			return app.Migration{}, app.Errorf(app.CodeInvalid, "%s is in the list twice", where)
		}
		seen[is.Number] = true
		t := app.MigratedTask{ExternalID: fmt.Sprintf("%s#%d", scope, is.Number), Where: where,
			Title: refsAs(strings.TrimSpace(is.Title), refAs), Description: refsAs(is.Body, refAs)}
		switch is.State {
		case "OPEN", "":
		case "CLOSED":
			t.Status = "done"
		default:
			m.Unmapped = append(m.Unmapped, app.Unmapped{Where: where, What: is.State, Why: "a state that is not OPEN or CLOSED: open"})
		}
		for _, l := range is.Labels {
			t.Tags = append(t.Tags, l.Name)
		}
		var more []app.Unmapped
		t.Assignee, more = firstAssignee(where, is.Assignees, func(u ghUser) string { return u.Login })
		m.Unmapped = append(m.Unmapped, more...)
		for j, c := range is.Comments {
			id := c.ID
			if id == "" {
				id = fmt.Sprint(j + 1)
			}
			mc := app.MigratedComment{ExternalID: t.ExternalID + "/" + id, Where: fmt.Sprintf("%s, comment %d", where, j+1),
				Author: "@" + c.Author.Login, Body: refsAs(c.Body, refAs)}
			if c.Author.Login == "" {
				mc.Author = "a deleted account"
			}
			if !c.CreatedAt.IsZero() {
				at := c.CreatedAt.UTC()
				mc.At = &at
			}
			t.Comments = append(t.Comments, mc)
		}
		p.Tasks = append(p.Tasks, t)
	}
	m.Projects = []app.MigratedProject{p}
	return m, nil
}

func commentURLs(is ghIssue) []string {
	out := make([]string, len(is.Comments))
	for i, c := range is.Comments {
		out[i] = c.URL
	}
	return out
}
