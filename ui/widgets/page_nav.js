// How the app moves between pages in the browser, installed once per tab (window.__ndcgPageNav).
//
// History: Streamlit pushes a history entry for every change of the address's query string, and the pages write
// theirs on every run (?step=, ?seed=, ?s= after each move): the browser's Back stepped through one page's own
// states, or came back to the same page with one parameter fewer, never to the page before. A push whose path is
// the page's own (a change of the query string) replaces the current entry instead; a push to another path (a
// page picked) stays a push, so Back returns to the last page.
//
// Sidebar: on a phone (at most 767 px wide) the sidebar lies over the page; after a page is picked in it, it is
// closed (Streamlit's own collapse button), so the page picked is what shows.
const PHONE = "(max-width: 767px)";

function samePath(url) {
  if (url === undefined || url === null) return true; // no URL: the entry's state only, same address
  try {
    return new URL(String(url), window.location.href).pathname === window.location.pathname;
  } catch (err) {
    return false; // not an address this can read: left to the browser as it was asked
  }
}

function closeSidebar() {
  const button = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (button) button.click();
}

function install() {
  const push = window.history.pushState.bind(window.history);
  const replace = window.history.replaceState.bind(window.history);
  // The address the page had when its last run ended. Picking the main page's neighbour, Streamlit wrote the next
  // page's query string on the old page's path before it pushed the new path ("/?step=1", then "/Learn?step=1"):
  // the old page's entry gets its own address back before the push, so Back returns to it as it was.
  let settled = window.location.href;
  new MutationObserver(() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (app && app.getAttribute("data-test-script-state") === "notRunning") settled = window.location.href;
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-test-script-state"] });
  window.history.pushState = function (state, unused, url) {
    if (samePath(url)) return replace(state, unused, url);
    if (samePath(settled) && settled !== window.location.href) replace(window.history.state, "", settled);
    return push(state, unused, url);
  };
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target.closest ? event.target.closest('[data-testid="stSidebar"] a[href]') : null;
      if (!link || !window.matchMedia(PHONE).matches) return;
      setTimeout(closeSidebar, 0); // after Streamlit's own handler has taken the link
    },
    true,
  );
  window.__ndcgPageNav = true;
}

export default function () {
  if (!window.__ndcgPageNav) install();
}
