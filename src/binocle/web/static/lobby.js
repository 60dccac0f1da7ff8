// binocle's tables: make a table for people and bots, share a link per seat, sit at an
// open table from the lobby, wait for everyone, start.  The play itself is app.js's.
// A seat's link is /?game=ID&token=TOKEN: opened in any browser, it takes that seat back.
"use strict";

(() => {
  const LINK = new URLSearchParams(location.search);
  if (LINK.get("game") && LINK.get("token")) {
    // A seat's link: app.js joins the saved game when its socket opens.
    sessionStorage.setItem("binocle-game", JSON.stringify({ game: LINK.get("game"), token: LINK.get("token") }));
    history.replaceState(null, "", location.pathname);
  }

  const byId = (id) => document.getElementById(id);
  const make = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c != null) node.append(c);
    return node;
  };

  let table = null; // the last "table" message of the table this page sits at
  let links = null; // the seats' tokens, for the page that made the table
  let mySeat = null;
  let timer = null;

  const seatLink = (game, token) => `${location.origin}/?game=${encodeURIComponent(game)}&token=${encodeURIComponent(token)}`;
  const myName = () => byId("your-name").value.trim();

  // -- making a table ---------------------------------------------------------------------

  function profileNow() {
    return catalogue.profiles.find((x) => x.name === byId("profile").value);
  }

  function renderSeatChoice() {
    const box = byId("table-seats");
    const p = profileNow();
    box.replaceChildren();
    for (let i = 0; i < p.players; i++) {
      const select = make("select", { "data-seat": String(i), "aria-label": `seat ${i}` },
        make("option", { value: "person", text: "a person" }),
        ...catalogue.bots.map((b) => make("option", { value: b, text: `bot: ${b}` })));
      select.value = i < 2 ? "person" : "baseline";
      box.append(make("label", {}, `Seat ${i}: `, select));
    }
  }

  function chosenOptions(p) {
    // The same reading of the option fields as app.js's "Start the game".
    const options = {};
    for (const input of byId("options").querySelectorAll("input")) {
      const o = p.options.find((x) => x.name === input.name);
      if (input.dataset.kind === "bool") {
        if (input.checked !== o.default) options[input.name] = input.checked;
      } else if (input.value !== "" && input.value !== String(o.default)) {
        options[input.name] = input.dataset.kind === "int" ? Number(input.value) : input.value;
      }
    }
    return options;
  }

  function createTable() {
    const p = profileNow();
    const msg = {
      type: "table", profile: p.name, options: chosenOptions(p),
      seats: [...byId("table-seats").querySelectorAll("select")].map((s) => s.value),
      bot_delay: Number(byId("bot-delay").value),
    };
    if (myName()) msg.name = myName();
    if (byId("seed").value !== "") msg.seed = Number(byId("seed").value);
    send(msg);
  }

  // -- the lobby: open tables -------------------------------------------------------------

  async function refreshLobby() {
    if (byId("setup").classList.contains("hidden")) return;
    let data;
    try {
      data = await (await fetch("/api/tables")).json();
    } catch (e) {
      return; // the server is away: the next refresh tries again
    }
    const list = byId("open-tables");
    list.replaceChildren();
    if (!data.tables.length) list.append(make("li", { class: "muted", text: "no open table: make one" }));
    for (const t of data.tables) {
      const item = make("li", { "data-game": t.id }, make("b", { text: t.profile }), " · ");
      for (const s of t.seats) {
        if (s.kind === "person" && !s.taken) {
          item.append(make("button", { type: "button", class: "sit", "data-seat": String(s.seat), text: `sit at seat ${s.seat}`,
            onclick: () => send({ type: "sit", game: t.id, seat: s.seat, ...(myName() ? { name: myName() } : {}) }) }), " ");
        } else {
          item.append(make("span", { class: "seat-name", text: `${s.name}${s.kind === "bot" ? " (bot)" : ""}` }), " ");
        }
      }
      list.append(item);
    }
  }

  // -- the waiting room ------------------------------------------------------------------

  function renderRoom() {
    const room = byId("room");
    if (!table || table.started) {
      room.classList.add("hidden");
      return;
    }
    byId("setup").classList.add("hidden");
    byId("game").classList.add("hidden");
    room.classList.remove("hidden");
    const rows = table.seats.map((s) => {
      const state = s.kind === "bot" ? "bot" : !s.taken ? "free" : s.connected ? "here" : "away";
      const row = make("li", { "data-seat": String(s.seat), "data-state": state },
        make("b", { text: `Seat ${s.seat}: ` }), `${s.name} — ${state}${s.seat === mySeat ? " (you)" : ""}`);
      if (links && links[s.seat] && s.seat !== mySeat) {
        const url = seatLink(table.id, links[s.seat]);
        row.append(" ", make("input", { class: "room-link", "data-seat": String(s.seat), readonly: "", value: url,
          "aria-label": `link for seat ${s.seat}` }),
          make("button", { type: "button", text: "copy", onclick: () => navigator.clipboard?.writeText(url) }));
      }
      return row;
    });
    byId("room-seats").replaceChildren(...rows);
    byId("room-title").textContent = `A table of ${table.profile}`;
    byId("room-note").textContent = table.ready
      ? "Everyone is seated: start when ready."
      : "Send each person the link of his seat; anyone may also sit from the lobby.";
    byId("room-start").disabled = !table.ready;
  }

  function receive(msg) {
    switch (msg.type) {
      case "joined":
        mySeat = msg.seat;
        if (table && table.id !== msg.game) { table = null; links = null; }
        if (!msg.started) byId("game").classList.add("hidden");
        break;
      case "links": links = msg.tokens; renderRoom(); break;
      case "table":
        table = msg;
        if (msg.started && !byId("room").classList.contains("hidden")) {
          byId("room").classList.add("hidden");
          show("game");
        }
        renderRoom();
        break;
      case "error":
        if (msg.message.startsWith("no such game") || msg.message.startsWith("wrong token")) {
          // The saved game is gone: back to the lobby, never a table that answers nothing.
          current = null;
          table = null;
          byId("room").classList.add("hidden");
          show("setup");
          refreshLobby();
        }
        break;
      default: break;
    }
  }

  function wireLobby() {
    byId("profile").addEventListener("change", renderSeatChoice);
    byId("create-table").addEventListener("click", createTable);
    byId("room-start").addEventListener("click", () => send({ type: "start" }));
    byId("room-leave").addEventListener("click", () => {
      sessionStorage.removeItem("binocle-game");
      table = null;
      byId("room").classList.add("hidden");
      show("setup");
      refreshLobby();
    });
    byId("lobby-refresh").addEventListener("click", refreshLobby);
    const waitForCatalogue = () => {
      if (typeof catalogue === "undefined" || catalogue === null) { setTimeout(waitForCatalogue, 50); return; }
      renderSeatChoice();
      refreshLobby();
    };
    waitForCatalogue();
    timer = setInterval(refreshLobby, 3000);
  }

  window.binocleLobby = { receive, refresh: refreshLobby, get timer() { return timer; } };
  document.addEventListener("DOMContentLoaded", wireLobby);
  if (document.readyState !== "loading") wireLobby();
})();
