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

function cardEl(text, { mini = false, title = null } = {}) {
  const rank = RANKS[text[0]] || text[0];
  const suit = text[1];
  const node = el("div", { class: `card${mini ? " mini" : ""}${suit === "H" || suit === "D" ? " red" : ""}`,
                           "data-card": text, "aria-label": `${rank} of ${SUIT_NAMES[suit]}` },
    el("span", { class: "rank", text: rank }),
    el("span", { class: "pip", text: SUITS[suit] }),
    el("span", { class: "corner", text: rank + SUITS[suit] }));
  if (title) node.title = title;
  return node;
}

function cardsInline(list) {
  const span = el("span");
  for (const c of list) span.append(cardEl(c, { mini: true }));
  return span;
}

// Plain values of a view's public facts, cards drawn as small cards.
function valueEl(value) {
  if (value === null || value === undefined) return document.createTextNode("—");
  if (typeof value === "string" && CARD.test(value)) return cardEl(value, { mini: true });
  if (Array.isArray(value)) {
    if (value.length && value.every((v) => typeof v === "string" && CARD.test(v))) return cardsInline(value);
    const span = el("span");
    value.forEach((v, i) => { if (i) span.append(", "); span.append(valueEl(v)); });
    return span.childNodes.length ? span : document.createTextNode("none");
  }
  if (typeof value === "object") {
    if ("total" in value && "melds" in value) return meldEl(value);
    const span = el("span");
    Object.entries(value).forEach(([k, v], i) => { if (i) span.append("; "); span.append(`${k} `, valueEl(v)); });
    return span;
  }
  return document.createTextNode(String(value));
}

function meldEl(result) {
  const span = el("span", { text: `${result.total}` });
  for (const m of result.melds) {
    span.append(" · ", `${m.name} ${m.value} `, cardsInline(m.cards));
  }
  return span;
}

// -- connection ------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/ws`);
  ws.onopen = () => {
    setStatus("connected");
    const saved = JSON.parse(sessionStorage.getItem("binocle-game") || "null");
    if (saved) send({ type: "join", game: saved.game, token: saved.token });
  };
  ws.onclose = () => { setStatus("disconnected: reconnecting…"); setTimeout(connect, 1000); };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else showMessage("not connected to the server");
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
    case "state": renderState(msg); break;
    case "error":
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
  const response = await fetch("/api/profiles");
  catalogue = await response.json();
  const select = $("profile");
  for (const p of catalogue.profiles) select.append(el("option", { value: p.name, text: p.name }));
  select.addEventListener("change", renderSetup);
  renderSetup();
}

function renderSetup() {
  const p = catalogue.profiles.find((x) => x.name === $("profile").value);
  $("profile-description").textContent = p.description;
  const options = $("options");
  options.replaceChildren(el("legend", { text: "Options" }));
  for (const o of p.options) {
    const input = o.kind === "bool"
      ? el("input", { type: "checkbox", name: o.name, "data-kind": "bool" })
      : el("input", { type: o.kind === "int" ? "number" : "text", name: o.name, "data-kind": o.kind,
                      value: o.default === null ? "" : String(o.default), placeholder: o.default === null ? "none" : "" });
    if (o.kind === "bool") input.checked = o.default;
    options.append(el("label", {}, input, ` ${o.name}`));
  }
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
    const select = el("select", { "data-seat": String(i), class: "opponent" });
    for (const b of catalogue.bots) select.append(el("option", { value: b, text: b }));
    select.value = "baseline";
    box.append(el("label", {}, `Seat ${i}: `, select));
  }
}

function startGame(event) {
  event.preventDefault();
  const p = catalogue.profiles.find((x) => x.name === $("profile").value);
  const options = {};
  for (const input of $("options").querySelectorAll("input")) {
    const o = p.options.find((x) => x.name === input.name);
    if (input.dataset.kind === "bool") {
      if (input.checked !== o.default) options[input.name] = input.checked;
    } else if (input.value !== "" && input.value !== String(o.default)) {
      options[input.name] = input.dataset.kind === "int" ? Number(input.value) : input.value;
    }
  }
  const msg = {
    type: "new", profile: p.name, options, seat: Number($("seat").value),
    opponents: [...document.querySelectorAll(".opponent")].map((s) => s.value),
    bot_delay: Number($("bot-delay").value),
  };
  if ($("seed").value !== "") msg.seed = Number($("seed").value);
  showMessage("");
  send(msg);
}

