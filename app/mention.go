package app

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// mentionRe finds #<ref> written as a word of its own: "see #42" and
// "(#42)" mention 42, "issue#42", "&#42;" and "#42a" do not.
var mentionRe = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_&#/])#([1-9][0-9]{0,17})\b`)

// mentionedRefs lists the refs mentioned in texts, each once, in order of
// first appearance.
func mentionedRefs(texts ...string) []int64 {
	var out []int64
	seen := map[int64]bool{}
	for _, t := range texts {
		for _, m := range mentionRe.FindAllStringSubmatch(t, -1) {
			n, err := strconv.ParseInt(m[1], 10, 64)
			if err == nil && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// joinRefs is the refs of a, then those of b not in a: what mentionedRefs
// answers for two texts, given each one's refs.
func joinRefs(a, b []int64) []int64 {
	out := slices.Clone(a)
	for _, n := range b {
		if !slices.Contains(a, n) {
			out = append(out, n)
		}
	}
	return out
}

// checkMentions refuses a text mentioning more than max_mentions_per_text
// items: each becomes a row written in the request's transaction.
func (s *Service) checkMentions(loc, text string) error {
	if !strings.Contains(text, "#") {
		return nil
	}
	return checkCount(loc, len(mentionedRefs(text)), s.limits.MaxMentionsPerText, "max_mentions_per_text")
}

type mentionTx interface {
	// SetMentions replaces what one source's text mentions.
	SetMentions(ctx context.Context, m MentionWrite) error
}

// MentionWrite is what one text mentions, for the store to record.
type MentionWrite struct {
	WorkspaceID string
	SourceType  string // task, document or comment
	SourceID    string
	// Self is the item itself, or the item a comment is on: it is never
	// recorded as mentioning itself.
	Self string
	// Refs are the refs written; those no task or document of the
	// workspace holds are not recorded.
	Refs []int64
	// Clear removes what the source mentioned before; a new source has nothing to clear.
	Clear bool
}

// mentionSource is a text being written: a task, document or comment.
type mentionSource struct {
	WorkspaceID string
	Type        string // task, document or comment
	ID          string
	Self        string // see MentionWrite
	// New skips clearing earlier mentions: a new source has none.
	New bool
}

// noteMentions records, when a text is written, which items it mentions, so
// backlinks are read from a table and never found by scanning text. Call it
// only when the text changed. A ref that names nothing yet is not recorded.
func noteMentions(ctx context.Context, tx Tx, src mentionSource, texts ...string) error {
	return noteRefs(ctx, tx, src, mentionedRefs(texts...))
}

// noteRefs is noteMentions given the refs the texts mention, found before
// the transaction: finding them in a large text takes longer than writing them.
func noteRefs(ctx context.Context, tx Tx, src mentionSource, refs []int64) error {
	if len(refs) == 0 && src.New {
		return nil
	}
	return tx.SetMentions(ctx, MentionWrite{WorkspaceID: src.WorkspaceID, SourceType: src.Type, SourceID: src.ID, Self: src.Self,
		Refs: refs, Clear: !src.New})
}
