// The small part of Discord's Embedded App SDK protocol that the Activity needs, written for this project
// (no build step, no npm): the Activity runs in an iframe of Discord's client and talks to it with
// window.postMessage, each message an array [opcode, payload]:
//   0 HANDSHAKE  Activity → client  {v: 1, encoding: "json", client_id, frame_id}   (frame_id: from the query)
//   1 FRAME      both ways          a command {cmd, args, nonce} and its reply {cmd, evt, data, nonce}, or an
//                                   event {cmd: "DISPATCH", evt, data}; a reply with evt "ERROR" is a refusal
//   2 CLOSE      client → Activity  {code, message}: the client ended the connection (a bad handshake)
//   3 HELLO      client → Activity  (older clients; ignored)
// The client answers the handshake with the READY event; then AUTHORIZE {client_id, response_type: "code",
// scope, prompt} asks the person (Discord's OAuth2 dialog) and replies {code}, which the Activity's server
// exchanges for a token. Messages are sent to the referrer's origin (the client's), and only messages from
// the parent frame at one of the allowed origins are heard.
"use strict";
(function (root) {
  const HANDSHAKE = 0, FRAME = 1, CLOSE = 2;

  function launchQuery(search) {
    const query = new URLSearchParams(search);
    return query.get("frame_id") && query.get("instance_id") ? query : null;
  }

  class DiscordFrame {
    constructor(clientId, origins, search) {
      this.clientId = clientId;
      this.origins = new Set(origins);
      this.query = launchQuery(search);
      this.parent = root.parent.opener || root.parent;
      this.target = document.referrer ? new URL(document.referrer).origin : "*";
      this.pending = new Map();
      this.nonces = 0;
      this.ready = null;
      root.addEventListener("message", (event) => this.heard(event));
    }

    connect() {  // the handshake; resolves with READY's data, rejects on CLOSE
      if (!this.query) return Promise.reject(new Error("not launched by Discord"));
      if (!this.ready) {
        this.ready = new Promise((resolve, reject) => { this.onReady = resolve; this.onClose = reject; });
        this.post(HANDSHAKE, { v: 1, encoding: "json", client_id: this.clientId, frame_id: this.query.get("frame_id") });
      }
      return this.ready;
    }

    command(cmd, args) {  // resolves with the reply's data, rejects with an ERROR reply's {code, message}
      const nonce = "n" + (++this.nonces) + "-" + Math.random().toString(36).slice(2);
      const answer = new Promise((resolve, reject) => this.pending.set(nonce, { resolve, reject }));
      this.post(FRAME, { cmd: cmd, args: args, nonce: nonce });
      return answer;
    }

    authorize(scope) {
      return this.command("AUTHORIZE", { client_id: this.clientId, response_type: "code", state: "", prompt: "none", scope: scope });
    }

    post(opcode, payload) { this.parent.postMessage([opcode, payload], this.target); }

    heard(event) {
      if (event.source !== this.parent || !this.origins.has(event.origin) || !Array.isArray(event.data)) return;
      const [opcode, payload] = event.data;
      if (opcode === CLOSE && this.onClose) { this.onClose(payload || {}); return; }
      if (opcode !== FRAME || !payload) return;
      if (payload.cmd === "DISPATCH") {
        if (payload.evt === "READY" && this.onReady) this.onReady(payload.data || {});
        return;
      }
      const waiting = payload.nonce && this.pending.get(payload.nonce);
      if (!waiting) return;
      this.pending.delete(payload.nonce);
      if (payload.evt === "ERROR") waiting.reject(payload.data || {});
      else waiting.resolve(payload.data || {});
    }
  }

  root.DiscordFrame = DiscordFrame;
  root.DiscordFrame.launchQuery = launchQuery;
})(window);
