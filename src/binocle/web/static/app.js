// binocle's reference front end: one websocket, the seat's view in, action texts out.
// Every rule is the engine's: this page shows the legal actions it is sent and nothing else.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS = { A: "A", T: "10", K: "K", Q: "Q", J: "J", 9: "9", 8: "8", 7: "7" };
const CARD = /^[ATKQJ987][SHDC]$/;

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
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

let ws = null;
let catalogue = null;
let current = null; // the last "state" message
let seenResults = 0;
let replayFrames = [];
let replaySeats = null;

// -- cards -----------------------------------------------------------------------------

function cardEl(text, { mini = false, title = null, button = false } = {}) {
  const rank = RANKS[text[0]] || text[0];
  const suit = text[1];
  const attrs = { class: `card${mini ? " mini" : ""}${suit === "H" || suit === "D" ? " red" : ""}`,
                  "data-card": text, "aria-label": `${rank} of ${SUIT_NAMES[suit]}` };
  if (button) attrs.type = "button";
  else attrs.role = "img";
  const node = el(button ? "button" : "div", attrs,
    el("span", { class: "rank", text: rank, "aria-hidden": "true" }),
    el("span", { class: "pip", text: SUITS[suit], "aria-hidden": "true" }),
    el("span", { class: "corner", text: rank + SUITS[suit], "aria-hidden": "true" }));
  if (title) node.title = title;
  return node;
}

function cardsInline(list) {
  const span = el("span", { class: "cards-inline" });
  for (const c of list) span.append(cardEl(c, { mini: true }));
  return span;
}

// -- connection ------------------------------------------------------------------------

// The static site (binocle site) sets window.binocleLocal: the engine in a Web Worker,
// behind an object with the websocket's interface, and the profiles in a file.
const LOCAL = window.binocleLocal || null;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = LOCAL ? LOCAL.socket() : new WebSocket(`${scheme}://${location.host}/ws`);
  ws.onopen = () => {
    setStatus("connected");
    const saved = JSON.parse(sessionStorage.getItem("binocle-game") || "null");
    if (saved) send({ type: "join", game: saved.game, token: saved.token });
  };
  ws.onclose = () => { setStatus("disconnected: reconnecting…"); setTimeout(connect, 1000); };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
}

// An action sent and not yet answered: the page marks itself (data-waiting) until the
// server's next state or its refusal arrives.
function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    if (msg.type === "action") document.body.dataset.waiting = "true";
    ws.send(JSON.stringify(msg));
  } else showMessage("not connected to the server");
}

function setStatus(text) { $("status").textContent = text; }
function showMessage(text) { $("message").textContent = text || ""; }

function receive(msg) {
  switch (msg.type) {
    case "joined":
      sessionStorage.setItem("binocle-game", JSON.stringify({ game: msg.game, token: msg.token }));
      seenResults = -1;
      show("game");
      break;
    case "state": receiveState(msg); break;
    case "table": seatsInfo = msg; if (current && current.game === msg.id) renderRisky(current); break;
    case "left":
      sessionStorage.removeItem("binocle-game");
      for (const d of [...openDialogs]) closeDialog(d.id);
      current = null;
      show("setup");
      showMessage(msg.bot ? `You left the table: ${msg.bot} plays your seat.` : "You left the table: your seat is free.");
      break;
    case "error":
      delete document.body.dataset.waiting;
      if (msg.message.startsWith("no such game") || msg.message.startsWith("wrong token")) {
        sessionStorage.removeItem("binocle-game");
      }
      showMessage(msg.message);
      break;
    case "record": download(msg.record); break;
    case "replay": startReplay(msg); break;
    default: break;
  }
  if (window.binocleLobby) window.binocleLobby.receive(msg); // tables: lobby.js
}

// -- set-up ----------------------------------------------------------------------------

async function loadCatalogue() {
  const response = await fetch(LOCAL ? LOCAL.profiles : "/api/profiles");
  catalogue = await response.json();
  const select = $("profile");
  for (const p of catalogue.profiles) select.append(el("option", { value: p.name, text: p.name }));
  select.addEventListener("change", renderSetup);
  renderSetup();
}

const OPTION_WORDS = (name) => name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());

// Every option a labelled control of its kind, its default filled in, its help beside it.
function optionControl(o) {
  const id = `option-${o.name}`;
  const help = el("span", { class: "help", id: `${id}-help`, text: `${o.help} Default: ${o.default === null ? "none" : o.default}.` });
  let input;
  if (o.kind === "bool") {
    input = el("input", { type: "checkbox", id, name: o.name, "data-kind": "bool", "aria-describedby": help.id });
    input.checked = o.default;
    return el("div", { class: "option" }, el("label", { for: id }, input, ` ${OPTION_WORDS(o.name)}`), help);
  }
  if (o.kind === "choice") {
    const numbers = o.choices.every((c) => typeof c === "number");
    input = el("select", { id, name: o.name, "data-kind": numbers ? "int" : "text", "aria-describedby": help.id });
    for (const c of o.choices) input.append(el("option", { value: String(c), text: String(c) }));
    input.value = String(o.default);
  } else {
    input = el("input", { id, name: o.name, "data-kind": o.kind, "aria-describedby": help.id,
                          type: o.kind === "int" ? "number" : "text" });
    if (o.kind === "int") {
      input.min = String(o.min);
      input.max = String(o.max);
      input.step = String(o.step || 1);
      input.inputMode = "numeric";
    }
    if (o.default === null) input.placeholder = "none";
    else input.value = String(o.default);
  }
  return el("div", { class: "option" }, el("label", { for: id, text: OPTION_WORDS(o.name) }), input, help);
}

