// The Playground's four figure charts, drawn as SVG from the numbers the server sends (ui/widgets/figure_charts.py:
// ndcg_core's breakdown, formatted there); this code only places them. Linked to the other views through
// pointer.js (put before this code, with svg_drawing.js's helpers): a position pointed at anywhere is marked here ("pointed" on its groups), a
// bar, tile or point pointed at here points at its position everywhere, and the last change's animation (the
// table starts it: animateChange) moves each bar and line from its old value to its new one. Labels are the
// learner's text: set with textContent only.

const RED = "#b00020";

function tipOf(node, text) {
  if (text) svg(node, "title", {}, text);
}

function position(value) {
  return { class: "pos", "data-position": value };
}

// Which positions the x axis names: every one up to 20, then 1, 5, 10, ... (as the Altair charts).
function named(p, n) {
  return n <= 20 || p === 1 || p % 5 === 0;
}

function yAxis(g, ticks, scale, box, font, title, right) {
  for (const [value, label] of ticks) {
    const y = scale(value);
    if (!right) svg(g, "line", { class: "grid", x1: box.left, x2: box.right, y1: y, y2: y });
    svg(g, "text", {
      class: "axis",
      x: right ? box.right + 5 : box.left - 5,
      y: y + font * 0.35,
      "text-anchor": right ? "start" : "end",
    }, label);
  }
  const x = right ? box.right + font * 3.4 : box.left - font * 3.2;
  const y = (box.top + box.bottom) / 2;
  svg(g, "text", {
    class: "axis title", x, y, "text-anchor": "middle", transform: `rotate(${right ? 90 : -90} ${x} ${y})`,
  }, title);
}

function xTitle(g, box, font, title) {
  svg(g, "text", {
    class: "axis title", x: (box.left + box.right) / 2, y: box.bottom + font * 2.6, "text-anchor": "middle",
  }, title);
}

function lerp(from, to, f) {
  return from + (to - from) * f;
}

// --- the order beside the ideal one: a tile per position, coloured and labelled by its grade ---------------------
function drawOrder(g, chart, width, font, large) {
  const laneHeight = (large ? 1.4 : 1) * (chart.wrapped ? 28 : 52);
  const left = Math.max(...chart.lanes.map((lane) => textWidth(lane, font))) + 10;
  const bottom = chart.wrapped ? 4 : font * 3.2;
  const box = { left, right: width - 4, top: 4, bottom: 4 + laneHeight * chart.lanes.length };
  const step = (box.right - box.left) / Math.max(chart.columns, 1);
  chart.lanes.forEach((lane, i) => {
    svg(g, "text", {
      class: "axis", x: left - 8, y: box.top + laneHeight * (i + 0.5) + font * 0.35, "text-anchor": "end",
    }, lane);
  });
  for (const tile of chart.tiles) {
    const x = box.left + (tile.column - 1) * step;
    const y = box.top + chart.lanes.indexOf(tile.lane) * laneHeight;
    const pos = svg(g, "g", position(tile.p));
    tipOf(pos, tile.tip);
    svg(pos, "rect", {
      class: "tile" + (tile.changed ? " changed" : ""), x, y, width: step, height: laneHeight,
      fill: tile.color, "fill-opacity": tile.inside ? 1 : 0.35,
    });
    svg(pos, "text", {
      class: "grade", x: x + step / 2, y: y + laneHeight / 2 + font * 0.35, "text-anchor": "middle", fill: tile.ink,
    }, tile.key);
    if (tile.was) {
      svg(pos, "text", {
        class: "was-text", x: x + step / 2 - font * 0.7, y: y + laneHeight / 2 + font * 0.3, "text-anchor": "end",
        fill: tile.ink,
      }, tile.was);
    }
  }
  if (!chart.wrapped) {
    for (let c = 1; c <= chart.columns; c += 1) {
      svg(g, "text", {
        class: "axis", x: box.left + (c - 0.5) * step, y: box.bottom + font * 1.2, "text-anchor": "middle",
      }, String(c));
    }
    xTitle(g, box, font, chart.x_title);
  }
  return box.bottom + bottom;
}

