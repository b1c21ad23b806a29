// Package webtest is the test environment every test of tend's HTTP
// server shares, as store/storetest is the store's: a real database file
// in t.TempDir() on the fixed, advanceable clock, the real router
// (web.NewServer) behind httptest, the administrator's credential from the
// first start, and the clients the tests drive it with: plain HTTP (Do,
// OK, Problem), a browser with a session cookie (Browser, SignIn), an MCP
// client of the go-sdk in either protocol era (Connect), and a calendar
// feed reader (FetchFeed). A test package gives Env its own helpers by
// embedding it:
//
//	type env struct{ *webtest.Env }
//
// It is for tests only: it imports the store, which no adapter does.
package webtest
