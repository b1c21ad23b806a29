package pages

import "strings"

// diffLine is one line of a diff as a page shows it: kept (' '), removed
// ('-'), added ('+'), or a run of unchanged lines left out ('…', with
// Skipped counting them).
type diffLine struct {
	Op      string
	Text    string
	Skipped int
}

// diffContext is how many unchanged lines a diff shows around a change.
const diffContext = 2

// diffCells bounds the table the longest common subsequence is found in;
// past it (two very long, very different texts) the differing middle is
// shown as removed and then added, which is still true, only coarser.
const diffCells = 1 << 20

// lineDiff is a readable line diff of from and to: the lines both keep,
// those only from has and those only to has, in order, with long runs of
// kept lines folded. It is for a person comparing two texts, not a patch.
func lineDiff(from, to string) []diffLine {
	a, b := splitLines(from), splitLines(to)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []diffLine
	for _, l := range a[:pre] {
		out = append(out, diffLine{Op: " ", Text: l})
	}
	out = append(out, middle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		out = append(out, diffLine{Op: " ", Text: l})
	}
	return fold(out)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n"), "\n")
}

// middle diffs the part of two texts between what they share at both
// ends, by their longest common subsequence of lines.
func middle(a, b []string) []diffLine {
	var out []diffLine
	if len(a)*len(b) > diffCells || len(a) == 0 || len(b) == 0 {
		for _, l := range a {
			out = append(out, diffLine{Op: "-", Text: l})
		}
		for _, l := range b {
			out = append(out, diffLine{Op: "+", Text: l})
		}
		return out
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, diffLine{Op: " ", Text: a[i]})
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			out = append(out, diffLine{Op: "-", Text: a[i]})
			i++
		default:
			out = append(out, diffLine{Op: "+", Text: b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, diffLine{Op: "-", Text: a[i]})
	}
	for ; j < len(b); j++ {
		out = append(out, diffLine{Op: "+", Text: b[j]})
	}
	return out
}

// fold leaves out the unchanged lines more than diffContext away from a
// change, each run of them as one '…' line; a diff without a change is
// empty.
func fold(ls []diffLine) []diffLine {
	near := make([]bool, len(ls))
	changed := false
	for i, l := range ls {
		if l.Op == " " {
			continue
		}
		changed = true
		for k := max(0, i-diffContext); k <= min(len(ls)-1, i+diffContext); k++ {
			near[k] = true
		}
	}
	if !changed {
		return nil
	}
	var out []diffLine
	for i, l := range ls {
		switch {
		case near[i]:
			out = append(out, l)
		case len(out) > 0 && out[len(out)-1].Op == "…":
			out[len(out)-1].Skipped++
		default:
			out = append(out, diffLine{Op: "…", Skipped: 1})
		}
	}
	return out
}