// -- the table ---------------------------------------------------------------------------

function name(msg, seat) { return seat === null || seat === undefined ? "—" : `${msg.names[seat]} (seat ${seat})`; }

function renderState(msg) {
  current = msg;
  document.body.dataset.step = String(msg.step);
  const v = msg.view;
  const c = msg.controls;
  renderInfo(msg);
  renderSeats(msg);
  renderTrick($("trick"), v.trick, (s) => name(msg, s));
  renderPublic(msg);
  renderHand(msg);
  renderActions(msg);
  const log = $("log");
  // The game as the server tells it to this seat (binocle.narrate.narrate): no hidden card.
  const told = (msg.narration ?? v.log.map((line) => readableLog(msg, line))).filter((line) => line.trim());
  log.replaceChildren(...told.map((line) => el("li", { text: line.trim() })));
  log.scrollTop = log.scrollHeight;
  if (seenResults < 0) seenResults = v.results.length; // joined: the past sheets were seen
  if (v.results.length > seenResults) {
    seenResults = v.results.length;
    showSheet(msg, v.results[v.results.length - 1]);
  } else if (c.deal && $("sheet").classList.contains("hidden") && v.results.length) {
    showSheet(msg, v.results[v.results.length - 1]);
  }
  if (msg.over) showOver(msg);
}

function readableLog(msg, line) {
  const m = /^(\d+): (.*)$/.exec(line);
  return m ? `${msg.names[Number(m[1])]}: ${m[2]}` : line;
}

function fact(label, value) {
  return el("span", { class: "fact" }, el("b", { text: label }), valueEl(value));
}

function renderInfo(msg) {
  const v = msg.view;
  const pub = v.public;
  const info = $("info");
  info.replaceChildren(
    fact("game", v.profile),
    fact("phase", v.phase),
    fact("dealer", name(msg, v.dealer)),
    fact("trump", v.trump ? `${SUITS[v.trump]} ${SUIT_NAMES[v.trump]}` : "not yet"),
  );
  if ("turn_up" in pub) info.append(fact("turn-up", pub.turn_up));
  if ("stock_size" in pub) info.append(fact("stock", `${pub.stock_size} cards`));
  if ("bid" in pub && pub.bid !== null) info.append(fact("bid", `${pub.bid} by ${name(msg, pub.bidder)}`));
  if ("widow" in pub && pub.widow) info.append(fact("widow", pub.widow));
  if ("targets" in pub) info.append(fact("targets", pub.targets.join(" / ")));
}

function renderSeats(msg) {
  const v = msg.view;
  const box = $("seats");
  box.replaceChildren();
  v.hand_sizes.forEach((size, seat) => {
    const node = el("div", { class: `seat${v.current_player === seat ? " acting" : ""}`, "data-seat": String(seat) },
      el("div", { class: "name", text: msg.names[seat] },
        seat === v.dealer ? el("span", { class: "tag", text: "dealer" }) : null,
        seat === v.current_player ? el("span", { class: "tag", text: "to act" }) : null),
      el("div", { text: `score ${v.scores[seat]} · ${size} cards` }));
    const melds = seatMelds(v, seat);
    if (melds) node.append(el("div", { class: "melds" }, melds));
    box.append(node);
  });
}

// The melds a seat has shown, as each profile's view carries them.
function seatMelds(v, seat) {
  const pub = v.public.two_handed ?? v.public;
  if (Array.isArray(pub.melds) && pub.melds[seat]) return el("span", {}, "meld ", meldEl(pub.melds[seat]));
  if (Array.isArray(pub.table_melds) && pub.table_melds[seat] && pub.table_melds[seat].length) {
    const span = el("span", { text: `melds scored ${pub.meld_points ? pub.meld_points[seat] : ""}: ` });
    for (const [meldName, cards, intact] of pub.table_melds[seat]) {
      const value = catalogue.meld_values[meldName];
      span.append(el("div", {}, `${meldName} ${value ?? ""} `, cardsInline(cards), intact ? "" : " (broken up)"));
    }
    return span;
  }
  return null;
}