function renderSetup() {
  const p = catalogue.profiles.find((x) => x.name === $("profile").value);
  $("profile-description").textContent = p.description;
  const options = $("options");
  options.replaceChildren(el("legend", { text: "Options" }));
  for (const o of p.options) options.append(optionControl(o));
  const seat = $("seat");
  seat.replaceChildren();
  for (let i = 0; i < p.players; i++) seat.append(el("option", { value: String(i), text: `seat ${i}` }));
  seat.onchange = () => renderOpponents(p);
  renderOpponents(p);
}

function renderOpponents(p) {
  const box = $("opponents");
  box.replaceChildren();
  const mine = Number($("seat").value);
  for (let i = 0; i < p.players; i++) {
    if (i === mine) continue;
    const select = el("select", { "data-seat": String(i), class: "opponent", id: `opponent-${i}` });
    for (const b of catalogue.bots) select.append(el("option", { value: b, text: b }));
    select.value = "baseline";
    box.append(el("label", { for: select.id, text: `Seat ${i}: ` }), select);
  }
}

// The options that differ from their defaults, each as its kind (a number is sent as one).
function chosenOptions(p) {
  const options = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    const o = p.options.find((x) => x.name === input.name);
    if (input.dataset.kind === "bool") {
      if (input.checked !== o.default) options[input.name] = input.checked;
    } else if (input.value !== "" && input.value !== String(o.default)) {
      options[input.name] = input.dataset.kind === "int" ? Number(input.value) : input.value;
    }
  }
  return options;
}

function startGame(event) {
  event.preventDefault();
  const p = catalogue.profiles.find((x) => x.name === $("profile").value);
  const msg = {
    type: "new", profile: p.name, options: chosenOptions(p), seat: Number($("seat").value),
    opponents: [...document.querySelectorAll(".opponent")].map((s) => s.value),
    bot_delay: Number($("bot-delay").value),
  };
  if ($("seed").value !== "") msg.seed = Number($("seed").value);
  showMessage("");
  send(msg);
}

// -- pacing: a finished trick stays on the table a moment --------------------------------

const HOLD_MS = Number(new URLSearchParams(location.search).get("hold") ?? 1500);
let holdUntil = 0;
let pending = null;
let holdTimer = null;
let shownTrickKey = null;

function trickKey(t) { return t ? JSON.stringify(t.cards) : null; }

function receiveState(msg) {
  if (Date.now() < holdUntil && current && msg.game === current.game) {
    pending = msg;
    if (!holdTimer) holdTimer = setTimeout(releaseHold, holdUntil - Date.now());
    return;
  }
  renderState(msg);
}

function releaseHold() {
  holdTimer = null;
  holdUntil = 0;
  const msg = pending;
  pending = null;
  if (msg) renderState(msg);
}

function actNow() { // the person acts: whatever was held back is shown at once
  if (holdTimer) { clearTimeout(holdTimer); releaseHold(); }
  holdUntil = 0;
}

// -- the table ---------------------------------------------------------------------------

let focusedCard = null; // the card text that had the focus, kept across renders
let chosen = []; // cards chosen to bury (indexes into the hand)
let buryQueue = []; // discard actions still to send, one per state
const BURY_KINDS = new Set(["discard", "give"]); // cards chosen, then sent one by one
let bidAmount = null;
let confirmAction = null;
let lastActing = null;
let overAfterSheet = false; // the game is over and its box waits for the sheet to close
let seatsInfo = null; // the last "table" message: who sits where, who is connected, the maker

// One name per person everywhere: "you" for the page's own seat, the table's names for the others.
function seatName(msg, seat) {
  if (seat === null || seat === undefined) return "—";
  return msg.view && seat === msg.view.seat ? "you" : msg.names[seat];
}
// A name shortened by the style sheet when long, the whole of it on hover and on focus.
function nameEl(text, tag = "span") {
  return el(tag, { class: "who", title: text, tabindex: "0", text });
}

