package wire

import (
	"math"
	"net/http"
	"strconv"
	"unicode/utf8"
)

// A page of tasks is 50 records of some sixty fields; encoding/json spent
// more time reflecting over them than the database spent reading them. The
// functions here write the same bytes as json.Encoder with its defaults
// (HTML-escaped strings, a newline at the end), which
// TestTaskEncoderMatchesEncodingJSON checks field for field.

// WriteTask answers with one full task record.
func WriteTask(w http.ResponseWriter, status int, t Task) error {
	b, ok := AppendTask(make([]byte, 0, 2048), &t)
	if !ok {
		return WriteJSON(w, status, t)
	}
	return writeBody(w, status, append(b, '\n'))
}

// WriteTaskPage answers with a page of full task records, and the links
// among them when asked for.
func WriteTaskPage(w http.ResponseWriter, status int, out TaskList, items []Task) error {
	b := make([]byte, 0, 1600*len(items)+256)
	b = append(b, `{"items":[`...)
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = AppendTask(b, &items[i]); !ok {
			out.Items = items
			return WriteJSON(w, status, out)
		}
	}
	b = append(b, ']')
	if out.Page != nil {
		b = append(b, `,"page":`...)
		b = appendPage(b, out.Page)
	}
	if out.Links != nil && *out.Links == nil {
		b = append(b, `,"links":null`...)
	} else if out.Links != nil {
		b = append(b, `,"links":[`...)
		for i, l := range *out.Links {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = appendString(b, l.ID)
			b = append(b, `,"link_type":`...)
			b = appendString(b, l.LinkType)
			b = append(b, `,"label":`...)
			b = appendString(b, l.Label)
			b = append(b, `,"source":`...)
			b = strconv.AppendInt(b, l.Source, 10)
			b = append(b, `,"target":`...)
			b = strconv.AppendInt(b, l.Target, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return writeBody(w, status, append(b, "}\n"...))
}

func writeBody(w http.ResponseWriter, status int, b []byte) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, err := w.Write(b)
	return err
}

func appendPage(b []byte, p *Page) []byte {
	b = append(b, `{"has_more":`...)
	b = strconv.AppendBool(b, p.HasMore)
	b = append(b, `,"held_back":`...)
	b = appendIntPtr(b, p.HeldBack)
	b = append(b, `,"limit":`...)
	b = appendIntPtr(b, p.Limit)
	b = append(b, `,"next_cursor":`...)
	b = appendStringPtr(b, p.NextCursor)
	b = append(b, `,"total":`...)
	b = appendIntPtr(b, p.Total)
	b = append(b, `,"unread":`...)
	if p.Unread == nil {
		b = append(b, "null"...)
	} else {
		b = appendStrings(b, p.Unread)
	}
	return append(b, '}')
}

// AppendTask appends t as encoding/json would; false means a number has no
// JSON form (NaN or an infinity), which encoding/json reports as an error.
func AppendTask(b []byte, t *Task) ([]byte, bool) {
	ok := true
	b = append(b, '{')
	b = appendItemHead(b, &t.itemHeadJSON)
	b = append(b, `,"description":`...)
	b = appendStringPtr(b, t.Description)
	b = append(b, ',')
	b = appendItemState(b, &t.itemStateJSON)
	b = append(b, `,"project":`...)
	b = appendString(b, t.Project)
	b = append(b, `,"project_id":`...)
	b = appendString(b, t.ProjectID)
	b = append(b, `,"project_path":`...)
	b = appendString(b, t.ProjectPath)
	b = append(b, `,"workspace":`...)
	b = appendStringPtr(b, t.Workspace)
	b = append(b, `,"workspace_id":`...)
	b = appendString(b, t.WorkspaceID)
	b = append(b, `,"parent":`...)
	b = appendStringPtr(b, t.Parent)
	b = append(b, `,"parent_ref":`...)
	if t.ParentRef == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, *t.ParentRef, 10)
	}
	b = append(b, `,"tags":`...)
	if t.Tags == nil {
		b = append(b, "null"...)
	} else {
		b = appendStrings(b, t.Tags)
	}
	b = append(b, `,"assignee":`...)
	b = appendStringPtr(b, t.Assignee)
	b = append(b, `,"assignee_id":`...)
	b = appendStringPtr(b, t.AssigneeID)
	b = append(b, `,"assignee_answers_to":`...)
	b = appendStringPtr(b, t.AssigneeAnswersTo)
	b = append(b, `,"assignee_is_agent":`...)
	b = strconv.AppendBool(b, t.AssigneeIsAgent)
	b = append(b, ',')
	b = appendTaskClaim(b, &t.taskClaimJSON)
	b = append(b, `,"claimed_at":`...)
	b = appendStringPtr(b, t.ClaimedAt)
	b = append(b, `,"claim_expires_at":`...)
	b = appendStringPtr(b, t.ClaimExpiresAt)
	b = append(b, `,"importance":`...)
	b = appendIntPtr(b, t.Importance)
	b = append(b, `,"urgency":`...)
	b = appendIntPtr(b, t.Urgency)
	b = append(b, `,"priority_score":`...)
	b, ok = appendFloat(b, t.PriorityScore, ok)
	b = append(b, `,"relevance":`...)
	if t.Relevance == nil {
		b = append(b, "null"...)
	} else {
		b, ok = appendFloat(b, *t.Relevance, ok)
	}
	b = append(b, `,"estimate_minutes":`...)
	b = appendIntPtr(b, t.EstimateMinutes)
	b = append(b, `,"due_at":`...)
	b = appendStringPtr(b, t.DueAt)
	b = append(b, `,"due_is_all_day":`...)
	b = strconv.AppendBool(b, t.DueIsAllDay)
	b = append(b, `,"starts_at":`...)
	b = appendStringPtr(b, t.StartsAt)
	b = append(b, `,"starts_is_all_day":`...)
	b = strconv.AppendBool(b, t.StartsIsAllDay)
	b = append(b, ',')
	b = appendTaskWhen(b, &t.taskWhenJSON)
	b = append(b, `,"repeat_rule":`...)
	b = appendStringPtr(b, t.RepeatRule)
	b = append(b, `,"series_id":`...)
	b = appendStringPtr(b, t.SeriesID)
	b = append(b, `,"occurrence":`...)
	b = appendIntPtr(b, t.Occurrence)
	b = append(b, `,"blocked":`...)
	b = strconv.AppendBool(b, t.Blocked)
	b = append(b, `,"blocking":`...)
	b = strconv.AppendBool(b, t.Blocking)
	b = append(b, `,"sub_tasks":`...)
	b = strconv.AppendInt(b, int64(t.SubTasks), 10)
	b = append(b, `,"sub_tasks_done":`...)
	b = strconv.AppendBool(b, t.SubTasksDone)
	b = append(b, `,"sub_documents":`...)
	b = strconv.AppendInt(b, int64(t.SubDocuments), 10)
	b = append(b, `,"completed_at":`...)
	b = appendStringPtr(b, t.CompletedAt)
	b = append(b, `,"created_at":`...)
	b = appendString(b, t.CreatedAt)
	b = append(b, `,"created_by":`...)
	b = appendStringPtr(b, t.CreatedBy)
	b = append(b, `,"updated_at":`...)
	b = appendString(b, t.UpdatedAt)
	b = append(b, `,"updated_by":`...)
	b = appendStringPtr(b, t.UpdatedBy)
	b = append(b, `,"content_updated_at":`...)
	b = appendString(b, t.ContentUpdatedAt)
	b = append(b, `,"deleted_at":`...)
	b = appendStringPtr(b, t.DeletedAt)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, int64(t.Version), 10)
	return append(b, '}'), ok
}

