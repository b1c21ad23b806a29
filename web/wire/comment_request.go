package wire

import (
	"encoding/json"

	"tend/app"
)

// noParent is a comment's parent, read so that an attempt to thread a
// comment is refused saying why (app.CommentCreate's NamesParent).
type noParent struct {
	Parent   json.RawMessage `json:"parent,omitempty"`
	ParentID json.RawMessage `json:"parent_id,omitempty"`
}

func (n noParent) named() bool { return n.Parent != nil || n.ParentID != nil }

// CommentCreate is the body of POST .../comments.
type CommentCreate struct {
	Body string `json:"body,omitempty"`
	noParent
}

// App is the new comment as the Service takes it.
func (in CommentCreate) App() app.CommentCreate {
	return app.CommentCreate{Body: in.Body, NamesParent: in.named()}
}

// CommentUpdate is the body of PATCH /v1/comments/{comment_id}.
type CommentUpdate struct {
	Body            Patch[string] `json:"body"`
	ExpectedVersion *int          `json:"expected_version"`
	noParent
}

// App is the change as the Service takes it.
func (in CommentUpdate) App() app.CommentUpdate {
	return app.CommentUpdate{Body: in.Body.App(), ExpectedVersion: in.ExpectedVersion, NamesParent: in.named()}
}
