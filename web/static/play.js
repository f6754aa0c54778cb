// The web table's page: draws the seat's screen that the bot pushes over the socket (web/wire.py) and sends
// each tap as the same input a DM button sends ({code, hand, move}). No build step, no framework.
"use strict";
(function () {
  const WINDS = "ESWN";  // letters: every device has them (the tiles carry the characters)
  const token = location.pathname.split("/").pop();
  const socketUrl = () => {
    const url = new URL("../ws/" + token, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    return url.href;
  };
  const state = { screen: null, offset: 0, sent: null, ready: false, socket: null,
                  connects: 0, closed: false, retry: 250, refusals: [] };
  window.mahjong = state;  // for the browser tests: what the page knows

  const $ = (id) => document.getElementById(id);
  const word = (key, fallback) => (state.screen && state.screen.words && state.screen.words[key]) || fallback;

  const { tileEl, row } = window.MahjongView;  // view.js: one tile picture for every page

  function meldsEl(melds) {
    const el = document.createElement("div");
    el.className = "row melds";
    melds.forEach((m) => {
      const g = document.createElement("span");
      g.className = "meld";
      m.tiles.forEach((t, i) => g.appendChild(tileEl(m.kind === "ankong" && (i === 0 || i === 3) ? "??" : t)));
      el.appendChild(g);
    });
    return el;
  }

  function drawSeat(section, s, n) {
    const seat = s.seats[n];
    section.replaceChildren();
    section.classList.toggle("turn", s.turn === n && !s.hand_over);
    const who = document.createElement("div");
    who.className = "who";
    const name = document.createElement("b");
    name.textContent = WINDS[seat.wind] + " " + seat.name;
    const tags = document.createElement("span");
    tags.className = "tag";
    tags.textContent = [seat.ready ? word("btn.ready", "Ready").replace("…", "") : "", seat.auto ? "auto" : "", String(seat.score)].filter(Boolean).join(" ");
    who.append(name, tags);
    section.appendChild(who);
    if (seat.flowers.length) section.appendChild(row(seat.flowers));
    const river = document.createElement("div");
    river.className = "row river";
    seat.river.forEach(([t, claimed], i) => {
      const last = s.last_discard && s.last_discard[0] === n && i === seat.river.length - 1 && !claimed;
      river.appendChild(tileEl(t, (claimed ? "claimed" : "") + (last ? " last" : "")));
    });
    section.appendChild(river);
    if (seat.melds.length) section.appendChild(meldsEl(seat.melds));
    const shown = seat.revealed || seat.seen;
    if (shown && n !== s.seat) section.appendChild(row(shown, "revealed"));
  }

  function runOf(t) { const d = +t[0], s = t[1]; return [d + s, d + 1 + s, d + 2 + s]; }

  function send(code) {
    const s = state.screen;
    if (!s || state.sent === s.decision || !state.socket || state.socket.readyState !== 1) return;
    state.sent = s.decision;
    state.socket.send(JSON.stringify({ code: code, hand: s.hand, move: s.decision, id: Date.now() }));
    document.body.dataset.sent = code;
  }

  function button(label, cls, tiles, onTap, code) {
    const b = document.createElement("button");
    b.className = cls;
    b.type = "button";
    b.append(label);
    (tiles || []).forEach((t) => b.appendChild(tileEl(t)));
    if (code) b.dataset.code = code;
    b.addEventListener("click", onTap);
    return b;
  }

  function drawMine(s) {
    const acts = s.actions || [];
    const live = s.showing === "prompt" && state.sent !== s.decision;
    const discards = new Map(), readies = new Map();
    acts.forEach((a) => { if (a.kind === "discard") discards.set(a.tile, a.code); if (a.kind === "ready") readies.set(a.tile, a.code); });
    if (!readies.size) state.ready = false;
    const bar = $("actions");
    bar.replaceChildren();
    if (live) {
      const claim = s.claim_tile;
      acts.forEach((a) => {
        if (a.kind === "win") bar.appendChild(button(word(s.ask === "discard" ? "btn.self_draw" : "btn.win", "胡"), "win", [claim || s.drawn].filter(Boolean), () => send(a.code), a.code));
      });
      acts.forEach((a) => {
        if (a.kind === "kong") bar.appendChild(button(word("btn.kong", "槓"), "kong", [a.tile], () => send(a.code), a.code));
        else if (a.kind === "pon") bar.appendChild(button(word("btn.pon", "碰"), "pon", [claim, claim], () => send(a.code), a.code));
        else if (a.kind === "chi") bar.appendChild(button(word("btn.chi", "吃"), "chi", runOf(a.tile), () => send(a.code), a.code));
      });
      if (readies.size) {
        const b = button(state.ready ? word("btn.back", "Back") : word("btn.ready", "聽"), "ready" + (state.ready ? " on" : ""), [], () => { state.ready = !state.ready; draw(); }, "ready");
        bar.appendChild(b);
      }
      acts.forEach((a) => { if (a.kind === "pass") bar.appendChild(button(word("btn.pass", "過"), "pass", [], () => send(a.code), a.code)); });
    }
    const hand = $("hand");
    hand.replaceChildren();
    const me = s.seats[s.seat];
    me.melds.forEach((m) => { const g = meldsEl([m]).firstChild; hand.appendChild(g); });
    const tiles = s.concealed.map((t) => [t, ""]);
    if (s.drawn) tiles.push([s.drawn, "drawn"]);
    const marked = new Set(s.marked || []);
    tiles.forEach(([t, cls]) => {
      const el = tileEl(t, cls);
      const code = live && (state.ready ? readies.get(t) : discards.get(t));
      if (code) {
        el.classList.add("tap");
        if (state.ready) el.classList.add("ready");
        if (marked.has(t)) el.classList.add("marked");
        el.dataset.code = code;
        el.addEventListener("click", () => send(code));
      } else if (live && discards.size) {
        el.classList.add("off");
      }
      hand.appendChild(el);
    });
  }

  function statusText(s) {
    if (s.showing === "prompt") return s.ask === "discard" ? word("web.your_turn", "Your turn") : word("web.your_claim", "Claim?");
    if (s.showing === "hand_over" || s.showing === "match_over") {
      const r = s.result;
      let text = word("web." + s.showing, "Hand over");
      if (r && r.winner !== null) text += " · " + WINDS[s.seats[r.winner].wind] + " " + s.seats[r.winner].name + " · " + r.total + " " + s.unit;
      if (r) text += " · " + (r.deltas[s.seat] > 0 ? "+" : "") + r.deltas[s.seat];
      return text;
    }
    return word("web." + s.showing, word("web.waiting", "Waiting"));
  }

  function draw() {
    const s = state.screen;
    if (!s) return;
    document.body.dataset.showing = s.showing;
    document.body.dataset.hand = s.hand;
    document.body.dataset.decision = s.decision;
    $("info").textContent = WINDS[s.round_wind] + " #" + s.hand;
    $("wall").textContent = word("web.wall", "Wall") + " " + s.wall;
    document.querySelectorAll(".seat").forEach((section) => drawSeat(section, s, (s.seat + +section.dataset.at) % 4));
    $("status").textContent = statusText(s);
    drawMine(s);
    tick();
  }

  function tick() {
    const s = state.screen, clock = $("clock");
    if (!s || s.deadline === null || s.hand_over) { clock.textContent = ""; return; }
    const left = Math.max(0, s.deadline - (Date.now() / 1000 + state.offset));
    clock.textContent = "⏱ " + Math.ceil(left) + "s";
    clock.classList.toggle("low", left < 3);
  }

  function toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { el.hidden = true; }, 2500);
  }

  function onMessage(event) {
    const m = JSON.parse(event.data);
    if (m.type === "screen") {
      state.offset = m.now - Date.now() / 1000;
      if (!state.screen || m.decision !== state.screen.decision || m.hand !== state.screen.hand) state.sent = null;
      state.screen = m;
      draw();
    } else if (m.type === "refused") {
      state.refusals.push(m.text);
      state.sent = null;
      toast(m.text);
      draw();
    } else if (m.type === "waiting") {
      $("status").textContent = word("web.waiting", "Waiting for the deal");
    } else if (m.type === "closed") {
      state.closed = true;
      document.body.dataset.closed = "yes";
      $("status").textContent = statusText(state.screen || { showing: "closed" });
    }
  }

  function connect() {
    const socket = new WebSocket(socketUrl());
    state.socket = socket;
    socket.onopen = () => { state.connects += 1; state.retry = 250; document.body.dataset.connected = "yes"; };
    socket.onmessage = onMessage;
    socket.onclose = () => {
      document.body.dataset.connected = "no";
      if (state.closed) return;
      $("status").textContent = word("web.reconnecting", "Reconnecting…");
      setTimeout(connect, state.retry);
      state.retry = Math.min(state.retry * 2, 5000);
    };
  }

  window.MahjongView.ready.then(() => { draw(); connect(); });  // the tile sheet's places first
  setInterval(tick, 250);
})();
