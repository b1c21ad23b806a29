// What the pages' scripts share to speak to the API: a problem document
// in words, a JSON call whose every failure says what went wrong, and
// base64url bytes as the server hands keys and challenges. It sets
// window.tendAPI; the scripts that use it load after it.
(function () {
  "use strict";

  // problemText says a problem document in words, as the pages without
  // the script say it; fallback when it says nothing.
  function problemText(p, fallback) {
    if (p && Array.isArray(p.detail)) {
      return p.detail.map(function (d) { return (d.loc && d.loc.length ? d.loc[d.loc.length - 1] + ": " : "") + d.msg; }).join("; ");
    }
    return (p && (p.detail || p.title)) || fallback;
  }

  // failure is an error that already says what went wrong in words.
  function failure(msg) {
    var e = new Error(msg);
    e.said = true;
    return e;
  }

  // call sends body, if any, as JSON with the page's session and answers
  // the reply's JSON. A refusal rejects with the problem in words; a
  // server out of reach with "The server could not be reached" and then
  // unreachable, what that left undone.
  function call(method, url, body, unreachable) {
    var init = {method: method, credentials: "same-origin", headers: {"Accept": "application/json"}};
    if (body) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (r) {
      return r.json().catch(function () { return null; }).then(function (j) {
        if (!r.ok) throw failure("The server refused it: " + problemText(j, "the server answered " + r.status) + ".");
        return j;
      });
    }, function () {
      throw failure("The server could not be reached" + (unreachable ? "; " + unreachable : "") + ".");
    });
  }

  // bytes decodes base64url without padding.
  function bytes(b64) {
    var s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  window.tendAPI = {problemText: problemText, failure: failure, call: call, bytes: bytes};
})();