// --- each position's gain (pale), its contribution (solid, grows from its old height) and the discount (dashed) ---
function drawContribution(g, chart, width, height, font, moving, n) {
  const box = { left: font * 4.2, right: width - font * 4.6, top: font, bottom: height - font * 3.2 };
  const top = chart.ticks[chart.ticks.length - 1][0] || 1;
  const y = (value) => box.bottom - (value / top) * (box.bottom - box.top);
  const y2 = (value) => box.bottom - value * (box.bottom - box.top);
  yAxis(g, chart.ticks, y, box, font, chart.y_title, false);
  yAxis(g, chart.ticks2, y2, box, font, chart.y2_title, true);
  const step = (box.right - box.left) / Math.max(chart.bars.length, 1);
  const line = [];
  chart.bars.forEach((bar, i) => {
    const x = box.left + i * step;
    const middle = x + step / 2;
    const pos = svg(g, "g", position(bar.p));
    tipOf(pos, bar.tip);
    svg(pos, "rect", { class: "hl band", x, y: box.top, width: step, height: box.bottom - box.top });
    svg(pos, "rect", {
      class: "gain", x: x + step * 0.1, width: step * 0.8, y: y(bar.gain), height: box.bottom - y(bar.gain),
      fill: bar.color,
    });
    const term = svg(pos, "rect", {
      class: "term" + (bar.changed ? " changed" : ""), x: middle - step * 0.2, width: step * 0.4, fill: bar.color,
      "fill-opacity": bar.inside ? 1 : 0.3,
    });
    const place = (f) => {
      const top = y(lerp(bar.was, bar.term, f));
      term.setAttribute("y", String(Math.min(top, box.bottom)));
      term.setAttribute("height", String(Math.abs(box.bottom - top)));
    };
    place(1);
    moving.push(place);
    if (bar.changed) {
      const old = y(bar.was);
      svg(pos, "line", { class: "was-mark", x1: middle - step * 0.3, x2: middle + step * 0.3, y1: old, y2: old });
    }
    svg(pos, "text", {
      class: "grade", x: middle, y: y(bar.gain) - 6, "text-anchor": "middle", "fill-opacity": bar.inside ? 1 : 0.3,
    }, bar.key);
    line.push([middle, y2(bar.discount)]);
    if (named(bar.p, n)) {
      svg(g, "text", { class: "axis", x: middle, y: box.bottom + font * 1.2, "text-anchor": "middle" }, String(bar.p));
    }
  });
  svg(g, "polyline", { class: "discount", points: line.map((pt) => pt.join(",")).join(" ") });
  for (const [x, yy] of line) svg(g, "circle", { class: "discount-point", cx: x, cy: yy, r: 3 });
  xTitle(g, box, font, chart.x_title);
  return height;
}

// A line chart over positions 1..n (NDCG at every k; the running DCG against the ideal): each line moves from its
// old values to its new ones, the old ones kept as a faint dashed line after a change.
function drawLines(g, chart, lines, width, height, font, moving, changed, n) {
  // Room on the right for the chosen k's diamond at the last position (a phone's column clips what passes it).
  const box = { left: font * 4.2, right: width - font * 1.5, top: font * 1.2, bottom: height - font * 3.2 };
  const top = chart.ticks[chart.ticks.length - 1][0] || 1;
  const y = (value) => box.bottom - (value / top) * (box.bottom - box.top);
  const x = (p) => (n > 1 ? box.left + ((p - 1) / (n - 1)) * (box.right - box.left) : (box.left + box.right) / 2);
  const step = n > 1 ? (box.right - box.left) / (n - 1) : box.right - box.left;
  yAxis(g, chart.ticks, y, box, font, chart.y_title, false);
  for (let p = 1; p <= n; p += 1) {
    const pos = svg(g, "g", position(p));
    const left = Math.max(box.left - 4, x(p) - step / 2);
    svg(pos, "rect", {
      class: "hit", x: left, width: Math.min(box.right + 4, x(p) + step / 2) - left, y: box.top,
      height: box.bottom - box.top,
    });
    svg(pos, "line", { class: "hl rule", x1: x(p), x2: x(p), y1: box.top, y2: box.bottom });
    if (named(p, n)) {
      svg(g, "text", { class: "axis", x: x(p), y: box.bottom + font * 1.2, "text-anchor": "middle" }, String(p));
    }
  }
  for (const series of lines) {
    if (changed) {
      svg(g, "polyline", {
        class: "was-line", stroke: series.was_color || series.color,
        points: series.points.map((pt) => `${x(pt.p)},${y(pt.was)}`).join(" "),
      });
    }
  }
  for (const series of lines) {
    const path = svg(g, "polyline", {
      class: "line", stroke: series.color, "stroke-dasharray": series.dash || null,
    });
    const dots = series.points.map((pt) => {
      const pos = svg(g, "g", position(pt.p));
      tipOf(pos, pt.tip);
      return [pt, svg(pos, "circle", { class: "point", r: 3.5, fill: series.color, cx: x(pt.p) })];
    });
    const place = (f) => {
      const points = [];
      for (const [pt, dot] of dots) {
        const yy = y(lerp(pt.was, pt.v, f));
        dot.setAttribute("cy", String(yy));
        points.push(`${x(pt.p)},${yy}`);
      }
      path.setAttribute("points", points.join(" "));
    };
    place(1);
    moving.push(place);
  }
  return { box, x, y };
}

function drawEveryK(g, chart, width, height, font, moving, changed, n) {
  const lines = [{ color: "#0b63ce", was_color: "#666666", points: chart.points }];
  const { box, x, y } = drawLines(g, chart, lines, width, height, font, moving, changed, n);
  const chosen = chart.points.find((pt) => pt.chosen);
  if (chosen) {
    const pos = svg(g, "g", position(chosen.p));
    tipOf(pos, chosen.tip);
    const r = font * 0.7;
    const diamond = svg(pos, "path", { class: "chosen", fill: RED });
    const place = (f) => {
      const cx = x(chosen.p);
      const cy = y(lerp(chosen.was, chosen.v, f));
      diamond.setAttribute("d", `M${cx},${cy - r}L${cx + r},${cy}L${cx},${cy + r}L${cx - r},${cy}Z`);
    };
    place(1);
    moving.push(place);
  }
  xTitle(g, box, font, chart.x_title);
  return height;
}

