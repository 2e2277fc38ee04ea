// The Playground's linked views, shared by its components (put before each one's own code by ui/widgets/pointer.py)
// and its charts, with no rerun: the position pointed at (hover, focus or tap) in any view is document.body's
// `value`, announced by the event POINTER_EVENT on the body; the swap map's Vega signal `point` is bound to it
// (ui/charts.py), and each component marks its own row. The last change's animation is documentElement's `value`:
// the change's id plus how far it has gone (0 to 1), -1 when none runs, announced by TWEEN_EVENT (the figure
// charts' component follows it). Under prefers-reduced-motion nothing animates.

const POINTER_EVENT = "ndcglabpoint";
const TWEEN_EVENT = "ndcglabtween";
const TWEEN_MS = 300;

function pointerNow() {
  return Number(document.body.value) || 0;
}

// The components' own marks follow at once (a class on a row); the charts a moment later, once the pointer has
// settled: redrawing four charts at every row the pointer crosses held up the click or key that followed it
// (benchmarks/bench_instant.py, "input to send"). Nor do they follow within QUIET_AFTER_INPUT_MS of a key, a press
// or a release: that input is most likely a move, whose redraw and animation the charts' own would hold up (the
// row hovered or focused just before the move, and the moved row focused again, would each redraw all five
// charts while the new NDCG is on its way to the screen).
const MARK_EVENT = "ndcglabmark";
const CHARTS_AFTER_MS = 60;
const QUIET_AFTER_INPUT_MS = 700;

function chartsDelay() {
  const since = performance.now() - (window.__ndcgLabInputAt ?? -Infinity);
  return Math.max(CHARTS_AFTER_MS, QUIET_AFTER_INPUT_MS - since);
}

function scheduleCharts() {
  window.clearTimeout(window.__ndcgLabPointTimer);
  window.__ndcgLabPointTimer = window.setTimeout(() => {
    window.__ndcgLabPointTimer = null;
    document.body.dispatchEvent(new Event(POINTER_EVENT));
  }, chartsDelay());
}

// Once per page (each component carries this code): an input puts off the charts' pending redraw.
if (!window.__ndcgLabInputWatch) {
  window.__ndcgLabInputWatch = true;
  const onInput = () => {
    window.__ndcgLabInputAt = performance.now();
    if (window.__ndcgLabPointTimer) scheduleCharts();
  };
  for (const type of ["keydown", "pointerdown", "pointerup"]) window.addEventListener(type, onInput, true);
}

// Point at a position (1-based; 0: none) in every view of the page.
function pointAt(position) {
  const body = document.body;
  if (pointerNow() === position) return;
  body.value = position;
  body.dispatchEvent(new Event(MARK_EVENT));
  scheduleCharts();
}

// Call `handler(position)` at every pointing; returns the function that stops it.
function onPointed(handler) {
  const listener = () => handler(pointerNow());
  document.body.addEventListener(MARK_EVENT, listener);
  return () => document.body.removeEventListener(MARK_EVENT, listener);
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Make the nodes of `root` that carry `data-position` point when hovered, focused or tapped (a tap stays until
// the next one: a finger does not hover), and mark the pointed one with the class "pointed".
function linkPositions(root, selector) {
  const positionOf = (event) => {
    const node = event.target.closest ? event.target.closest(selector) : null;
    return node && root.contains(node) ? Number(node.dataset.position) || 0 : null;
  };
  const over = (event) => {
    if (event.pointerType === "touch") return;
    const position = positionOf(event);
    if (position !== null) pointAt(position);
  };
  const out = (event) => {
    if (event.pointerType === "touch") return;
    const next = event.relatedTarget && event.relatedTarget.closest ? event.relatedTarget.closest(selector) : null;
    if (!next || !root.contains(next)) pointAt(0);
  };
  const focus = (event) => {
    const position = positionOf(event);
    if (position !== null) pointAt(position);
  };
  const blur = (event) => {
    const next = event.relatedTarget && event.relatedTarget.closest ? event.relatedTarget.closest(selector) : null;
    if (!next || !root.contains(next)) pointAt(0);
  };
  const tap = (event) => {
    if (event.pointerType !== "touch") return;
    const position = positionOf(event);
    if (position !== null) pointAt(pointerNow() === position ? 0 : position);
  };
  const mark = (position) => {
    for (const node of root.querySelectorAll(selector)) {
      node.classList.toggle("pointed", position > 0 && Number(node.dataset.position) === position);
    }
  };
  root.addEventListener("pointerover", over);
  root.addEventListener("pointerout", out);
  root.addEventListener("focusin", focus);
  root.addEventListener("focusout", blur);
  root.addEventListener("pointerup", tap);
  const stop = onPointed(mark);
  mark(pointerNow());
  return () => {
    root.removeEventListener("pointerover", over);
    root.removeEventListener("pointerout", out);
    root.removeEventListener("focusin", focus);
    root.removeEventListener("focusout", blur);
    root.removeEventListener("pointerup", tap);
    stop();
  };
}

// Animate the change `id` in the charts, once per change (a rerun that changes nothing does not replay it).
function animateChange(id) {
  const html = document.documentElement;
  if (id === null || id === undefined || window.__ndcgLabTweened === id) return;
  window.__ndcgLabTweened = id;
  const set = (value) => {
    html.value = value;
    html.dispatchEvent(new Event(TWEEN_EVENT));
  };
  if (reducedMotion()) {
    set(-1);
    return;
  }
  window.__ndcgLabTweens = (window.__ndcgLabTweens || 0) + 1;
  html.dataset.tween = "running";
  const start = performance.now();
  const step = (now) => {
    if (window.__ndcgLabTweened !== id) return; // a newer change took over
    const done = Math.min(1, (now - start) / TWEEN_MS);
    const eased = 1 - (1 - done) * (1 - done) * (1 - done);
    if (done >= 1) {
      delete html.dataset.tween;
      set(-1);
      return;
    }
    set(id + Math.min(eased, 0.999));
    requestAnimationFrame(step);
  };
  set(id);
  requestAnimationFrame(step);
}

// FLIP: rows (with `data-id`) that moved since `before` (id -> top, taken before the redraw) slide from their old
// place to the new one.
function slideRows(rows, before) {
  if (reducedMotion() || !before) return;
  for (const row of rows) {
    const old = before.get(row.dataset.id);
    if (old === undefined) continue;
    const shift = old - row.getBoundingClientRect().top;
    if (Math.abs(shift) < 1) continue;
    row.animate([{ transform: `translateY(${shift}px)` }, { transform: "translateY(0)" }], {
      duration: TWEEN_MS,
      easing: "cubic-bezier(0.2, 0.7, 0.3, 1)",
    });
  }
}

function rowTops(rows) {
  const tops = new Map();
  for (const row of rows) tops.set(row.dataset.id, row.getBoundingClientRect().top);
  return tops;
}
