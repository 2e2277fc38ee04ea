// While the page has lost its server: a small banner in the reader's language instead of Streamlit's developer
// dialog. Installed once per tab (window.__ndcgConnection); each run of the component only updates its texts,
// which therefore are in the page before the connection drops. Streamlit keeps retrying by itself; when it is
// connected again, it closes its own dialog and the banner goes.
//
// Signal: Streamlit writes its connection state on its app element, data-test-connection-state="CONNECTED" |
// "PINGING_SERVER" | "CONNECTING" | "DISCONNECTED_FOREVER" (its status widget and its dialog follow the same state).
//
// Back: the server behind the new connection holds a new session, which has not run the page, and drops a click
// on a widget it has not drawn (or in a fragment it has not run). Streamlit asks for a run by itself only when one
// was under way or a fragment runs on a timer; otherwise the watcher sends a trigger after BACK_MS, which runs the
// whole page in the new session. The notice stays, and the page takes no clicks, until that run has finished (at
// most RESUME_MS).
const BACK_MS = 400;
const RESUME_MS = 8000;

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
body.ndcg-resuming [data-testid="stAppViewContainer"] { pointer-events: none; }
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

function app() {
  return document.querySelector('[data-testid="stApp"]');
}

function connected() {
  const root = app();
  const state = root && root.getAttribute("data-test-connection-state");
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
    lost: false, // the notice is up: the connection is lost, or back and the page not yet run again
    resuming: false, // connected again, waiting for the page's first run in the new session to finish
    ran: false, // a run started since the connection came back
    rerun: null, // the latest mounted component's trigger
    timers: [],
    back() {
      watch.resuming = true;
      watch.ran = false;
      document.body.classList.add("ndcg-resuming");
      watch.timers.forEach(clearTimeout);
      watch.timers = [
        setTimeout(() => {
          if (watch.resuming && !watch.ran && watch.rerun) watch.rerun();
        }, BACK_MS),
        setTimeout(() => watch.resumed(), RESUME_MS),
      ];
    },
    resumed() {
      if (!watch.resuming || !connected()) return;
      watch.resuming = false;
      watch.lost = false;
      document.body.classList.remove("ndcg-resuming");
      box.hidden = true;
    },
    show() {
      // textContent only: the texts come from the app's locale files, and even so never become markup.
      title.textContent = watch.texts.title;
      detail.textContent = watch.texts.detail;
      box.lang = watch.texts.lang || "";
    },
    check() {
      const lost = !connected();
      const running = app()?.getAttribute("data-test-script-state") === "running";
      if (lost) {
        // Streamlit's dialog about the connection (English, for a developer): kept out of sight.
        for (const dialog of document.querySelectorAll('[data-testid="stDialog"]:not([data-ndcg-connection-dialog])')) {
          const text = dialog.textContent || "";
          if (STREAMLIT_TEXTS.some((s) => text.includes(s))) dialog.setAttribute("data-ndcg-connection-dialog", "");
        }
        watch.resuming = false;
        document.body.classList.remove("ndcg-resuming");
        if (!watch.lost) {
          watch.lost = true;
          watch.show();
          box.hidden = false;
        }
      } else if (watch.lost && !watch.resuming) {
        watch.back();
      } else if (watch.resuming) {
        if (running) watch.ran = true;
        else if (watch.ran) watch.resumed(); // the new session's first run is done
      }
    },
  };
  // The state attribute and the dialog (added in a portal) both show up as changes in the document.
  new MutationObserver(() => watch.check()).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-test-connection-state", "data-test-script-state"],
  });
  window.__ndcgConnection = watch;
  return watch;
}

export default function (component) {
  const { data, setTriggerValue } = component;
  if (!data) return;
  const watch = window.__ndcgConnection || install();
  watch.rerun = () => setTriggerValue("back", Date.now());
  watch.texts = { title: data.title || "", detail: data.detail || "", lang: data.lang || "" };
  watch.show();
  watch.check();
}
