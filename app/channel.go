package app

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"net/url"
	"strings"
	"time"
)

// Channel is one place a person's notifications go: an ntfy topic or a
// browser's Web Push subscription. Token, P256dh and Auth are sent or used
// to encrypt and never shown again.
type Channel struct {
	ID     string
	UserID string
	Type   string // ntfy or webpush
	Name   string
	// URL is the ntfy topic URL, or the push service's endpoint (a
	// capability: only its origin is shown).
	URL          string
	Token        string
	P256dh, Auth string
	LastOKAt     *time.Time
	FailingSince *time.Time
	LastError    string
	CreatedAt    time.Time
}

// Origin is the scheme and host of the channel's URL: what may be shown of
// a push endpoint.
func (c Channel) Origin() string {
	u, err := url.Parse(c.URL)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// ChannelCreate is a new channel: Type ntfy with URL (and Token), or
// webpush with Endpoint, P256dh and Auth as the browser's subscription
// gives them.
type ChannelCreate struct {
	Type, Name, URL, Token string
	Endpoint, P256dh, Auth string
}

// Channel bounds.
const (
	// MaxChannels is how many channels one person may have.
	MaxChannels = 20
	// maxOutboundURL bounds an address tend calls.
	maxOutboundURL = 2048
	// maxChannelName bounds a channel's name.
	maxChannelName = 200
	// notificationsLimit is how many notifications one read answers at
	// most.
	notificationsLimit = 200
)

type channelTx interface {
	// Channels lists a person's channels in creation order.
	Channels(ctx context.Context, userID string) ([]Channel, error)
	// ChannelByID reads a channel of userID (of anybody when "").
	ChannelByID(ctx context.Context, userID, id string) (Channel, error)
	// ChannelByEndpoint reads a person's Web Push channel at endpoint.
	ChannelByEndpoint(ctx context.Context, userID, endpoint string) (Channel, error)
	InsertChannel(ctx context.Context, c *Channel) error
	// DeleteChannel removes a channel; its notifications stay, without it.
	DeleteChannel(ctx context.Context, id string) error
	// SetChannelHealth writes a channel's last success and failure.
	SetChannelHealth(ctx context.Context, c Channel) error
	InsertNotification(ctx context.Context, n *Notification) error
	// Notifications lists a person's notifications, newest first.
	Notifications(ctx context.Context, userID string, limit int) ([]Notification, error)
	// InstanceKey reads one of the instance's keys.
	InstanceKey(ctx context.Context, name string) (string, error)
	// InsertInstanceKey keeps a key made now, unless one is there already.
	InsertInstanceKey(ctx context.Context, name, value string, now time.Time) error
}

// personOnly refuses an agent, or the local operator: channels are where a
// person's devices are told, and an agent carries none.
func personOnly(a Actor) error {
	if a.system || a.User.ID == "" || a.User.IsServiceAccount {
		return Errorf(CodeForbidden, "channels and notifications belong to people: an agent's reminders go to the person it answers to")
	}
	return nil
}

// Channels lists the caller's channels.
func (s *Service) Channels(ctx context.Context, a Actor) ([]Channel, error) {
	if err := personOnly(a); err != nil {
		return nil, err
	}
	var out []Channel
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = tx.Channels(ctx, a.User.ID)
		return err
	})
	return out, err
}

// CreateChannel adds a channel for the caller. A Web Push endpoint the
// caller has already answers that channel, with created false: a browser
// subscribes again on every visit.
func (s *Service) CreateChannel(ctx context.Context, a Actor, in ChannelCreate) (out Channel, created bool, err error) {
	if err := personOnly(a); err != nil {
		return Channel{}, false, err
	}
	c, err := s.newChannel(ctx, in)
	if err != nil {
		return Channel{}, false, err
	}
	err = s.store.Update(ctx, func(tx Tx) error {
		if c.Type == "webpush" {
			old, err := tx.ChannelByEndpoint(ctx, a.User.ID, c.URL)
			if err == nil {
				out = old
				return nil
			}
			if CodeOf(err) != CodeNotFound {
				return err
			}
		}
		have, err := tx.Channels(ctx, a.User.ID)
		if err != nil {
			return err
		}
		if len(have) >= MaxChannels {
			return Errorf(CodeOverLimit, "at most %d channels; remove one first", MaxChannels)
		}
		c.UserID, c.CreatedAt = a.User.ID, tx.Now()
		out, created = c, true
		return tx.InsertChannel(ctx, &out)
	})
	return out, created, err
}

// newChannel checks in and makes the channel it asks for.
func (s *Service) newChannel(ctx context.Context, in ChannelCreate) (Channel, error) {
	c := Channel{ID: newID(), Type: in.Type, Name: strings.TrimSpace(in.Name)}
	errs := []error{s.checkText("body.name", c.Name, maxChannelName)}
	switch in.Type {
	case "ntfy":
		c.URL, c.Token = strings.TrimSpace(in.URL), strings.TrimSpace(in.Token)
		errs = append(errs, s.checkOutboundURL(ctx, "body.url", c.URL, "the ntfy topic URL, https://ntfy.example/topic"),
			s.checkText("body.token", c.Token, 512))
		if u, err := url.Parse(c.URL); err == nil && strings.Trim(u.Path, "/") == "" {
			errs = append(errs, Invalidf("body.url", "the URL names the topic: https://ntfy.example/topic"))
		}
	case "webpush":
		c.URL, c.P256dh, c.Auth = in.Endpoint, in.P256dh, in.Auth
		errs = append(errs, s.checkOutboundURL(ctx, "body.endpoint", c.URL, "the subscription's endpoint"),
			checkKey("body.keys.p256dh", c.P256dh, 65), checkKey("body.keys.auth", c.Auth, 16))
	default:
		errs = append(errs, Invalidf("body.type", "type is ntfy or webpush; got %q", in.Type))
	}
	return c, joinErrors(errs...)
}

