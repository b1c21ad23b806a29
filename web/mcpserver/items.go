package mcpserver

import (
	"context"
	"strconv"
	"strings"

	"tend/app"
	"tend/web/wire"
)

type commentArgs struct {
	Body      string `json:"body" jsonschema:"the comment (Markdown); with remove, words from the comment to withdraw"`
	Ref       refArg `json:"ref" jsonschema:"the task's or document's ref"`
	Remove    bool   `json:"remove,omitempty" jsonschema:"withdraw your own comment that contains these words"`
	Workspace string `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

func (m *toolbox) toolComment(ctx context.Context, a app.Actor, in commentArgs) (string, commentOut, error) {
	ref := strings.TrimPrefix(string(in.Ref), "#")
	if in.Remove {
		c, err := m.s.app.WithdrawCommentByWords(ctx, a, in.Workspace, app.AnyItem, ref, in.Body)
		if err != nil {
			return "", commentOut{}, argError(err)
		}
		return "withdrew your comment " + quoteLine(c.Body, 80) + " on #" + ref, commentOut{Comment: wire.NewComment(c)}, nil
	}
	c, err := m.s.app.AddComment(ctx, a, in.Workspace, app.AnyItem, ref, app.CommentCreate{Body: in.Body})
	if err != nil {
		return "", commentOut{}, argError(err)
	}
	return "commented on #" + ref, commentOut{Comment: wire.NewComment(c)}, nil
}

type commentOut struct {
	Comment wire.Comment `json:"comment"`
}

// documentOut is one document as structuredContent, with the links it
// was filed with when created with links.
type documentOut struct {
	Document wire.Document `json:"document"`
	Links    []wire.Link   `json:"links,omitempty"`
}

// linkArg is one link a new document is filed with: the names of the HTTP
// LinkRequest, from the new document to the target. The ref says whether
// the target is a task or a document; service_link makes any other link.
type linkArg struct {
	LinkType string `json:"link_type" jsonschema:"link type key, e.g. relates_to or documents"`
	Target   refArg `json:"target"`
}

type documentArgs struct {
	Body            *string   `json:"body,omitempty" jsonschema:"the text (Markdown)"`
	ExpectedVersion *int      `json:"expected_version,omitempty" jsonschema:"refuse the revision if the document moved on"`
	Links           []linkArg `json:"links,omitempty" jsonschema:"on creating: links from it, made with it"`
	Parent          *refArg   `json:"parent,omitempty" jsonschema:"ref of the document to nest under"`
	Project         *string   `json:"project,omitempty" jsonschema:"project key"`
	Ref             refArg    `json:"ref,omitempty" jsonschema:"revise this document instead of creating one"`
	Status          *string   `json:"status,omitempty" jsonschema:"document status key; omitted puts a new document in force"`
	Tags            []string  `json:"tags,omitempty" jsonschema:"tags, without '#'"`
	Title           *string   `json:"title,omitempty" jsonschema:"title"`
	Type            *string   `json:"type,omitempty" jsonschema:"note, spec, design, decision, finding or dead_end"`
	Workspace       string    `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

func (m *toolbox) toolDocument(ctx context.Context, a app.Actor, in documentArgs) (string, documentOut, error) {
	var d app.Document
	var err error
	verb := "created "
	if in.Ref == "" {
		c := app.DocumentCreate{Title: wire.Deref(in.Title), Body: in.Body, Type: wire.Deref(in.Type), Status: wire.Deref(in.Status),
			Project: wire.Deref(in.Project), Tags: in.Tags}
		if in.Parent != nil {
			c.Parent = app.FlexRef(*in.Parent)
		}
		for _, l := range in.Links {
			c.Links = append(c.Links, app.LinkRequest{LinkType: l.LinkType, Target: app.FlexRef(l.Target)})
		}
		d, err = m.s.app.CreateDocument(ctx, a, in.Workspace, c)
	} else if in.Links != nil {
		return "", documentOut{}, app.Invalidf("arguments.links", "links are made with a new document; service_link links one that exists")
	} else {
		verb = "revised "
		up := app.DocumentUpdate{Title: patchOf(in.Title), Body: patchOf(in.Body), Type: patchOf(in.Type),
			Status: patchOf(in.Status), Project: patchOf(in.Project), ExpectedVersion: in.ExpectedVersion}
		if in.Tags != nil {
			up.Tags = app.PatchOf(in.Tags)
		}
		if in.Parent != nil {
			up.Parent = app.PatchOf(app.FlexRef(*in.Parent))
		}
		d, err = m.s.app.UpdateDocument(ctx, a, in.Workspace, strings.TrimPrefix(string(in.Ref), "#"), up)
	}
	if err != nil {
		return "", documentOut{}, argError(err)
	}
	j := wire.NewDocument(d)
	j.Body = nil // the caller has just written it; service_show reads it back
	out := documentOut{Document: j}
	text := verb + strings.Join(wire.AlignRows([][]string{wire.DocumentLine(j)}), "") + " · version " + strconv.Itoa(j.Version)
	if len(d.Links) > 0 {
		out.Links = wire.NewLinks(d.Links)
		text += "\n" + linkRows(d.Links, "linked")
	}
	return text, out, nil
}

// linkRows is one aligned line for each link: the verb, the link's label
// from this end, and the far end.
func linkRows(ls []app.LinkView, verb string) string {
	rows := make([][]string, len(ls))
	for i, l := range ls {
		rows[i] = []string{verb, l.Label, "#" + wire.Itoa64(l.Other.Ref()), l.Other.Task.Title + l.Other.Document.Title}
	}
	return wire.LinesOr(rows, "no links")
}

type linkArgs struct {
	Other     refsArg `json:"other" jsonschema:"the other end: a ref, or an array of refs"`
	Ref       refsArg `json:"ref" jsonschema:"this end: a ref, or an array of refs"`
	Remove    bool    `json:"remove,omitempty" jsonschema:"remove the links instead"`
	Type      string  `json:"type,omitempty" jsonschema:"link type key (default relates_to); 'blocks' is what readiness reads"`
	Workspace string  `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

type linksOut struct {
	Items []wire.Link `json:"items"`
}

func (m *toolbox) toolLink(ctx context.Context, a app.Actor, in linkArgs) (string, linksOut, error) {
	ls, err := m.s.app.LinkItems(ctx, a, app.LinkItems{Workspace: in.Workspace, Refs: in.Ref.strings(), Others: in.Other.strings(),
		Type: in.Type, Remove: in.Remove})
	if err != nil {
		return "", linksOut{}, argError(err)
	}
	verb := "linked"
	if in.Remove {
		verb = "unlinked"
	}
	return linkRows(ls, verb), linksOut{Items: wire.NewLinks(ls)}, nil
}

type projectArgs struct {
	Key       string  `json:"key,omitempty" jsonschema:"permanent, lower case"`
	Parent    *string `json:"parent,omitempty" jsonschema:"key of the project to file it under"`
	Private   *bool   `json:"private,omitempty" jsonschema:"seen only by its members"`
	Title     *string `json:"title,omitempty" jsonschema:"title"`
	Workspace string  `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

type projectsOut struct {
	Items []wire.Project `json:"items"`
}

// toolProject lists projects without a key. With a key and a title it
// creates the project, or changes the one that has that key already;
// with a key and no title it changes an existing one.
func (m *toolbox) toolProject(ctx context.Context, a app.Actor, in projectArgs) (string, projectsOut, error) {
	var ps []app.ProjectView
	var err error
	verb := ""
	if in.Key == "" {
		if in.Parent != nil || in.Private != nil || in.Title != nil {
			return "", projectsOut{}, app.Invalidf("arguments.key", "name the project's key to create or change it")
		}
		ps, err = m.s.app.Projects(ctx, a, in.Workspace, false)
	} else {
		var p app.ProjectView
		p, verb, err = m.putProject(ctx, a, in)
		ps = []app.ProjectView{p}
	}
	if err != nil {
		return "", projectsOut{}, argError(err)
	}
	out := projectsOut{Items: make([]wire.Project, len(ps))}
	rows := make([][]string, len(ps))
	for i, p := range ps {
		out.Items[i] = wire.NewProject(p)
		rows[i] = []string{verb + p.Path, p.Visibility, p.Status.Key, p.Title}
	}
	return wire.LinesOr(rows, "no projects"), out, nil
}

// putProject creates or changes the project by key, saying which it did.
func (m *toolbox) putProject(ctx context.Context, a app.Actor, in projectArgs) (app.ProjectView, string, error) {
	put := app.ProjectPut{Key: in.Key, Title: in.Title, Parent: in.Parent}
	if in.Private != nil {
		put.Visibility = "public"
		if *in.Private {
			put.Visibility = "private"
		}
	}
	p, created, err := m.s.app.PutProject(ctx, a, in.Workspace, put)
	if created {
		return p, "created ", err
	}
	return p, "changed ", err
}