function renderState(msg) {
  const previous = current;
  if (!previous || previous.game !== msg.game) { shownTrickKey = trickKey(msg.table.last_trick); chosen = []; buryQueue = []; }
  current = msg;
  document.body.dataset.step = String(msg.step);
  delete document.body.dataset.waiting;
  const v = msg.view;
  const c = msg.controls;
  const t = msg.table;
  const key = trickKey(t.last_trick);
  const trickDone = key !== null && key !== shownTrickKey && !v.trick.length;
  const finishedNow = key !== null && key !== shownTrickKey;
  shownTrickKey = key;
  if (finishedNow && HOLD_MS > 0) holdUntil = Date.now() + HOLD_MS;
  if (!c.actions.some((a) => BURY_KINDS.has(a.kind))) chosen = [];
  renderInfo(msg);
  renderSeats(msg);
  renderBidding(msg);
  renderTrick(msg, trickDone);
  renderHand(msg);
  renderActions(msg);
  renderRisky(msg);
  renderLog(msg);
  announce(msg, previous, finishedNow);
  if (buryQueue.length && c.actions.some((a) => BURY_KINDS.has(a.kind))) {
    const next = buryQueue.shift();
    if (c.actions.some((a) => a.text === next)) send({ type: "action", action: next });
    else buryQueue = [];
  }
  if (seenResults < 0) seenResults = v.results.length; // joined: the past sheets were seen
  if (v.results.length > seenResults) {
    seenResults = v.results.length;
    showSheet(msg);
  } else if (c.deal && $("sheet").classList.contains("hidden") && v.results.length && !openDialogs.length) {
    showSheet(msg);
  } else if (!$("sheet").classList.contains("hidden")) {
    fillSheet(msg);
  }
  if (msg.over) showOver(msg);
}

function renderLog(msg) {
  const told = (msg.narration ?? []).filter((line) => line.trim()).map((line) => el("li", { text: line.trim() }));
  const log = $("log");
  log.replaceChildren(...told.slice(-60));
  log.scrollTop = log.scrollHeight;
  $("log-full").replaceChildren(...told.map((li) => li.cloneNode(true)));
}

function factEl(f) {
  const node = el("span", { class: "fact", "data-fact": f.name }, el("b", { text: `${f.label}: ` }), f.text);
  if (f.cards.length && f.name !== "turn_up") { node.append(" "); node.append(cardsInline(f.cards)); }
  return node;
}

function renderInfo(msg) {
  $("info").replaceChildren(...msg.table.facts.map(factEl));
}

function renderSeats(msg) {
  const v = msg.view;
  const box = $("seats");
  box.replaceChildren();
  for (const s of msg.table.seats) {
    const node = el("div", { class: `seat${v.current_player === s.seat ? " acting" : ""}`, "data-seat": String(s.seat), role: "listitem" },
      el("div", { class: "name" }, nameEl(s.name), " ", ...s.tags.filter((x) => x !== "you").map((x) => el("span", { class: `tag tag-${x.replace(" ", "-")}`, text: x }))),
      el("div", { class: "lines", text: s.lines.join(" · ") }));
    if (s.table_melds.length) {
      const melds = el("div", { class: "melds" }, "on the table: ");
      for (const m of s.table_melds) {
        const value = catalogue.meld_values[m.name];
        melds.append(el("span", { class: "table-meld" }, `${m.name}${value ? ` (${value})` : ""} `, cardsInline(m.cards), m.intact ? "" : " (broken up)"));
      }
      node.append(melds);
    }
    box.append(node);
  }
}

function renderBidding(msg) {
  const rows = msg.table.bidding;
  const box = $("bidding");
  box.classList.toggle("hidden", !rows);
  if (!rows) { box.replaceChildren(); return; }
  const table = el("table", { class: "bids" }, el("caption", { text: "The bidding" }));
  const longest = Math.max(1, ...rows.map((r) => r.calls.length));
  for (const r of rows) {
    const tr = el("tr", { "data-seat": String(r.seat) }, el("th", { scope: "row" }, nameEl(r.name)));
    for (let i = 0; i < longest; i++) {
      const call = r.calls[i];
      tr.append(el("td", { class: call === "pass" ? "pass" : "", text: call ?? "" }));
    }
    table.append(tr);
  }
  box.replaceChildren(table);
}

function renderTrick(msg, trickDone) {
  const v = msg.view;
  const t = msg.table;
  const box = $("trick");
  const note = $("trick-note");
  box.replaceChildren();
  box.classList.remove("finished");
  if (v.trick.length) {
    for (const [seat, card] of v.trick) box.append(trickCard(msg, seat, card, t.trick_winner && t.trick_winner.seat === seat && t.trick_winner.card === card));
    note.textContent = t.trick_winner ? t.trick_winner.text : "";
  } else if (t.last_trick && (trickDone || v.phase === "play" || v.phase === "announce")) {
    box.classList.add("finished");
    for (const [seat, card] of t.last_trick.cards) box.append(trickCard(msg, seat, card, seat === t.last_trick.winner));
    note.textContent = t.last_trick.text;
  } else {
    box.append(el("span", { class: "muted", text: "no card on the table" }));
    note.textContent = "";
  }
}

function trickCard(msg, seat, card, winning) {
  const fig = el("figure", { class: winning ? "winning" : "" }, cardEl(card), el("figcaption", {}, nameEl(seatName(msg, seat)), winning ? " ★" : ""));
  return fig;
}

function playable(c) { return c.actions.filter((a) => a.kind === "play" || BURY_KINDS.has(a.kind)); }

function cardAction(c, card, source) {
  return playable(c).find((a) => a.card === card && (source === "table" ? a.source === "table" : a.source !== "table"));
}

