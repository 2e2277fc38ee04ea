// The Playground's swap map, drawn as SVG from what the server sends (ui/widgets/swap_map.py: each cell's change
// in NDCG@k, formatted, and its colour, from ndcg_core's NDCG after each swap); this code only places them. A click,
// a tap or Enter on a cell sends the pair (the trigger "swap"); the arrow keys move between cells, one of which is in
// the page's tab order (the best swap's). Linked to the other views through pointer.js (put before this code, with svg_drawing.js's helpers): the
// position pointed at anywhere has its row and column outlined here, and an axis label pointed at points at its
// position everywhere. Labels are the learner's text: set with textContent only.

// A label cut to about `limit` px, with an ellipsis (the whole of it stays in the cell's tooltip).
function cut(text, font, limit) {
  if (textWidth(text, font) <= limit) return text;
  let out = "";
  for (const ch of text) {
    if (textWidth(out + ch + "…", font) > limit) break;
    out += ch;
  }
  return out + "…";
}

// The pair a cell stands for, and what is said of it (tooltip and accessible name).
function cellText(data, i, j) {
  const t = data.texts;
  return `${t.item}: ${data.names[i]}\n${t.with}: ${data.names[j]}\n${t.change}: ${data.cells[i][j]}`;
}

function drawMap(box, data, width) {
  const n = data.n;
  const large = Boolean(data.large);
  const font = large ? 18 : 12;
  const labelled = n <= 30;
  const limit = Math.min(large ? 200 : 140, width * 0.3);
  const longest = labelled ? Math.min(limit, Math.max(0, ...data.names.map((name) => textWidth(name, font)))) : 0;
  const left = font * 1.8 + (labelled ? longest + 8 : 0);
  const plotWidth = Math.max(width - left - 4, 40);
  const rowHeight = labelled ? (large ? 56 : 38) : 8;
  const plotHeight = Math.min(rowHeight * n, 790);
  const top = 4;
  const bottom = top + plotHeight;
  const height = bottom + (labelled ? longest * 0.71 + 10 : 4) + font * 1.8;
  const w = plotWidth / Math.max(n, 1);
  const h = plotHeight / Math.max(n, 1);
  const picture = svg(null, "svg", {
    role: "group", "aria-label": data.texts.reading, width, height, viewBox: `0 0 ${width} ${height}`,
    "font-size": font, class: "plot",
  });
  const cells = svg(picture, "g", { class: "cells" });
  for (let i = 0; i < n; i += 1) {
    for (let j = 0; j < n; j += 1) {
      svg(cells, "rect", {
        class: "cell" + (labelled ? " ruled" : ""), x: left + j * w, y: top + i * h, width: w, height: h,
        fill: data.colors[i][j], "fill-opacity": i < data.k || j < data.k ? 1 : 0.85,
        role: "button", tabindex: -1, "data-i": i, "data-j": j,
      });
    }
  }
  const axes = svg(picture, "g");
  if (labelled) {
    data.names.forEach((name, p) => {
      const row = svg(axes, "text", {
        class: "axis pos", x: left - 6, y: top + (p + 0.5) * h + font * 0.35, "text-anchor": "end",
        "data-position": p + 1,
      }, cut(name, font, limit));
      svg(row, "title", {}, name);
      const x = left + (p + 0.5) * w;
      const y = bottom + 8;
      const column = svg(axes, "text", {
        class: "axis pos", x, y, "text-anchor": "end", transform: `rotate(-45 ${x} ${y})`, "data-position": p + 1,
      }, cut(name, font, limit));
      svg(column, "title", {}, name);
    });
  }
  const middle = top + plotHeight / 2;
  svg(axes, "text", {
    class: "axis title", x: font, y: middle, "text-anchor": "middle", transform: `rotate(-90 ${font} ${middle})`,
  }, data.texts.item);
  svg(axes, "text", {
    class: "axis title", x: left + plotWidth / 2, y: height - font * 0.4, "text-anchor": "middle",
  }, data.texts.with);
  // The pointed position's row and column: every swap that would move its item.
  const pointedRow = svg(picture, "rect", { class: "pointed-band", x: left, width: plotWidth, height: h });
  const pointedColumn = svg(picture, "rect", { class: "pointed-band", y: top, width: w, height: plotHeight });
  const point = (p) => {
    const shown = p > 0 && p <= n;
    for (const band of [pointedRow, pointedColumn]) band.classList.toggle("on", shown);
    if (!shown) return;
    pointedRow.setAttribute("y", String(top + (p - 1) * h));
    pointedColumn.setAttribute("x", String(left + (p - 1) * w));
  };
  box.replaceChildren(picture);
  return { picture, point };
}

function drawLegend(node, legend, title) {
  node.replaceChildren();
  html(node, "span", "legend-title", title);
  const scale = html(node, "span", "scale");
  html(scale, "span", "ramp").style.background = `linear-gradient(to right, ${legend.colors.join(", ")})`;
  const ends = html(scale, "span", "ends");
  html(ends, "span", "", legend.low);
  html(ends, "span", "", "0");
  html(ends, "span", "", legend.high);
}

