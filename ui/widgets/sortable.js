// NDCG Lab's sortable list: drag (SortableJS), Alt+Arrow keys on a focused row, or the up/down buttons.
// The server holds the order. Every move is sent as one trigger {type: "move", id, to}; the list is
// redrawn from the data the server sends back, so a change made from code always wins.
// Under the list, the page's one-click orderings (Ideal order, Worst order, Shuffle, Reset) when the server
// sends them: real buttons, each sent as one trigger {type: "order", kind}; the server makes the order.
// Labels are set with textContent, never innerHTML: a label is the learner's text, not markup.
// SortableJS (ui/Sortable.min.js, MIT) is put before this code by ui/sortable.py and defines globalThis.Sortable.

const SortableJS = globalThis.Sortable;

// A phone or tablet: drag by the handle only, so a swipe over a row scrolls the page.
function touchFirst() {
  return window.matchMedia("(pointer: coarse)").matches;
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : ""));
}

function el(tag, className, attrs) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  return node;
}

function button(className, text, label) {
  const b = el("button", className, { type: "button", "aria-label": label, title: label });
  b.textContent = text;
  return b;
}

function renderRow(item, index, data) {
  const t = data.texts;
  const n = data.items.length;
  const showGrades = data.show_grades !== false;
  const changed = (data.changed || []).includes(item.id);
  const row = el("li", "row" + (index < data.k ? "" : " beyond-k") + (changed ? " changed" : ""), {
    tabindex: "0",
    "data-id": String(item.id),
    "data-position": String(index + 1),
    "aria-label": fill(showGrades ? t.row : t.row_plain, { label: item.label, grade: item.grade, position: index + 1, n }),
  });
  const handle = el("span", "handle", { "aria-hidden": "true", title: t.handle });
  handle.textContent = "⠿";
  const pos = el("span", "pos", { "aria-hidden": "true" });
  pos.textContent = String(index + 1);
  const label = el("span", "label");
  label.textContent = item.label;
  const up = button("up", "▲", fill(t.up, { label: item.label }));
  const down = button("down", "▼", fill(t.down, { label: item.label }));
  up.disabled = index === 0;
  down.disabled = index === n - 1;
  const actions = el("span", "actions");
  actions.append(up, down);
  if (!showGrades) {
    // A class judging relevance from the titles: no grade is drawn (the server sent none), nothing to remove.
    row.append(handle, pos, label, actions);
    return row;
  }
  const grade = el("select", "grade", { "aria-label": fill(t.grade, { label: item.label }) });
  for (let g = 0; g <= data.top; g += 1) {
    const option = el("option", "", { value: String(g) });
    option.textContent = String(g);
    if (Number(item.grade) === g) option.selected = true;
    grade.appendChild(option);
  }
  if (!Number.isInteger(Number(item.grade)) || Number(item.grade) > data.top) {
    const option = el("option", "", { value: String(item.grade) });
    option.textContent = String(item.grade);
    option.selected = true;
    grade.appendChild(option);
  }
  grade.style.background = item.color;
  grade.style.color = item.text_color;
  // Presenter view: the grade is shown, not edited, and items cannot be removed.
  const shownGrade = data.readonly ? el("span", "chip") : grade;
  if (data.readonly) {
    shownGrade.textContent = String(item.grade);
    shownGrade.style.background = item.color;
    shownGrade.style.color = item.text_color;
  }
  if (!data.readonly) {
    const remove = button("remove", "✕", fill(t.remove, { label: item.label }));
    remove.disabled = n <= 1;
    actions.append(remove);
  }
  row.append(handle, pos, label, shownGrade, actions);
  return row;
}

// The figure the list changes, kept in view above the list while it is reordered on a narrow screen.
function renderSummary(root, summary) {
  const box = root.querySelector(".summary");
  box.hidden = !summary;
  if (!summary) return;
  const label = el("span", "summary-label");
  label.textContent = summary.label;
  const value = el("span", "summary-value");
  value.textContent = summary.value;
  const parts = [label, value];
  if (summary.delta) {
    const delta = el("span", "summary-delta" + (summary.delta.startsWith("-") ? " down" : ""));
    delta.textContent = summary.delta;
    parts.push(delta);
  }
  box.replaceChildren(...parts);
}

