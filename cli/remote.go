package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"tend/web/wire"
)

// Remote is a Client that talks to a tend server over its JSON API with a
// bearer credential, or to the database file through the same API served
// in process (NewFile).
type Remote struct {
	base      string // the server's URL, without a trailing slash
	where     string // what Where says
	web       string // what WebURL says
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
	base = strings.TrimRight(base, "/")
	return &Remote{base: base, where: base, web: base, token: token, workspace: workspace, http: hc, agent: "tend-cli/" + version}
}

// NewFile is a client of the database file file, whose JSON API rt serves
// in process as the file's account (web's Server.Transport), working in
// workspace; webURL is where tend serve last said it serves the file, ""
// when it never has.
func NewFile(file, webURL, workspace, version string, rt http.RoundTripper) *Remote {
	r := NewRemote("", "", workspace, version, &http.Client{Transport: rt})
	r.where, r.web = file, webURL
	return r
}

// Where is the server's URL, or the database file.
func (r *Remote) Where() string { return r.where }

// WebURL is where the web app is served: beside the API on a server, where
// tend serve last served the file on it.
func (r *Remote) WebURL() string { return r.web }

// call sends one request, body (a wire request record, nil for none)
// written as JSON, and decodes a success into out (nothing when out is
// nil) or a refusal into a *Problem.
func (r *Remote) call(ctx context.Context, method, path string, q url.Values, body any, out any) error {
	_, err := r.exchange(ctx, method, path, q, body, out)
	return err
}

// exchange is call answering the success's header too.
func (r *Remote) exchange(ctx context.Context, method, path string, q url.Values, body any, out any) (http.Header, error) {
	q = cloneValues(q)
	if r.workspace != "" {
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
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, fmt.Errorf("the server URL %q: %w", r.base, err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	req.Header.Set("User-Agent", r.agent)
	res, err := r.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot reach tend at %s (is tend serve running? tend logout works on the local file instead): %w", r.base, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the answer of %s %s: %w", method, path, err)
	}
	if res.StatusCode >= 300 {
		return nil, DecodeProblem(res.StatusCode, b, r.base)
	}
	if out == nil {
		return res.Header, nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("the answer of %s %s is not what this tend reads (is the server another version?): %w", method, path, err)
	}
	return res.Header, nil
}

func taskPath(ref, action string) string {
	p := "/v1/tasks/" + url.PathEscape(trimRef(ref))
	if action != "" {
		p += "/" + action
	}
	return p
}

func itemPath(ref, action string) string {
	p := "/v1/items/" + url.PathEscape(trimRef(ref))
	if action != "" {
		p += "/" + action
	}
	return p
}

// get is one call whose answer is a T.
func get[T any](ctx context.Context, r *Remote, method, path string, q url.Values, body any) (T, error) {
	var out T
	err := r.call(ctx, method, path, q, body, &out)
	return out, err
}

// items reads a listing that answers its records as {"items": [...]},
// the whole of it in one page.
func items[T any](ctx context.Context, r *Remote, path string, q url.Values) ([]T, error) {
	list, err := get[struct {
		Items []T `json:"items"`
	}](ctx, r, http.MethodGet, path, q, nil)
	return list.Items, err
}

// Me is GET /v1/me.
func (r *Remote) Me(ctx context.Context) (wire.Me, error) {
	return get[wire.Me](ctx, r, http.MethodGet, "/v1/me", nil, nil)
}

// AddTask is POST /v1/tasks.
func (r *Remote) AddTask(ctx context.Context, in wire.TaskCreate) (wire.Task, error) {
	return get[wire.Task](ctx, r, http.MethodPost, "/v1/tasks", nil, in)
}

// Tasks is GET /v1/tasks. The page is decoded once, into the items the
// format asked for: a page of full records is most of what tend ls spends.
func (r *Remote) Tasks(ctx context.Context, q url.Values) (TaskPage, error) {
	if q.Get("format") == "compact" {
		page, err := get[struct {
			Items []string  `json:"items"`
			Page  wire.Page `json:"page"`
		}](ctx, r, http.MethodGet, "/v1/tasks", q, nil)
		return TaskPage{Lines: page.Items, Page: page.Page}, err
	}
	page, err := get[struct {
		Items []wire.Task `json:"items"`
		Page  wire.Page   `json:"page"`
	}](ctx, r, http.MethodGet, "/v1/tasks", q, nil)
	return TaskPage{Tasks: page.Items, Page: page.Page}, err
}

