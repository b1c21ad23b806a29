package app

import (
	"context"
	"time"

	"tend/app/recur"
	"tend/app/when"
)

// Bounds of GET /v1/tasks/{id_or_ref}/occurrences and of a Reading.
const (
	DefaultOccurrences = 10                   // occurrences listed when no limit is given
	MaxOccurrences     = recur.MaxOccurrences // the most one answer lists
)

// Occurrences is the schedule of a repeating task: computed, never stored.
type Occurrences struct {
	Description string
	Rule        string
	Occurrences []time.Time
	HasMore     bool
}

// OccurrencesQuery bounds the schedule: Until is a date, an instant or an
// offset ("+3 months"), read in the task's zone; "" for none. Limit 0 means
// DefaultOccurrences.
type OccurrencesQuery struct {
	Until string
	Limit int
}

// TaskOccurrences lists a repeating task's coming occurrences, from this
// occurrence's due on (or from now, for a task without one). A task that
// does not repeat is refused with CodeNotRepeating.
func (s *Service) TaskOccurrences(ctx context.Context, a Actor, workspace, idOrRef string, q OccurrencesQuery) (Occurrences, error) {
	if q.Limit < 0 || q.Limit > MaxOccurrences {
		return Occurrences{}, Invalidf("query.limit", "from 1 to %d", MaxOccurrences)
	}
	if q.Limit == 0 {
		q.Limit = DefaultOccurrences
	}
	var out Occurrences
	err := s.store.View(ctx, func(tx Tx) error {
		sc, loc, err := locatedTask(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		t, err := readTask(ctx, tx, sc, loc.ID)
		if err != nil {
			return err
		}
		rule, err := taskRule(t)
		if err != nil {
			return err
		}
		if rule.IsZero() {
			return Errorf(CodeNotRepeating, "task #%d does not repeat: it has no occurrences", t.Ref)
		}
		from := tx.Now()
		if t.DueAt != nil {
			from = *t.DueAt
		}
		until, err := occurrencesUntil(q.Until, tx.Now(), rule.Location())
		if err != nil {
			return err
		}
		times, more := rule.Occurrences(from, until, q.Limit)
		out = Occurrences{Description: rule.Description(), Rule: rule.String(), Occurrences: utcTimes(times), HasMore: more}
		return nil
	})
	return out, err
}

// occurrencesUntil reads the until bound; a whole day counts to its end.
func occurrencesUntil(s string, now time.Time, loc *time.Location) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	m, err := when.ParseTime(s, now, loc)
	if err != nil {
		return time.Time{}, phraseError("query.until", err)
	}
	if m.AllDay {
		return m.Time.AddDate(0, 0, 1).Add(-time.Nanosecond), nil
	}
	return m.Time, nil
}

func utcTimes(ts []time.Time) []time.Time {
	out := make([]time.Time, len(ts))
	for i, t := range ts {
		out[i] = t.UTC()
	}
	return out
}

// RecurrenceParse is a repeat written as a phrase, a description or RRULE
// text (POST /v1/recurrence/parse), read from From (the moment of the
// request when nil) in Timezone (the reader's when "").
type RecurrenceParse struct {
	Text     string
	From     *time.Time
	Timezone string
}

// Reading is what a written repeat means.
type Reading struct {
	Description string
	Rule        string
	Occurrences []time.Time
	Text        string
}

// ParseRecurrence reads a repeat without storing anything: its sentence,
// its canonical rule and its first DefaultOccurrences occurrences.
func (s *Service) ParseRecurrence(ctx context.Context, a Actor, in RecurrenceParse) (Reading, error) {
	errs := []error{checkInstant("body.from", in.From)}
	if in.Timezone != "" {
		errs = append(errs, checkTimezone("body.timezone", in.Timezone))
	}
	if in.Text == "" {
		errs = append(errs, Invalidf("body.text", "must not be empty"))
	}
	if err := joinErrors(errs...); err != nil {
		return Reading{}, err
	}
	var out Reading
	err := s.store.View(ctx, func(tx Tx) error {
		zone := loadZone(in.Timezone)
		if in.Timezone == "" {
			z, err := readerZone(ctx, tx, a.User, nil)
			if err != nil {
				return err
			}
			zone = z
		}
		from := tx.Now()
		if in.From != nil {
			from = *in.From
		}
		rule, err := recur.Parse(in.Text, from, zone.Loc)
		if err != nil {
			return repeatError("body.text", err)
		}
		times, _ := rule.Occurrences(from, time.Time{}, DefaultOccurrences)
		out = Reading{Description: rule.Description(), Rule: rule.String(), Occurrences: utcTimes(times), Text: in.Text}
		return nil
	})
	return out, err
}