function setHint(text) { $("hint").textContent = text || ""; }

function defaultHint(msg) {
  const t = msg.table;
  const c = msg.controls;
  if (t.discard && c.actions.some((a) => BURY_KINDS.has(a.kind))) {
    const need = t.discard.count;
    return `${t.discard.text} Chosen: ${chosen.length} of ${need}.`;
  }
  if (t.discard) return t.discard.text;
  const me = t.seats[msg.view.seat];
  if (me && me.tags.includes("retired")) return "You retired after a wrong knock: your cards are dead, the others play the hand out.";
  if (t.hand_meld) return t.hand_meld.text;
  if (playable(c).length) return "Your turn: choose a card to play (arrow keys, then Enter).";
  return "";
}

function cardRow(msg, box, cards, source, label) {
  const c = msg.controls;
  const t = msg.table;
  const burying = c.actions.some((a) => BURY_KINDS.has(a.kind));
  box.replaceChildren(el("div", { class: "label", text: label }));
  const widow = source === "table" ? [] : [...t.widow];
  let lastSuit = null;
  cards.forEach((card, index) => {
    if (lastSuit && card[1] !== lastSuit) box.append(el("span", { class: "suit-gap" }));
    lastSuit = card[1];
    const action = cardAction(c, card, source);
    const node = cardEl(card, { button: true });
    node.dataset.index = String(index);
    node.dataset.source = source || "hand";
    const w = widow.indexOf(card);
    let extra = "";
    if (w >= 0) {
      widow.splice(w, 1);
      node.classList.add("widow");
      node.append(el("span", { class: "badge", text: "widow", "aria-hidden": "true" }));
      extra = ", from the widow";
    }
    const name = node.getAttribute("aria-label") + extra;
    if (action) {
      node.classList.add("legal");
      node.dataset.action = action.text;
      if (burying) {
        const on = chosen.includes(index);
        node.classList.toggle("chosen", on);
        node.setAttribute("aria-pressed", on ? "true" : "false");
        node.setAttribute("aria-label", `${name}: bury`);
        node.addEventListener("click", () => toggleBury(index));
      } else {
        node.setAttribute("aria-label", `${name}: ${action.label.toLowerCase()}`);
        node.addEventListener("click", () => { actNow(); send({ type: "action", action: action.text }); });
      }
      node.dataset.reason = action.label;
    } else if (playable(c).length) {
      const why = c.unplayable[card] || "not playable now";
      node.classList.add("disabled");
      node.setAttribute("aria-disabled", "true");
      node.setAttribute("aria-label", `${name}: not playable`);
      node.dataset.reason = why;
      node.title = why;
      node.addEventListener("click", () => setHint(`${cardWords(card)} can't be played: ${why}`));
    } else {
      node.classList.add("idle");
      node.setAttribute("aria-label", name);
      node.dataset.reason = "";
    }
    node.addEventListener("focus", () => {
      focusedCard = `${node.dataset.source}:${index}`;
      if (node.classList.contains("disabled")) setHint(`${cardWords(card)} can't be played: ${node.dataset.reason}`);
      else if (node.classList.contains("legal") && !burying) setHint(`${node.dataset.reason}: press Enter`);
      else setHint(defaultHint(msg));
    });
    node.addEventListener("keydown", handKeys);
    box.append(node);
  });
}

function cardWords(card) { return `${RANKS[card[0]] || card[0]} of ${SUIT_NAMES[card[1]]}`; }

// Sorted by suit as the view gives them; a player who plays from a table of melds sees both rows.
function renderHand(msg) {
  const v = msg.view;
  const pub = v.public.two_handed ? Object.fromEntries(v.public.two_handed) : v.public;
  const tables = Array.isArray(pub.tables) ? pub.tables[v.public.two_handed ? pubSeat(v) : v.seat] || [] : [];
  if (tables.length && Array.isArray(pub.concealed)) {
    cardRow(msg, $("my-table"), tables, "table", "your cards on the table");
    $("my-table").classList.remove("hidden");
    cardRow(msg, $("hand"), pub.concealed, null, "your hand");
  } else {
    $("my-table").replaceChildren();
    $("my-table").classList.add("hidden");
    cardRow(msg, $("hand"), v.hand, null, "your hand");
  }
  // One card of the rows takes the focus with Tab (a roving tab stop); the arrows move it.
  const cards = handCards();
  let stop = cards.find((n) => `${n.dataset.source}:${n.dataset.index}` === focusedCard);
  stop = stop || cards.find((n) => n.classList.contains("legal")) || cards[0];
  for (const n of cards) n.tabIndex = n === stop ? 0 : -1;
  const hadFocus = document.activeElement && document.activeElement.classList.contains("card");
  if (stop && (hadFocus || (document.activeElement === document.body && playable(msg.controls).length && !openDialogs.length))) stop.focus();
  if (!hadFocus) setHint(defaultHint(msg));
}

