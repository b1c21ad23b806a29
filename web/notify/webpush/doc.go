// Package webpush sends Web Push messages: the payload encrypted for the
// browser (RFC 8291, the aes128gcm coding of RFC 8188) and the request
// signed with the instance's VAPID key (RFC 8292), POSTed to the push
// service the browser subscribed at (RFC 8030).
//
// It is the standard library's crypto and nothing else: the encryption
// is three HKDF calls and one AES-GCM seal, the signature one ECDSA
// signature over a three-claim JWT, and a dependency would bring a JWT
// library for that signature. Its counterpart for tests,
// tend/internal/pushtest, is a push service written separately from the
// RFCs, so the two implementations check each other.
//
// Nothing here logs, and no error carries a key or an endpoint's path:
// the path is the subscription's capability.
package webpush