// The one-click orderings, two to a row; the button that had focus keeps it across the redraw.
function renderOrders(root, orders, send, label) {
  const box = root.querySelector(".orders");
  box.setAttribute("aria-label", label || "");
  const active = root.getRootNode().activeElement;
  const focused = active && box.contains(active) ? active.dataset.kind : null;
  box.hidden = !orders || orders.length === 0;
  const buttons = (orders || []).map((order) => {
    const b = el("button", "order", { type: "button", "data-kind": order.kind });
    b.textContent = order.label;
    b.addEventListener("click", () => send({ type: "order", kind: order.kind }));
    return b;
  });
  box.replaceChildren(...buttons);
  const again = focused ? buttons.find((b) => b.dataset.kind === focused) : null;
  if (again) again.focus();
}

function rowsOf(list) {
  return Array.from(list.querySelectorAll(":scope > li.row"));
}

function announce(root, text) {
  const live = root.querySelector(".live");
  live.textContent = "";
  // A fresh text node each time, so screen readers repeat an identical message.
  window.setTimeout(() => { live.textContent = text; }, 30);
}

// The NDCG@k that moving the item at `from` to `to` would give, and its change: both computed and rounded
// by the server (ui/sortable.py preview_data); moves between positions below k change nothing.
function previewOf(data, from, to) {
  const p = data.preview;
  if (!p || from < 0 || to < 0) return null;
  if (from >= p.k && to >= p.k) return { after: p.now, change: 0 };
  return { after: p.after[from][to], change: p.change[from][to] };
}

function previewText(data, from, to) {
  const p = previewOf(data, from, to);
  if (!p) return "";
  const sign = p.change > 0 ? "+" : p.change < 0 ? "\u2212" : "\u00b1";
  return fill(data.texts.preview, { after: p.after.toFixed(4), change: sign + Math.abs(p.change).toFixed(4) });
}

// Drop preview: while a row is dragged, the row under the pointer (SortableJS's moving copy of it) and the
// slot it would drop into say what NDCG@k would be there.
function dropPreview(root, data, row, from, to) {
  root.dataset.dropAt = to >= 0 ? String(to + 1) : "";
  const moving = SortableJS.ghost && SortableJS.ghost !== row ? [row, SortableJS.ghost] : [row];
  for (const node of moving) {
    if (to >= 0 && data.preview) node.dataset.preview = previewText(data, from, to);
    else delete node.dataset.preview;
  }
}

// Keyboard preview: a focused row says what Alt+Up and Alt+Down would give before the key is pressed.
function keyPreview(data, row, index, n) {
  if (!data.preview) return;
  const parts = [];
  if (index > 0) parts.push(fill(data.texts.preview_up, { preview: previewText(data, index, index - 1) }));
  if (index < n - 1) parts.push(fill(data.texts.preview_down, { preview: previewText(data, index, index + 1) }));
  row.dataset.preview = parts.join("  ");
  row.setAttribute("aria-description", parts.join("; "));
}

