// The Account page's "Notify this browser" (issue 37 §2): it fills the
// empty #push-slot of the Notifications section. A press asks the browser
// for permission, subscribes it with the server's VAPID key
// (GET /v1/push/key) and adds the subscription as a webpush channel
// (POST /v1/me/channels, with the page's session), then reads the section
// again so the new channel is listed. Every failure is said in words
// beside the button; none is left to the console.
(function () {
  "use strict";

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text) e.textContent = text;
    return e;
  }

  var api = window.tendAPI, failure = api.failure;

  function sameKey(buf, key) {
    if (!buf) return false;
    var a = new Uint8Array(buf);
    return a.length === key.length && a.every(function (b, i) { return b === key[i]; });
  }

  // browserName names the channel as a person would tell their devices
  // apart: "Firefox on Android".
  function browserName() {
    var ua = navigator.userAgent;
    var b = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge" : /OPR\//.test(ua) ? "Opera" :
      /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
    var os = /Android/.test(ua) ? "Android" : /iPhone|iPad|iPod/.test(ua) ? "iOS" : /Mac OS X/.test(ua) ? "macOS" :
      /Windows/.test(ua) ? "Windows" : /CrOS/.test(ua) ? "ChromeOS" : /Linux/.test(ua) ? "Linux" : "";
    return os ? b + " on " + os : b;
  }

  function subscribe(reg, key) {
    return reg.pushManager.getSubscription().then(function (old) {
      // A subscription made with another key (the server's keys were
      // made anew) cannot be reused: the browser refuses a second one.
      if (old && !sameKey(old.options && old.options.applicationServerKey, key)) return old.unsubscribe().then(function () { return null; });
      return old;
    }).then(function (old) {
      if (old) return old;
      // A browser that cannot reach its push service may keep trying
      // without ever answering (Chromium without Google's service does).
      // The slot's data-wait (seconds) shortens the wait where no push
      // service can answer, as in the browser tests.
      var slot = document.getElementById("push-slot");
      var wait = Number(slot && slot.dataset.wait) || 20;
      return Promise.race([reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key}), new Promise(function (_, no) {
        setTimeout(function () { no(new Error("it did not answer within " + wait + " seconds")); }, wait * 1000);
      })]);
    }).catch(function (err) {
      throw failure("The browser could not subscribe with its push service (" + (err && err.message || err) + "); nothing was set up.");
    });
  }

  // reload reads the page again and puts its section around the slot in
  // place of this one, which fills its own new slot.
  function reload(slot, said) {
    var section = slot.closest("section[id]");
    if (!section) return;
    return fetch(location.href, {credentials: "same-origin"}).then(function (r) { return r.text(); }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(section.id);
      if (!fresh) return;
      section.replaceWith(fresh);
      var next = fresh.querySelector("#push-slot");
      if (next) fill(next, said);
    }).catch(function () { /* the channel is added; the list shows it on the next load */ });
  }

  function fill(slot, said) {
    slot.replaceChildren();
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      slot.appendChild(el("p", {"class": "muted", id: "push-none"},
        "This browser cannot take notifications from tend here. On an iPhone or iPad, add tend to the Home Screen first and open it from there."));
      return;
    }
    var button = el("button", {type: "button", id: "push-subscribe"}, "Notify this browser");
    var status = el("p", {id: "push-status", role: "status"});
    if (said) status.textContent = said;
    else if (Notification.permission === "denied") status.textContent = "Notifications are blocked for this site in the browser's settings.";
    slot.appendChild(button);
    slot.appendChild(status);
    button.addEventListener("click", function () {
      button.disabled = true;
      status.textContent = "Asking the browser…";
      var key;
      Promise.resolve(Notification.requestPermission()).then(function (perm) {
        if (perm !== "granted") throw failure("Notifications were not allowed in this browser, so nothing was set up.");
        return api.call("GET", "/v1/push/key", null, "nothing was set up");
      }).then(function (j) {
        if (!j || !j.vapid_public_key) throw failure("The server has no push key; nothing was set up.");
        key = api.bytes(j.vapid_public_key);
        return navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function () { return navigator.serviceWorker.ready; });
      }).then(function (reg) {
        return subscribe(reg, key);
      }).then(function (sub) {
        // The contract's fields only: the API refuses a field it does not
        // know, and toJSON's expirationTime is one.
        var j = sub.toJSON();
        return api.call("POST", "/v1/me/channels", {type: "webpush", endpoint: j.endpoint, keys: j.keys, name: browserName()}, "nothing was set up");
      }).then(function () {
        var done = "This browser will be notified.";
        status.textContent = done;
        return reload(slot, done);
      }).catch(function (err) {
        status.textContent = err && err.said ? err.message : "Something went wrong: " + (err && err.message || err) + "; nothing was set up.";
      }).then(function () {
        button.disabled = false;
      });
    });
  }

  var slot = document.getElementById("push-slot");
  if (slot) fill(slot, "");
})();
