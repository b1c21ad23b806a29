package dav

import (
	"context"

	"tend/app"
)

// Service is the part of app.Service CalDAV calls. Taking no more keeps
// the adapter's reach visible in its constructor (issue 33 §4).
type Service interface {
	Authenticate(ctx context.Context, secret string, iface string) (app.Actor, error)
	DavCollections(ctx context.Context, a app.Actor) ([]app.DavCollection, error)
	DavChanges(ctx context.Context, a app.Actor, workspace, key string, since int64, limit int) (app.DavDelta, error)
	DavObjects(ctx context.Context, a app.Actor, workspace, key string, names []string) (app.DavCollection, []app.DavObject, error)
	PutDavObject(ctx context.Context, a app.Actor, workspace, key, name string, in app.DavPut) (app.DavObject, bool, error)
	UpdateDavCollection(ctx context.Context, a app.Actor, workspace, key string, in app.ProjectUpdate) (app.DavCollection, error)
	CreateDavCollection(ctx context.Context, a app.Actor, workspace, name string, in app.ProjectCreate) (app.DavCollection, error)
	DeleteDavObject(ctx context.Context, a app.Actor, workspace, key, name, ifMatch string) error
	Limits() app.Limits
	PublicURL() string
	Version() string
}

var _ Service = (*app.Service)(nil)