// The three-handed view's own seat in its two-handed game (the two tables are by its pair).
function pubSeat(v) {
  const pair = v.public.pair;
  return Array.isArray(pair) ? pair.indexOf(v.seat) : v.seat;
}

function handCards() { return [...document.querySelectorAll("#my-table .card, #hand .card")]; }

function handKeys(event) {
  const cards = handCards();
  const i = cards.indexOf(event.currentTarget);
  let j = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
  else if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (event.key === "Home") j = 0;
  else if (event.key === "End") j = cards.length - 1;
  if (j === null) return;
  event.preventDefault();
  for (const n of cards) n.tabIndex = -1;
  cards[j].tabIndex = 0;
  cards[j].focus();
}

function toggleBury(index) {
  const need = current.table.discard ? current.table.discard.count : 0;
  const at = chosen.indexOf(index);
  if (at >= 0) chosen.splice(at, 1);
  else if (chosen.length < need) chosen.push(index);
  else { setHint(`You have chosen ${need} cards already: choose one again to put it back.`); return; }
  renderHand(current);
  renderActions(current);
  setHint(defaultHint(current));
}

function confirmBury() {
  const c = current.controls;
  const need = current.table.discard ? current.table.discard.count : 0;
  if (chosen.length !== need) return;
  const hand = current.view.hand;
  const texts = chosen.map((i) => cardAction(c, hand[i], null)).filter(Boolean).map((a) => a.text);
  chosen = [];
  actNow();
  buryQueue = texts.slice(1);
  send({ type: "action", action: texts[0] });
}

function button(text, label, onclick, id = null, key = null) {
  const b = el("button", { type: "button", "data-action": text, onclick });
  b.append(label);
  if (key) { b.append(" ", el("kbd", { text: key })); b.setAttribute("aria-keyshortcuts", key); }
  if (id) b.id = id;
  return b;
}

function act(text) { return () => { actNow(); send({ type: "action", action: text }); }; }

function renderActions(msg) {
  const c = msg.controls;
  const t = msg.table;
  const box = $("actions");
  const focusId = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
  box.replaceChildren();
  const bids = c.actions.filter((a) => a.kind === "bid");
  const melds = c.actions.filter((a) => a.kind === "meld");
  const rest = c.actions.filter((a) => !["bid", "meld", "play", "discard", "give", "claim", "concede"].includes(a.kind));
  if (bids.length) renderBidControls(box, bids, t);
  if (melds.length) {
    const plain = melds.filter((a) => a.text === "meld");
    const explicit = melds.filter((a) => a.text !== "meld");
    for (const a of plain) box.append(button(a.text, a.label, act(a.text)));
    if (explicit.length) {
      const select = el("select", { id: "meld-choice", "aria-label": "announcement" });
      for (const a of explicit) select.append(el("option", { value: a.text, text: a.label }));
      box.append(select, button("announce", "Announce", () => { actNow(); send({ type: "action", action: select.value }); }, "announce"));
    }
  }
  for (const a of rest) {
    const isPass = a.kind === "pass";
    box.append(button(a.text, a.label, act(a.text), isPass ? "pass" : null, isPass ? "P" : null));
  }
  if (c.actions.some((a) => BURY_KINDS.has(a.kind))) {
    const need = t.discard ? t.discard.count : 0;
    const label = t.discard && t.discard.confirm ? t.discard.confirm : `Bury the ${need} chosen cards`;
    const b = button("bury", label, confirmBury, "bury", "C");
    b.disabled = chosen.length !== need;
    box.append(b);
  }
  if (c.deal && !msg.over) box.append(button("deal", "Deal the next hand", () => send({ type: "deal", step: current.step }), "deal", "N"));
  if (!c.actions.length && !c.deal && !msg.over) {
    box.append(el("span", { class: "muted", text: `waiting for ${seatName(msg, msg.view.current_player)}…` }));
  }
  if (focusId && $(focusId)) $(focusId).focus();
}

function renderBidControls(box, bids, t) {
  const amounts = bids.map((a) => Number(a.text.split(" ")[1])).sort((x, y) => x - y);
  const low = amounts[0];
  const high = amounts[amounts.length - 1];
  if (bidAmount === null || bidAmount < low || bidAmount > high) bidAmount = low;
  const input = el("input", { id: "bid-amount", type: "number", min: String(low), max: String(high), step: "10",
                              value: String(bidAmount), inputmode: "numeric", "aria-describedby": "bid-meld" });
  const bidButton = button("bid", `Bid ${bidAmount}`, () => placeBid(), "bid", "B");
  const set = (n) => {
    bidAmount = Math.max(low, Math.min(high, n));
    input.value = String(bidAmount);
    bidButton.firstChild.textContent = `Bid ${bidAmount}`;
  };
  input.addEventListener("input", () => { if (input.value !== "") set(Math.round(Number(input.value) / 10) * 10); });
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); placeBid(); } });
  const minus = button("bid-down", "−10", () => set(bidAmount - 10), "bid-down");
  minus.setAttribute("aria-label", "10 less");
  const plus = button("bid-up", "+10", () => set(bidAmount + 10), "bid-up");
  plus.setAttribute("aria-label", "10 more");
  box.append(el("span", { class: "bid-group", role: "group", "aria-label": "your bid" },
    el("label", { for: "bid-amount", class: "sr-only", text: "Your bid" }), minus, input, plus, bidButton));
  box.append(el("span", { id: "bid-meld", class: "bid-meld", text: t.hand_meld ? t.hand_meld.text : "" }));
}

