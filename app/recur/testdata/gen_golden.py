#!/usr/bin/python3
"""Writes golden.json: the expected reading of each repeat phrase, expanded by
a second engine (python-dateutil), never by rrule-go.

Run it from the repository root with Debian's python (not pyenv's):

    apt-get install -y python3-dateutil
    /usr/bin/python3 app/recur/testdata/gen_golden.py > app/recur/testdata/golden.json

For each phrase the table below gives, by hand, the RRULE it must compile to
(without UNTIL), the description tend must write, the until date if any, and
whether it repeats from completion. This script finds the anchor the way
tend's model says (the first occurrence at or after the start, found with
INTERVAL=1 and no COUNT) and expands the first 8 occurrences in UTC,
Europe/Berlin and Pacific/Auckland from the same wall-clock start. CI reads
the JSON; it does not need python.
"""
import json
import sys
from datetime import datetime, time, timedelta, timezone
from itertools import islice
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

ZONES = ["UTC", "Europe/Berlin", "Pacific/Auckland"]

# phrase, start (local wall clock), RRULE without UNTIL, description, until (local date), from completion
ROWS = [
    ("every day", "2028-02-25T10:00", "FREQ=DAILY", "every day", None, False),
    ("daily at 9am", "2028-03-22T10:00", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "every day at 9:00", None, False),
    ("every 3 days", "2028-03-20T10:00", "FREQ=DAILY;INTERVAL=3", "every 3 days", None, False),
    ("every other day at 17:30", "2028-03-28T10:00", "FREQ=DAILY;INTERVAL=2;BYHOUR=17;BYMINUTE=30;BYSECOND=0", "every other day at 17:30", None, False),
    ("every weekday", "2028-02-24T10:00", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday", None, False),
    ("every weekday at 8:30", "2028-10-25T10:00", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30;BYSECOND=0", "every weekday at 8:30", None, False),
    ("every weekend", "2028-09-20T10:00", "FREQ=WEEKLY;BYDAY=SA,SU", "every Saturday and Sunday", None, False),
    ("every monday", "2028-03-15T10:00", "FREQ=WEEKLY;BYDAY=MO", "every Monday", None, False),
    ("every monday and thursday at 9am", "2028-03-18T10:00", "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "every Monday and Thursday at 9:00", None, False),
    ("every mon, wed & fri", "2028-09-21T10:00", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "every Monday, Wednesday and Friday", None, False),
    ("every other friday", "2028-02-26T10:00", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "every other Friday", None, False),
    ("every other friday at 9am", "2028-09-16T10:00", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "every other Friday at 9:00", None, False),
    ("every week", "2028-03-01T10:00", "FREQ=WEEKLY", "every week", None, False),
    ("every 2 weeks", "2028-10-10T10:00", "FREQ=WEEKLY;INTERVAL=2", "every other week", None, False),
    ("fortnightly at noon", "2028-03-20T10:00", "FREQ=WEEKLY;INTERVAL=2;BYHOUR=12;BYMINUTE=0;BYSECOND=0", "every other week at 12:00", None, False),
    ("every 3 weeks on tuesday", "2028-03-01T10:00", "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU", "every 3 weeks on Tuesday", None, False),
    ("every 3 weeks on monday and wednesday at 10:00", "2028-09-01T10:00", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,WE;BYHOUR=10;BYMINUTE=0;BYSECOND=0", "every 3 weeks on Monday and Wednesday at 10:00", None, False),
    ("every month", "2028-01-31T10:00", "FREQ=MONTHLY", "every month", None, False),
    ("every month on the 15th", "2028-02-20T10:00", "FREQ=MONTHLY;BYMONTHDAY=15", "every month on the 15th", None, False),
    ("every month on the 1st and 15th", "2028-02-20T10:00", "FREQ=MONTHLY;BYMONTHDAY=1,15", "every month on the 1st and 15th", None, False),
    ("every 1st and 15th at 9am", "2028-03-10T10:00", "FREQ=MONTHLY;BYMONTHDAY=1,15;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "every month on the 1st and 15th at 9:00", None, False),
    ("every last day of the month", "2028-01-10T10:00", "FREQ=MONTHLY;BYMONTHDAY=-1", "every month on the last day", None, False),
    ("every 3 months on the last day", "2028-02-01T10:00", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1", "every 3 months on the last day", None, False),
    ("every month on the 31st", "2028-01-01T10:00", "FREQ=MONTHLY;BYMONTHDAY=31", "every month on the 31st", None, False),
    ("every 2nd tuesday", "2028-02-20T10:00", "FREQ=MONTHLY;BYDAY=+2TU", "every month on the 2nd Tuesday", None, False),
    ("every last friday at 16:00", "2028-03-01T10:00", "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=16;BYMINUTE=0;BYSECOND=0", "every month on the last Friday at 16:00", None, False),
    ("monthly on the first monday", "2028-02-20T10:00", "FREQ=MONTHLY;BYDAY=+1MO", "every month on the 1st Monday", None, False),
    ("every 2 months on the 3rd wednesday", "2028-02-20T10:00", "FREQ=MONTHLY;INTERVAL=2;BYDAY=+3WE", "every other month on the 3rd Wednesday", None, False),
    ("every 5th thursday", "2028-01-01T10:00", "FREQ=MONTHLY;BYDAY=+5TH", "every month on the 5th Thursday", None, False),
    ("every quarter", "2028-02-20T10:00", "FREQ=MONTHLY;INTERVAL=3", "every 3 months", None, False),
    ("quarterly on the 1st", "2028-02-20T10:00", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1", "every 3 months on the 1st", None, False),
    ("every year", "2028-02-29T10:00", "FREQ=YEARLY", "every year", None, False),
    ("every year on feb 29", "2027-06-01T10:00", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "every year on February 29", None, False),
    ("every year on december 5 at 9am", "2028-02-20T10:00", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=5;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "every year on December 5 at 9:00", None, False),
    ("every 2 years on 1 march", "2028-02-20T10:00", "FREQ=YEARLY;INTERVAL=2;BYMONTH=3;BYMONTHDAY=1", "every other year on March 1", None, False),
    ("yearly at 7am", "2028-03-26T06:00", "FREQ=YEARLY;BYHOUR=7;BYMINUTE=0;BYSECOND=0", "every year at 7:00", None, False),
    ("daily for 5 times", "2028-02-26T10:00", "FREQ=DAILY;COUNT=5", "every day, 5 times", None, False),
    ("every week 3 times at 9am", "2028-03-20T10:00", "FREQ=WEEKLY;COUNT=3;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "every week at 9:00, 3 times", None, False),
    ("every day until 2028-03-01", "2028-02-25T10:00", "FREQ=DAILY", "every day until 2028-03-01", "2028-03-01", False),
    ("every day at 9am until 2028-03-28", "2028-03-22T10:00", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "every day at 9:00 until 2028-03-28", "2028-03-28", False),
    ("every monday until 2028-04-30", "2028-03-15T10:00", "FREQ=WEEKLY;BYDAY=MO", "every Monday until 2028-04-30", "2028-04-30", False),
    ("every! 3 days", "2028-02-26T10:00", "FREQ=DAILY;INTERVAL=3", "3 days after done", None, True),
    ("2 weeks after done", "2028-03-20T10:00", "FREQ=WEEKLY;INTERVAL=2", "2 weeks after done", None, True),
    ("every! month at 9am", "2028-01-31T10:00", "FREQ=MONTHLY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "a month after done at 9:00", None, True),
    ("every day at 0:30", "2028-09-22T10:00", "FREQ=DAILY;BYHOUR=0;BYMINUTE=30;BYSECOND=0", "every day at 0:30", None, False),
]


def parts(rule):
    return dict(p.split("=", 1) for p in rule.split(";"))


def unparts(d):
    return ";".join(k + "=" + v for k, v in d.items())


def expand(rule, start, until, zone):
    tz = ZoneInfo(zone)
    timed = "BYHOUR" in rule
    wall = datetime.fromisoformat(start).replace(tzinfo=tz)
    if not timed:
        wall = wall.replace(hour=0, minute=0)
    probe = parts(rule)
    probe["INTERVAL"] = "1"
    probe.pop("COUNT", None)
    anchor = rrulestr("RRULE:" + unparts(probe), dtstart=wall).after(wall, inc=True)
    text = "RRULE:" + rule
    until_part = ""
    if until:
        day = datetime.fromisoformat(until)
        last = datetime.combine(day.date(), time(23, 59, 59) if timed else time(0, 0), tz)
        text += ";UNTIL=" + last.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        until_part = ";UNTIL=" + (last.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ") if timed else day.strftime("%Y%m%d"))
    occ = list(islice(iter(rrulestr(text, dtstart=anchor)), 8))
    if not timed:
        dtstart = "DTSTART;VALUE=DATE:" + anchor.strftime("%Y%m%d")
    elif zone == "UTC":
        dtstart = "DTSTART:" + anchor.strftime("%Y%m%dT%H%M%SZ")
    else:
        dtstart = "DTSTART;TZID=" + zone + ":" + anchor.strftime("%Y%m%dT%H%M%S")
    return dtstart + "\nRRULE:" + rule + until_part, [o.isoformat() for o in occ]


def main():
    out = []
    for phrase, start, rule, desc, until, done in ROWS:
        row = {"phrase": phrase, "start": start, "rrule": rule, "description": desc, "from_completion": done, "zones": {}}
        for zone in ZONES:
            text, occ = expand(rule, start, until, zone)
            if done:
                text += "\nX-TEND-FROM-COMPLETION:TRUE"
            row["zones"][zone] = {"rule": text, "occurrences": occ}
        out.append(row)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
