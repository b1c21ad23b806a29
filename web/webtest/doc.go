// Package webtest is the test environment every test of tend's HTTP
// server shares, as store/storetest is the store's: a real database file
// in t.TempDir() on the fixed, advanceable clock, the real router
// (web.NewServer) behind httptest, the administrator's credential from the
// first start, and the clients the tests drive it with: plain HTTP (Do,
// OK, Problem), a browser with a session cookie (Browser, SignIn), an MCP
// client of the go-sdk in either protocol era (Connect), and a calendar
// feed reader (FetchFeed). A test that makes its own service (its own
// store, options or first start) serves it with Around, as New serves one,
// and a benchmark with Serve (unchecked, its log discarded); Fetch sends a
// request to any other server. A test package gives Env its own helpers by
// embedding it:
//
//	type env struct{ *webtest.Env }
//
// It is for tests only: it imports the store, which no adapter does.
package webtest