function placeBid() {
  const text = `bid ${bidAmount}`;
  if (!current.controls.actions.some((a) => a.text === text)) { showMessage(`${bidAmount} is not a bid you can make now`); return; }
  actNow();
  send({ type: "action", action: text });
}

// Knock and concede: away from the cards, and each asks first, with what the engine would count.
function renderRisky(msg) {
  const c = msg.controls;
  const t = msg.table;
  const box = $("risky");
  const focusId = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
  box.replaceChildren();
  if (c.knock && t.knock) {
    // A knock that can only lose is shown as dangerous, saying so; one that wins says that.
    const label = t.knock.danger ? "Knock (you would lose)…" : "Knock: claim the game…";
    const b = button("knock", label, () => askKnock(), "knock", "K");
    b.classList.toggle("danger", Boolean(t.knock.danger));
    b.title = t.knock.text;
    box.append(b);
  }
  const concede = c.actions.find((a) => a.kind === "concede");
  if (concede && t.concede) {
    box.append(button("concede", `Concede the hand (lose ${t.concede.cost})…`, () => askConfirm("Concede the hand?", t.concede.text, "Concede", () => act(concede.text)()), "concede"));
  }
  if (seatsInfo && seatsInfo.id === msg.game && !msg.over) {
    const mine = seatsInfo.seats.find((x) => x.seat === msg.view.seat);
    if (mine && mine.kind === "person" && seatsInfo.maker !== msg.view.seat) {
      box.append(button("leave", "Leave the table…", () => askConfirm("Leave the table?",
        "A bot plays your seat for the rest of the game, and your seat's link stops working.",
        "Leave: a bot plays on", () => send({ type: "leave", bot: catalogue.bots[0] })), "leave"));
    }
    if (seatsInfo.maker === msg.view.seat) {
      for (const x of seatsInfo.seats) {
        if (x.kind !== "person" || x.seat === msg.view.seat || x.connected) continue;
        box.append(button("replace", `Hand ${x.name}'s seat to a bot…`, () => askConfirm(`Replace ${x.name}?`,
          `${x.name} is not at the table. A bot plays the seat for the rest of the game, and the seat's link stops working.`,
          "Replace with a bot", () => send({ type: "replace", seat: x.seat, bot: catalogue.bots[0] })), `replace-${x.seat}`));
      }
    }
  }
  if (focusId && $(focusId)) $(focusId).focus();
}

function askKnock() {
  const t = current.table;
  if (!current.controls.knock || !t.knock) return;
  const title = t.knock.correct ? "Knock and claim the game?" : "Knock now? You have not reached your target";
  askConfirm(title, t.knock.text, t.knock.correct ? "Knock: claim the game" : "Knock anyway", () => { actNow(); send({ type: "knock" }); });
}

function askConfirm(title, text, yes, then) {
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  confirmAction = then;
  openDialog("confirm", "confirm-no");
}

function announce(msg, previous, finishedNow) {
  const parts = [];
  if (finishedNow && msg.table.last_trick) parts.push(msg.table.last_trick.text + ".");
  const acting = msg.view.current_player;
  const mine = msg.controls.actions.length > 0;
  if (mine && (lastActing !== msg.view.seat || !previous)) parts.push(playable(msg.controls).length ? "Your turn to play." : "Your turn.");
  else if (!mine && acting !== null && acting !== lastActing && acting !== msg.view.seat) parts.push(`${seatName(msg, acting)} to act.`);
  if (msg.controls.deal && (!previous || !previous.controls.deal)) parts.push("The hand is over.");
  lastActing = mine ? msg.view.seat : acting;
  if (parts.length) $("announcer").textContent = parts.join(" ");
}

// -- dialogs: role=dialog, the focus moved in, kept in, and given back ----------------------

const openDialogs = [];

function openDialog(id, focusId = null) {
  const node = $(id);
  // One dialog at a time: another one open (the score sheet under the game-over box) closes.
  for (const d of [...openDialogs]) if (d.id !== id) { $(d.id).classList.add("hidden"); openDialogs.splice(openDialogs.indexOf(d), 1); }
  if (!openDialogs.some((d) => d.id === id)) openDialogs.push({ id, back: document.activeElement });
  node.classList.remove("hidden");
  const target = (focusId && $(focusId)) || node.querySelector("button, [tabindex='0'], input, select");
  if (target) target.focus();
}

function closeDialog(id) {
  const at = openDialogs.findIndex((d) => d.id === id);
  $(id).classList.add("hidden");
  if (id === "sheet" && overAfterSheet) {
    overAfterSheet = false;
    if (at >= 0) openDialogs.splice(at, 1);
    openDialog("over", "again");
    return;
  }
  if (at < 0) return;
  const [{ back }] = openDialogs.splice(at, 1);
  if (back && document.contains(back) && back.offsetParent !== null) back.focus();
  else { const cards = handCards(); const stop = cards.find((n) => n.tabIndex === 0); if (stop) stop.focus(); }
}

