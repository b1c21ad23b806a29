#!/usr/bin/python3
"""Validate iCalendar feeds with an independent reader (Debian's python3-icalendar).

Usage: icalcheck.py DIR -- reads every DIR/*.ics written by TestCalendarSamples
and fails on the first that does not parse or breaks a rule calendar apps rely on.
"""
import pathlib
import sys

import icalendar


def check(path):
    raw = path.read_bytes()
    for n, line in enumerate(raw.split(b"\r\n")[:-1], 1):
        if len(line) > 75:
            raise ValueError(f"line {n} has {len(line)} octets (RFC 5545 folds at 75)")
    if not raw.endswith(b"\r\n") or b"\n" in raw.replace(b"\r\n", b""):
        raise ValueError("lines must end in CRLF")
    cal = icalendar.Calendar.from_ical(raw)
    if cal.name != "VCALENDAR":
        raise ValueError("not a VCALENDAR")
    for prop in ("PRODID", "VERSION"):
        if prop not in cal:
            raise ValueError(f"calendar lacks {prop}")
    tzids = {str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")}
    events = cal.walk("VEVENT")
    for ev in events:
        for prop in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            if prop not in ev:
                raise ValueError(f"event lacks {prop}")
        start = ev["DTSTART"]
        start.dt  # decoding the value raises on a malformed date
        tzid = start.params.get("TZID")
        if tzid and tzid not in tzids:
            raise ValueError(f"TZID {tzid} has no VTIMEZONE")
        if "DTEND" in ev and ev["DTEND"].dt < start.dt:
            raise ValueError("DTEND before DTSTART")
        if "RRULE" in ev:
            ev["RRULE"].to_ical()
    return len(events)


def main():
    files = sorted(pathlib.Path(sys.argv[1]).glob("*.ics"))
    if not files:
        sys.exit("no sample feeds to check")
    for f in files:
        try:
            n = check(f)
        except Exception as e:  # noqa: BLE001 -- every failure fails CI
            sys.exit(f"{f.name}: {e}")
        print(f"{f.name}: ok ({n} events)")


main()