// checkKey refuses a subscription key that is not base64url of n bytes.
func checkKey(loc, v string, n int) error {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(v, "="))
	if err != nil || len(b) != n {
		return Invalidf(loc, "the subscription's key, base64url of %d bytes", n)
	}
	return nil
}

// checkOutboundURL refuses an address tend would be asked to call that is
// not http(s), or that is in a private or local range the operator has not
// allowed (tend serve --outbound-allow). Webhooks and channels share it.
func (s *Service) checkOutboundURL(ctx context.Context, loc, raw, what string) error {
	if raw == "" {
		return Invalidf(loc, "%s is required: %s", loc[strings.LastIndex(loc, ".")+1:], what)
	}
	if err := s.checkText(loc, raw, maxOutboundURL); err != nil {
		return err
	}
	if err := s.opts.Outbound.CheckURL(ctx, raw); err != nil {
		return Invalidf(loc, "%s", err.Error())
	}
	return nil
}

// DeleteChannel removes one of the caller's channels; another person's
// answers not_found, as if it did not exist.
func (s *Service) DeleteChannel(ctx context.Context, a Actor, id string) error {
	if err := personOnly(a); err != nil {
		return err
	}
	return s.store.Update(ctx, func(tx Tx) error {
		if _, err := tx.ChannelByID(ctx, a.User.ID, id); err != nil {
			return notFoundAs(err, "channel")
		}
		return tx.DeleteChannel(ctx, id)
	})
}

// TestChannel queues a test notification to one of the caller's channels;
// the worker sends it as it sends the rest.
func (s *Service) TestChannel(ctx context.Context, a Actor, id string) (Notification, error) {
	if err := personOnly(a); err != nil {
		return Notification{}, err
	}
	var out Notification
	err := s.store.Update(ctx, func(tx Tx) error {
		c, err := tx.ChannelByID(ctx, a.User.ID, id)
		if err != nil {
			return notFoundAs(err, "channel")
		}
		now := tx.Now()
		out = Notification{ID: newNotificationID(), UserID: a.User.ID, ChannelID: c.ID, Kind: "test",
			Title: "tend: a test notification", Body: "This channel works.", Path: "/account", State: "pending",
			DueAt: now, CreatedAt: now}
		return tx.InsertNotification(ctx, &out)
	})
	return out, err
}

// Notifications lists the caller's latest notifications, newest first.
func (s *Service) Notifications(ctx context.Context, a Actor, limit int) ([]Notification, error) {
	if err := personOnly(a); err != nil {
		return nil, err
	}
	if limit <= 0 || limit > notificationsLimit {
		return nil, Invalidf("query.limit", "limit is 1 to %d", notificationsLimit)
	}
	var out []Notification
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = tx.Notifications(ctx, a.User.ID, limit)
		return err
	})
	return out, err
}

// Instance key names.
const (
	keyActionHMAC   = "action_hmac"
	keyVAPIDPublic  = "vapid_public"
	keyVAPIDPrivate = "vapid_private"
)

// VAPIDKeys is the instance's Web Push key pair, base64url without
// padding: the uncompressed P-256 point and the private scalar.
type VAPIDKeys struct{ Public, Private string }

// PushKeys answers the instance's VAPID key pair, made on first need and
// kept only in the database.
func (s *Service) PushKeys(ctx context.Context) (VAPIDKeys, error) {
	var out VAPIDKeys
	err := s.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = vapidKeys(ctx, tx)
		return err
	})
	if err == nil || CodeOf(err) != CodeNotFound {
		return out, err
	}
	err = s.store.Update(ctx, func(tx Tx) error {
		k, err := ecdh.P256().GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		enc := base64.RawURLEncoding.EncodeToString
		if err := joinErrors(tx.InsertInstanceKey(ctx, keyVAPIDPrivate, enc(k.Bytes()), tx.Now()),
			tx.InsertInstanceKey(ctx, keyVAPIDPublic, enc(k.PublicKey().Bytes()), tx.Now())); err != nil {
			return err
		}
		// Another request may have made the pair first: what is kept wins.
		out, err = vapidKeys(ctx, tx)
		return err
	})
	return out, err
}

func vapidKeys(ctx context.Context, tx Tx) (VAPIDKeys, error) {
	pub, err := tx.InstanceKey(ctx, keyVAPIDPublic)
	if err != nil {
		return VAPIDKeys{}, err
	}
	priv, err := tx.InstanceKey(ctx, keyVAPIDPrivate)
	return VAPIDKeys{Public: pub, Private: priv}, err
}

// actionKey is the instance's key for action links, made in tx on first
// need.
func actionKey(ctx context.Context, tx Tx) ([]byte, error) {
	v, err := tx.InstanceKey(ctx, keyActionHMAC)
	if CodeOf(err) == CodeNotFound {
		b := make([]byte, 32)
		_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
		if err := tx.InsertInstanceKey(ctx, keyActionHMAC, base64.RawURLEncoding.EncodeToString(b), tx.Now()); err != nil {
			return nil, err
		}
		v, err = tx.InstanceKey(ctx, keyActionHMAC)
	}
	if err != nil {
		return nil, err
	}
	return base64.RawURLEncoding.DecodeString(v)
}
