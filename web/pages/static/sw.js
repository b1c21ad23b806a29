// tend's service worker, served as /sw.js behind a line that sets VERSION
// (the assets' content hash). It shows Web Push notifications and acts on
// their buttons, and keeps the last Today and task pages readable offline.
// The API is never cached, nor any page but those: a cached copy is a copy
// of what one person may see, kept on their own device, and forgotten when
// they sign out or the server stops showing it to them.
/* global VERSION */
"use strict";

var PAGES = "tend-pages-" + VERSION;
var ASSETS = "tend-assets-" + VERSION;
var STATIC = "/static/" + VERSION + "/";

// What a kept page needs to look right and to run app.js, which adds the
// offline banner.
var PRECACHE = ["app.css", "forms.css", "lists.css", "api.js", "app.js", "forms.js", "lists.js", "board.js", "push.js",
  "favicon.svg", "icon-192.png"].map(function (f) { return STATIC + f; });

self.addEventListener("install", function (e) {
  // A new version takes over at once: its assets are the server's now,
  // and the old version's pages ask for assets the server no longer has.
  e.waitUntil(caches.open(ASSETS).then(function (c) { return c.addAll(PRECACHE); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("tend-") === 0 && k !== PAGES && k !== ASSETS; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

// kept says whether a page is one kept for offline reading: Today and a
// task's page, nothing else (the API, feeds, sign-in links and action
// links carry data or credentials that must not outlive the request).
function kept(url) {
  return url.origin === self.location.origin && !url.username && !url.password &&
    (url.pathname === "/" || /^\/tasks\/[^/]+$/.test(url.pathname));
}

function forget() {
  return caches.delete(PAGES);
}

self.addEventListener("fetch", function (e) {
  var req = e.request;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method !== "GET") {
    if (url.pathname === "/signout") e.waitUntil(forget());
    return;
  }
  if (url.pathname.indexOf(STATIC) === 0) {
    e.respondWith(caches.match(req, {cacheName: ASSETS}).then(function (hit) { return hit || fetch(req); }));
    return;
  }
  if (req.mode === "navigate" && kept(url)) e.respondWith(page(req, url));
});

// page answers a navigation from the network and keeps the answer; when
// the network fails it answers the copy kept last, marked for app.js.
function page(req, url) {
  var key = url.origin + url.pathname;
  return fetch(req).then(function (res) {
    var type = res.headers.get("Content-Type") || "";
    if (res.status === 200 && !res.redirected && type.indexOf("text/html") === 0 && !url.search) {
      var copy = res.clone();
      caches.open(PAGES).then(function (c) { return c.put(key, copy); });
    } else if (res.status === 401) {
      forget();
    } else if (res.status === 403 || res.status === 404 || res.status === 410) {
      caches.open(PAGES).then(function (c) { return c.delete(key); });
    }
    return res;
  }, function () {
    return caches.match(key, {cacheName: PAGES}).then(function (hit) { return hit ? offline(hit) : missing(); });
  });
}

// offline is a kept page with the time it was made (its Date header) on
// its body, where app.js finds it and says so in a banner.
function offline(hit) {
  var made = new Date(hit.headers.get("Date") || 0);
  var at = isNaN(made) ? "" : made.toISOString();
  return hit.text().then(function (html) {
    html = html.replace("<body", "<body data-offline=\"" + at + "\"");
    var h = new Headers(hit.headers);
    h.delete("Content-Length");
    return new Response(html, {status: 200, headers: h});
  });
}

// missing answers a page that is not kept, while offline.
function missing() {
  var html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Offline · tend</title>" +
    "<link rel=\"stylesheet\" href=\"" + STATIC + "app.css\"></head><body><main id=\"main\" class=\"lone\">" +
    "<h1>Offline</h1><p id=\"offline-missing\">This page has not been opened on this device before, so there is no copy of it to show. " +
    "<a href=\"/\">Today</a> may have one.</p></main></body></html>";
  return new Response(html, {status: 503, headers: {"Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": "default-src 'self'; script-src 'none'; frame-ancestors 'none'"}});
}

// A push carries the notification's JSON (issue 37's payload): its title,
// body, the task's URL, and the Done and Snooze links. The notification's
// tag is its id, so a repeat of a push replaces the one shown.
self.addEventListener("push", function (e) {
  var p;
  try {
    p = e.data ? e.data.json() : {};
  } catch (err) {
    p = {};
  }
  var max = self.Notification && Notification.maxActions !== undefined ? Notification.maxActions : 2;
  var actions = (Array.isArray(p.actions) ? p.actions : []).filter(function (a) { return a && a.action && a.title && a.url; });
  e.waitUntil(self.registration.showNotification(p.title || "tend", {
    body: p.body || "",
    tag: p.id || "",
    data: p,
    icon: STATIC + "icon-192.png",
    badge: STATIC + "icon-maskable-192.png",
    actions: actions.slice(0, max).map(function (a) { return {action: a.action, title: a.title}; })
  }));
});

// A click on a button posts its link (the link is the capability: no
// cookie goes with it); a link that fails is opened instead, so the person
// sees why. A click elsewhere opens the task, in a tab showing it if any.
self.addEventListener("notificationclick", function (e) {
  var n = e.notification;
  var d = n.data || {};
  n.close();
  var act = null;
  (Array.isArray(d.actions) ? d.actions : []).forEach(function (a) { if (e.action && a.action === e.action) act = a; });
  e.waitUntil(act ? press(act.url) : show(d.url || "/"));
});

function press(url) {
  return fetch(url, {method: "POST", credentials: "omit", cache: "no-store"}).then(function (res) {
    if (!res.ok) return self.clients.openWindow(url);
  }, function () {
    return self.clients.openWindow(url);
  });
}

function show(url) {
  return self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (tabs) {
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].url === url && "focus" in tabs[i]) return tabs[i].focus();
    }
    return self.clients.openWindow(url);
  });
}
