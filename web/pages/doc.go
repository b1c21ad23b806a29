// Package pages is tend's web app: server-rendered pages for people, at
// routes outside /v1, and the sign-in pages a login link opens. It imports
// app and web/wire, never web or another adapter; web's router mounts it
// (Server.Routes) and lends it the JSON API's request authentication.
//
// A page is a thin adapter like a JSON handler: register it in Routes with
// s.page, read through the same exported Service methods the API handlers
// call, and render one template (*.html here, parsed once at start) with
// s.render. A page action is an HTML form POSTed to a page route; it calls
// one Service method and answers 303 to the page to show
// (post/redirect/get). Refusals are returned, not written: s.page renders
// them as an HTML page with the problem's status, title and code, or the
// signed-out page for 401. The assets under static/ are embedded and
// served under a content hash; Markdown is rendered by goldmark without
// raw HTML.
package pages