function renderTrick(box, trick, label) {
  box.replaceChildren();
  if (!trick.length) box.append(el("span", { class: "muted", text: "no card on the table" }));
  for (const [seat, card] of trick) box.append(el("figure", {}, cardEl(card), el("figcaption", { text: label(seat) })));
}

const SHOWN_ELSEWHERE = new Set(["turn_up", "stock_size", "bid", "bidder", "widow", "targets", "melds",
  "concealed", "tables", "table_melds"]);

function renderPublic(msg) {
  const v = msg.view;
  const box = $("public");
  box.replaceChildren();
  for (const [key, value] of Object.entries(v.public)) {
    if (SHOWN_ELSEWHERE.has(key)) continue;
    let shown;
    if (key === "last_trick" && Array.isArray(value)) {
      shown = el("span");
      for (const [seat, card] of value) shown.append(`${msg.names[seat]} `, cardEl(card, { mini: true }), " ");
      if (!value.length) shown.append("—");
    } else if (Array.isArray(value) && value.length && value.every((x) => Array.isArray(x) && x.length === 2
               && Number.isInteger(x[0]) && x[0] >= 0 && x[0] < v.hand_sizes.length)) {
      shown = el("span");
      value.forEach(([seat, x], i) => shown.append(i ? " · " : "", `${msg.names[seat]}: `, valueEl(x)));
    } else if (Array.isArray(value) && value.length === v.hand_sizes.length && value.every((x) => typeof x === "number")) {
      shown = document.createTextNode(value.map((x, seat) => `${msg.names[seat]} ${x}`).join(" · "));
    } else {
      shown = valueEl(value);
    }
    box.append(el("div", {}, el("b", { text: `${key.replaceAll("_", " ")}: ` }), shown));
  }
}

function cardAction(c, card, source) {
  return c.actions.find((a) => a.card === card && (a.kind === "play" || a.kind === "discard")
    && (source === "table" ? a.source === "table" : a.source !== "table"));
}

function cardRow(box, cards, c, source, label) {
  box.replaceChildren(el("div", { class: "label", text: label }));
  let lastSuit = null;
  for (const card of cards) {
    if (lastSuit && card[1] !== lastSuit) box.append(el("span", { class: "suit-gap" }));
    lastSuit = card[1];
    const action = cardAction(c, card, source);
    const node = cardEl(card);
    if (action) {
      node.classList.add("legal");
      node.dataset.action = action.text;
      node.title = action.label;
      node.tabIndex = 0;
      node.addEventListener("click", () => send({ type: "action", action: action.text }));
    } else if (c.actions.some((a) => a.kind === "play" || a.kind === "discard")) {
      node.classList.add("disabled");
      node.title = c.unplayable[card] || "not playable now";
    }
    box.append(node);
  }
}

// Sorted by suit as the view gives them; a player who plays from a table of melds sees both rows.
function renderHand(msg) {
  const v = msg.view;
  const c = msg.controls;
  const pub = v.public.two_handed ?? v.public; // three-handed: the classic game after a retirement
  const tables = Array.isArray(pub.tables) ? pub.tables[v.seat] || [] : [];
  if (tables.length && Array.isArray(pub.concealed)) {
    cardRow($("my-table"), tables, c, "table", "your cards on the table");
    $("my-table").classList.remove("hidden");
    cardRow($("hand"), pub.concealed, c, null, "your hand");
  } else {
    $("my-table").replaceChildren();
    $("my-table").classList.add("hidden");
    cardRow($("hand"), v.hand, c, null, "your hand");
  }
}

function button(text, label, onclick, id = null) {
  const b = el("button", { type: "button", "data-action": text, text: label, onclick });
  if (id) b.id = id;
  return b;
}

