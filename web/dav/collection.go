package dav

import (
	"encoding/xml"
	"net/http"
	"strings"

	"tend/app"
)

// propertyUpdate is a PROPPATCH body (RFC 4918 §14.19), or the body of a
// MKCALENDAR (RFC 4791 §5.3.1) or an extended MKCOL (RFC 5689): its set
// and remove instructions in order.
type propertyUpdate struct {
	XMLName xml.Name
	Ops     []struct {
		XMLName xml.Name
		Prop    struct {
			Names []anyElem `xml:",any"`
		} `xml:"DAV: prop"`
	} `xml:",any"`
}

var (
	displayName   = name(nsDAV, "displayname")
	calendarColor = name(nsApple, "calendar-color")
	resourceType  = name(nsDAV, "resourcetype")
	componentSet  = name(nsCalDAV, "supported-calendar-component-set")
)

// proppatch answers PROPPATCH: on a collection, displayname renames its
// project and calendar-color recolours it, as the API's project PATCH
// does. Any other property, and any property of another resource, is
// refused with 403 and the rest with 424: a PROPPATCH is all or nothing.
func (h *Handler) proppatch(w http.ResponseWriter, r *http.Request, a app.Actor, t target) error {
	var q propertyUpdate
	if err := h.readXML(w, r, &q); err != nil {
		return err
	}
	if q.XMLName != name(nsDAV, "propertyupdate") {
		return badRequest("a PROPPATCH body is a DAV:propertyupdate")
	}
	href := r.URL.Path
	var in app.ProjectUpdate
	var names, refused []xml.Name
	for _, op := range q.Ops {
		remove := op.XMLName == name(nsDAV, "remove")
		for _, p := range op.Prop.Names {
			names = append(names, p.XMLName)
			switch {
			case t.kind == "collection" && p.XMLName == displayName && !remove:
				in.Title = app.PatchOf(text(p))
			case t.kind == "collection" && p.XMLName == calendarColor:
				in.Colour = colourPatch(text(p), remove)
			default:
				refused = append(refused, p.XMLName)
			}
		}
	}
	if len(refused) > 0 && (t.kind == "object" || t.kind == "collection") {
		// What is refused is refused only of a resource that exists.
		names := []string{}
		if t.kind == "object" {
			names = []string{t.name}
		}
		if _, objs, err := h.svc.DavObjects(r.Context(), a, t.workspace, t.key, names); err != nil || (t.kind == "object" && len(objs) == 0) {
			return notFound(err, "task")
		}
	}
	m := newMultistatus()
	switch {
	case len(refused) > 0:
		m.patched(href, propStatus{refused, http.StatusForbidden, "d:cannot-modify-protected-property",
			"only a list's displayname and calendar-color can be changed"},
			propStatus{others(names, refused), http.StatusFailedDependency, "", ""})
	case t.kind == "collection":
		c, err := h.svc.UpdateDavCollection(r.Context(), a, t.workspace, t.key, in)
		if e := app.AsError(err); err != nil && (e.Code == app.CodeValidation || e.Code == app.CodeInvalid) {
			// A value tend cannot take (an empty name, a colour that is no
			// colour) is a refusal of those properties, not of the request.
			m.patched(href, propStatus{names, http.StatusConflict, "", string(e.Code) + ": " + e.Detail})
			break
		}
		if err != nil {
			return err
		}
		href = collectionHref(c)
		fallthrough
	default:
		m.patched(href, propStatus{names, http.StatusOK, "", ""})
	}
	m.write(w)
	return nil
}

// colourPatch is a calendar-color as a project's colour: Apple writes
// #RRGGBBAA, tend keeps #rrggbb; a remove clears it.
func colourPatch(v string, remove bool) app.Patch[string] {
	if remove {
		return app.Patch[string]{Set: true, Null: true}
	}
	if len(v) == 9 && strings.HasPrefix(v, "#") {
		v = v[:7]
	}
	return app.PatchOf(v)
}

