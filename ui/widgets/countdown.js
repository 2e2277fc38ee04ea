// A lesson activity's time limit, counting down in the browser: the server sends how many seconds are left as of
// the page's run, so the phone's clock need not agree with the server's. It stops at 0:00; with `wake`, it then
// sends one trigger, which reruns the part of the page it is in, and that run says the time is up with the rest of
// the part (the status, the phone's answers locked). It never says "Time is up" itself: a leftover of the last
// activity's, standing while the page draws the next one, would say it beside "Answers: open".

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (parentElement._stopCountdown) parentElement._stopCountdown();
  const box = parentElement.querySelector(".countdown");
  if (!box || !data) return;
  box.style.fontSize = `${data.size}px`;
  const deadline = Date.now() + data.left * 1000;
  let timer = null;
  let sent = false;

  function draw() {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    if (left > 0) {
      const m = Math.floor(left / 60);
      const s = String(left % 60).padStart(2, "0");
      box.textContent = `${data.label} ${m}:${s}`;
      box.className = left <= 5 ? "countdown soon" : "countdown";
      timer = setTimeout(draw, 250);
      return;
    }
    box.textContent = `${data.label} 0:00`;
    box.className = "countdown soon";
    if (data.wake && !sent) {
      sent = true;
      setTriggerValue("up", Date.now());
    }
  }

  draw();
  const stop = () => {
    clearTimeout(timer);
    parentElement._stopCountdown = null;
  };
  parentElement._stopCountdown = stop;
  return stop;
}
