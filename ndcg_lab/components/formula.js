// The Playground's formula, written out with the list's own numbers: DCG@k as the sum of its terms, each term a
// view of its position (pointed at, it is marked in the list, the table and every chart, and its own formula is
// written out below). Every text and number comes from the server (ui/views/playground/figures.py); set with
// textContent, as item labels are the learner's text.

import { linkPositions, onPointed, pointerNow } from "./pointer.js";

export default function (component) {
  const { parentElement } = component;
  const data = JSON.parse(component.data); // JSON text: see ui/widgets/__init__.py
  const root = parentElement.querySelector(".ndcg-formula");
  const sum = root.querySelector(".sum");
  const detail = root.querySelector(".detail");
  root.querySelector(".ratio").textContent = data.ratio;
  const head = document.createElement("span");
  head.className = "lhs";
  head.textContent = data.lhs;
  const parts = [head];
  data.terms.forEach((term, i) => {
    if (i > 0) parts.push(document.createTextNode(" + "));
    const chip = document.createElement("span");
    chip.className = "term" + (term.changed ? " changed" : "");
    chip.tabIndex = 0;
    chip.dataset.position = String(term.position);
    chip.setAttribute("aria-label", term.detail);
    if (term.was) {
      const old = document.createElement("span");
      old.className = "was";
      old.textContent = term.was;
      chip.appendChild(old);
    }
    chip.appendChild(document.createTextNode(term.text));
    parts.push(chip);
  });
  if (data.more) parts.push(document.createTextNode(" + " + data.more));
  const total = document.createElement("span");
  total.className = "total";
  total.textContent = " = " + data.total;
  parts.push(total);
  sum.replaceChildren(...parts);

  const show = (position) => {
    const text = position > 0 ? data.details[position - 1] : null;
    detail.textContent = text || data.idle;
    detail.classList.toggle("idle", !text);
  };
  if (root._unlink) root._unlink();
  const unlink = linkPositions(sum, ".term");
  const unshow = onPointed(show);
  show(pointerNow());
  root._unlink = () => {
    unlink();
    unshow();
    root._unlink = null;
  };
  return root._unlink;
}
