// What this browser remembers of classroom rooms, in its own storage (localStorage), so that opening the
// join link again, or reloading the teacher's page, finds the same student id or teacher key.
// The server sends {room, remember, forget, known}; the component reports the room's entry, {room, me, key}
// (nulls for nothing kept), when it differs from what the server already knows (so it never reruns the page in a
// loop). A server session that knows nothing yet (a new page, a restarted server) always gets a report, even
// "nothing kept": the page waits for it before it offers the join form.
const STORE = "ndcg-lab.classroom";
const KEEP = 20; // rooms remembered at most

function load() {
  try {
    const value = JSON.parse(window.localStorage.getItem(STORE) || "{}");
    return value && typeof value === "object" ? value : {};
  } catch (e) {
    return {};
  }
}

function save(all) {
  const rooms = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, KEEP);
  try {
    window.localStorage.setItem(STORE, JSON.stringify(Object.fromEntries(rooms)));
  } catch (e) {
    // storage full or disabled: the link still carries the identity
  }
}

export default function (component) {
  const { data, setStateValue } = component;
  if (!data || !data.room) return;
  const all = load();
  if (data.forget) {
    delete all[data.room];
    save(all);
  } else if (data.remember) {
    all[data.room] = { ...(all[data.room] || {}), ...data.remember, at: Date.now() };
    save(all);
  }
  const mine = all[data.room] || {};
  const entry = { room: data.room, me: mine.me || null, key: mine.key || null };
  const known = data.known || {};
  if (known.room !== entry.room || known.me !== entry.me || known.key !== entry.key) setStateValue("memory", entry);
}
