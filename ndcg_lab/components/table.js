// The Playground's breakdown table: one row per position, every term written out, rows after k greyed.
// Cells are set with textContent (labels are the learner's text). Drawn as a plain HTML table, so the
// server sends a few hundred bytes of JSON per move instead of an Arrow table with styles.

import { animateChange, linkPositions } from "./pointer.js";

export default function (component) {
  const { parentElement } = component;
  const data = JSON.parse(component.data); // JSON text: see ui/widgets/__init__.py
  const table = parentElement.querySelector("table");
  parentElement.querySelector(".ndcg-table").classList.toggle("large", Boolean(data.large));
  table.querySelector("caption").textContent = data.caption;
  const head = table.querySelector("thead");
  const row = document.createElement("tr");
  for (const label of data.columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = label;
    row.appendChild(th);
  }
  head.replaceChildren(row);
  const body = table.querySelector("tbody");
  const was = data.was || [];
  body.replaceChildren(...data.rows.map((cells, i) => {
    const tr = document.createElement("tr");
    tr.dataset.position = String(i + 1);
    if (!data.inside[i]) {
      tr.className = "beyond-k";
      tr.title = data.beyond;
    }
    if (was[i]) tr.classList.add("changed");
    cells.forEach((cell, j) => {
      const td = document.createElement(j === 0 ? "th" : "td");
      if (j === 0) td.scope = "row";
      td.textContent = cell;
      if (data.numeric[j]) td.className = "num";
      if (was[i] && j === data.term_column) {
        // The term before the last change, kept faint under the new one until the next change.
        const old = document.createElement("span");
        old.className = "was";
        old.textContent = was[i];
        td.appendChild(old);
      }
      tr.appendChild(td);
    });
    return tr;
  }));
  if (parentElement._unlink) parentElement._unlink();
  parentElement._unlink = linkPositions(body, "tr");
  // The last element a change redraws: the charts' new rows are in by now, so their animation starts here.
  if (data.change !== undefined && data.change !== null) animateChange(data.change);
  return () => {
    if (parentElement._unlink) parentElement._unlink();
    parentElement._unlink = null;
  };
}
