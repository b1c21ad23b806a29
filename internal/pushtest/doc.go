// Package pushtest is a Web Push service for tests: an http.Handler to put
// in an httptest.Server, holding the browsers subscribed at it.
//
// It checks each push message as a strict push service and the browser
// together would: the VAPID token (RFC 8292: ES256 under the k= key, aud
// the endpoint's origin, exp in the future and within 24 hours, a sub),
// the headers of RFC 8030 (TTL, Urgency, Content-Encoding) and the body,
// which it decrypts (RFC 8291 over RFC 8188's aes128gcm) with the
// subscribed browser's keys. It records what it got, and can be told to
// refuse (404, 410, 429 with Retry-After, 500, …) or to answer slowly.
//
// Its receiving side is written from the RFCs' text, apart from the
// sender in tend/web/notify/webpush and sharing no code with it, so that a
// misreading of the RFCs shows up as two implementations disagreeing.
package pushtest