function trapFocus(event) {
  if (!openDialogs.length) return false;
  const top = $(openDialogs[openDialogs.length - 1].id);
  if (event.key === "Escape") {
    if (top.id !== "over") closeDialog(top.id);
    event.preventDefault();
    return true;
  }
  if (event.key !== "Tab") return true;
  const items = [...top.querySelectorAll("button:not([disabled]), [tabindex='0'], input, select, a[href]")].filter((n) => n.offsetParent !== null);
  if (!items.length) return true;
  const first = items[0];
  const last = items[items.length - 1];
  if (event.shiftKey && (document.activeElement === first || !top.contains(document.activeElement))) { event.preventDefault(); last.focus(); }
  else if (!event.shiftKey && (document.activeElement === last || !top.contains(document.activeElement))) { event.preventDefault(); first.focus(); }
  return true;
}

// -- shortcuts -----------------------------------------------------------------------------

function shortcuts(event) {
  if (trapFocus(event)) return;
  if ($("game").classList.contains("hidden") || event.ctrlKey || event.metaKey || event.altKey) return;
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
  const key = event.key;
  const click = (id) => { const b = $(id); if (b && !b.disabled) { b.click(); return true; } return false; };
  if (typing && !(event.target.id === "bid-amount" && (key === "+" || key === "-"))) return;
  let done = false;
  if (key === "p" || key === "P") done = click("pass");
  else if (key === "b" || key === "B") done = click("bid");
  else if (key === "+" || key === "=") done = click("bid-up");
  else if (key === "-" || key === "_") done = click("bid-down");
  else if (key === "c" || key === "C") done = click("bury");
  else if (key === "k" || key === "K") done = click("knock");
  else if (key === "n" || key === "N") done = click("deal");
  else if (key === "l" || key === "L") done = click("last-trick-button");
  else if (key === "g" || key === "G") done = click("log-button");
  else if (key === "?") done = click("keys-button");
  else if (key === "h" || key === "H") {
    const stop = handCards().find((n) => n.tabIndex === 0);
    if (stop) { stop.focus(); done = true; }
  }
  if (done) event.preventDefault();
}

// -- end of a hand, end of the game ---------------------------------------------------------

function showSheet(msg) {
  fillSheet(msg);
  if ($("sheet").classList.contains("hidden")) openDialog("sheet", msg.controls.deal ? "sheet-deal" : "sheet-close");
}

function fillSheet(msg) {
  const v = msg.view;
  const sheet = msg.table.sheet;
  if (!sheet) return;
  const result = v.results[sheet.hand - 1];
  const body = $("sheet-table").querySelector("tbody");
  body.replaceChildren();
  v.scores.forEach((total, seat) => {
    const row = sheet.rows[seat];
    const meldCell = el("td", { "data-col": "meld", text: String(result.meld[seat]) });
    body.append(el("tr", { "data-seat": String(seat) },
      el("th", { scope: "row" }, nameEl(seatName(msg, seat))),
      meldCell,
      el("td", { "data-col": "tricks", text: String(result.tricks[seat]) }),
      el("td", { "data-col": "delta", text: (result.delta[seat] > 0 ? "+" : "") + result.delta[seat] }),
      el("td", { "data-col": "total", text: String(total) })));
    if (row.note) body.append(el("tr", { class: "note", "data-note": String(seat) }, el("td", { colspan: "5", text: row.note })));
  });
  $("sheet-title").textContent = `Hand ${sheet.hand} is over`;
  $("sheet-outcome").textContent = sheet.summary;
  const buttons = $("sheet-buttons");
  buttons.replaceChildren();
  const close = () => closeDialog("sheet");
  if (msg.controls.deal) buttons.append(button("deal", "Deal the next hand", () => { close(); send({ type: "deal", step: current.step }); }, "sheet-deal"));
  if (sheet.last_trick) buttons.append(button("last-trick", "The last trick", () => showLastTrick(), "sheet-last-trick"));
  buttons.append(button("close", "Close", close, "sheet-close"));
}

function showLastTrick() {
  const t = current && current.table;
  const last = t && (t.last_trick || (t.sheet && t.sheet.last_trick));
  const box = $("last-trick-cards");
  box.replaceChildren();
  if (last) {
    for (const [seat, card] of last.cards) box.append(trickCard(current, seat, card, seat === last.winner));
    $("last-trick-text").textContent = `${last.text}.`;
  } else {
    $("last-trick-text").textContent = "No trick has been played in this hand yet.";
  }
  openDialog("last-trick", "last-trick-close");
}

