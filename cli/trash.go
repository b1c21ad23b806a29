package cli

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"tend/app"
)

// The trash at the terminal: tend rm moves tasks and documents to the
// trash (with their subtrees) or, with --forever, deletes what is in it for
// good; tend trash lists it; tend untrash brings items back. The name is
// untrash because tend restore already restores the database from a backup.

// TrashAct acts on the trash for the task or document (kind) ref names:
// "delete" moves it there with its subtree (DELETE /v1/{kind}s/{ref}),
// "restore" brings it back (POST …/restore), "purge" deletes it forever
// (POST …/purge). The answer is the API's JSON: the record, or what a
// purge removed.
func (r *Remote) TrashAct(ctx context.Context, act, kind, ref string) (json.RawMessage, error) {
	p := "/v1/" + kind + "s/" + url.PathEscape(trimRef(ref))
	method := http.MethodPost
	if act == "delete" {
		method = http.MethodDelete
	} else {
		p += "/" + act
	}
	return get[json.RawMessage](ctx, r, method, p, nil, nil)
}

// Trashed is the trash's page of kind: GET /v1/{kind}s?deleted=true, as JSON.
func (r *Remote) Trashed(ctx context.Context, kind string) (json.RawMessage, error) {
	return get[json.RawMessage](ctx, r, http.MethodGet, "/v1/"+kind+"s", url.Values{"deleted": {"true"}, "limit": {"500"}}, nil)
}

// trashRecord is what the commands print of a task or document record,
// or of what a purge removed.
type trashRecord struct {
	Kind         string  `json:"entity_type"`
	Ref          int64   `json:"ref"`
	Title        string  `json:"title"`
	ProjectPath  string  `json:"project_path"`
	DeletedAt    *string `json:"deleted_at"`
	SubTasks     int     `json:"sub_tasks"`
	SubDocuments int     `json:"sub_documents"`
	Along        int     `json:"along"`
}

// either runs act on ref as a task and, when no task has that ref, as a
// document: refs are shared by both, so at most one answers. It answers
// the kind that did.
func either(ctx context.Context, c Client, act, ref string) (string, json.RawMessage, error) {
	raw, err := c.TrashAct(ctx, act, "task", ref)
	var p *Problem
	if errors.As(err, &p) && p.Code == app.CodeNotFound {
		raw, err = c.TrashAct(ctx, act, "document", ref)
		return "document", raw, err
	}
	return "task", raw, err
}

// plural is "n things", the s left off for one.
func plural(n int, thing string) string {
	s := strconv.Itoa(n) + " " + thing
	if n != 1 {
		s += "s"
	}
	return s
}

// trashEach acts on each ref in order and prints each answer, or all of
// them as one JSON array; the first refusal stops it, after what was done.
func trashEach(w *work, cmd *cobra.Command, refs []string, act func(ctx context.Context, c Client, ref string) (string, json.RawMessage, error),
	say func(kind string, rec trashRecord) string) error {
	return w.run(cmd, func(ctx context.Context, s *session) error {
		var all []json.RawMessage
		defer func() {
			if s.p.Format == FormatJSON && all != nil {
				_ = s.p.JSON(all)
			}
		}()
		for _, ref := range refs {
			kind, raw, err := act(ctx, s.c, ref)
			if err != nil {
				return err
			}
			all = append(all, raw)
			if s.p.Format == FormatJSON {
				continue
			}
			var rec trashRecord
			if err := json.Unmarshal(raw, &rec); err != nil {
				return err
			}
			s.p.line("%s", say(kind, rec))
		}
		return nil
	})
}

func newRmCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	var forever bool
	cmd := &cobra.Command{
		Use:   "rm REF…",
		Short: "Move tasks or documents to the trash (--forever: delete what is there for good)",
		Long: `Move each task or document to the trash, with everything under it: a task
with its subtasks, a document with its sub-documents. Nothing is lost: tend
trash lists the trash and tend untrash brings items back. With --forever, rm
deletes items already in the trash for good, with their subtrees, comments
and links; only the workspace's owners and administrators may, and it cannot
be undone. The refs are done in order; the first refusal stops the rest.`,
		Example:           `  tend rm 3`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeRefs(w),
		RunE: func(cmd *cobra.Command, args []string) error {
			if forever {
				return trashEach(w, cmd, args, func(ctx context.Context, c Client, ref string) (string, json.RawMessage, error) {
					return either(ctx, c, "purge", ref)
				}, func(kind string, rec trashRecord) string {
					s := "deleted #" + strconv.FormatInt(rec.Ref, 10) + " " + rec.Title + " forever"
					if rec.Along > 0 {
						s += ", with " + strconv.Itoa(rec.Along) + " more under it"
					}
					return s
				})
			}
			return trashEach(w, cmd, args, func(ctx context.Context, c Client, ref string) (string, json.RawMessage, error) {
				it, err := c.Show(ctx, ref)
				if err != nil {
					return "", nil, err
				}
				raw, err := c.TrashAct(ctx, "delete", it.Kind, ref)
				if err == nil && it.Task != nil {
					// The answer, read from the trash, counts no live
					// subtasks: say how many the task had.
					raw, err = withCount(raw, "sub_tasks", it.Task.SubTasks)
				}
				return it.Kind, raw, err
			}, func(kind string, rec trashRecord) string {
				s := "trashed #" + strconv.FormatInt(rec.Ref, 10) + " " + rec.Title
				switch {
				case kind == "task" && rec.SubTasks > 0:
					s += ", with its " + plural(rec.SubTasks, "subtask")
				case kind == "document" && rec.SubDocuments > 0:
					s += " (document), with its " + plural(rec.SubDocuments, "sub-document")
				case kind == "document":
					s += " (document)"
				}
				return s
			})
		},
	}
	w.flags(cmd)
	cmd.Flags().BoolVar(&forever, "forever", false, "delete items already in the trash for good (owners and administrators)")
	return cmd
}

// withCount sets a count in a record's JSON.
func withCount(raw json.RawMessage, key string, n int) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	m[key] = json.RawMessage(strconv.Itoa(n))
	return json.Marshal(m)
}

func newUntrashCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	cmd := &cobra.Command{
		Use:   "untrash REF…",
		Short: "Bring tasks or documents back from the trash",
		Long: `Bring each task or document back from the trash, with what was trashed
along with it. (tend restore is another thing: it restores the whole
database from a backup.)`,
		Example: `  tend untrash 3 --json`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return trashEach(w, cmd, args, func(ctx context.Context, c Client, ref string) (string, json.RawMessage, error) {
				return either(ctx, c, "restore", ref)
			}, func(kind string, rec trashRecord) string {
				s := "restored #" + strconv.FormatInt(rec.Ref, 10) + " " + rec.Title
				if kind == "document" {
					s += " (document)"
				}
				return s
			})
		},
	}
	w.flags(cmd)
	return cmd
}

func newTrashCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	return w.call(&cobra.Command{
		Use:   "trash",
		Short: "List the trash: deleted tasks and documents, newest first",
		Long: `List what is in the trash of the workspace: tasks and documents, the most
recently deleted first (up to 500 of each). tend untrash REF brings one back;
tend rm --forever REF deletes it for good.`,
		Example: `  tend trash`,
		Args:    cobra.NoArgs,
	}, func(ctx context.Context, s *session, args []string) error {
		var out struct {
			Tasks     json.RawMessage `json:"tasks"`
			Documents json.RawMessage `json:"documents"`
		}
		var err error
		if out.Tasks, err = s.c.Trashed(ctx, "task"); err != nil {
			return err
		}
		if out.Documents, err = s.c.Trashed(ctx, "document"); err != nil {
			return err
		}
		if s.p.Format == FormatJSON {
			return s.p.JSON(out)
		}
		return printTrash(s.p, out.Tasks, out.Documents)
	})
}

// printTrash prints the trash's two listings as one list, newest first.
func printTrash(p Printer, tasks, documents json.RawMessage) error {
	var rows []trashRecord
	for kind, raw := range map[string]json.RawMessage{"task": tasks, "document": documents} {
		var page struct {
			Items []trashRecord `json:"items"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return err
		}
		for _, r := range page.Items {
			r.Kind = kind
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		p.line("the trash is empty")
		return nil
	}
	slices.SortFunc(rows, func(a, b trashRecord) int {
		if c := strings.Compare(deref(b.DeletedAt), deref(a.DeletedAt)); c != 0 {
			return c
		}
		return int(b.Ref - a.Ref)
	})
	var cells [][]cell
	for _, r := range rows {
		when := deref(r.DeletedAt)
		if p.Format != FormatCompact {
			when, _ = p.When(when, false, "")
		}
		cells = append(cells, []cell{{"#" + strconv.FormatInt(r.Ref, 10), ""}, {r.Kind, ""}, {r.ProjectPath, ""}, {r.Title, ""}, {when, ""}})
	}
	if p.Format == FormatCompact {
		p.aligned(cells, "")
		return nil
	}
	p.table([]string{"REF", "KIND", "PROJECT", "TITLE", "DELETED"}, cells)
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
