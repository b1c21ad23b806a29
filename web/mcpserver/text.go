package mcpserver

import (
	"strconv"
	"strings"
	"tend/web/wire"
)

// The compact text a tool gives the model: one aligned line per item, refs
// as #N, only the fields that matter, and a note when more rows exist.

func documentLines(ds []wire.Document) string {
	rows := make([][]string, len(ds))
	for i, d := range ds {
		rows[i] = wire.DocumentLine(d)
	}
	return wire.LinesOr(rows, "no documents")
}

// moreNote tells the model that more rows exist and how to reach them.
func moreNote(more bool, shown int, how string) string {
	if !more {
		return ""
	}
	return "\n(" + strconv.Itoa(shown) + " shown, more exist: " + how + ")"
}

func refText(ref *int64) string {
	if ref == nil {
		return ""
	}
	return "#" + wire.Itoa64(*ref)
}

// quoteLine is s on one line, at most n characters, quoted.
func quoteLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return strconv.Quote(s)
}
