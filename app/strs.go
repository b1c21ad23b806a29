package app

import (
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

func joinWords(ws []string) string { return strings.Join(ws, ", ") }
