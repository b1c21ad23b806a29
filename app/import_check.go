package app

import "encoding/json"

// An import writes each record as its file has it, but nothing the API
// would refuse: importChecks holds, by kind of record and field, the check
// the API's create and update paths run on the same value. The store
// refuses a value of the wrong kind for its column and what the schema's
// own rules forbid; references are the import's id map's (import.go).

// MaxExactInteger is the largest integer every JSON client reads exactly
// (2^53−1): the bound on the numbers an import keeps, such as refs and
// sequence numbers, which are counted on from there.
const MaxExactInteger = 1<<53 - 1

// importCheck checks one field's value; loc names the field.
type importCheck func(s *Service, loc string, v any) error

// importText checks a text field; a value of another kind is the store's
// to refuse.
func importText(check func(s *Service, loc, v string) error) importCheck {
	return func(s *Service, loc string, v any) error {
		if t, ok := v.(string); ok {
			return check(s, loc, t)
		}
		return nil
	}
}

func importNumber(check func(s *Service, loc string, n int) error) importCheck {
	return func(s *Service, loc string, v any) error {
		if n, ok := v.(int64); ok {
			if n < -MaxExactInteger || n > MaxExactInteger {
				return Invalidf(loc, "%d is out of range", n)
			}
			return check(s, loc, int(n))
		}
		return nil
	}
}

// importSettings checks a settings object as the API's settings routes do.
func importSettings(s *Service, loc string, v any) error {
	var text string
	switch x := v.(type) {
	case JSONText:
		text = string(x)
	case string:
		text = x
	default:
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return Invalidf(loc, "settings are a JSON object")
	}
	return s.checkSettings(loc, m)
}

func importPlain(check func(loc, v string) error) importCheck {
	return importText(func(_ *Service, loc, v string) error { return check(loc, v) })
}

var (
	importTitle       = importText((*Service).checkTitle)
	importTimezone    = importPlain(checkTimezone)
	importDescription = importText(func(s *Service, loc, v string) error {
		return joinErrors(s.checkText(loc, v, s.limits.MaxDescriptionLength), s.checkMentions(loc, v))
	})
	importRefNumber = importNumber(func(_ *Service, loc string, n int) error {
		if n < 1 {
			return Invalidf(loc, "a ref is a positive number")
		}
		return nil
	})
	importKey  = importPlain(checkVocabKey)
	importRole = importPlain(checkRole)
)

// importTextUpTo bounds a free text as the API does.
func importTextUpTo(max int) importCheck {
	return importText(func(s *Service, loc, v string) error { return s.checkText(loc, v, max) })
}

var importChecks = map[string]map[string]importCheck{
	"instance": {"name": importTitle, "timezone": importTimezone},
	"user": {"username": importPlain(checkUsername), "display_name": importTextUpTo(maxDisplayName), "email": importPlain(checkEmail),
		"timezone": importPlain(func(loc, tz string) error {
			if tz == "" {
				return nil
			}
			return checkTimezone(loc, tz)
		})},
	"workspace": {"slug": importPlain(checkSlug), "name": importTitle, "timezone": importTimezone, "next_ref": importRefNumber,
		"settings": importSettings},
	"workspace_member": {"role": importRole},
	"status": {"key": importKey, "label": importTitle,
		"category": importPlain(func(loc, v string) error { return checkOneOf(loc, "category", v, StatusCategories) })},
	"item_type": {"key": importKey, "label": importTitle},
	"link_type": {"key": importKey, "title": importTitle, "inverse_title": importTitle,
		"category": importPlain(func(loc, v string) error { return checkOneOf(loc, "category", v, LinkCategories) })},
	"tag": {"name": importText(func(s *Service, loc, v string) error { _, err := s.normalTag(loc, v); return err })},
	"project": {"key": importPlain(checkProjectKey), "title": importTitle, "description": importDescription,
		"visibility": importPlain(checkVisibility), "colour": importPlain(checkColour), "settings": importSettings},
	"project_role": {"role": importRole},
	"task":         taskImportChecks(),
	"document":     {"ref": importRefNumber, "title": importTitle, "body": importText((*Service).checkBody)},
	"comment":      {"body": importText((*Service).checkCommentBody)},
	"verification": {"summary": importTextUpTo(verificationLimits["summary"]), "commit_sha": importTextUpTo(verificationLimits["commit_sha"]),
		"tree_hash": importTextUpTo(verificationLimits["tree_hash"]), "output_excerpt": importTextUpTo(verificationLimits["output_excerpt"])},
	"calendar": {"title": importTitle, "audience": importPlain(checkAudience)},
	"event": {"item_ref": importRefNumber, "item_title": importText(func(s *Service, loc, v string) error {
		return s.checkText(loc, v, s.limits.MaxTitleLength)
	})},
}

// checkImported refuses a record with a field the API would refuse, naming
// the field.
func (s *Service) checkImported(rec *Record) error {
	checks := importChecks[rec.Kind]
	for _, f := range rec.Fields {
		check := checks[f.Name]
		if check == nil || f.Value == nil {
			continue
		}
		if err := check(s, f.Name, f.Value); err != nil {
			detail := err.Error()
			if e := AsError(err); e != nil {
				detail = e.Detail
			}
			return Errorf(CodeInvalid, "field %q of a %s record: %s", f.Name, rec.Kind, detail)
		}
	}
	return nil
}