function showOver(msg) {
  const o = msg.over;
  const who = o.winner === null ? null : seatName(msg, o.winner);
  $("over-title").textContent = who === null ? "The game is over: no winner" : who === "you" ? "You won the game" : `${who} won the game`;
  const how = { claim: "by a knock", target: "at the target", limit: "at the hand limit" }[o.reason] || "";
  $("over-detail").textContent = `Final scores: ${o.scores.map((x, i) => `${seatName(msg, i)} ${x}`).join(", ")}${how ? ` · ended ${how}` : ""}`;
  // The last hand's score sheet is read first: the game-over box opens when it closes.
  if (!$("sheet").classList.contains("hidden")) { overAfterSheet = true; return; }
  if ($("over").classList.contains("hidden")) openDialog("over", "again");
}

function download(record) {
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: "binocle-game.json" });
  document.body.append(a);
  a.click();
  a.remove();
}

// -- the replay viewer ----------------------------------------------------------------------

function startReplay(msg) {
  replayFrames = msg.frames;
  replaySeats = msg.seats;
  const slider = $("replay-step");
  slider.max = String(replayFrames.length - 1);
  slider.value = "0";
  $("replay-view").classList.remove("hidden");
  renderFrame(0);
}

function fact(label, value) {
  return el("span", { class: "fact" }, el("b", { text: `${label}: ` }), value);
}

function renderFrame(i) {
  const f = replayFrames[i];
  $("replay-step").value = String(i);
  $("replay-pos").textContent = `step ${i} of ${replayFrames.length - 1}`;
  const seatName = (s) => (replaySeats && replaySeats[s] ? `${replaySeats[s]} (seat ${s})` : `seat ${s}`);
  $("replay-info").replaceChildren(
    fact("hand", String(f.hand)), fact("phase", f.phase), fact("dealer", seatName(f.dealer)),
    fact("trump", f.trump ? `${SUITS[f.trump]} ${SUIT_NAMES[f.trump]}` : "not yet"),
    fact("scores", f.scores.join(" / ")),
    fact("last action", f.action === null ? "—" : `${f.seat === null ? "dealer" : seatName(f.seat)}: ${f.action}`));
  const box = $("replay-trick");
  box.replaceChildren();
  if (!f.trick.length) box.append(el("span", { class: "muted", text: "no card on the table" }));
  for (const [seat, card] of f.trick) box.append(el("figure", {}, cardEl(card), el("figcaption", { text: seatName(seat) })));
  const hands = $("replay-hands");
  hands.replaceChildren();
  f.hands.forEach((cards, seat) => {
    const row = el("div", { class: "hand-row" }, el("span", { class: "label", text: seatName(seat) }));
    for (const c of cards) row.append(cardEl(c, { mini: true }));
    hands.append(row);
  });
  $("replay-lines").replaceChildren(...f.lines.map((line) => el("li", { text: line })));
}

function readReplayFile() {
  const file = $("replay-file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => send({ type: "replay", record: String(reader.result) });
  reader.readAsText(file);
}

// -- tabs and wiring --------------------------------------------------------------------------

function show(which) {
  const playing = current !== null || which === "game";
  $("setup").classList.toggle("hidden", which !== "setup");
  $("game").classList.toggle("hidden", which !== "game");
  $("replay").classList.toggle("hidden", which !== "replay");
  $("tab-play").classList.toggle("active", which !== "replay");
  $("tab-replay").classList.toggle("active", which === "replay");
  return playing;
}

function wire() {
  $("setup-form").addEventListener("submit", startGame);
  $("tab-play").addEventListener("click", () => show(current && !current.over ? "game" : "setup"));
  $("tab-replay").addEventListener("click", () => show("replay"));
  $("download").addEventListener("click", () => send({ type: "record" }));
  $("again").addEventListener("click", () => {
    overAfterSheet = false;
    for (const d of [...openDialogs].reverse()) closeDialog(d.id);
    sessionStorage.removeItem("binocle-game");
    current = null;
    show("setup");
  });
  $("replay-file").addEventListener("change", readReplayFile);
  $("last-trick-button").addEventListener("click", showLastTrick);
  $("last-trick-close").addEventListener("click", () => closeDialog("last-trick"));
  $("log-button").addEventListener("click", () => openDialog("log-dialog", "log-close"));
  $("log-close").addEventListener("click", () => closeDialog("log-dialog"));
  $("keys-button").addEventListener("click", () => openDialog("keys", "keys-close"));
  $("keys-close").addEventListener("click", () => closeDialog("keys"));
  $("confirm-no").addEventListener("click", () => { confirmAction = null; closeDialog("confirm"); });
  $("confirm-yes").addEventListener("click", () => {
    const then = confirmAction;
    confirmAction = null;
    closeDialog("confirm");
    if (then) then();
  });
  document.addEventListener("keydown", shortcuts);
  const step = (d) => () => renderFrame(Math.max(0, Math.min(replayFrames.length - 1, Number($("replay-step").value) + d)));
  $("replay-prev").addEventListener("click", step(-1));
  $("replay-next").addEventListener("click", step(1));
  $("replay-first").addEventListener("click", () => renderFrame(0));
  $("replay-last").addEventListener("click", () => renderFrame(replayFrames.length - 1));
  $("replay-step").addEventListener("input", () => renderFrame(Number($("replay-step").value)));
}

wire();
loadCatalogue().then(connect);