function drawCumulative(g, chart, width, height, font, moving, changed, n) {
  const { box, x } = drawLines(g, chart, chart.series, width, height, font, moving, changed, n);
  const at = x(chart.k);
  svg(g, "line", { class: "k-rule", x1: at, x2: at, y1: box.top - font * 0.6, y2: box.bottom });
  const late = at > (box.left + box.right) / 2; // past the middle, the label reads leftwards: never past the edge
  svg(g, "text", {
    class: "k-label", x: late ? at - 4 : at + 4, y: box.top - font * 0.2, "text-anchor": late ? "end" : "start",
  }, chart.k_label);
  xTitle(g, box, font, chart.x_title);
  return height;
}

function legend(figure, title, entries) {
  const row = html(figure, "p", "legend");
  if (title) html(row, "span", "legend-title", title);
  for (const entry of entries) {
    const item = html(row, "span", "legend-entry");
    const swatch = html(item, "span", "swatch" + (entry.line ? " line" : ""));
    swatch.style.setProperty("--swatch", entry.color);
    if (entry.dash) swatch.classList.add("dashed");
    item.appendChild(document.createTextNode(entry.label));
  }
}

const HEIGHTS = { contribution: 260, every_k: 220, cumulative: 260 };

function drawAll(root, data, moving) {
  const font = data.large ? 18 : 12;
  const scale = data.large ? 1.4 : 1;
  root.classList.toggle("large", Boolean(data.large));
  const figures = data.charts.map((chart) => {
    const figure = document.createElement("figure");
    figure.className = "chart";
    figure.dataset.kind = chart.kind;
    const caption = html(figure, "figcaption");
    html(caption, "strong", "title", chart.title);
    html(caption, "span", "reading", chart.reading);
    return figure;
  });
  root.replaceChildren(...figures);
  const widths = figures.map((figure) => Math.max(figure.clientWidth, 240)); // one layout, before any is drawn
  data.charts.forEach((chart, i) => {
    const figure = figures[i];
    const width = widths[i];
    const height = (HEIGHTS[chart.kind] || 200) * scale;
    const picture = svg(null, "svg", {
      role: "img", "aria-label": chart.reading, width, "font-size": font, class: "plot",
    });
    const g = svg(picture, "g");
    chart.x_title = chart.x_title || data.position;
    let drawn;
    if (chart.kind === "order") drawn = drawOrder(g, chart, width, font, data.large);
    else if (chart.kind === "contribution") drawn = drawContribution(g, chart, width, height, font, moving, data.n);
    else if (chart.kind === "every_k") drawn = drawEveryK(g, chart, width, height, font, moving, data.changed, data.n);
    else drawn = drawCumulative(g, chart, width, height, font, moving, data.changed, data.n);
    picture.setAttribute("height", String(drawn));
    picture.setAttribute("viewBox", `0 0 ${width} ${drawn}`);
    figure.appendChild(picture);
    if (chart.kind === "contribution") {
      legend(figure, chart.legend_title, chart.legend.map((e) => ({ label: e.key, color: e.color })));
    } else if (chart.kind === "cumulative") {
      const lines = chart.series.map((s) => ({ label: s.name, color: s.color, line: true, dash: Boolean(s.dash) }));
      legend(figure, chart.legend_title, lines);
    }
  });
}

export default function (component) {
  const { parentElement } = component;
  const data = JSON.parse(component.data); // JSON text: see ui/widgets/__init__.py
  const root = parentElement.querySelector(".ndcg-figures");
  if (root._unlink) root._unlink();
  let moving = [];
  let drawnWidth = 0;
  const fraction = () => {
    const value = Number(document.documentElement.value);
    if (data.change === null || data.change === undefined || !(value >= 0)) return 1;
    return Math.floor(value) === data.change ? value - Math.floor(value) : 1;
  };
  const draw = () => {
    moving = [];
    drawnWidth = root.clientWidth;
    drawAll(root, data, moving);
    const f = fraction();
    if (f < 1) for (const place of moving) place(f);
  };
  draw();
  const onTween = () => {
    const f = fraction();
    for (const place of moving) place(f);
  };
  document.documentElement.addEventListener(TWEEN_EVENT, onTween);
  let unlink = linkPositions(root, ".pos");
  // A new width (a phone turned, the sidebar closed): drawn again to fit, its positions linked again.
  const resized = new ResizeObserver(() => {
    if (Math.abs(root.clientWidth - drawnWidth) <= 1) return;
    unlink();
    draw();
    unlink = linkPositions(root, ".pos");
  });
  resized.observe(root);
  root._unlink = () => {
    unlink();
    resized.disconnect();
    document.documentElement.removeEventListener(TWEEN_EVENT, onTween);
    root._unlink = null;
  };
  return root._unlink;
}