// The cell in the tab order: the best swap's (the reading names it), else the first pair off the diagonal.
function firstCell(data) {
  return data.best || [0, Math.min(1, data.n - 1)];
}

export default function (component) {
  const { parentElement, setTriggerValue } = component;
  const data = JSON.parse(component.data); // JSON text: see ui/widgets/__init__.py
  const root = parentElement.querySelector(".ndcg-swap");
  const active = root.getRootNode().activeElement;
  const wasFocused = active && root.contains(active) && active.classList.contains("cell")
    ? [Number(active.dataset.i), Number(active.dataset.j)]
    : null;
  if (root._unlink) root._unlink();
  root.classList.toggle("large", Boolean(data.large));
  const t = data.texts;
  const heading = document.createElement("h3");
  heading.textContent = t.title;
  const intro = document.createElement("p");
  intro.className = "intro";
  intro.textContent = t.intro;
  const box = document.createElement("div");
  box.className = "map";
  const legend = document.createElement("p");
  legend.className = "legend";
  drawLegend(legend, data.legend, t.change);
  const reading = document.createElement("p");
  reading.className = "reading";
  reading.textContent = t.reading;
  const explain = document.createElement("p");
  explain.className = "explain";
  explain.textContent = t.explain;
  root.replaceChildren(heading, intro, box, legend, reading, explain);

  const n = data.n;
  let tabbed = wasFocused && wasFocused[0] < n && wasFocused[1] < n ? wasFocused : firstCell(data);
  let drawn = null;
  let drawnWidth = 0;
  const cellAt = (i, j) => box.querySelector(`rect.cell[data-i="${i}"][data-j="${j}"]`);
  const name = (cell) => {
    if (cell && !cell.hasAttribute("aria-label")) {
      const text = cellText(data, Number(cell.dataset.i), Number(cell.dataset.j));
      cell.setAttribute("aria-label", text.replaceAll("\n", "; "));
    }
  };
  const draw = () => {
    drawnWidth = box.clientWidth;
    drawn = n ? drawMap(box, data, Math.max(drawnWidth, 240)) : null;
    const cell = n ? cellAt(...tabbed) : null;
    if (cell) {
      cell.setAttribute("tabindex", "0");
      name(cell);
    }
    if (drawn) drawn.point(pointerNow());
  };
  draw();
  if (wasFocused && n) {
    const again = cellAt(...tabbed);
    if (again) again.focus();
  }

  const send = (cell) => {
    const i = Number(cell.dataset.i);
    const j = Number(cell.dataset.j);
    setTriggerValue("swap", { i, j, nonce: Date.now() + Math.random() });
  };
  const onClick = (event) => {
    const cell = event.target.closest ? event.target.closest("rect.cell") : null;
    if (cell) send(cell);
  };
  const onKey = (event) => {
    const cell = event.target.closest ? event.target.closest("rect.cell") : null;
    if (!cell) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      send(cell);
      return;
    }
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    const i = Math.min(Math.max(Number(cell.dataset.i) + step[0], 0), n - 1);
    const j = Math.min(Math.max(Number(cell.dataset.j) + step[1], 0), n - 1);
    const next = cellAt(i, j);
    if (!next || next === cell) return;
    cell.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    tabbed = [i, j];
    name(next);
    next.focus();
  };
  // A cell's tooltip and name made when it is first pointed at or focused: a long list has thousands of cells.
  const onOver = (event) => {
    const cell = event.target.closest ? event.target.closest("rect.cell") : null;
    if (cell && !cell.firstChild) svg(cell, "title", {}, cellText(data, Number(cell.dataset.i), Number(cell.dataset.j)));
  };
  const onFocus = (event) => {
    const cell = event.target.closest ? event.target.closest("rect.cell") : null;
    if (cell) name(cell);
  };
  box.addEventListener("click", onClick);
  box.addEventListener("keydown", onKey);
  box.addEventListener("pointerover", onOver);
  box.addEventListener("focusin", onFocus);
  const stopPointing = onPointed((p) => drawn && drawn.point(p));
  let unlink = linkPositions(box, ".pos");
  // A new width (a phone turned, the sidebar closed): drawn again to fit, its labels linked again.
  const resized = new ResizeObserver(() => {
    if (Math.abs(box.clientWidth - drawnWidth) <= 1) return;
    unlink();
    draw();
    unlink = linkPositions(box, ".pos");
  });
  resized.observe(box);
  root._unlink = () => {
    unlink();
    stopPointing();
    resized.disconnect();
    box.removeEventListener("click", onClick);
    box.removeEventListener("keydown", onKey);
    box.removeEventListener("pointerover", onOver);
    box.removeEventListener("focusin", onFocus);
    root._unlink = null;
  };
  return root._unlink;
}
