// Invites (invite.go): on the join page, the username checked as it is
// typed (POST /v1/invites/check with the page's invite, told through an
// aria-live message) and
// the browser's own timezone picked; on the Invites page, the new link's
// copy button. Without this script the join form still works: a taken or
// invalid username comes back on the form, said in words.
(function () {
  "use strict";

  function joinForm() {
    var input = document.getElementById("j-username");
    var said = document.getElementById("j-username-check");
    var zones = document.getElementById("j-tz");
    if (!input || !said || !zones) return;
    if (!zones.hasAttribute("data-chosen")) pickZone(zones);
    var timer = null, asked = 0;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      var name = input.value.trim();
      if (name === "") {
        said.textContent = "";
        said.className = "";
        input.removeAttribute("aria-invalid");
        return;
      }
      timer = setTimeout(function () { check(name, ++asked); }, 250);
    });
    function check(name, n) {
      var secret = decodeURIComponent(location.pathname.replace(/^\/join\//, ""));
      fetch("/v1/invites/check", {method: "POST", credentials: "omit",
        headers: {"Accept": "application/json", "Content-Type": "application/json"},
        body: JSON.stringify({invite: secret, username: name})})
        .then(function (r) { return r.json(); })
        .then(function (c) {
          if (n !== asked) return; // a later keystroke asked again
          var free = c.available === true;
          said.textContent = free ? name + " is free." : (c.reason || c.detail || name + " cannot be used.");
          said.className = free ? "" : "field-error";
          input.setAttribute("aria-invalid", free ? "false" : "true");
        })
        .catch(function () {});
    }
  }

  // pickZone selects the browser's zone, adding it when the list lacks it.
  function pickZone(zones) {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    if (zone === "") return;
    for (var i = 0; i < zones.options.length; i++) {
      if (zones.options[i].value === zone) {
        zones.selectedIndex = i;
        return;
      }
    }
    var o = document.createElement("option");
    o.textContent = zone;
    zones.insertBefore(o, zones.firstChild);
    zones.selectedIndex = 0;
  }

  function copyButton() {
    var b = document.getElementById("invite-copy");
    var link = document.getElementById("invite-link");
    var said = document.getElementById("invite-copied");
    if (!b || !link || !said || !navigator.clipboard) return;
    b.hidden = false;
    b.addEventListener("click", function () {
      navigator.clipboard.writeText(link.value).then(function () {
        said.textContent = "Copied.";
      }, function () {
        link.select();
        said.textContent = "Select the link and copy it.";
      });
    });
  }

  joinForm();
  copyButton();
})();
