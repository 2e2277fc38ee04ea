// A student's phone watching its room: it asks the server for the room's revision (GET /api/room/CODE/revision,
// plain JSON from serve.py, no page run) every `every` ms, and only when the number differs from the one this
// part of the page was drawn with does it send a trigger, which reruns that part. If the route is not there
// (the app started with `streamlit run app.py`), it sends the trigger every `fallback` ms instead, so the page
// still follows the teacher, at the cost of a run each time. While the server's database is not answering (503) it
// keeps asking, and sends the trigger once the database answers again.

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (parentElement._stopWatch) parentElement._stopWatch();
  if (!data || !data.url) return;
  let stopped = false;
  let timer = null;

  const changed = (revision) => {
    stopped = true;
    setTriggerValue("changed", { revision, nonce: Date.now() + Math.random() });
  };

  let down = false; // the server said its database was not answering (503): the page may show a notice

  async function poll() {
    if (stopped) return;
    let wait = data.every;
    try {
      const reply = await fetch(data.url, { cache: "no-store", headers: { Accept: "application/json" } });
      const body = reply.headers.get("content-type")?.includes("json") ? await reply.json() : null;
      if (stopped) return;
      if (reply.status === 503) {
        // The database is not answering (restarting, say): keep asking, a little less often.
        down = true;
        timer = setTimeout(poll, data.fallback);
        return;
      }
      if (down && body !== null) {
        // Back after an outage: redraw, so a notice the page showed meanwhile goes away.
        changed(body.revision ?? null);
        return;
      }
      if (body === null) {
        // No such route (the page's own HTML came back): let the server look, every `fallback` ms.
        timer = setTimeout(() => changed(data.revision), Math.max(0, data.fallback - data.every));
        return;
      }
      if (reply.status === 404 || body.revision !== data.revision) {
        changed(body.revision ?? null);
        return;
      }
    } catch (e) {
      wait = data.fallback; // offline for a moment: try again a little later
    }
    timer = setTimeout(poll, wait);
  }

  timer = setTimeout(poll, data.every);
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    parentElement._stopWatch = null;
  };
  parentElement._stopWatch = stop;
  return stop;
}
