# Drives tend's CalDAV server with Debian's python3-caldav (0.11), as a
# user of it would: discovery from the bare server address, a search for
# open todos, save, complete, sync tokens, delete, and a 412 on a stale ETag. Reads
# TEND_URL, TEND_USER and TEND_TOKEN; prints one line per step and exits
# non-zero on the first that fails.
import os
import sys

import caldav
from caldav.lib import error

url, user, token = os.environ["TEND_URL"], os.environ["TEND_USER"], os.environ["TEND_TOKEN"]

client = caldav.DAVClient(url=url, username=user, password=token)
principal = client.principal()
calendars = principal.calendars()
names = sorted(c.name for c in calendars)
print("calendars", names)
home = [c for c in calendars if c.name == "Home"][0]

todo = home.save_todo(
    "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//python-caldav test//EN\nBEGIN:VTODO\n"
    "UID:py-1\nDTSTAMP:20261201T100000Z\nSUMMARY:Water the plants\nDUE;VALUE=DATE:20261210\n"
    "X-MOZ-GENERATION:3\nEND:VTODO\nEND:VCALENDAR\n"
)
print("saved", todo.url)

open_todos = home.todos()
print("open", sorted(str(t.icalendar_instance.subcomponents[0]["SUMMARY"]) for t in open_todos))

fetched = home.todo_by_uid("py-1")
data = fetched.data
assert "X-MOZ-GENERATION:3" in data, data
assert "METHOD" not in data, data
print("kept X-MOZ-GENERATION")

fetched.complete()
print("completed; open now", sorted(str(t.icalendar_instance.subcomponents[0]["SUMMARY"]) for t in home.todos()))

# A stale ETag: the server must refuse with 412.
r = client.request(str(fetched.url), "PUT", fetched.data, {"If-Match": '"1-0"', "Content-Type": "text/calendar"})
print("stale put", r.status)
assert r.status == 412, r.status

synced = home.objects_by_sync_token(load_objects=False)
before = synced.sync_token
fetched.data = fetched.data.replace("SUMMARY:Water the plants", "SUMMARY:Water the ferns")
fetched.save()
delta = home.objects_by_sync_token(sync_token=before, load_objects=False)
print("sync", len(list(synced)), "then", len(list(delta)), "moved on", delta.sync_token != before)

fetched.delete()
remaining = [t.url for t in home.todos(include_completed=True)]
print("deleted; left", len(remaining))
