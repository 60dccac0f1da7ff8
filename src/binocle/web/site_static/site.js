// The static site's half of the page (binocle site): the engine runs in a Web Worker
// (worker.js: Pyodide and binocle.web.local) in place of the server's websocket.
// app.js asks window.binocleLocal for its socket and for the profiles' file; the game is
// kept in localStorage after every step and joined again after a reload; a service worker
// (sw.js) keeps every file of the site so that, once loaded, it plays offline.
"use strict";

(() => {
  const KEY = "binocle-site-table";
  const kept = () => {
    try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
  };
  const status = (text) => {
    const node = document.getElementById("status");
    if (node) node.textContent = text;
  };

  // A game kept in this browser and not over: the page joins it again (app.js joins the
  // game named in sessionStorage when its socket opens).
  const saved = kept();
  if (saved && !saved.over && !sessionStorage.getItem("binocle-game")) {
    sessionStorage.setItem("binocle-game", JSON.stringify({ game: saved.game, token: saved.token }));
  }

  // The service worker first, so that the engine's files are fetched once and kept:
  // the worker starts when the service worker controls the page (or cannot).
  async function offline() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    try {
      const reg = await navigator.serviceWorker.register("sw.js");
      if (navigator.serviceWorker.controller) return;
      await new Promise((resolve) => {
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
        const sw = reg.installing || reg.waiting;
        if (!sw) { resolve(); return; }
        sw.addEventListener("statechange", () => { if (sw.state === "redundant") resolve(); });
      });
    } catch (err) {
      console.warn("binocle: no service worker, so no offline play:", err);
    }
  }

  // The websocket's interface (readyState, send, onopen, onmessage, onclose, close) over
  // the worker's messages: {ready}, {data: a message's JSON text}, {save}, {failed}.
  class WorkerSocket {
    constructor() {
      this.readyState = 0;
      this.onopen = null;
      this.onmessage = null;
      this.onclose = null;
      this.worker = null;
      status("loading the game engine…");
      offline().then(() => this.start());
    }

    start() {
      if (this.readyState === 3) return;
      this.worker = new Worker("worker.js", { type: "module" });
      this.worker.onmessage = (event) => this.receive(event.data);
      this.worker.onerror = (event) => this.fail(event.message || "the game engine did not load");
      const k = kept();
      this.worker.postMessage({ init: k ? k.doc : null });
    }

    receive(m) {
      if (m.ready) {
        this.readyState = 1;
        if (this.onopen) this.onopen();
      } else if (typeof m.data === "string") {
        if (this.onmessage) this.onmessage({ data: m.data });
      } else if (m.save) {
        try { localStorage.setItem(KEY, JSON.stringify(m.save)); } catch (err) {
          console.warn("binocle: the game could not be kept in this browser:", err);
        }
      } else if (m.progress) {
        status(m.progress);
      } else if (m.failed) {
        this.fail(m.failed);
      }
    }

    send(text) {
      if (this.readyState === 1) this.worker.postMessage({ data: text });
    }

    // No reconnection: a worker that failed stays failed, and the page says why.
    fail(text) {
      this.readyState = 3;
      status(`the game engine failed: ${text}`);
    }

    close() {
      this.readyState = 3;
      if (this.worker) this.worker.terminate();
    }
  }

  window.binocleLocal = { profiles: "profiles.json", socket: () => new WorkerSocket() };

  // Tables for several people need a server: the set-up form alone is shown.
  const hideLobby = () => {
    const lobby = document.getElementById("lobby");
    if (lobby) lobby.hidden = true;
  };
  document.addEventListener("DOMContentLoaded", hideLobby);
  if (document.readyState !== "loading") hideLobby();
})();
