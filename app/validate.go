package app

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	usernameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	slugRe     = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
)

// reservedUsernames cannot be taken because they mean something in queries.
var reservedUsernames = map[string]bool{"me": true, "nobody": true, "system": true}

func checkUsername(loc, name string) error {
	if !usernameRe.MatchString(name) {
		return Invalidf(loc, "a username is 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	if reservedUsernames[strings.ToLower(name)] {
		return Invalidf(loc, "%q is reserved", name)
	}
	return nil
}

func checkSlug(loc, slug string) error {
	if !slugRe.MatchString(slug) {
		return Invalidf(loc, "a slug is 1-63 lower-case letters, digits or '-', starting with a letter or digit")
	}
	return nil
}

// checkTimezone accepts IANA zone names only; "Local" would mean the
// server's zone, which is not a fact about the user.
func checkTimezone(loc, tz string) error {
	if tz == "" || tz == "Local" {
		return Invalidf(loc, "a timezone is an IANA name such as Europe/Berlin or UTC")
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return Invalidf(loc, "unknown timezone %q; use an IANA name such as Europe/Berlin or UTC", tz)
	}
	return nil
}

func (s *Service) checkTitle(loc, title string) error {
	if strings.TrimSpace(title) == "" {
		return Invalidf(loc, "must not be empty")
	}
	if n := utf8.RuneCountInString(title); n > s.limits.MaxTitleLength {
		return Invalidf(loc, "at most %d characters (got %d)", s.limits.MaxTitleLength, n)
	}
	return nil
}

// checkText bounds free text such as descriptions and display names.
func (s *Service) checkText(loc, text string, max int) error {
	if n := utf8.RuneCountInString(text); n > max {
		return Invalidf(loc, "at most %d characters (got %d)", max, n)
	}
	return nil
}

// maxDisplayName and maxEmail bound an account's display name (characters)
// and email address (RFC 5321's 320 octets).
const (
	maxDisplayName = 200
	maxEmail       = 320
)

// checkEmail accepts no address, or one with an @ of at most maxEmail
// characters.
func checkEmail(loc, email string) error {
	if n := utf8.RuneCountInString(email); n > maxEmail {
		return Invalidf(loc, "at most %d characters (got %d)", maxEmail, n)
	}
	if email != "" && !strings.Contains(email, "@") {
		return Invalidf(loc, "an email address has an @")
	}
	return nil
}

// checkOneOf refuses a value that is not one of those named: name is what
// the message calls the field.
func checkOneOf(loc, name, v string, of []string) error {
	if !has(of, v) {
		return Invalidf(loc, "%s is one of %s", name, joinWords(of))
	}
	return nil
}

// checkCount refuses a list longer than max, naming the limit: a list a
// body carries becomes one row (or one lookup) per entry in the write
// transaction, so its length bounds how long the request holds the writer.
func checkCount(loc string, n, max int, limit string) error {
	if n > max {
		return FieldErrorf(CodeOverLimit, loc, "at most %d entries (%s); got %d", max, limit, n)
	}
	return nil
}

// joinErrors merges validation problems so a client sees them all at once.
func joinErrors(errs ...error) error {
	var fields []FieldError
	for _, err := range errs {
		if err == nil {
			continue
		}
		e := AsError(err)
		if e.Code != CodeValidation {
			return err
		}
		fields = append(fields, e.Fields...)
	}
	if len(fields) == 0 {
		return nil
	}
	return &Error{Code: CodeValidation, Detail: fields[0].Msg, Fields: fields}
}
