// A student's phone in a live room, drawn here in the browser from the card the server builds
// (ui/phones/card.py): no page run when the teacher opens, locks or reveals an activity.
// It keeps one stream of Server-Sent Events open (the events route: the card at once, then each new card the
// moment the teacher changes something); when the stream breaks (its server process died, say) it asks the card
// route once, through nginx to a live process, and opens a new stream with the revision it shows, so no change
// depends on a message it missed. Where streams never get through (a proxy that holds them back), it asks the card
// route every `every` ms instead, with the revision of the card it shows (the server answers "same" until the
// teacher changes something, then the new card), and tries a stream again every `probe` ms. Answers are posted to their own route; nothing holds anything on
// a server process, so a process's death costs a reconnect.
// What the student typed is kept here (and in the tab's sessionStorage), by activity and part, so a card drawn
// again loses nothing.
// Every text is set with textContent: nothing from the server or the student is read as HTML.
// SortableJS (Sortable.min.js, MIT) is put before this code by ui/phones/phone_page.py.

const SortableJS = globalThis.Sortable;
const SEND_TRIES = 3; // an answer with no reply (a lost connection, a 502) is sent again, up to this many times
const SEND_AGAIN_MS = 500;
const STREAM_BACKOFF_FIRST = 1000; // ms before a new stream after one that failed; doubled each time...
const STREAM_BACKOFF_MOST = 5000; // ...up to this
const STREAM_JITTER = 500;
const POLL_KEY = "ndcg-card:poll"; // set in the tab once its streams failed: its next page polls at once
const DEADLINES_KEPT = 8; // cards whose deadline is kept: the one shown and a few before it

function el(tag, className, attrs) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  return node;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : ""));
}

// Paragraphs of (text, bold) runs, a line end kept as "\n" in a run's text.
function paragraphs(node, runs, tag) {
  for (const para of runs || []) {
    const p = el(tag || "p");
    for (const [text, bold] of para) {
      const parent = bold ? p.appendChild(el("strong")) : p;
      text.split("\n").forEach((line, i) => {
        if (i) parent.appendChild(el("br"));
        parent.appendChild(document.createTextNode(line));
      });
    }
    node.appendChild(p);
  }
  return node;
}

function plain(runs) {
  return (runs || []).map((para) => para.map(([text]) => text).join("")).join(" ");
}

function sameValue(block, value, saved) {
  if (block.type === "number") {
    if (saved === null || saved === undefined) return value === "" || value === null || value === undefined;
    // The store keeps a Practice answer as typed ("4,5", read as 4.5): the same text is the same answer.
    if (String(value).trim() === String(saved).trim()) return true;
    const a = Number(String(value).trim());
    return String(value).trim() !== "" && !Number.isNaN(a) && a === Number(saved);
  }
  if (block.type === "order") {
    const base = saved || block.labels.map((_, i) => i);
    return JSON.stringify(value) === JSON.stringify(base);
  }
  return value === saved || ((value === null || value === undefined) && (saved === null || saved === undefined));
}

