// tsdav (npm) against tend's CalDAV server, run by web/dav's TestDavTsdav.
// `node tsdav.mjs first` logs in from the bare address, lists the task
// lists and the tasks of the one named by TEND_LIST, creates, updates (with
// the ETag, then with a stale one) and deletes a task, and takes the
// list's first sync-collection; `node tsdav.mjs delta` asks for what
// changed since TEND_SYNC_TOKEN. Each prints one JSON object for the test
// to check.
import { createDAVClient } from 'tsdav';

const { TEND_URL, TEND_USER, TEND_TOKEN, TEND_LIST, TEND_SYNC_TOKEN } = process.env;

const client = await createDAVClient({
  serverUrl: TEND_URL,
  credentials: { username: TEND_USER, password: TEND_TOKEN },
  authMethod: 'Basic',
  defaultAccountType: 'caldav',
});

const todos = [{ 'comp-filter': { _attributes: { name: 'VCALENDAR' }, 'comp-filter': { _attributes: { name: 'VTODO' } } } }];
const summary = (data) => (/^SUMMARY:(.*)$/m.exec(data ?? '') ?? [])[1]?.trim();

const calendars = await client.fetchCalendars();
const list = calendars.find((c) => c.url.endsWith(`/${TEND_LIST}/`));
if (!list) throw new Error(`no list ${TEND_LIST} among ${calendars.map((c) => c.url)}`);

async function sync(token) {
  const res = await client.syncCollection({
    url: list.url,
    props: { 'd:getetag': {} },
    syncLevel: 1,
    syncToken: token,
  });
  const name = (href) => href.slice(href.lastIndexOf('/') + 1);
  return {
    changed: res.filter((r) => r.status !== 404 && r.href).map((r) => name(r.href)).sort(),
    gone: res.filter((r) => r.status === 404).map((r) => name(r.href)).sort(),
    token: res[0]?.raw?.multistatus?.syncToken,
  };
}

const out = {};
if (process.argv[2] === 'delta') {
  out.delta = await sync(TEND_SYNC_TOKEN);
} else {
  out.calendars = calendars.map((c) => ({ url: new URL(c.url).pathname, displayName: c.displayName, components: c.components, syncToken: c.syncToken })).sort((a, b) => a.url.localeCompare(b.url));
  const before = await client.fetchCalendarObjects({ calendar: list, filters: todos });
  out.objects = before.map((o) => summary(o.data)).sort();
  // tsdav's default filter asks for VEVENTs, which a task list never holds.
  out.events = (await client.fetchCalendarObjects({ calendar: list })).length;

  const ics = (uid, title) => `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tsdav test//EN\r\nBEGIN:VTODO\r\nUID:${uid}\r\nDTSTAMP:20261206T100000Z\r\nSUMMARY:${title}\r\nDUE;VALUE=DATE:20261224\r\nEND:VTODO\r\nEND:VCALENDAR\r\n`;
  const created = await client.createCalendarObject({ calendar: list, filename: 'tsdav-1.ics', iCalString: ics('tsdav-1', 'Made by tsdav') });
  const doomed = await client.createCalendarObject({ calendar: list, filename: 'tsdav-2.ics', iCalString: ics('tsdav-2', 'Gone soon') });
  out.created = [created.status, doomed.status];

  const [mine] = await client.fetchCalendarObjects({ calendar: list, objectUrls: [new URL('tsdav-1.ics', list.url).href] });
  const updated = await client.updateCalendarObject({ calendarObject: { ...mine, data: mine.data.replace('SUMMARY:Made by tsdav', 'SUMMARY:Changed by tsdav') } });
  out.updated = updated.status;
  const stale = await client.updateCalendarObject({ calendarObject: { ...mine, data: mine.data.replace('SUMMARY:Made by tsdav', 'SUMMARY:Stale write') } });
  out.stale = stale.status;

  const [gone] = await client.fetchCalendarObjects({ calendar: list, objectUrls: [new URL('tsdav-2.ics', list.url).href] });
  out.deleted = (await client.deleteCalendarObject({ calendarObject: gone })).status;

  out.after = (await client.fetchCalendarObjects({ calendar: list, filters: todos })).map((o) => summary(o.data)).sort();
  out.initial = await sync('');
}
console.log(JSON.stringify(out));
