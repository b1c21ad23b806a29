package background

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestChunkCut: a chunk ends after white space in the window's second
// half, the next starts at white space at most DocumentChunkOverlap bytes
// before the cut, and a body without spaces is cut between characters.
func TestChunkCut(t *testing.T) {
	words := []byte(strings.Repeat("word ", DocumentChunkBytes/5+10))[:DocumentChunkBytes]
	end, next := chunkCut(words, false)
	if words[end-1] != ' ' || end < DocumentChunkBytes-5 {
		t.Fatalf("cut at %d, after %q", end, words[end-1])
	}
	if next > int64(end) || next < int64(end-DocumentChunkOverlap) || words[next] != ' ' {
		t.Fatalf("next chunk at %d for a cut at %d", next, end)
	}
	if end, next := chunkCut(words[:100], true); end != 100 || next != -1 {
		t.Fatalf("the last window: %d, %d", end, next)
	}

	// No space at all: cut before the character the window may split.
	solid := []byte(strings.Repeat("é", DocumentChunkBytes))[:DocumentChunkBytes]
	end, next = chunkCut(solid, false)
	if !utf8.Valid(solid[:end]) || end < DocumentChunkBytes-utf8.UTFMax || next != int64(end) {
		t.Fatalf("a body without spaces cut at %d, next %d", end, next)
	}
	// Spaces only in the first half do not make a tiny chunk.
	half := append([]byte("a b "), solid[4:]...)
	if end, _ := chunkCut(half, false); end < DocumentChunkBytes/2 {
		t.Fatalf("cut at %d, in the first half", end)
	}
	// A window that is no text still moves on.
	junk := []byte(strings.Repeat("\x80", 64))
	if end, next := chunkCut(junk, false); end != 64 || next != 64 {
		t.Fatalf("junk cut at %d, next %d", end, next)
	}
}