export default function (component) {
  const { parentElement, setTriggerValue } = component;
  const data = JSON.parse(component.data); // JSON text: see ui/widgets/__init__.py
  const root = parentElement.querySelector(".ndcg-sortable");
  const list = root.querySelector("ol");
  const touch = touchFirst();
  root.querySelector(".hint").textContent = touch ? data.texts.hint_touch : data.texts.hint;
  list.setAttribute("aria-label", data.texts.list);
  root.classList.toggle("large", Boolean(data.large));
  root.classList.toggle("readonly", Boolean(data.readonly));
  root.classList.toggle("no-grades", data.show_grades === false);
  root.classList.toggle("touch", touch);
  renderSummary(root, data.summary);

  if (root._cleanup) root._cleanup();
  const send = (payload) => setTriggerValue("action", { ...payload, nonce: Date.now() + Math.random() });
  renderOrders(root, data.orders, send, data.texts.orders);
  // Keep keyboard focus on the same item across the redraw, but only if it was in the list:
  // a rerun caused by another widget must not pull focus away from it.
  const active = root.getRootNode().activeElement;
  const focusRow = active && list.contains(active) ? active.closest("li.row") : null;
  const focusClass = focusRow && active !== focusRow ? active.className : null;
  // An order made from code (ideal, worst, a swap) slides into place. The learner's own move is already shown in
  // its new order: measuring the rows (a layout of the whole page, twice) would only hold up the redraw.
  const shownOrder = rowsOf(list).map((row) => row.dataset.id).join(",");
  const reordered = shownOrder !== "" && shownOrder !== data.items.map((item) => String(item.id)).join(",");
  const tops = reordered ? rowTops(rowsOf(list)) : null;
  list.replaceChildren(...data.items.map((item, i) => renderRow(item, i, data)));
  if (reordered) slideRows(rowsOf(list), tops);
  if (focusRow) {
    const again = list.querySelector(`li.row[data-id="${focusRow.dataset.id}"]`);
    const target = again && focusClass ? again.querySelector("." + focusClass.split(" ")[0]) : again;
    if (target && !target.disabled) target.focus();
    else if (again) again.focus();
  }

  function moved(row, to, via) {
    const label = row.querySelector(".label").textContent;
    announce(root, fill(data.texts.moved, { label, position: to + 1, n: rowsOf(list).length }));
    send({ type: "move", id: Number(row.dataset.id), to, via });
  }

  function moveTo(row, to, via) {
    const rows = rowsOf(list);
    const from = rows.indexOf(row);
    if (from < 0 || to < 0 || to >= rows.length || to === from) return;
    // Show the new order at once; the server's redraw follows with every number updated.
    list.insertBefore(row, to > from ? rows[to].nextSibling : rows[to]);
    moved(row, to, via);
  }

  function onKeyDown(event) {
    const row = event.target.closest ? event.target.closest("li.row") : null;
    if (!row || event.target !== row || !event.altKey) return;
    const from = rowsOf(list).indexOf(row);
    const last = rowsOf(list).length - 1;
    const to = { ArrowUp: from - 1, ArrowDown: from + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    moveTo(row, Math.max(0, Math.min(last, to)), "keyboard");
    row.focus();
  }

  function onClick(event) {
    const b = event.target.closest ? event.target.closest("button") : null;
    if (!b || b.disabled) return;
    const row = b.closest("li.row");
    const from = rowsOf(list).indexOf(row);
    if (b.classList.contains("up") || b.classList.contains("down")) {
      moveTo(row, from + (b.classList.contains("up") ? -1 : 1), "button");
      // Moving the row took the focus off its button: put it back, so Enter or Space moves the item again and the
      // server's redraw keeps it there (on the row instead, where the button has become disabled at an end).
      b.focus();
    } else if (b.classList.contains("remove")) send({ type: "remove", id: Number(row.dataset.id) });
  }

  function onFocusIn(event) {
    const row = event.target.closest ? event.target.closest("li.row") : null;
    if (!row || event.target !== row) return;
    const rows = rowsOf(list);
    keyPreview(data, row, rows.indexOf(row), rows.length);
  }

  function onFocusOut(event) {
    const row = event.target.closest ? event.target.closest("li.row") : null;
    if (row && event.target === row && !row.classList.contains("chosen")) delete row.dataset.preview;
  }

  function onChange(event) {
    if (!event.target.classList.contains("grade")) return;
    const row = event.target.closest("li.row");
    send({ type: "grade", id: Number(row.dataset.id), grade: Number(event.target.value) });
  }

  // Touch first: only the handle starts a drag, so a swipe anywhere else scrolls the page. With a mouse the
  // whole row drags; a touch on such a device must be held a moment first, so a swipe still scrolls.
  const sortable = SortableJS.create(list, {
    draggable: "li.row",
    handle: touch ? ".handle" : null,
    filter: "button, select",
    preventOnFilter: false,
    delay: touch ? 0 : 350,
    delayOnTouchOnly: true,
    forceFallback: true,
    fallbackTolerance: 3,
    animation: 120,
    scroll: true,
    bubbleScroll: true,
    ghostClass: "ghost",
    chosenClass: "chosen",
    dragClass: "dragging",
    onStart: (evt) => dropPreview(root, data, evt.item, evt.oldIndex, evt.oldIndex),
    onChange: (evt) => dropPreview(root, data, evt.item, evt.oldIndex, evt.newIndex),
    onEnd: (evt) => {
      dropPreview(root, data, evt.item, evt.oldIndex, -1);
      if (evt.oldIndex !== evt.newIndex) moved(evt.item, evt.newIndex, "drag");
    },
  });

  list.addEventListener("keydown", onKeyDown);
  list.addEventListener("click", onClick);
  list.addEventListener("change", onChange);
  list.addEventListener("focusin", onFocusIn);
  list.addEventListener("focusout", onFocusOut);
  const unlink = linkPositions(list, "li.row");
  // Focus kept across the redraw came before the listeners: preview the next step for it now.
  const focused = root.getRootNode().activeElement;
  if (focused && focused.matches && focused.matches("li.row") && list.contains(focused)) {
    keyPreview(data, focused, rowsOf(list).indexOf(focused), rowsOf(list).length);
  }
  const cleanup = () => {
    list.removeEventListener("keydown", onKeyDown);
    list.removeEventListener("click", onClick);
    list.removeEventListener("change", onChange);
    list.removeEventListener("focusin", onFocusIn);
    list.removeEventListener("focusout", onFocusOut);
    unlink();
    sortable.destroy();
    root._cleanup = null;
  };
  root._cleanup = cleanup;
  return cleanup;
}
