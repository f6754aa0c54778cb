// The watch page: draws what the table's spectators may see (web/watch.py pushes it over the socket after every
// change: the hand in play for a public table, each finished hand face up for a delayed one). Sends nothing.
"use strict";
(function () {
  const V = window.MahjongView;
  const state = { screen: null, connects: 0, closed: false, retry: 250, socket: null };
  window.mahjong = state;  // for the browser tests: what the page knows
  const $ = (id) => document.getElementById(id);
  const socketUrl = () => {
    const url = new URL(location.pathname.replace(/\/$/, "") + "/ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    return url.href;
  };
  const word = (key, fallback) => (state.screen && state.screen.words && state.screen.words[key]) || fallback;

  function draw() {
    const s = state.screen;
    if (!s) return;
    document.body.dataset.mode = s.mode;
    $("info").textContent = word("title", "#" + s.table);
    $("mode").textContent = s.mode;
    const main = document.querySelector("main.view");
    const board = s.board || s.last;
    main.hidden = !board;
    if (board) {
      V.draw(main, board, 0, {});
      document.body.dataset.hand = board.number || board.hand;
      $("wall").textContent = word("wall", "Wall") + " " + board.wall;
    }
    let line = "";
    if (s.mode === "delayed") line = s.last ? word("finished", "Hand over") : word("waiting", "");
    else if (board) line = V.WINDS[board.round_wind] + " #" + board.hand + (board.phase === "over" ? " · " + word("hand_over", "Hand over") : "");
    if (s.ended) line = word("ended", "Match over");
    $("line").textContent = line;
    $("status").textContent = s.mode === "delayed" ? word("delayed", "") : "";
  }

  function onMessage(event) {
    const m = JSON.parse(event.data);
    if (m.type === "watch") {
      state.screen = m;
      state.updates = (state.updates || 0) + 1;
      draw();
    } else if (m.type === "closed") {
      state.closed = true;
      document.body.dataset.closed = "yes";
      $("status").textContent = word("closed", "This table is no longer played here");
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
      $("status").textContent = word("reconnecting", "Reconnecting…");
      setTimeout(connect, state.retry);
      state.retry = Math.min(state.retry * 2, 5000);
    };
  }

  V.ready.then(connect);
})();
