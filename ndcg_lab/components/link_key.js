// The teacher's key in a control link comes after "#" (…/Classroom?room=CODE&lang=en#key=SECRET): a browser never
// sends what follows "#" to a server, so the key is in no request line and no server's or proxy's log. This hands
// it to the page once (a trigger) and takes it out of the address bar at once, keeping anything else after "#".
export default function (component) {
  const { setTriggerValue } = component;
  const fragment = window.location.hash.replace(/^#/, "");
  if (!fragment) return;
  const params = new URLSearchParams(fragment);
  const key = params.get("key");
  if (!key) return;
  params.delete("key");
  const rest = params.toString();
  const address = window.location.pathname + window.location.search + (rest ? `#${rest}` : "");
  window.history.replaceState(window.history.state, "", address);
  setTriggerValue("key", key);
}