// mkcalendar answers MKCALENDAR, and MKCOL with a calendar resourcetype
// (RFC 5689): a new collection under the calendar home is a new project,
// titled by the body's displayname and coloured by its calendar-color.
// Named WORKSPACE.KEY, it is the project of that key, titled by the key
// when the body names none. Named otherwise (Apple's apps name a new list
// by a UUID), it is a project in the account's home workspace, keyed by
// its title as an import keys one, titled by the name when it is short
// and "Tasks" when it is not; the name is kept as the account's for it.
func (h *Handler) mkcalendar(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	t, ok := parse(r.URL.Path)
	if !ok || t.kind != "collection" {
		return h.mkExisting(r, a, t, ok)
	}
	var q propertyUpdate
	if err := h.readXML(w, r, &q); err != nil {
		return err
	}
	in := app.ProjectCreate{Key: t.key, Title: t.key}
	if t.workspace == "" {
		if len(t.key) > maxListName {
			return refuse("", "a new list's name is at most %d bytes", maxListName)
		}
		if len(t.key) > shortListName {
			in.Title = "Tasks"
		}
	}
	calendar := r.Method == "MKCALENDAR"
	for _, op := range q.Ops {
		for _, p := range op.Prop.Names {
			switch p.XMLName {
			case displayName:
				if v := strings.TrimSpace(text(p)); v != "" {
					in.Title = v
				}
			case calendarColor:
				in.Colour = colourPatch(text(p), false).Value
			case resourceType:
				calendar = calendar || strings.Contains(string(p.Inner), "calendar")
			case componentSet:
				if !strings.Contains(strings.ToUpper(string(p.Inner)), `"VTODO"`) {
					return refuse("c:supported-calendar-component", "a list here holds tasks: its supported-calendar-component-set names VTODO")
				}
			}
		}
	}
	if !calendar {
		return refuse("d:valid-resourcetype", "only calendar collections are made here: send MKCALENDAR, or MKCOL with a calendar resourcetype")
	}
	if _, _, err := h.svc.DavObjects(r.Context(), a, t.workspace, t.key, []string{}); err == nil {
		return refuseStatus(http.StatusMethodNotAllowed, "d:resource-must-be-null", "the list %s exists", r.URL.Path)
	}
	c, err := h.svc.CreateDavCollection(r.Context(), a, t.workspace, t.key, in)
	if app.CodeOf(err) == app.CodeConflict {
		return refuse("d:resource-must-be-null", "%s", app.AsError(err).Detail)
	}
	if err != nil {
		return err
	}
	w.Header().Set("Location", collectionHref(c))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusCreated)
	return nil
}

// A list's name from a task app is kept as sent, within maxListName bytes;
// up to shortListName it is readable enough to title the list when the app
// sends no displayname (a UUID is not).
const (
	maxListName   = 255
	shortListName = 24
)

// mkExisting refuses a MKCALENDAR or MKCOL outside the calendar home: 405
// on a resource that exists (RFC 4791 §5.3.1), 409 where its parent is no
// place for a list.
func (h *Handler) mkExisting(r *http.Request, a app.Actor, t target, ok bool) error {
	exists := ok && t.kind != "object"
	if ok && t.kind == "object" {
		_, objs, err := h.svc.DavObjects(r.Context(), a, t.workspace, t.key, []string{t.name})
		exists = err == nil && len(objs) > 0
	}
	if exists {
		return refuseStatus(http.StatusMethodNotAllowed, "d:resource-must-be-null", "this resource exists")
	}
	return refuseStatus(http.StatusConflict, "", "a new list is made in the calendar home, %s, named WORKSPACE.KEY (such as %sdefault.errands/) or by a name of your own", home, home)
}

// others is names without those in out.
func others(names, out []xml.Name) []xml.Name {
	var rest []xml.Name
	for _, n := range names {
		skip := false
		for _, o := range out {
			skip = skip || n == o
		}
		if !skip {
			rest = append(rest, n)
		}
	}
	return rest
}

// text is an element's text content, its entities read.
func text(e anyElem) string {
	var v struct {
		Text string `xml:",chardata"`
	}
	if xml.Unmarshal([]byte("<v>"+string(e.Inner)+"</v>"), &v) != nil {
		return ""
	}
	return strings.TrimSpace(v.Text)
}

// notFound is err, or not_found of what when err is nil.
func notFound(err error, what string) error {
	if err != nil {
		return err
	}
	return app.NotFound(what)
}
