package web

import "slices"

// Registered lists the routes s registers ("METHOD /pattern"), in the
// order registered, for the tests of package web_test that must cover every
// one (TestRouteGoldens).
func Registered(s *Server) []string { return slices.Clone(*s.router.registered) }
