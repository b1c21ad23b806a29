package pushtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxBody is the largest body a push service must take (RFC 8030 §7.2);
// the stand-in takes no more, as a strict one would.
const maxBody = 4096

// Message is one push request that reached a subscribed browser's endpoint.
type Message struct {
	// Endpoint is the browser's endpoint the message was posted to.
	Endpoint string
	// Status is what the stand-in answered.
	Status int
	// Refused says why the stand-in refused the message ("" if it
	// accepted it, even when told to answer an error status).
	Refused string
	// Payload is the decrypted plaintext.
	Payload []byte
	// TTL, Urgency and Topic are the RFC 8030 headers as sent (TTL in
	// seconds; Urgency and Topic "" when absent).
	TTL            int
	Urgency, Topic string
	// Subject and Expires are the VAPID token's sub and exp; Key its k=.
	Subject string
	Expires time.Time
	Key     string
	// Header is the request's header.
	Header http.Header
}

type subscription struct {
	browser   *Browser
	origin    string
	serverKey string
	gone      bool
}

// Server is the push service stand-in. Its zero value is not usable; call
// NewServer.
type Server struct {
	mu         sync.Mutex
	now        func() time.Time
	subs       map[string]*subscription
	messages   []Message
	status     int
	retryAfter time.Duration
	delay      time.Duration
	gate       chan struct{} // nil when no Hold is on
	arrived    chan struct{} // closed and replaced at each message
	nextID     int
}

// NewServer makes a push service with no subscriptions, answering 201.
func NewServer() *Server {
	return &Server{now: time.Now, subs: map[string]*subscription{}, arrived: make(chan struct{})}
}

// Subscribe makes a browser and subscribes it at this push service, which
// is reached at base (an httptest.Server's URL): its endpoint is
// base/push/<id>. A serverKey other than "" restricts the subscription to
// that VAPID public key (the applicationServerKey a browser subscribes
// with; RFC 8292 §4): a message signed with another key is refused 403.
func (s *Server) Subscribe(base, serverKey string) *Browser {
	b := NewBrowser()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	id := fmt.Sprintf("s%d", s.nextID)
	b.Endpoint = strings.TrimSuffix(base, "/") + "/push/" + id
	u, err := url.Parse(b.Endpoint)
	if err != nil {
		panic(fmt.Sprintf("pushtest: base %q is not a URL: %v", base, err))
	}
	s.subs[id] = &subscription{browser: b, origin: u.Scheme + "://" + u.Host, serverKey: serverKey}
	return b
}

// Unsubscribe ends b's subscription: its endpoint answers 410 Gone from
// now on, as RFC 8030 §7.3 has a push service do.
func (s *Server) Unsubscribe(b *Browser) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sub := range s.subs {
		if sub.browser == b {
			sub.gone = true
		}
	}
}

// Answer makes every message that passes the checks answered status
// instead of 201, with a Retry-After of retryAfter when that is above 0.
// Answer(0, 0) goes back to 201.
func (s *Server) Answer(status int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.retryAfter = status, retryAfter
}

// Delay makes each request wait d (or until its client gives up) before
// it is looked at.
func (s *Server) Delay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Hold makes requests wait, before they are looked at, until release is
// called (or their client gives up): a push service that is slow for
// exactly as long as a test wants, with no timing in it.
func (s *Server) Hold() (release func()) {
	gate := make(chan struct{})
	s.mu.Lock()
	s.gate = gate
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			if s.gate == gate {
				s.gate = nil
			}
			s.mu.Unlock()
			close(gate)
		})
	}
}

// Wait returns the messages once there are at least n, or ctx's error.
func (s *Server) Wait(ctx context.Context, n int) ([]Message, error) {
	for {
		s.mu.Lock()
		msgs, arrived := append([]Message(nil), s.messages...), s.arrived
		s.mu.Unlock()
		if len(msgs) >= n {
			return msgs, nil
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return msgs, ctx.Err()
		}
	}
}

// SetClock sets the clock the VAPID token's exp is checked against
// (time.Now by default).
func (s *Server) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// Messages returns the requests that reached a live subscription, oldest
// first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Delivered returns the payloads of the messages accepted with 201, oldest
// first.
func (s *Server) Delivered() [][]byte {
	var out [][]byte
	for _, m := range s.Messages() {
		if m.Status == http.StatusCreated {
			out = append(out, m.Payload)
		}
	}
	return out
}

