package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// Remote is a Client that talks to a tend server over its JSON API with a
// bearer credential.
type Remote struct {
	base      string // the server's URL, without a trailing slash
	token     string
	workspace string
	http      *http.Client
	agent     string
}

// NewRemote is a client of the server at base (http://127.0.0.1:8421),
// presenting token, working in workspace ("" when the credential reaches
// one only), over hc (http.DefaultClient when nil). version names the
// client in its User-Agent.
func NewRemote(base, token, workspace, version string, hc *http.Client) *Remote {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Remote{base: strings.TrimRight(base, "/"), token: token, workspace: workspace, http: hc, agent: "tend-cli/" + version}
}

// Where is the server's URL.
func (r *Remote) Where() string { return r.base }

// WebURL is the server's URL: the web app is served beside the API.
func (r *Remote) WebURL() string { return r.base }

// call sends one request and decodes a success into out (nothing when out
// is nil) or a refusal into a *Problem.
func (r *Remote) call(ctx context.Context, method, path string, q url.Values, body any, out any) error {
	if r.workspace != "" {
		if q == nil {
			q = url.Values{}
		}
		q.Set("workspace_id", r.workspace)
	}
	target := r.base + path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return fmt.Errorf("the server URL %q: %w", r.base, err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+r.token)
	req.Header.Set("User-Agent", r.agent)
	res, err := r.http.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach tend at %s (is tend serve running? tend logout works on the local file instead): %w", r.base, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return fmt.Errorf("reading the answer of %s %s: %w", method, path, err)
	}
	if res.StatusCode >= 300 {
		return decodeProblem(res.StatusCode, b, r.base)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("the answer of %s %s is not what this tend reads (is the server another version?): %w", method, path, err)
	}
	return nil
}

func taskPath(ref, action string) string {
	p := "/v1/tasks/" + url.PathEscape(trimRef(ref))
	if action != "" {
		p += "/" + action
	}
	return p
}

func (r *Remote) task(ctx context.Context, method, path string, q url.Values, body any) (wire.Task, error) {
	var t wire.Task
	err := r.call(ctx, method, path, q, body, &t)
	return t, err
}

// Me is GET /v1/me.
func (r *Remote) Me(ctx context.Context) (Me, error) {
	var me struct {
		User           Me      `json:"user"`
		ReaderTimezone *string `json:"reader_timezone"`
	}
	if err := r.call(ctx, http.MethodGet, "/v1/me", nil, nil, &me); err != nil {
		return Me{}, err
	}
	out := me.User
	out.ReaderTimezone = wire.Deref(me.ReaderTimezone)
	return out, nil
}

// AddTask is POST /v1/tasks.
func (r *Remote) AddTask(ctx context.Context, in app.TaskCreate) (wire.Task, error) {
	return r.task(ctx, http.MethodPost, "/v1/tasks", nil, taskCreateBody(in))
}

// Tasks is GET /v1/tasks.
func (r *Remote) Tasks(ctx context.Context, q url.Values) (TaskPage, error) {
	var page struct {
		Items json.RawMessage `json:"items"`
		Page  wire.Page       `json:"page"`
	}
	if err := r.call(ctx, http.MethodGet, "/v1/tasks", cloneValues(q), nil, &page); err != nil {
		return TaskPage{}, err
	}
	out := TaskPage{Page: page.Page}
	var err error
	if q.Get("format") == "compact" {
		err = json.Unmarshal(page.Items, &out.Lines)
	} else {
		err = json.Unmarshal(page.Items, &out.Tasks)
	}
	if err != nil {
		return TaskPage{}, fmt.Errorf("the task listing is not what this tend reads: %w", err)
	}
	return out, nil
}

// Agenda is GET /v1/agenda.
func (r *Remote) Agenda(ctx context.Context, in app.AgendaQuery) (wire.Agenda, error) {
	q := url.Values{}
	setIf(q, "date", in.Date)
	setIf(q, "timezone", in.Timezone)
	var ag wire.Agenda
	err := r.call(ctx, http.MethodGet, "/v1/agenda", q, nil, &ag)
	return ag, err
}

// Task is GET /v1/tasks/{ref}.
func (r *Remote) Task(ctx context.Context, ref string) (wire.Task, error) {
	return r.task(ctx, http.MethodGet, taskPath(ref, ""), nil, nil)
}

// Show is GET /v1/items/{ref}.
func (r *Remote) Show(ctx context.Context, ref string) (wire.ItemShow, error) {
	var it wire.ItemShow
	err := r.call(ctx, http.MethodGet, "/v1/items/"+url.PathEscape(trimRef(ref)), nil, nil, &it)
	return it, err
}

