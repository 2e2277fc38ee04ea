// While the page has lost its server: a small banner in the reader's language instead of Streamlit's developer
// dialog. Installed once per tab (window.__ndcgConnection); each run of the component only updates its texts,
// which therefore are in the page before the connection drops. Streamlit keeps retrying by itself; when it is
// connected again, it closes its own dialog and the banner goes.
//
// Signal: Streamlit writes its connection state on its app element, data-test-connection-state="CONNECTED" |
// "PINGING_SERVER" | "CONNECTING" | "DISCONNECTED_FOREVER" (its status widget and its dialog follow the same state).

const HIDE_CSS = `
[data-testid="stConnectionStatus"] { display: none !important; }
[data-ndcg-connection-dialog] { display: none !important; }
#ndcg-connection-notice {
  position: fixed; z-index: 1000100; top: 0.75rem; left: 0.75rem; right: 0.75rem;
  margin: 0 auto; width: fit-content; max-width: 30rem; box-sizing: border-box;
  display: flex; gap: 0.75rem; align-items: center;
  padding: 0.65rem 1rem; border-radius: 0.6rem;
  background: #fff8e1; color: #3d2f00; border: 1px solid #e0b000;
  box-shadow: 0 4px 16px rgba(0, 0, 0, 0.18);
  font-family: "Source Sans Pro", "Source Sans 3", system-ui, -apple-system, "PingFang SC", "Microsoft YaHei",
    sans-serif;
  font-size: 1rem; line-height: 1.35;
}
#ndcg-connection-notice[hidden] { display: none; }
#ndcg-connection-notice .ndcg-spin {
  flex: none; width: 1.1rem; height: 1.1rem; border-radius: 50%;
  border: 0.18rem solid #e0b000; border-top-color: transparent;
  animation: ndcg-spin 0.9s linear infinite;
}
#ndcg-connection-notice strong { display: block; font-weight: 600; }
#ndcg-connection-notice span.ndcg-detail { display: block; font-size: 0.9rem; }
@keyframes ndcg-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { #ndcg-connection-notice .ndcg-spin { animation: none; } }
`;

// Streamlit's own texts for a lost connection (its dialog's title and messages), to find that dialog.
const STREAMLIT_TEXTS = ["Connection error", "Is Streamlit still running", "Streamlit server is not responding"];

function connected() {
  const app = document.querySelector('[data-testid="stApp"]');
  const state = app && app.getAttribute("data-test-connection-state");
  // No app element or no state yet: nothing to say. STATIC_CONNECTED is a connected app too.
  return !state || state === "CONNECTED" || state === "STATIC_CONNECTED" || state === "INITIAL";
}

function install() {
  const style = document.createElement("style");
  style.id = "ndcg-connection-style";
  style.textContent = HIDE_CSS;
  document.head.appendChild(style);

  const box = document.createElement("div");
  box.id = "ndcg-connection-notice";
  box.setAttribute("role", "status");
  box.setAttribute("aria-live", "polite");
  box.hidden = true;
  const spin = document.createElement("span");
  spin.className = "ndcg-spin";
  spin.setAttribute("aria-hidden", "true");
  const words = document.createElement("span");
  const title = document.createElement("strong");
  const detail = document.createElement("span");
  detail.className = "ndcg-detail";
  words.append(title, detail);
  box.append(spin, words);
  document.body.appendChild(box);

  const watch = {
    texts: { title: "", detail: "", lang: "en" },
    lost: false,
    show() {
      // textContent only: the texts come from the app's locale files, and even so never become markup.
      title.textContent = watch.texts.title;
      detail.textContent = watch.texts.detail;
      box.lang = watch.texts.lang || "";
    },
    check() {
      const lost = !connected();
      if (lost) {
        // Streamlit's dialog about the connection (English, for a developer): kept out of sight.
        for (const dialog of document.querySelectorAll('[data-testid="stDialog"]:not([data-ndcg-connection-dialog])')) {
          const text = dialog.textContent || "";
          if (STREAMLIT_TEXTS.some((s) => text.includes(s))) dialog.setAttribute("data-ndcg-connection-dialog", "");
        }
      }
      if (lost !== watch.lost) {
        watch.lost = lost;
        if (lost) watch.show();
        box.hidden = !lost;
      }
    },
  };
  // The state attribute and the dialog (added in a portal) both show up as changes in the document.
  new MutationObserver(() => watch.check()).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-test-connection-state"],
  });
  window.__ndcgConnection = watch;
  return watch;
}

export default function (component) {
  const { data } = component;
  if (!data) return;
  const watch = window.__ndcgConnection || install();
  watch.texts = { title: data.title || "", detail: data.detail || "", lang: data.lang || "" };
  watch.show();
  watch.check();
}
