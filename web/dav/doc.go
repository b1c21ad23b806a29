// Package dav serves tend's tasks to CalDAV task apps (RFC 4791, over
// WebDAV, RFC 4918): a principal for the account, a calendar home, one
// task collection per project the account may read the tasks of (a
// subproject its own), and each task as a VTODO resource, read and written
// both ways. It is a thin adapter over app.Service, like the JSON API and
// MCP: every write is a Service call with its rules, events and versions.
//
// The layout under Root, which a client finds from /.well-known/caldav:
//
//	/dav/                               the root, naming the current user's principal
//	/dav/principals/USERNAME/           the principal, naming the calendar home
//	/dav/calendars/                     the home: the account's collections
//	/dav/calendars/WORKSPACE.PROJECT/   one project's tasks
//	/dav/calendars/WORKSPACE.PROJECT/NAME  one task
//
// A workspace slug and a project key never hold a dot, so the collection's
// one segment names both.
package dav