// Search is GET /v1/search.
func (r *Remote) Search(ctx context.Context, in app.ItemSearchQuery) (wire.ItemSearch, error) {
	var res wire.ItemSearch
	err := r.call(ctx, http.MethodGet, "/v1/search", searchQuery(in), nil, &res)
	return res, err
}

// Complete is POST /v1/tasks/{ref}/complete.
func (r *Remote) Complete(ctx context.Context, ref string, in app.Completion) (wire.Task, error) {
	return r.task(ctx, http.MethodPost, taskPath(ref, "complete"), nil, completionBody(in))
}

// Skip is POST /v1/tasks/{ref}/skip.
func (r *Remote) Skip(ctx context.Context, ref string) (wire.Task, error) {
	return r.task(ctx, http.MethodPost, taskPath(ref, "skip"), nil, nil)
}

// Claim is POST /v1/tasks/{ref}/claim.
func (r *Remote) Claim(ctx context.Context, ref string, minutes *int) (wire.Task, error) {
	return r.task(ctx, http.MethodPost, taskPath(ref, "claim"), nil, claimBody(minutes))
}

// ClaimNext is POST /v1/tasks/next/claim.
func (r *Remote) ClaimNext(ctx context.Context, in app.NextClaim) (wire.Task, error) {
	return r.task(ctx, http.MethodPost, "/v1/tasks/next/claim", nextQuery(in), nil)
}

// Release is POST /v1/tasks/{ref}/release.
func (r *Remote) Release(ctx context.Context, ref string) (wire.Task, error) {
	return r.task(ctx, http.MethodPost, taskPath(ref, "release"), nil, nil)
}

// UpdateTask is PATCH /v1/tasks/{ref}.
func (r *Remote) UpdateTask(ctx context.Context, ref string, in app.TaskUpdate) (wire.Task, error) {
	return r.task(ctx, http.MethodPatch, taskPath(ref, ""), nil, taskUpdateBody(in))
}

// Statuses is GET /v1/statuses.
func (r *Remote) Statuses(ctx context.Context, entity string) ([]Status, error) {
	var list struct {
		Items []Status `json:"items"`
	}
	err := r.call(ctx, http.MethodGet, "/v1/statuses", url.Values{"entity_type": {entity}}, nil, &list)
	return list.Items, err
}

// Comment is POST /v1/items/{ref}/comments.
func (r *Remote) Comment(ctx context.Context, ref string, in app.CommentCreate) (wire.Comment, error) {
	var c wire.Comment
	err := r.call(ctx, http.MethodPost, "/v1/items/"+url.PathEscape(trimRef(ref))+"/comments", nil, commentBody(in), &c)
	return c, err
}

// Link is POST /v1/items/{ref}/links.
func (r *Remote) Link(ctx context.Context, ref string, in app.LinkRequest) (wire.Link, error) {
	var l wire.Link
	err := r.call(ctx, http.MethodPost, "/v1/items/"+url.PathEscape(trimRef(ref))+"/links", nil, linkBody(in), &l)
	return l, err
}

// AddDocument is POST /v1/documents.
func (r *Remote) AddDocument(ctx context.Context, in app.DocumentCreate) (FiledDocument, error) {
	var d FiledDocument
	err := r.call(ctx, http.MethodPost, "/v1/documents", nil, documentCreateBody(in), &d)
	return d, err
}

// Document is GET /v1/documents/{ref}.
func (r *Remote) Document(ctx context.Context, ref string) (wire.Document, error) {
	var d wire.Document
	err := r.call(ctx, http.MethodGet, "/v1/documents/"+url.PathEscape(trimRef(ref)), nil, nil, &d)
	return d, err
}

// Projects is GET /v1/projects.
func (r *Remote) Projects(ctx context.Context) ([]wire.Project, error) {
	var list struct {
		Items []wire.Project `json:"items"`
	}
	err := r.call(ctx, http.MethodGet, "/v1/projects", nil, nil, &list)
	return list.Items, err
}

// Tags is GET /v1/tags, the first page of tagLimit.
func (r *Remote) Tags(ctx context.Context) ([]string, error) {
	var list struct {
		Items []struct {
			Name string `json:"name"`
		} `json:"items"`
	}
	if err := r.call(ctx, http.MethodGet, "/v1/tags", url.Values{"limit": {strconv.Itoa(tagLimit)}}, nil, &list); err != nil {
		return nil, err
	}
	out := make([]string, len(list.Items))
	for i, t := range list.Items {
		out[i] = t.Name
	}
	return out, nil
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

func setIf(q url.Values, key, value string) {
	if value != "" {
		q.Set(key, value)
	}
}
