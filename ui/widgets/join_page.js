// A student joining a room from its link (/join/CODE), without a Streamlit page: the nickname form posts to the
// join route, and the phone goes on to its own page (/phone/CODE?me=ID&lang=LANG). The student id is kept in this
// browser's storage as the Classroom page keeps it (ui/widgets/browser_memory.js, same key and entry), so that the
// link opened again, or the Classroom page, finds the same student; a browser that holds the room's teacher key
// goes to the teacher's page. Every text is set with textContent: nothing is read as HTML.
(function () {
  const STORE = "ndcg-lab.classroom"; // browser_memory.js's
  const KEEP = 20;
  const data = JSON.parse(document.getElementById("join-data").textContent);
  const form = document.getElementById("join");
  const box = document.getElementById("nickname");
  const button = form.querySelector("button");
  const notice = form.querySelector(".notice");

  function load() {
    try {
      const value = JSON.parse(window.localStorage.getItem(STORE) || "{}");
      return value && typeof value === "object" ? value : {};
    } catch (e) {
      return {};
    }
  }

  function remember(me) {
    const all = load();
    all[data.code] = { ...(all[data.code] || {}), me, at: Date.now() };
    const rooms = Object.entries(all).sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, KEEP);
    try {
      window.localStorage.setItem(STORE, JSON.stringify(Object.fromEntries(rooms)));
    } catch (e) {
      // storage full or disabled: the phone page's address carries the id
    }
  }

  function say(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  async function post(body) {
    const reply = await fetch(data.join, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ lang: data.lang, ...body }),
    });
    try {
      return await reply.json();
    } catch (e) {
      return null;
    }
  }

  function go(reply) {
    remember(reply.me);
    window.location.replace(reply.phone);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    try {
      const reply = await post({ me: known.me || null, nickname: box.value });
      if (reply && reply.ok) {
        go(reply);
        return;
      }
      say(reply && reply.message ? reply.message : data.texts.failed);
    } catch (e) {
      say(data.texts.offline);
    }
    button.disabled = false;
  });

  const known = load()[data.code] || {};
  if (known.key) {
    window.location.replace(data.teacher);
  } else if (known.me) {
    // Joined from this browser before: back to that phone at once, if the room still knows the id.
    form.hidden = true;
    post({ me: known.me, again: true })
      .then((reply) => {
        if (reply && reply.ok) go(reply);
        else form.hidden = false;
      })
      .catch(() => {
        form.hidden = false;
      });
  }
})();