// ServeHTTP takes a push message (RFC 8030 §5).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "push messages are POSTed", http.StatusMethodNotAllowed)
		return
	}
	sub, status := s.lookup(r.URL.Path)
	if sub == nil {
		http.Error(w, http.StatusText(status), status)
		return
	}
	if !s.wait(r.Context()) {
		return
	}
	s.mu.Lock()
	now := s.now()
	s.mu.Unlock()
	m, status, err := check(r, sub, now)
	m.Endpoint = sub.browser.Endpoint
	if err != nil {
		m.Refused = err.Error()
	}
	status = s.record(w, m, status, err == nil)
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	w.WriteHeader(status)
}

// lookup finds the live subscription at path, or says 404 (never given
// out) or 410 (ended).
func (s *Server) lookup(path string) (*subscription, int) {
	id, ok := strings.CutPrefix(path, "/push/")
	s.mu.Lock()
	defer s.mu.Unlock()
	switch sub := s.subs[id]; {
	case !ok || sub == nil:
		return nil, http.StatusNotFound
	case sub.gone:
		return nil, http.StatusGone
	default:
		return sub, 0
	}
}

// wait holds a request while a Hold is on and for the Delay; false if its
// client gave up meanwhile.
func (s *Server) wait(ctx context.Context) bool {
	s.mu.Lock()
	gate, delay := s.gate, s.delay
	s.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return false
		}
	}
	if delay > 0 {
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// record keeps m and returns the status to answer: the checks' status, or
// for a message that passed them the one Answer set. It sets the answer's
// headers.
func (s *Server) record(w http.ResponseWriter, m Message, status int, passed bool) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if passed && s.status != 0 {
		status = s.status
		if s.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int((s.retryAfter+time.Second-1)/time.Second)))
		}
	}
	m.Status = status
	s.messages = append(s.messages, m)
	if status == http.StatusCreated {
		w.Header().Set("Location", fmt.Sprintf("/message/%d", len(s.messages)))
	}
	close(s.arrived)
	s.arrived = make(chan struct{})
	return status
}

var urgencies = map[string]bool{"very-low": true, "low": true, "normal": true, "high": true}

// check applies the checks of RFC 8030, 8292 and 8291 in turn and returns
// what it read and the status to answer.
func check(r *http.Request, sub *subscription, now time.Time) (Message, int, error) {
	m := Message{Header: r.Header.Clone(), Urgency: r.Header.Get("Urgency"), Topic: r.Header.Get("Topic")}
	cred, err := verify(r.Header.Get("Authorization"), sub.origin, now)
	switch {
	case errors.Is(err, errAbsent):
		return m, http.StatusUnauthorized, err
	case err != nil:
		return m, http.StatusForbidden, err
	case sub.serverKey != "" && cred.key != sub.serverKey:
		return m, http.StatusForbidden, errors.New("k= is not the key the subscription is restricted to")
	}
	m.Subject, m.Expires, m.Key = cred.subject, cred.expires, cred.key
	// RFC 8030 §5.2: TTL is required, a number of seconds.
	ttl, err := strconv.Atoi(r.Header.Get("TTL"))
	if err != nil || ttl < 0 {
		return m, http.StatusBadRequest, errors.New("TTL is missing or not a number of seconds")
	}
	m.TTL = ttl
	if m.Urgency != "" && !urgencies[m.Urgency] {
		return m, http.StatusBadRequest, fmt.Errorf("urgency %q is not one of RFC 8030 §5.3's", m.Urgency)
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		return m, http.StatusBadRequest, fmt.Errorf("content-encoding %q is not aes128gcm", ce)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return m, http.StatusBadRequest, err
	}
	if len(body) > maxBody {
		return m, http.StatusRequestEntityTooLarge, fmt.Errorf("the body is over %d bytes", maxBody)
	}
	m.Payload, err = sub.browser.Decrypt(body)
	if err != nil {
		return m, http.StatusBadRequest, err
	}
	return m, http.StatusCreated, nil
}