function renderActions(msg) {
  const c = msg.controls;
  const box = $("actions");
  box.replaceChildren();
  const act = (text) => () => send({ type: "action", action: text });
  const bids = c.actions.filter((a) => a.kind === "bid");
  const melds = c.actions.filter((a) => a.kind === "meld");
  const rest = c.actions.filter((a) => !["bid", "meld", "play", "discard"].includes(a.kind));
  if (bids.length) {
    const select = el("select", { id: "bid-amount", "aria-label": "bid" });
    for (const a of bids) select.append(el("option", { value: a.text, text: a.label }));
    box.append(select, button("bid", "Bid", () => send({ type: "action", action: select.value }), "bid"));
  }
  if (melds.length) {
    const plain = melds.filter((a) => a.text === "meld");
    const explicit = melds.filter((a) => a.text !== "meld");
    for (const a of plain) box.append(button(a.text, a.label, act(a.text)));
    if (explicit.length) {
      const select = el("select", { id: "meld-choice", "aria-label": "announcement" });
      for (const a of explicit) select.append(el("option", { value: a.text, text: a.label }));
      box.append(select, button("announce", "Announce", () => send({ type: "action", action: select.value }), "announce"));
    }
  }
  for (const a of rest) {
    if (a.kind === "claim") continue; // the knock button below makes the claim
    box.append(button(a.text, a.label, act(a.text)));
  }
  if (c.knock) box.append(button("knock", "Knock (claim the game)", () => send({ type: "knock" }), "knock"));
  if (c.deal && !msg.over) box.append(button("deal", "Deal the next hand", () => send({ type: "deal" }), "deal"));
  if (!c.actions.length && !c.knock && !c.deal && !msg.over) {
    box.append(el("span", { class: "muted", text: `waiting for ${name(msg, msg.view.current_player)}…` }));
  }
}

// -- end of a hand, end of the game ---------------------------------------------------------

function showSheet(msg, result) {
  const v = msg.view;
  const body = $("sheet-table").querySelector("tbody");
  body.replaceChildren();
  v.scores.forEach((total, seat) => {
    body.append(el("tr", { "data-seat": String(seat) },
      el("td", { text: msg.names[seat] }),
      el("td", { "data-col": "meld", text: String(result.meld[seat]) }),
      el("td", { "data-col": "tricks", text: String(result.tricks[seat]) }),
      el("td", { "data-col": "delta", text: (result.delta[seat] > 0 ? "+" : "") + result.delta[seat] }),
      el("td", { "data-col": "total", text: String(total) })));
  });
  let outcome = `outcome: ${result.outcome}`;
  if (result.bidder !== null && result.bidder !== undefined) {
    outcome += ` · ${name(msg, result.bidder)} bid ${result.bid} and ${result.made ? "made it" : "was set"}`;
  }
  $("sheet-title").textContent = `Hand ${v.results.length} is over`;
  $("sheet-outcome").textContent = outcome;
  const buttons = $("sheet-buttons");
  buttons.replaceChildren();
  const close = () => $("sheet").classList.add("hidden");
  if (msg.controls.deal) buttons.append(button("deal", "Deal the next hand", () => { close(); send({ type: "deal" }); }, "sheet-deal"));
  buttons.append(button("close", "Close", close, "sheet-close"));
  $("sheet").classList.remove("hidden");
}

function showOver(msg) {
  const o = msg.over;
  $("over-title").textContent = o.winner === null ? "The game is over: no winner" : `${msg.names[o.winner]} won the game`;
  $("over-detail").textContent = `final scores ${o.scores.join(" / ")}${o.reason ? ` · ended by ${o.reason}` : ""}`;
  $("over").classList.remove("hidden");
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
  renderTrick($("replay-trick"), f.trick, seatName);
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
    $("over").classList.add("hidden");
    $("sheet").classList.add("hidden");
    sessionStorage.removeItem("binocle-game");
    current = null;
    show("setup");
  });
  $("replay-file").addEventListener("change", readReplayFile);
  const step = (d) => () => renderFrame(Math.max(0, Math.min(replayFrames.length - 1, Number($("replay-step").value) + d)));
  $("replay-prev").addEventListener("click", step(-1));
  $("replay-next").addEventListener("click", step(1));
  $("replay-first").addEventListener("click", () => renderFrame(0));
  $("replay-last").addEventListener("click", () => renderFrame(replayFrames.length - 1));
  $("replay-step").addEventListener("input", () => renderFrame(Number($("replay-step").value)));
}

wire();
loadCatalogue().then(connect);