// appendItemHead appends the members of an itemHeadJSON, without braces.
func appendItemHead(b []byte, h *itemHeadJSON) []byte {
	b = append(b, `"id":`...)
	b = appendString(b, h.ID)
	b = append(b, `,"ref":`...)
	b = strconv.AppendInt(b, h.Ref, 10)
	b = append(b, `,"title":`...)
	return appendString(b, h.Title)
}

// appendItemState appends the members of an itemStateJSON, without braces.
func appendItemState(b []byte, s *itemStateJSON) []byte {
	b = append(b, `"type":`...)
	b = appendString(b, s.Type)
	b = append(b, `,"type_label":`...)
	b = appendString(b, s.TypeLabel)
	b = append(b, `,"type_category":`...)
	b = appendString(b, s.TypeCategory)
	b = append(b, `,"type_is_default":`...)
	b = strconv.AppendBool(b, s.TypeIsDefault)
	b = append(b, `,"status":`...)
	b = appendString(b, s.Status)
	b = append(b, `,"status_label":`...)
	b = appendString(b, s.StatusLabel)
	b = append(b, `,"status_category":`...)
	b = appendString(b, s.StatusCategory)
	b = append(b, `,"status_is_default":`...)
	b = strconv.AppendBool(b, s.StatusIsDefault)
	b = append(b, `,"is_complete":`...)
	return strconv.AppendBool(b, s.IsComplete)
}

// appendTaskClaim appends the members of a taskClaimJSON, without braces.
func appendTaskClaim(b []byte, c *taskClaimJSON) []byte {
	b = append(b, `"claimed_by":`...)
	b = appendStringPtr(b, c.ClaimedBy)
	b = append(b, `,"claimed_by_id":`...)
	b = appendStringPtr(b, c.ClaimedByID)
	b = append(b, `,"claimed_by_answers_to":`...)
	b = appendStringPtr(b, c.ClaimedByAnswersTo)
	b = append(b, `,"claimed_by_is_agent":`...)
	return strconv.AppendBool(b, c.ClaimedByIsAgent)
}

// appendTaskWhen appends the members of a taskWhenJSON, without braces.
func appendTaskWhen(b []byte, w *taskWhenJSON) []byte {
	b = append(b, `"snoozed_until":`...)
	b = appendStringPtr(b, w.SnoozedUntil)
	b = append(b, `,"snoozed_is_all_day":`...)
	b = strconv.AppendBool(b, w.SnoozedIsAllDay)
	b = append(b, `,"recurrence_description":`...)
	b = appendStringPtr(b, w.RecurrenceDescription)
	b = append(b, `,"timezone":`...)
	return appendStringPtr(b, w.Timezone)
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

func appendIntPtr(b []byte, n *int) []byte {
	if n == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(*n), 10)
}

// appendFloat formats f as encoding/json does: like ES6, with 'e' only
// for very small or very large magnitudes and no zero-padded exponent.
func appendFloat(b []byte, f float64, ok bool) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, '0'), false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b, ok
}

const hexDigits = "0123456789abcdef"

// appendString quotes s as encoding/json does by default: <, > and & are
// escaped for HTML, as are U+2028 and U+2029, and invalid UTF-8 becomes
// U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
