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
const SETTLE_MS = 1000;

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
  // The address the page had before the next page's query string reached it. Picking a page, Streamlit may write
  // the next page's query string on the old page's path (a replace, below) and push the new path some 100 ms later
  // ("/?step=1", then "/Learn?step=1"): the old page's entry gets its own address back before the push, so Back
  // returns to it as it was. A write counts as the page's own once SETTLE_MS have passed without a push after it
  // (a run's end is no signal: a quick run never shows "running" on the app element).
  let settled = window.location.href;
  let settle = null;
  window.history.pushState = function (state, unused, url) {
    if (samePath(url)) {
      const done = replace(state, unused, url);
      clearTimeout(settle);
      settle = setTimeout(() => {
        settled = window.location.href;
      }, SETTLE_MS);
      return done;
    }
    clearTimeout(settle);
    if (samePath(settled) && settled !== window.location.href) replace(window.history.state, "", settled);
    const done = push(state, unused, url);
    settled = window.location.href;
    return done;
  };
  window.addEventListener("popstate", () => {
    clearTimeout(settle);
    settled = window.location.href;
  });
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
