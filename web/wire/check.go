package wire

import "tend/app"

// CheckBody refuses what DecodeJSON refuses of a well-formed body: one
// over limit bytes, or text holding U+0000. A client that calls the
// Service without HTTP between (the terminal commands on a database file)
// checks the body it would have sent, so that it is refused exactly as the
// server would refuse it.
func CheckBody(raw []byte, limit int) error {
	if len(raw) > limit {
		return app.Errorf(app.CodeTooLarge, "%s is over %d bytes", RequestBody.Noun, limit)
	}
	return refuseNUL(raw)
}
