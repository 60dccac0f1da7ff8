#!/usr/bin/env node
// A binocle engine in JavaScript: a legal random player of every profile.
// It speaks the binocle engine protocol (version 1): one JSON object per line
// on standard input and output.  Run it with: binocle arena --profile classic
//   --bots 'cmd:node examples/engines/random_engine.js,baseline'
"use strict";
const readline = require("readline");

// The engine's own random numbers: seeded by the host's seed when it gives one.
let state = 1;
function seed(n) { state = (Math.abs(Number(n) || 0) % 2147483646) + 1; }
function random(n) { state = (state * 48271) % 2147483647; return state % n; }

function send(msg) { process.stdout.write(JSON.stringify(msg) + "\n"); }

function decide(msg) {
  // msg.view is what this seat may know; msg.legal the legal actions as
  // {id, text}.  Avoid claims and concessions while anything else is legal.
  const calm = msg.legal.filter((a) => !/^(claim|concede)/.test(a.text));
  const choices = calm.length > 0 ? calm : msg.legal;
  return choices[random(choices.length)];
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (line.trim() === "") return;
  const msg = JSON.parse(line);
  switch (msg.type) {
    case "hello": // the handshake: who we are and the options we take (none)
      send({ type: "id", protocol: "binocle-engine", version: 1,
             name: "random.js", author: "binocle examples", options: [] });
      break;
    case "isready":
      send({ type: "readyok" });
      break;
    case "game": // a new game: our seat, the profile, the seed
      seed(msg.seed);
      break;
    case "go": // our turn: answer one legal action, by its text (or its id)
      send({ type: "action", action: decide(msg).text });
      break;
    case "quit":
      input.close();
      break;
    default: // option, update, hand_end, stop, game_over: nothing to do
      break;
  }
});
