// Drawing helpers shared by the components that draw SVG (the figure charts, the swap map), put before their code
// as pointer.js is. Text is set with textContent only: labels are the learner's text.

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(parent, tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
  }
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function html(parent, tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

// An estimate of a label's width in px (CJK characters are square), to leave it room.
function textWidth(text, font) {
  let width = 0;
  for (const ch of text) width += ch.charCodeAt(0) > 0x2e80 ? font : font * 0.6;
  return width;
}
