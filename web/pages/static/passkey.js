// Passkeys (issue 38 §2): the Account page's "Add a passkey" and the
// signed-out page's "Sign in with a passkey". Both are hidden until this
// script finds WebAuthn in the browser; without it the pages still show
// every other way. The server hands WebAuthn's options as JSON with
// base64url bytes; the browser's calls take ArrayBuffers, so the bytes
// are decoded on the way in and encoded on the way out. Every failure is
// said in words beside the button.
(function () {
  "use strict";

  var api = window.tendAPI, failure = api.failure;

  function fromB64(s) { return api.bytes(s).buffer; }

  function toB64(buf) {
    if (!buf) return undefined;
    var a = new Uint8Array(buf), s = "";
    for (var i = 0; i < a.length; i++) s += String.fromCharCode(a[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (d) { return Object.assign({}, d, {id: fromB64(d.id)}); });
  }

  // browserSaid words what the browser's WebAuthn call refused.
  function browserSaid(err, what) {
    if (err && err.said) return err;
    if (err && err.name === "NotAllowedError") return failure("No passkey was " + what + ": it was cancelled, or timed out.");
    if (err && err.name === "InvalidStateError") return failure("This device holds a passkey for your account already.");
    if (err && err.name === "SecurityError") return failure("The browser refused passkeys at this address; tend needs https, or http://localhost.");
    return failure("The browser could not use a passkey: " + (err && err.message || err) + ".");
  }

  function add(box) {
    var form = document.getElementById("passkey-add-form");
    var status = document.getElementById("passkey-status");
    box.hidden = false;
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var button = form.querySelector("button");
      var name = form.elements.name.value;
      button.disabled = true;
      status.textContent = "Asking your device…";
      var challenge;
      api.call("POST", "/v1/me/passkeys/options").then(function (o) {
        challenge = o.challenge_id;
        var pk = Object.assign({}, o.public_key, {
          challenge: fromB64(o.public_key.challenge),
          user: Object.assign({}, o.public_key.user, {id: fromB64(o.public_key.user.id)}),
          excludeCredentials: descriptors(o.public_key.excludeCredentials)
        });
        return navigator.credentials.create({publicKey: pk}).catch(function (err) { throw browserSaid(err, "added"); });
      }).then(function (c) {
        var r = c.response;
        return api.call("POST", "/v1/me/passkeys", {challenge_id: challenge, name: name, credential: {
          id: c.id, rawId: toB64(c.rawId), type: c.type, authenticatorAttachment: c.authenticatorAttachment || undefined,
          clientExtensionResults: c.getClientExtensionResults(),
          response: {clientDataJSON: toB64(r.clientDataJSON), attestationObject: toB64(r.attestationObject),
            transports: r.getTransports ? r.getTransports() : []}
        }});
      }).then(function () {
        status.textContent = "Passkey added.";
        location.assign("/account?notice=edited#passkeys");
      }).catch(function (err) {
        status.textContent = browserSaid(err, "added").message;
        button.disabled = false;
      });
    });
  }

  function signIn(box) {
    var button = document.getElementById("passkey-signin-button");
    var status = document.getElementById("passkey-status");
    box.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      status.textContent = "Asking your device…";
      var challenge;
      api.call("POST", "/v1/passkeys/signin/options").then(function (o) {
        challenge = o.challenge_id;
        var pk = Object.assign({}, o.public_key, {
          challenge: fromB64(o.public_key.challenge),
          allowCredentials: descriptors(o.public_key.allowCredentials)
        });
        return navigator.credentials.get({publicKey: pk, mediation: "optional"}).catch(function (err) { throw browserSaid(err, "used"); });
      }).then(function (c) {
        var r = c.response;
        return api.call("POST", "/v1/passkeys/signin", {challenge_id: challenge, credential: {
          id: c.id, rawId: toB64(c.rawId), type: c.type, authenticatorAttachment: c.authenticatorAttachment || undefined,
          clientExtensionResults: c.getClientExtensionResults(),
          response: {clientDataJSON: toB64(r.clientDataJSON), authenticatorData: toB64(r.authenticatorData),
            signature: toB64(r.signature), userHandle: toB64(r.userHandle)}
        }});
      }).then(function () {
        status.textContent = "Signed in.";
        // The signed-out page stands in for whatever page was asked for;
        // on /signin itself, the app starts at Today.
        if (location.pathname === "/signin") location.assign("/");
        else location.reload();
      }).catch(function (err) {
        status.textContent = browserSaid(err, "used").message;
        button.disabled = false;
      });
    });
  }

  if (!window.PublicKeyCredential || !navigator.credentials) return;
  var box = document.getElementById("passkey-add");
  if (box) add(box);
  box = document.getElementById("passkey-signin");
  if (box) signIn(box);
})();