// Agenda is GET /v1/agenda.
func (r *Remote) Agenda(ctx context.Context, q url.Values) (wire.Agenda, error) {
	return get[wire.Agenda](ctx, r, http.MethodGet, "/v1/agenda", q, nil)
}

// Changes is GET /v1/changes.
func (r *Remote) Changes(ctx context.Context, q url.Values) (ChangesPage, error) {
	return get[ChangesPage](ctx, r, http.MethodGet, "/v1/changes", q, nil)
}

// Task is GET /v1/tasks/{ref}.
func (r *Remote) Task(ctx context.Context, ref string) (wire.Task, error) {
	return get[wire.Task](ctx, r, http.MethodGet, taskPath(ref, ""), nil, nil)
}

// Show is GET /v1/items/{ref}.
func (r *Remote) Show(ctx context.Context, ref string) (wire.ItemShow, error) {
	return get[wire.ItemShow](ctx, r, http.MethodGet, itemPath(ref, ""), nil, nil)
}

// Search is GET /v1/search.
func (r *Remote) Search(ctx context.Context, q url.Values) (wire.ItemSearch, error) {
	return get[wire.ItemSearch](ctx, r, http.MethodGet, "/v1/search", q, nil)
}

// Complete is POST /v1/tasks/{ref}/complete.
func (r *Remote) Complete(ctx context.Context, ref string, in wire.Completion) (Finished, error) {
	return r.finish(ctx, taskPath(ref, "complete"), in)
}

// Skip is POST /v1/tasks/{ref}/skip.
func (r *Remote) Skip(ctx context.Context, ref string) (Finished, error) {
	return r.finish(ctx, taskPath(ref, "skip"), nil)
}

// nextLink reads the ref of the next occurrence from a Link header's
// </v1/tasks/REF>; rel="next".
var nextLink = regexp.MustCompile(`</v1/tasks/(\d+)>;\s*rel="next"`)

// finish is a completion or a skip: the task, and the next occurrence its
// answer names.
func (r *Remote) finish(ctx context.Context, path string, body any) (Finished, error) {
	var f Finished
	h, err := r.exchange(ctx, http.MethodPost, path, nil, body, &f.Task)
	if m := nextLink.FindStringSubmatch(h.Get("Link")); m != nil {
		f.Next = m[1]
	}
	return f, err
}

// Claim is POST /v1/tasks/{ref}/claim.
func (r *Remote) Claim(ctx context.Context, ref string, in wire.Claim) (wire.Task, error) {
	return get[wire.Task](ctx, r, http.MethodPost, taskPath(ref, "claim"), nil, in)
}

// ClaimNext is POST /v1/tasks/next/claim.
func (r *Remote) ClaimNext(ctx context.Context, q url.Values) (wire.Task, error) {
	return get[wire.Task](ctx, r, http.MethodPost, "/v1/tasks/next/claim", q, nil)
}

// Release is POST /v1/tasks/{ref}/release.
func (r *Remote) Release(ctx context.Context, ref string) (wire.Task, error) {
	return get[wire.Task](ctx, r, http.MethodPost, taskPath(ref, "release"), nil, nil)
}

// UpdateTask is PATCH /v1/tasks/{ref}.
func (r *Remote) UpdateTask(ctx context.Context, ref string, in wire.TaskUpdate) (wire.Task, error) {
	return get[wire.Task](ctx, r, http.MethodPatch, taskPath(ref, ""), nil, in)
}

// Statuses is GET /v1/statuses.
func (r *Remote) Statuses(ctx context.Context, entity string) ([]wire.Status, error) {
	return items[wire.Status](ctx, r, "/v1/statuses", url.Values{"entity_type": {entity}})
}

// Comment is POST /v1/items/{ref}/comments.
func (r *Remote) Comment(ctx context.Context, ref string, in wire.CommentCreate) (wire.Comment, error) {
	return get[wire.Comment](ctx, r, http.MethodPost, itemPath(ref, "comments"), nil, in)
}

// Link is POST /v1/items/{ref}/links.
func (r *Remote) Link(ctx context.Context, ref string, in wire.LinkRequest) (wire.Link, error) {
	return get[wire.Link](ctx, r, http.MethodPost, itemPath(ref, "links"), nil, in)
}

