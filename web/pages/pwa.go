package pages

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"
)

// The installable app (issue 37 §4): the manifest a browser installs
// from and the service worker that shows pushes and keeps pages readable
// offline. Both live at the root: a worker controls only the paths under
// its own URL, and an installed app's scope is the manifest's.

// Colours of the installed app's frame: the top bar's and the page's in
// app.css's light scheme (the manifest takes one of each).
const (
	themeColour      = "#f6f8fa"
	backgroundColour = "#ffffff"
)

// manifest is the web app manifest; its icons name the assets' current
// version, so an update of an icon reaches installed apps.
var manifest = func() []byte {
	at := "/static/" + staticVersion + "/"
	type icon struct {
		Src     string `json:"src"`
		Sizes   string `json:"sizes"`
		Type    string `json:"type"`
		Purpose string `json:"purpose"`
	}
	b, err := json.MarshalIndent(struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		ShortName   string `json:"short_name"`
		Description string `json:"description"`
		Lang        string `json:"lang"`
		StartURL    string `json:"start_url"`
		Scope       string `json:"scope"`
		Display     string `json:"display"`
		Theme       string `json:"theme_color"`
		Background  string `json:"background_color"`
		Icons       []icon `json:"icons"`
	}{
		ID: "/", Name: "tend", ShortName: "tend", Description: "Your team's tasks, notes and decisions.", Lang: "en",
		StartURL: "/", Scope: "/", Display: "standalone", Theme: themeColour, Background: backgroundColour,
		Icons: []icon{
			{at + "icon-192.png", "192x192", "image/png", "any"},
			{at + "icon-512.png", "512x512", "image/png", "any"},
			{at + "icon-maskable-192.png", "192x192", "image/png", "maskable"},
			{at + "icon-maskable-512.png", "512x512", "image/png", "maskable"},
			{at + "favicon.svg", "any", "image/svg+xml", "any"},
			{at + "icon-maskable.svg", "any", "image/svg+xml", "maskable"},
		},
	}, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}()

// serviceWorker is static/sw.js behind a line naming the assets' version:
// the worker caches under that name, and a browser that finds the script
// changed installs it and lets it drop the caches of the version before.
var serviceWorker = func() []byte {
	b, err := staticFiles.ReadFile("static/sw.js")
	if err != nil {
		panic(err)
	}
	return append([]byte("var VERSION = \""+staticVersion+"\";\n"), b...)
}()

// pwaRoutes mounts the manifest and the service worker; both are public,
// as an icon is.
func (s *Server) pwaRoutes(rt Router) {
	rt.Handler(http.MethodGet, "/manifest.webmanifest", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveRoot(w, r, "application/manifest+json", manifest)
	}))
	rt.Handler(http.MethodGet, "/sw.js", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveRoot(w, r, "text/javascript; charset=utf-8", serviceWorker)
	}))
}

// serveRoot serves a file whose URL carries no version: it is asked again
// each time, and answers 304 while unchanged.
func serveRoot(w http.ResponseWriter, r *http.Request, contentType string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", `"`+staticVersion+`"`)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(b))
}
