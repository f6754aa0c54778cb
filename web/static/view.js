// A table seen from above, every seat's tiles as the bot sent them (web/pages.board_json): the watch and replay
// pages draw with it, and the play page draws its tiles with its tileEl and row. The JSON holds only what the viewer may see; this draws it and nothing else.
"use strict";
window.MahjongView = (function () {
  const WINDS = "ESWN";
  let places = null;
  const ready = fetch("../tiles.json").then((r) => r.json()).then((p) => { places = p; });

  function tileEl(name, cls) {
    const el = document.createElement("i");
    el.className = "t" + (cls ? " " + cls : "");
    const place = places && places[name];
    el.style.setProperty("--i", place ? place[0] / place[2] : 42);
    el.dataset.tile = name;
    el.title = name;
    return el;
  }

  function row(names, cls) {
    const el = document.createElement("div");
    el.className = "row" + (cls ? " " + cls : "");
    names.forEach((n) => el.appendChild(tileEl(n)));
    return el;
  }

  function seatEl(section, board, n, words) {
    const seat = board.seats[n];
    section.replaceChildren();
    section.dataset.seat = n;
    section.classList.toggle("turn", board.turn === n && board.phase !== "over");
    const who = document.createElement("div");
    who.className = "who";
    const name = document.createElement("b");
    name.textContent = WINDS[seat.wind] + " " + seat.name + (board.dealer === n ? " ★" : "");
    const tags = document.createElement("span");
    tags.className = "tag";
    tags.textContent = [seat.ready ? (words.ready || "聽") : "", seat.auto ? "auto" : "", String(seat.score)].filter(Boolean).join(" ");
    who.append(name, tags);
    section.appendChild(who);
    if (seat.flowers.length) section.appendChild(row(seat.flowers, "flowers"));
    const river = row(seat.river, "river");
    if (board.last_discard && board.last_discard[0] === n && river.lastChild) river.lastChild.classList.add("last");
    section.appendChild(river);
    const hand = document.createElement("div");
    hand.className = "row hand";
    seat.melds.forEach((m) => {
      const g = document.createElement("span");
      g.className = "meld";
      m.tiles.forEach((t) => g.appendChild(tileEl(t)));
      hand.appendChild(g);
    });
    if (seat.hand) seat.hand.forEach((t) => hand.appendChild(tileEl(t)));
    else for (let i = 0; i < seat.count; i++) hand.appendChild(tileEl("??", "back"));  // face down: only how many
    section.appendChild(hand);
  }

  // root holds four sections .bottom .right .across .left; ``bottom`` is the seat drawn nearest the reader
  function draw(root, board, bottom, words) {
    const at = { bottom: 0, right: 1, across: 2, left: 3 };
    Object.entries(at).forEach(([place, k]) => seatEl(root.querySelector("." + place), board, (bottom + k) % 4, words || {}));
  }

  return { draw: draw, ready: ready, tileEl: tileEl, row: row, WINDS: WINDS };
})();
