// The Playground's breakdown table: one row per position, every term written out, rows after k greyed.
// Cells are set with textContent (labels are the learner's text). Drawn as a plain HTML table, so the
// server sends a few hundred bytes of JSON per move instead of an Arrow table with styles.

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
  body.replaceChildren(...data.rows.map((cells, i) => {
    const tr = document.createElement("tr");
    if (!data.inside[i]) {
      tr.className = "beyond-k";
      tr.title = data.beyond;
    }
    cells.forEach((cell, j) => {
      const td = document.createElement(j === 0 ? "th" : "td");
      if (j === 0) td.scope = "row";
      td.textContent = cell;
      if (data.numeric[j]) td.className = "num";
      tr.appendChild(td);
    });
    return tr;
  }));
}
