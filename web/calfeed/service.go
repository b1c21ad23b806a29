package calfeed

import (
	"context"

	"tend/app"
)

// Service is the part of app.Service the calendar feeds call: reading a
// feed by its secret, and what the instance is. Taking no more keeps the
// adapter's reach visible in its constructor (issue 33 §4).
type Service interface {
	CalendarFeed(ctx context.Context, prefix string, secret string, cond app.FeedConditions) (app.Feed, error)
	Limits() app.Limits
	PublicURL() string
	Version() string
}

var _ Service = (*app.Service)(nil)
