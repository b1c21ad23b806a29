package app

import (
	"context"
	"regexp"
	"slices"
	"strconv"
)

// mentionRe finds #<ref> written as a word of its own: "see #42" and
// "(#42)" mention 42, "issue#42", "&#42;" and "#42a" do not.
var mentionRe = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_&#/])#([1-9][0-9]{0,17})\b`)

// mentionedRefs lists the refs mentioned in texts, each once, in order of
// first appearance.
func mentionedRefs(texts ...string) []int64 {
	var out []int64
	for _, t := range texts {
		for _, m := range mentionRe.FindAllStringSubmatch(t, -1) {
			n, err := strconv.ParseInt(m[1], 10, 64)
			if err == nil && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

type mentionTx interface {
	// ItemIDsByRef resolves refs of a workspace to task and document ids,
	// trashed ones included; refs nothing holds are left out.
	ItemIDsByRef(ctx context.Context, workspaceID string, refs []int64) (map[int64]string, error)
	// SetMentions replaces what one source's text mentions.
	SetMentions(ctx context.Context, workspaceID, sourceType, sourceID string, targetIDs []string) error
}

// mentionSource is a text being written: a task, document or comment.
type mentionSource struct {
	WorkspaceID string
	Type        string // task, document or comment
	ID          string
	// Self is the item itself, or the item a comment is on: it is never
	// recorded as mentioning itself.
	Self string
	// New skips clearing earlier mentions: a new source has none.
	New bool
}

// noteMentions records, when a text is written, which items it mentions, so
// backlinks are read from a table and never found by scanning text. Call it
// only when the text changed. A ref that names nothing yet is not recorded.
func noteMentions(ctx context.Context, tx Tx, src mentionSource, texts ...string) error {
	refs := mentionedRefs(texts...)
	if len(refs) == 0 && src.New {
		return nil
	}
	var ids []string
	if len(refs) > 0 {
		byRef, err := tx.ItemIDsByRef(ctx, src.WorkspaceID, refs)
		if err != nil {
			return err
		}
		for _, r := range refs {
			if id, ok := byRef[r]; ok && id != src.Self {
				ids = append(ids, id)
			}
		}
	}
	return tx.SetMentions(ctx, src.WorkspaceID, src.Type, src.ID, ids)
}