// AddDocument is POST /v1/documents.
func (r *Remote) AddDocument(ctx context.Context, in wire.DocumentCreate) (wire.FiledDocument, error) {
	return get[wire.FiledDocument](ctx, r, http.MethodPost, "/v1/documents", nil, in)
}

// Document is GET /v1/documents/{ref}.
func (r *Remote) Document(ctx context.Context, ref string) (wire.Document, error) {
	return get[wire.Document](ctx, r, http.MethodGet, "/v1/documents/"+url.PathEscape(trimRef(ref)), nil, nil)
}

// Projects is GET /v1/projects.
func (r *Remote) Projects(ctx context.Context) ([]wire.Project, error) {
	return items[wire.Project](ctx, r, "/v1/projects", nil)
}

// Project is GET /v1/projects/{id_or_key}.
func (r *Remote) Project(ctx context.Context, key string) (wire.Project, error) {
	return get[wire.Project](ctx, r, http.MethodGet, projectPath(key), nil, nil)
}

// AddProject is POST /v1/projects.
func (r *Remote) AddProject(ctx context.Context, in wire.ProjectCreate) (wire.Project, error) {
	return get[wire.Project](ctx, r, http.MethodPost, "/v1/projects", nil, in)
}

// UpdateProject is PATCH /v1/projects/{id_or_key}.
func (r *Remote) UpdateProject(ctx context.Context, key string, in wire.ProjectUpdate) (wire.Project, error) {
	return get[wire.Project](ctx, r, http.MethodPatch, projectPath(key), nil, in)
}

// Views is GET /v1/views.
func (r *Remote) Views(ctx context.Context) ([]wire.View, error) {
	return items[wire.View](ctx, r, "/v1/views", nil)
}

// SaveView is POST /v1/views.
func (r *Remote) SaveView(ctx context.Context, in wire.ViewCreate) (wire.View, error) {
	return get[wire.View](ctx, r, http.MethodPost, "/v1/views", nil, in)
}

// DeleteView is DELETE /v1/views/{id_or_name}.
func (r *Remote) DeleteView(ctx context.Context, name string) (wire.View, error) {
	return get[wire.View](ctx, r, http.MethodDelete, "/v1/views/"+url.PathEscape(name), nil, nil)
}

// Webhooks is GET /v1/webhooks.
func (r *Remote) Webhooks(ctx context.Context) ([]wire.Webhook, error) {
	return items[wire.Webhook](ctx, r, "/v1/webhooks", nil)
}

// AddWebhook is POST /v1/webhooks.
func (r *Remote) AddWebhook(ctx context.Context, in wire.WebhookCreate) (wire.IssuedWebhook, error) {
	return get[wire.IssuedWebhook](ctx, r, http.MethodPost, "/v1/webhooks", nil, in)
}

// DeleteWebhook is DELETE /v1/webhooks/{id}.
func (r *Remote) DeleteWebhook(ctx context.Context, id string) (wire.Webhook, error) {
	return get[wire.Webhook](ctx, r, http.MethodDelete, "/v1/webhooks/"+url.PathEscape(id), nil, nil)
}

// WebhookLog is GET /v1/webhooks/{id}/deliveries.
func (r *Remote) WebhookLog(ctx context.Context, id string) ([]wire.WebhookAttempt, error) {
	return items[wire.WebhookAttempt](ctx, r, "/v1/webhooks/"+url.PathEscape(id)+"/deliveries", nil)
}

// ReplayWebhook is POST /v1/webhooks/{id}/replay?since=SEQ.
func (r *Remote) ReplayWebhook(ctx context.Context, id string, since int64) (wire.WebhookReplay, error) {
	return get[wire.WebhookReplay](ctx, r, http.MethodPost, "/v1/webhooks/"+url.PathEscape(id)+"/replay",
		url.Values{"since": {strconv.FormatInt(since, 10)}}, nil)
}

func projectPath(key string) string { return "/v1/projects/" + url.PathEscape(strings.TrimSpace(key)) }

// Tags is GET /v1/tags, the first page of tagLimit.
func (r *Remote) Tags(ctx context.Context) ([]string, error) {
	tags, err := items[wire.Tag](ctx, r, "/v1/tags", url.Values{"limit": {strconv.Itoa(tagLimit)}})
	if err != nil {
		return nil, err
	}
	out := make([]string, len(tags))
	for i, t := range tags {
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
