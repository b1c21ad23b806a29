// Package calfeed is tend's calendar feed adapter: an iCalendar (RFC 5545)
// feed of the tasks a calendar subscription covers, served without a login
// at GET /v1/calendars/:calendar/:secret (Handler, mounted by web's
// router), the secret in the path being the authority. It writes events
// and the VTIMEZONEs they need by hand and answers a client whose copy is
// current with 304 before building the feed. It imports app and web/wire,
// never web or another adapter.
package calfeed
