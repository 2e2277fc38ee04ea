// A teacher's live part (control page, projector view) hears of its room's changes from one event stream (the
// watch route, ui/phones/routes.py) and asks for a run of the part at each "changed" (a trigger, which reruns only the
// part it is in), where a timer asked for one every half second whether or not anything had changed. The stream
// is opened once and kept over the part's runs. Refused (an old server without the route, a proxy that cannot
// stream, the database down), or silent past GRACE_MS (a proxy holding its events back: the server sends "same"
// or "changed" at once), the part is asked to run every `every` seconds, as the timer did, and the stream is tried
// again RETRY_MS later.

const RETRY_MS = 10000;
const GRACE_MS = 4000;

function start(data) {
  const watch = {
    url: data.url,
    seen: data.seen,
    trigger: null,
    source: null,
    poll: null,
    retry: null,
    silent: null,
    stopped: false,
  };
  const ask = () => {
    if (!watch.stopped && watch.trigger) watch.trigger("changed", Date.now());
  };
  const poll = () => {
    if (watch.poll === null) watch.poll = setInterval(ask, data.every * 1000);
  };
  const open = () => {
    watch.retry = null;
    if (watch.stopped) return;
    const source = new EventSource(`${data.url}?seen=${encodeURIComponent(watch.seen)}`);
    watch.source = source;
    const refused = () => {
      clearTimeout(watch.silent);
      source.close();
      if (watch.stopped || watch.source !== source) return;
      watch.source = null;
      poll();
      watch.retry = setTimeout(open, RETRY_MS);
    };
    const heard = () => {
      clearTimeout(watch.silent);
      clearInterval(watch.poll);
      watch.poll = null;
    };
    watch.silent = setTimeout(refused, GRACE_MS);
    source.addEventListener("same", heard);
    source.addEventListener("changed", () => {
      heard();
      ask();
    });
    source.onerror = () => {
      // A dropped stream reconnects by itself (its last id tells the server what was heard); a refused one is
      // closed for good: ask by the clock meanwhile, and try the stream again later.
      if (source.readyState === EventSource.CLOSED) refused();
    };
  };
  watch.stop = () => {
    watch.stopped = true;
    if (watch.source) watch.source.close();
    clearInterval(watch.poll);
    clearTimeout(watch.retry);
    clearTimeout(watch.silent);
  };
  open();
  return watch;
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  let watch = parentElement._roomWatch;
  if (!watch || watch.stopped || watch.url !== data.url) {
    if (watch) watch.stop();
    watch = parentElement._roomWatch = start(data);
  }
  watch.trigger = setTriggerValue;
  watch.seen = data.seen; // the mark of the part's last run: what a stream opened later compares with
  return () => {
    watch.stop();
    if (parentElement._roomWatch === watch) parentElement._roomWatch = null;
  };
}
