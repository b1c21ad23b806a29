package pages

import (
	"net/http"
	"strconv"
	"strings"

	"tend/app"
)

// pageForm is a posted form, read once, with the same refusals as a JSON
// body: too large, or text holding U+0000.
type pageForm struct {
	r *http.Request
}

// form reads the posted form of a page action.
func (s *Server) form(w http.ResponseWriter, r *http.Request) (*pageForm, error) {
	r.Body = http.MaxBytesReader(w, r.Body, int64(s.app.Limits().MaxBodyBytes))
	if err := r.ParseForm(); err != nil {
		return nil, app.Errorf(app.CodeInvalid, "the form could not be read: %v", err)
	}
	for name, vs := range r.PostForm {
		for _, v := range vs {
			if strings.ContainsRune(v, 0) {
				return nil, app.Invalidf("form."+name, "text may not hold U+0000")
			}
		}
	}
	return &pageForm{r: r}, nil
}

// submit reads the form, makes the change do asks for with it, and sends
// the browser on to to: the shape of every form whose answer is a redirect.
func (s *Server) submit(w http.ResponseWriter, r *http.Request, to string, do func(f *pageForm) error) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	if err := do(f); err != nil {
		return err
	}
	return seeOther(w, r, to)
}

func (f *pageForm) str(name string) string { return f.r.PostForm.Get(name) }

// has reports whether the form carried the field at all.
func (f *pageForm) has(name string) bool { _, ok := f.r.PostForm[name]; return ok }

// version is the expected_version the form carries, nil without one.
func (f *pageForm) version() (*int, error) {
	v := f.str("expected_version")
	if v == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil, app.Invalidf("form.expected_version", "expected_version is a whole number")
	}
	return &n, nil
}
