// The replay page: one frame of a finished match at a time (web/replay.py), from any seat; the address always
// names the hand, step and seat shown (history.replaceState), so it can be shared and opens there.
"use strict";
(function () {
  const V = window.MahjongView;
  const state = { frame: null, loads: 0, busy: false };
  window.mahjong = state;  // for the browser tests: what the page knows
  const $ = (id) => document.getElementById(id);
  const query = new URLSearchParams(location.search);
  const want = { hand: +query.get("hand") || 1, step: +query.get("step") || 0, seat: query.has("seat") ? +query.get("seat") : null };

  function address(f) {
    const q = new URLSearchParams(location.search);
    q.set("hand", f.hand); q.set("step", f.step); q.set("seat", f.seat);
    return location.pathname + "?" + q.toString();
  }

  async function load(hand, step, seat) {
    if (state.busy) return;
    state.busy = true;
    const q = new URLSearchParams({ hand: hand, step: step });
    if (seat !== null && seat !== undefined) q.set("seat", seat);
    if (query.get("lang")) q.set("lang", query.get("lang"));
    try {
      const r = await fetch(location.pathname.replace(/\/$/, "") + "/frame?" + q.toString());
      if (!r.ok) { document.body.dataset.refused = String(r.status); return; }
      state.frame = await r.json();
      state.loads += 1;
      draw();
    } finally {
      state.busy = false;
    }
  }

  function jump(mark) {
    const f = state.frame;
    for (let i = f.step + 1; i < f.marks.length; i++) if (f.marks[i].includes(mark)) return i;
    return null;
  }

  function draw() {
    const f = state.frame, w = f.words;
    document.title = f.title;
    document.documentElement.lang = f.locale;
    document.body.dataset.hand = f.hand;
    document.body.dataset.step = f.step;
    document.body.dataset.seat = f.seat;
    $("info").textContent = f.title + " · " + V.WINDS[f.board.round_wind] + " #" + f.hand + "/" + f.hands;
    $("wall").textContent = w.wall + " " + f.board.wall;
    $("mode").textContent = (f.step + 1) + "/" + f.steps;
    let line = f.line;
    if (f.result && f.result.deltas) line += " · " + f.result.deltas.map((d, n) => f.names[n] + " " + (d > 0 ? "+" : "") + d).join(" ");
    $("line").textContent = line;
    V.draw(document.querySelector("main.view"), f.board, f.seat, {});
    const last = f.steps - 1;
    const set = (id, text, disabled) => { const b = $(id); b.textContent = text; b.disabled = disabled; };
    set("first", w.first, f.step <= 0); set("prev", w.prev, f.step <= 0);
    set("next", w.next, f.step >= last); set("last", w.last, f.step >= last);
    ["claim", "kong", "win"].forEach((m) => set(m, w[m], jump(m) === null));
    set("prev_hand", w.prev_hand, f.hand <= 1); set("next_hand", w.next_hand, f.hand >= f.hands);
    const select = $("seat");
    select.replaceChildren();
    f.names.forEach((name, n) => {
      const o = document.createElement("option");
      o.value = n; o.textContent = w.seat + " " + V.WINDS[f.board.seats[n].wind] + " " + name; o.selected = n === f.seat;
      select.appendChild(o);
    });
    history.replaceState(null, "", address(f));
    const share = $("share");
    share.textContent = w.share;
    share.href = location.href;
  }

  const go = (step) => load(state.frame.hand, step, state.frame.seat);
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(state.frame.step - 1);
  $("next").onclick = () => go(state.frame.step + 1);
  $("last").onclick = () => go(state.frame.steps - 1);
  ["claim", "kong", "win"].forEach((m) => { $(m).onclick = () => { const i = jump(m); if (i !== null) go(i); }; });
  $("prev_hand").onclick = () => load(state.frame.hand - 1, 0, state.frame.seat);
  $("next_hand").onclick = () => load(state.frame.hand + 1, 0, state.frame.seat);
  $("seat").onchange = (e) => load(state.frame.hand, state.frame.step, +e.target.value);
  V.ready.then(() => load(want.hand, want.step, want.seat));
})();
