package app

import (
	"slices"
	"strconv"
	"strings"
)

// feedActions reads the feed's action filter: actions separated by commas,
// each one of Actions or a kind followed by ".*" (task.*), which stands for
// every action of that kind. Both expand to the exact list the store
// matches, so the filter runs in SQL on the action column alone.
func feedActions(list string, loc Locator) ([]string, error) {
	var out []string
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		n := len(out)
		for _, known := range Actions {
			if known == a || (strings.HasSuffix(a, ".*") && strings.HasPrefix(known, strings.TrimSuffix(a, "*"))) {
				out = append(out, known)
			}
		}
		if len(out) == n {
			return nil, Invalidf(loc.at("action"), "no event action is %s%s; give actions such as task.completed, or a kind with .* (task.*), "+
				"separated by commas: event_actions in GET /v1/meta lists them", strconv.Quote(a), DidYouMean(a, Actions))
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// feedNarrowing applies the feed's action and project filters to f, and
// adds them to the cursor's signature. A project is the one named and every
// project under it; one the caller cannot see answers as one that does not
// exist, and workspace-level events, which belong to no project, are left
// out.
func feedNarrowing(sc *scope, q FeedQuery, f *EventFilter) (string, error) {
	if q.Actions != "" {
		as, err := feedActions(q.Actions, q.Loc)
		if err != nil {
			return "", err
		}
		f.Actions = jsonList(as)
	}
	if q.Project != "" {
		n, err := sc.project(q.Project)
		if err != nil {
			return "", bodyRef(err, q.Loc.at("project"), "no such project: "+q.Project)
		}
		var ids []string
		for _, d := range n.subtree() {
			ids = append(ids, d.ID)
		}
		f.InProjects = jsonList(ids)
	}
	if f.Actions == "" && f.InProjects == "" {
		return "", nil
	}
	return "|action " + f.Actions + "|project " + f.InProjects, nil
}
