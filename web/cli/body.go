package cli

import (
	"net/url"
	"strconv"
	"time"

	"tend/app"
	"tend/web/wire"
)

// The JSON bodies and query strings of the routes a Client calls, written
// from the domain's request types field by field, as docs/api.md documents
// them. Remote sends them; Local checks them as the server would
// (wire.CheckBody) before it calls the Service with the request itself.

// tagLimit is how many tags completion offers: the first page of that many.
const tagLimit = 200

// body is a JSON object under construction; fields left out stay out.
type body map[string]any

func (b body) str(key, v string) {
	if v != "" {
		b[key] = v
	}
}

func (b body) int(key string, v *int) {
	if v != nil {
		b[key] = *v
	}
}

func (b body) time(key string, v *time.Time) {
	if v != nil {
		b[key] = wire.Stamp(*v)
	}
}

// patch writes a partial update's field: absent, null, or its value.
func patch[T any](b body, key string, p app.Patch[T], conv func(T) any) {
	switch {
	case !p.Set:
	case p.Null:
		b[key] = nil
	case conv != nil:
		b[key] = conv(p.Value)
	default:
		b[key] = p.Value
	}
}

func stamp(t time.Time) any { return wire.Stamp(t) }

func taskCreateBody(in app.TaskCreate) body {
	b := body{}
	b.str("text", in.Text)
	b.str("title", in.Title)
	b.str("description", in.Description)
	b.str("project", in.Project)
	b.str("parent", string(in.Parent))
	b.str("type", in.Type)
	b.str("status", in.Status)
	if in.Tags != nil {
		b["tags"] = in.Tags
	}
	b.str("assignee", in.Assignee)
	b.int("importance", in.Importance)
	b.int("urgency", in.Urgency)
	b.time("due_at", in.DueAt)
	if in.DueIsAllDay {
		b["due_is_all_day"] = true
	}
	b.time("starts_at", in.StartsAt)
	if in.StartsIsAllDay {
		b["starts_is_all_day"] = true
	}
	b.int("estimate_minutes", in.EstimateMinutes)
	b.str("repeat", in.Repeat)
	b.str("timezone", in.Timezone)
	return b
}

func taskUpdateBody(in app.TaskUpdate) body {
	b := body{}
	patch(b, "title", in.Title, nil)
	patch(b, "description", in.Description, nil)
	patch(b, "project", in.Project, nil)
	patch(b, "parent", in.Parent, func(r app.FlexRef) any { return string(r) })
	patch(b, "type", in.Type, nil)
	patch(b, "status", in.Status, nil)
	patch(b, "tags", in.Tags, nil)
	patch(b, "assignee", in.Assignee, nil)
	patch(b, "importance", in.Importance, nil)
	patch(b, "urgency", in.Urgency, nil)
	patch(b, "due_at", in.DueAt, stamp)
	patch(b, "due_is_all_day", in.DueIsAllDay, nil)
	patch(b, "starts_at", in.StartsAt, stamp)
	patch(b, "starts_is_all_day", in.StartsIsAllDay, nil)
	patch(b, "snoozed_until", in.SnoozedUntil, stamp)
	patch(b, "snoozed_is_all_day", in.SnoozedIsAllDay, nil)
	patch(b, "estimate_minutes", in.EstimateMinutes, nil)
	patch(b, "repeat", in.Repeat, nil)
	patch(b, "timezone", in.Timezone, nil)
	patch(b, "applies_to", in.AppliesTo, nil)
	patch(b, "defer", in.Defer, nil)
	patch(b, "plan", in.Plan, nil)
	patch(b, "until", in.Until, nil)
	b.int("expected_version", in.ExpectedVersion)
	return b
}

// completionBody is the body of .../complete: none without a verification.
func completionBody(in app.Completion) any {
	if in.Verification == nil {
		return nil
	}
	v := body{}
	if p := in.Verification.Passed; p != nil {
		v["passed"] = *p
	}
	for key, s := range map[string]*string{"summary": in.Verification.Summary, "commit_sha": in.Verification.CommitSHA,
		"tree_hash": in.Verification.TreeHash, "output_excerpt": in.Verification.OutputExcerpt} {
		if s != nil {
			v[key] = *s
		}
	}
	return body{"verification": v}
}

// claimBody is the body of .../claim: none for the lease in force.
func claimBody(minutes *int) any {
	if minutes == nil {
		return nil
	}
	return body{"minutes": *minutes}
}

func commentBody(in app.CommentCreate) body { return body{"body": in.Body} }

func linkBody(in app.LinkRequest) body {
	b := body{"link_type": in.LinkType, "target": string(in.Target)}
	b.str("direction", in.Direction)
	b.str("target_type", in.TargetType)
	return b
}

func documentCreateBody(in app.DocumentCreate) body {
	b := body{}
	b.str("title", in.Title)
	if in.Body != nil {
		b["body"] = *in.Body
	}
	b.str("type", in.Type)
	b.str("status", in.Status)
	b.str("project", in.Project)
	b.str("parent", string(in.Parent))
	if in.Tags != nil {
		b["tags"] = in.Tags
	}
	if len(in.Links) > 0 {
		links := make([]body, len(in.Links))
		for i, l := range in.Links {
			links[i] = linkBody(l)
		}
		b["links"] = links
	}
	return b
}

func searchQuery(in app.ItemSearchQuery) url.Values {
	q := url.Values{"q": {in.Q}}
	setIf(q, "project", in.Project)
	if in.Limit != 0 {
		q.Set("limit", strconv.Itoa(in.Limit))
	}
	return q
}

func nextQuery(in app.NextClaim) url.Values {
	q := url.Values{}
	setIf(q, "project", in.Project)
	setIf(q, "tag", in.Tag)
	setIf(q, "type", in.Type)
	setIf(q, "assignee", in.Assignee)
	if in.Minutes != nil {
		q.Set("minutes", strconv.Itoa(*in.Minutes))
	}
	return q
}
