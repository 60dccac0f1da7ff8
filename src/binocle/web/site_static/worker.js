// The static site's engine (binocle site): Pyodide in a Web Worker, binocle unpacked from
// binocle-engine.zip, and binocle.web.local.LocalHub answering the page's messages as the
// server would.  The bots move one step at a time, the table's bot_delay apart.
import { loadPyodide } from "./pyodide/pyodide.mjs";

let hub = null;
const waiting = [];
let botsRunning = false;

self.onmessage = (event) => {
  const m = event.data;
  if ("init" in m) start(m.init);
  else if (hub === null) waiting.push(m.data);
  else handle(m.data);
};

async function start(saved) {
  try {
    postMessage({ progress: "loading Python…" });
    const py = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
    postMessage({ progress: "loading binocle…" });
    const response = await fetch(new URL("./binocle-engine.zip", import.meta.url));
    if (!response.ok) throw new Error(`binocle-engine.zip: HTTP ${response.status}`);
    py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/home/pyodide/engine" });
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/engine')");
    const local = py.pyimport("binocle.web.local");
    hub = local.LocalHub(saved ?? null);
  } catch (err) {
    postMessage({ failed: String(err && err.message ? err.message : err) });
    return;
  }
  postMessage({ ready: true });
  for (const raw of waiting.splice(0)) handle(raw);
}

function deliver(answers) {
  const texts = answers.toJs();
  answers.destroy();
  for (const text of texts) postMessage({ data: text });
  const doc = hub.saved();
  if (typeof doc === "string") {
    const summary = hub.summary();
    const kept = summary.toJs({ dict_converter: Object.fromEntries });
    summary.destroy();
    postMessage({ save: { ...kept, doc } });
  }
  return texts.length;
}

function handle(raw) {
  deliver(hub.receive(raw));
  runBots();
}

// As the server's bot loop: a bot moves at once, then the next after the delay, until the
// person is to act; a message from the page meanwhile does not start a second loop.
function runBots() {
  if (botsRunning) return;
  botsRunning = true;
  const tick = () => {
    if (deliver(hub.step()) === 0) { botsRunning = false; return; }
    setTimeout(tick, Math.max(0, hub.delay) * 1000);
  };
  tick();
}