export default function (component) {
  const { parentElement } = component;
  const data = JSON.parse(component.data); // JSON text: see ui/widgets/__init__.py
  const root = parentElement.querySelector(".ndcg-card");
  if (root._stop) root._stop();
  const storeKey = `ndcg-card:${data.code}:${data.me}`;
  if (!root._typed) {
    try {
      root._typed = JSON.parse(sessionStorage.getItem(storeKey) || "{}");
    } catch (e) {
      root._typed = {};
    }
  }
  const typed = root._typed; // activity id -> part -> value typed or chosen, not necessarily sent
  const state = { stopped: false, timer: null, tick: null, down: false };
  root._messages = root._messages || {}; // activity id -> {ok, text}: the last send's message
  root._deadlines = root._deadlines || new Map(); // "activity:revision" -> when its time is up (Date.now() ms)
  const deadlines = root._deadlines;
  const messages = root._messages;
  const notice = root.querySelector(".notice");
  const body = root.querySelector(".body");

  function keep() {
    try {
      sessionStorage.setItem(storeKey, JSON.stringify(typed));
    } catch (e) {
      // A private tab may refuse storage: what was typed is still kept on this page.
    }
  }

  function current(card, block) {
    const mine = typed[card.activity] || {};
    if (block.part in mine) return mine[block.part];
    if (block.type === "order") return block.saved || block.labels.map((_, i) => i);
    return block.saved === undefined ? null : block.saved;
  }

  function setTyped(card, block, value) {
    typed[card.activity] = typed[card.activity] || {};
    typed[card.activity][block.part] = value;
    keep();
    status(card);
  }

  function inputs(card) {
    return card.blocks.filter((b) => ["number", "choice", "order"].includes(b.type));
  }

  // When this card's time limit runs out by this phone's clock (null: no limit, or not open). Each card brings the
  // seconds left as of its sending, so the deadline is set from the first copy of the card seen (its activity, at
  // its revision) and kept by that card's key: a new activity, or a new round of one, is never judged by the
  // deadline of the one before, which had run out (its box stayed disabled, and Send missing, until its own clock
  // ran out), and a card met again keeps its own.
  function deadline(card) {
    if (card.phase !== "open" || card.left === null || card.left === undefined) return null;
    const key = `${card.activity}:${card.revision}`;
    if (!deadlines.has(key)) {
      deadlines.set(key, Date.now() + card.left * 1000);
      if (deadlines.size > DEADLINES_KEPT) deadlines.delete(deadlines.keys().next().value); // the oldest
    }
    return deadlines.get(key);
  }

  function timeUp(card) {
    const end = deadline(card);
    return end !== null && Date.now() >= end;
  }

  function wasUp(card) {
    return card.time_up || timeUp(card) || (card.phase === "locked" && root._timeWasUp === card.activity);
  }

  // One status line under the answer, as the server-drawn page had it.
  function status(card) {
    const line = root.querySelector(".status");
    if (!line) return;
    line.replaceChildren();
    line.className = "status";
    const closed = card.phase !== "open" || timeUp(card);
    const say = (level, text) => {
      line.className = `status note ${level}`;
      line.textContent = text;
    };
    if (closed) delete messages[card.activity]; // "saved, you can change it" is no longer true once answers close
    else {
      const m = messages[card.activity];
      for (const input of body.querySelectorAll("input.number")) input.setAttribute("aria-invalid", String(!!m && !m.ok));
      if (m) say(m.ok ? "success" : "error", m.text);
      else if (card.answered) {
        line.className = "status caption";
        line.textContent = card.texts.change;
      }
      return;
    }
    const changed = inputs(card).filter((b) => !sameValue(b, current(card, b), b.saved));
    if (changed.length && card.unsent) {
      const first = changed[0];
      let value = current(card, first);
      if (first.type === "choice") {
        const option = first.options.find(([v]) => v === value);
        value = option ? option[1] : value;
      }
      // One sentence: why answers closed (time up, or locked) is its first word, not a second message.
      const text = fill(card.unsent, {
        value: String(value).slice(0, 20),
        numbers: changed.map((b) => b.part + 1).join(", "),
        closed: wasUp(card) ? card.texts.closed_time_up : card.texts.closed_locked,
      });
      say("warning", text);
    } else if (wasUp(card)) say("warning", card.texts.time_up);
    else if (card.phase === "locked") say("info", card.texts.locked);
  }

  function numberBlock(card, block, disabled) {
    const id = `card-${card.activity}-${block.part}`;
    const wrap = el("div", "field");
    const label = el("label", "label", { for: id });
    label.textContent = plain(block.label);
    const input = el("input", "number", { id, type: "text", inputmode: "decimal", autocomplete: "off", placeholder: block.placeholder });
    const value = current(card, block);
    input.value = value === null || value === undefined ? "" : String(value);
    input.disabled = disabled;
    input.addEventListener("input", () => setTyped(card, block, input.value));
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        send(card);
      }
    });
    const row = el("div", "row");
    row.append(input);
    wrap.append(label, row);
    return wrap;
  }

  function choiceBlock(card, block, disabled) {
    const group = el("div", "choice", { role: "radiogroup" });
    const legend = paragraphs(el("div", "label"), block.label, "span");
    const labelId = `card-${card.activity}-${block.part}-label`;
    legend.id = labelId;
    group.setAttribute("aria-labelledby", labelId);
    const row = el("div", "options");
    const chosen = current(card, block);
    const buttons = block.options.map(([value, text]) => {
      const b = el("button", "option", { type: "button", role: "radio", "aria-checked": String(value === chosen) });
      b.textContent = text;
      b.disabled = disabled;
      b.addEventListener("click", () => {
        for (const other of buttons) other.setAttribute("aria-checked", String(other === b));
        setTyped(card, block, value);
      });
      return b;
    });
    row.append(...buttons);
    group.append(legend, row);
    return group;
  }

  function orderBlock(card, block, disabled) {
    const t = block.texts;
    const wrap = el("div", disabled ? "order locked" : "order"); // locked: one short line per row, no controls
    const hint = el("p", "caption");
    hint.textContent = t.hint_touch;
    const list = el("ol", "", { "aria-label": t.list });
    const live = el("div", "live", { "aria-live": "polite" });
    function draw() {
      const order = current(card, block);
      list.replaceChildren(
        ...order.map((item, index) => {
          const row = el("li", "row" + (index < block.k ? "" : " beyond-k"), { "data-item": String(item) });
          const handle = el("span", "handle", { "aria-hidden": "true", title: t.handle });
          handle.textContent = "⠿";
          const pos = el("span", "pos");
          pos.textContent = String(index + 1);
          const label = el("span", "text");
          label.textContent = block.labels[item];
          row.append(handle, pos, label);
          if (block.grades.length) {
            const chip = el("span", "chip");
            chip.textContent = block.grades[item];
            row.append(chip);
          }
          const actions = el("span", "actions");
          for (const [name, symbol, to] of [["up", "▲", index - 1], ["down", "▼", index + 1]]) {
            const b = el("button", name, { type: "button", "aria-label": fill(t[name], { label: block.labels[item] }) });
            b.textContent = symbol;
            b.disabled = disabled || to < 0 || to >= order.length;
            b.addEventListener("click", () => moveTo(index, to));
            actions.append(b);
          }
          row.append(actions);
          return row;
        }),
      );
    }
    function moveTo(from, to) {
      const order = [...current(card, block)];
      const [item] = order.splice(from, 1);
      order.splice(to, 0, item);
      setTyped(card, block, order);
      draw();
      live.textContent = fill(t.moved, { label: block.labels[item], position: to + 1, n: order.length });
    }
    draw();
    if (!disabled) {
      root._sortables.push(
        SortableJS.create(list, {
          handle: ".handle",
          draggable: "li.row",
          forceFallback: true,
          fallbackTolerance: 3,
          animation: 120,
          onEnd: (evt) => {
            if (evt.oldIndex !== evt.newIndex) {
              // SortableJS moved the row already; the list is drawn again from the order kept here.
              moveTo(evt.oldIndex, evt.newIndex);
            }
          },
        }),
      );
    } else hint.hidden = true;
    wrap.append(hint, list, live);
    return wrap;
  }

  function tableBlock(block) {
    const table = el("table");
    const head = el("tr");
    block.head.forEach((text, i) => {
      const th = el("th", block.numeric[i] ? "num" : "");
      th.textContent = text;
      head.append(th);
    });
    table.appendChild(el("thead")).append(head);
    const tbody = table.appendChild(el("tbody"));
    for (const row of block.rows) {
      const tr = tbody.appendChild(el("tr"));
      row.forEach((text, i) => {
        const td = el("td", block.numeric[i] ? "num" : "");
        td.textContent = text;
        tr.append(td);
      });
    }
    const wrap = el("div", "table");
    wrap.append(table);
    return wrap;
  }

  function draw(card) {
    if (card.phase === "revealed" && typed[card.activity]) {
      delete typed[card.activity]; // at the reveal the inputs show what was sent, beside the verdict on it
      keep();
    }
    for (const s of root._sortables || []) s.destroy();
    root._sortables = [];
    root._card = card;
    const closed = card.phase !== "open" || timeUp(card);
    const nodes = [];
    let lastInput = -1;
    for (const block of card.blocks) {
      if (block.type === "text") nodes.push(paragraphs(el("div", block.small ? "caption" : "text"), block.paragraphs));
      else if (block.type === "note") nodes.push(paragraphs(el("div", `note ${block.level}`, { role: "status" }), block.paragraphs));
      else if (block.type === "table") nodes.push(tableBlock(block));
      else if (block.type === "number") nodes.push(numberBlock(card, block, closed || block.disabled));
      else if (block.type === "choice") nodes.push(choiceBlock(card, block, closed || block.disabled));
      else if (block.type === "order") nodes.push(orderBlock(card, block, closed || block.disabled));
      if (["number", "choice", "order"].includes(block.type)) lastInput = nodes.length - 1;
    }
    // Send and the status line go right under the last answer, so a refusal is read beside the box it is about
    // (a list or a worked table may follow); a single number box has Send on its own row, beside it.
    const statusLine = el("div", "status", { role: "status", "aria-live": "polite", id: `card-${card.activity}-status` });
    const after = [];
    if (card.send && !closed) {
      const b = el("button", "send", { type: "button" });
      b.textContent = card.send;
      b.addEventListener("click", () => send(card));
      const only = inputs(card);
      const row = only.length === 1 && only[0].type === "number" ? nodes[lastInput].querySelector(".row") : null;
      if (row) row.append(b);
      else after.push(b);
    }
    after.push(statusLine);
    nodes.splice(lastInput < 0 ? nodes.length : lastInput + 1, 0, ...after);
    for (const input of nodes.flatMap((n) => [...(n.querySelectorAll ? n.querySelectorAll("input.number") : [])])) {
      input.setAttribute("aria-describedby", statusLine.id);
    }
    if (card.left !== null && card.left !== undefined && card.phase === "open") {
      nodes.unshift(el("div", "countdown", { role: "timer" }));
    }
    // The box being typed in stays focused, its caret where it was: a redraw (any teacher action) must not close
    // the phone's keyboard halfway through a number.
    const active = root.getRootNode().activeElement;
    const typing = active && body.contains(active) && active.id ? [active.id, active.selectionStart, active.selectionEnd] : null;
    body.replaceChildren(...nodes);
    const again = typing && body.querySelector(`#${CSS.escape(typing[0])}`);
    if (again && !again.disabled) {
      again.focus({ preventScroll: true });
      if (typing[1] !== null) again.setSelectionRange(typing[1], typing[2]);
    }
    countdown(card);
    status(card);
  }

  function countdown(card) {
    clearTimeout(state.tick);
    const box = body.querySelector(".countdown");
    const end = deadline(card);
    if (!box || end === null) return;
    const tick = () => {
      const left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      if (left > 0) {
        box.textContent = `${card.texts.time_left} ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
        box.className = left <= 5 ? "countdown soon" : "countdown";
        state.tick = setTimeout(tick, 250);
        return;
      }
      root._timeWasUp = card.activity;
      draw({ ...card, left: null, phase: "locked", send: "" }); // answers close here; the server refuses them too
      // The server's own card (locked once the limit and its grace are past) comes with the next look.
      state.tick = setTimeout(() => fetchCard(), 1500);
    };
    tick();
  }

  async function send(card) {
    const values = inputs(card)
      .map((b) => [b.part, current(card, b)])
      .filter(([, v]) => v !== null && v !== undefined && v !== "");
    const button = body.querySelector("button.send");
    if (button) button.disabled = true;
    let reply = null;
    // Sent again by itself when no reply came (the server process died with the request, say; nginx then sends the
    // next try to a live one): the store keeps an answer sent twice once, so a repeat is harmless.
    for (let attempt = 0; attempt < SEND_TRIES && !reply && !state.stopped; attempt += 1) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, SEND_AGAIN_MS));
      try {
        const response = await fetch(data.answer, {
          method: "POST",
          cache: "no-store",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ me: data.me, lang: data.lang, activity: card.activity, values }),
        });
        reply = response.headers.get("content-type")?.includes("json") ? await response.json() : null;
      } catch (e) {
        reply = null;
      }
    }
    if (state.stopped) return;
    if (!reply || typeof reply.ok !== "boolean") {
      messages[card.activity] = { ok: false, text: data.texts.not_sent };
    } else {
      messages[card.activity] = { ok: reply.ok, text: reply.message };
    }
    if (reply && reply.card) {
      if (reply.ok) delete typed[card.activity]; // sent: the card's saved values are these now
      keep();
      draw(reply.card);
    } else {
      if (button) button.disabled = false;
      status(card);
    }
  }

  function showNotice(text) {
    notice.hidden = !text;
    notice.textContent = text || "";
  }

  function sameCard(a, b) {
    const bare = (card) => JSON.stringify({ ...card, revision: 0, left: null });
    return bare(a) === bare(b) && (a.left === null) === (b.left === null);
  }

  async function getJSON(url) {
    const reply = await fetch(url, { cache: "no-store", headers: { Accept: "application/json" } });
    const json = reply.headers.get("content-type")?.includes("json") ? await reply.json() : null;
    return { status: reply.status, json };
  }

  function show(json) {
    if (root._card && root._card.activity !== json.activity) delete messages[root._card.activity];
    if (root._card && sameCard(root._card, json)) {
      root._card = json; // a change elsewhere in the room (names shown, say): nothing to draw, focus stays put
      return;
    }
    try {
      draw(json);
    } catch (e) {
      console.error(e); // a card this code cannot draw: the next look at the room tries again
      root._card = null;
    }
  }

  async function fetchCard() {
    try {
      const { status: code, json } = await getJSON(data.card);
      if (state.stopped) return false;
      state.failures = 0;
      if (code === 503) {
        showNotice(data.texts.outage);
        state.down = true;
        return false;
      }
      if (code === 404 || !json) {
        showNotice(data.texts.unknown);
        state.down = true;
        return false;
      }
      showNotice("");
      state.down = false;
      state.failures = 0;
      show(json);
      return true;
    } catch (e) {
      // No answer at all (offline for a moment, or every server process away): said after the second time.
      state.failures = (state.failures || 0) + 1;
      if (state.failures >= 2 && data.texts.offline) showNotice(data.texts.offline);
      return false;
    }
  }

  // The fallback where streams do not get through: one request every `every` ms; the card route answers "same"
  // while the room is at the card's revision, else the new card (or 503 while the database is down, 404 once the
  // room is gone).
  async function poll() {
    if (state.stopped) return;
    let wait = data.every;
    try {
      const known = root._card && !state.down ? `&known=${root._card.revision}` : "";
      const { status: code, json } = await getJSON(data.card + known);
      if (state.stopped) return;
      if (code === 503) {
        showNotice(data.texts.outage);
        state.down = true;
        wait = data.fallback;
      } else if (code === 404 || !json) {
        showNotice(data.texts.unknown);
        state.down = true;
        wait = data.fallback;
      } else {
        if (state.down || notice.textContent === data.texts.offline) showNotice("");
        state.down = false;
        if (!json.same) show(json);
      }
      state.failures = 0;
    } catch (e) {
      wait = data.fallback; // offline for a moment, or the server process went away: ask again a little later
      state.failures = (state.failures || 0) + 1;
      if (state.failures >= 2 && data.texts.offline) showNotice(data.texts.offline);
    }
    if (!state.stopped) state.timer = setTimeout(poll, wait);
  }

  function startPolling() {
    if (state.polling || state.stopped) return;
    state.polling = true;
    root.dataset.mode = "poll";
    try {
      sessionStorage.setItem(POLL_KEY, "1"); // this tab's next page polls at once
    } catch (e) {
      // no storage: the next page tries the stream first again
    }
    clearTimeout(state.timer);
    state.timer = setTimeout(poll, data.every);
    scheduleProbe();
  }

  function scheduleProbe() {
    clearTimeout(state.probe);
    if (!state.stopped) state.probe = setTimeout(() => openStream(true), data.probe + Math.random() * STREAM_JITTER);
  }

  function stopPolling() {
    state.polling = false;
    clearTimeout(state.timer);
    clearTimeout(state.probe);
    try {
      sessionStorage.removeItem(POLL_KEY); // streams get through again: this tab's next page streams
    } catch (e) {
      // no storage
    }
  }

  // The stream: the server sends "card" (the card, as the card route gives it) at once if the room moved past the
  // revision this page shows, else "same"; then a "card" at each change. Its first event comes at once: a stream
  // that brings none within `grace` ms is held up somewhere on the way.
  // While polling, a stream is tried again every `probe` ms (a class that fell back while its server was
  // overloaded, or a network that let streams through again): heard, it takes over from the polling.
  function openStream(probe = false) {
    if (state.stopped || (state.polling && !probe) || state.source) return;
    const known = root._card ? `&known=${root._card.revision}` : "";
    const source = new EventSource(data.events + known);
    state.source = source;
    let heard = false;
    const hear = () => {
      if (!heard) {
        heard = true;
        state.streamFailures = 0;
        state.backoff = 0;
        clearTimeout(state.silent);
        if (state.polling) stopPolling();
        root.dataset.mode = "stream";
      }
      if (state.down || notice.textContent === data.texts.offline) showNotice("");
      state.down = false;
    };
    source.addEventListener("same", hear);
    source.addEventListener("card", (event) => {
      hear();
      let card = null;
      try {
        card = JSON.parse(event.data);
      } catch (e) {
        return; // not a card this page can read: the next change brings another
      }
      show(card);
    });
    source.onerror = () => broken(source, heard);
    state.silent = setTimeout(() => {
      if (!heard) broken(source, false);
    }, data.grace);
  }

  // A stream ended or failed. One that had been heard: a new stream at once (its first event is the card or
  // "same", since it carries the revision shown, so no change is missed), the card route not asked as well: a
  // class whose server process died moves to another one with one request per phone, not two. One that brought
  // nothing: the card route once (it says whether the server answers at all, and brings what the stream might
  // have), then a new stream after a pause that grows while streams keep failing. Streams that fail while the
  // card route answers are the way's fault, not the server's: after `tries` of them, poll.
  async function broken(source, heard) {
    if (state.source !== source || state.stopped) return;
    source.close();
    state.source = null;
    clearTimeout(state.silent);
    if (state.polling) {
      scheduleProbe(); // a probe that brought nothing: the polling goes on
      return;
    }
    // A little at random: a class whose server process died does not come back to the next one all at once.
    if (heard) {
      state.backoff = 0;
      state.timer = setTimeout(openStream, Math.random() * STREAM_JITTER);
      return;
    }
    const answered = await fetchCard();
    if (state.stopped) return;
    if (answered) state.streamFailures = (state.streamFailures || 0) + 1;
    if (state.streamFailures >= data.tries) {
      startPolling();
      return;
    }
    state.backoff = Math.min(STREAM_BACKOFF_MOST, Math.max(STREAM_BACKOFF_FIRST, 2 * (state.backoff || 0)));
    state.timer = setTimeout(openStream, state.backoff + Math.random() * STREAM_JITTER);
  }

  if (root._card && root._cardFor === data.card) draw(root._card);
  root._cardFor = data.card;
  let pollFirst = !globalThis.EventSource || !data.events;
  try {
    pollFirst = pollFirst || sessionStorage.getItem(POLL_KEY) === "1";
  } catch (e) {
    // no storage: try the stream
  }
  if (pollFirst) {
    fetchCard().then(() => startPolling());
  } else openStream();
  const stop = () => {
    state.stopped = true;
    if (state.source) state.source.close();
    clearTimeout(state.silent);
    clearTimeout(state.timer);
    clearTimeout(state.probe);
    clearTimeout(state.tick);
    for (const s of root._sortables || []) s.destroy();
    root._sortables = [];
    root._stop = null;
  };
  root._stop = stop;
  return stop;
}
