package app

import (
	"context"
	"strings"
)

// maxCommentsSearched bounds how many of an item's comments a withdrawal by
// words reads; comments are written by people, so an item rarely has more.
const maxCommentsSearched = 1000

// WithdrawCommentByWords withdraws the caller's own live comment on a task,
// document or project that contains every one of words (case-insensitive).
// Words matching none of the caller's comments answer not_found; words
// matching several answer ambiguous, quoting each so the caller can add a
// word that tells them apart.
func (s *Service) WithdrawCommentByWords(ctx context.Context, a Actor, workspace, entity, idOrRef, words string) (Comment, error) {
	terms := strings.Fields(strings.ToLower(words))
	if len(terms) == 0 {
		return Comment{}, Invalidf("body.body", "name the comment to withdraw by words from it")
	}
	var out Comment
	err := s.store.Update(ctx, func(tx Tx) error {
		it, err := addressedItem(ctx, tx, a, workspace, entity, idOrRef)
		if err != nil {
			return err
		}
		if err := it.requireRead(); err != nil {
			return err
		}
		cs, err := tx.Comments(ctx, it.ID, 0, maxCommentsSearched)
		if err != nil {
			return err
		}
		var hits []Comment
		for _, c := range cs {
			if c.AuthorID == a.User.ID && containsAll(strings.ToLower(c.Body), terms) {
				hits = append(hits, c)
			}
		}
		switch len(hits) {
		case 0:
			return &Error{Code: CodeNotFound, Detail: "none of your comments here contains " + quote(words) + "; read them with the item's comments listing"}
		case 1:
			out = hits[0]
			return withdraw(ctx, tx, a, it, &out)
		}
		quoted := make([]string, len(hits))
		for i, c := range hits {
			quoted[i] = quote(excerpt(c.Body, 60))
		}
		return &Error{Code: CodeAmbiguous, Detail: itoa(len(hits)) + " of your comments contain " + quote(words) + ": " +
			strings.Join(quoted, "; ") + "; send more words from the one to withdraw",
			Extra: map[string]any{"matches": quoted}}
	})
	return out, err
}

func containsAll(s string, terms []string) bool {
	for _, t := range terms {
		if !strings.Contains(s, t) {
			return false
		}
	}
	return true
}

func quote(s string) string { return "\u201c" + s + "\u201d" }

// excerpt is the first n characters of s on one line, marked when cut.
func excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "\u2026"
	}
	return s
}
