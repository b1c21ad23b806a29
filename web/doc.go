// Package web is tend's HTTP adapter: the JSON API under /v1, the health
// probes, and the problem documents every error becomes. Handlers parse the
// request, make exactly one app.Service call, and encode the answer; they
// return errors rather than write them, and wire.WriteProblem is the one place
// an error turns into a response.
package web
