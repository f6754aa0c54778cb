// The Activity's page (web/activity.py): inside Discord, authorize through the client (embedded.js), post the
// code to the bot, which answers with this person's seat token; then the play page takes over, as from the
// DM's link. Outside Discord it says where to open it. What it went through is in window.activity (tests).
"use strict";
(function () {
  const root = document.documentElement;
  const words = JSON.parse(root.dataset.words);
  const state = { step: "start", error: null };
  window.activity = state;
  const say = (text, step) => {
    state.step = step;
    document.getElementById("status").textContent = text;
    document.body.dataset.step = step;
  };

  // Inside Discord the page is served through Discord's proxy, and its requests go through /.proxy/ (the
  // URL mapping "/" → this server): the same relative addresses, one folder down.
  const proxy = location.pathname.startsWith("/.proxy/") ? "" : ".proxy/";

  async function run() {
    const frame = new DiscordFrame(root.dataset.clientId, JSON.parse(root.dataset.origins), location.search);
    if (!frame.query) { say(words.outside, "outside"); return; }
    say(words.connecting, "connecting");
    await frame.connect();
    say(words.authorizing, "authorizing");
    let code;
    try {
      code = (await frame.authorize(["identify"])).code;
    } catch (refusal) {
      state.error = "denied";
      say(words.denied, "denied");
      return;
    }
    const answer = await fetch(proxy + "activity/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: code, channel_id: frame.query.get("channel_id") }),
    });
    const body = await answer.json();
    if (!answer.ok) { state.error = body.error; say(body.message, "refused"); return; }
    state.step = "playing";
    location.replace(proxy + body.play + location.search);  // the play page, in this same frame
  }

  run().catch((error) => { state.error = String(error); say(words.denied, "failed"); });
})();
