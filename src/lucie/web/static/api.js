// Talking to the server: its JSON API, one request after the other in the
// order the player made them.  The server checks every command.

import { page } from "./model.js";
import { _, format } from "./i18n.js";

let queue = Promise.resolve();

export async function call(method, path, body, raw) {
  const opts = { method, headers: {} };
  // the server takes a POST only as JSON from this page
  if (body === undefined && method === "POST") body = {};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = raw ? body : JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, opts);
  } catch (err) {
    const e = new Error(_("the server does not answer (is lucie web still running?)"));
    e.status = 0;
    throw e;
  }
  let data;
  try { data = await r.json(); } catch (err) { data = { error: format(_("the server answered {status}"), { status: r.status }) }; }
  if (!r.ok) {
    const e = new Error(data.error || format(_("error {status}"), { status: r.status }));
    e.status = r.status;
    e.data = data;
    throw e;
  }
  return data;
}

// Requests run one after the other, in the order the player made them.
export function enqueue(fn) {
  const p = queue.then(fn, fn);
  queue = p.catch(() => {});
  return p;
}

export function gamePath(tail) { return `/api/games/${encodeURIComponent(page.state.id)}${tail}`; }

// A command's body carries the version of the game this page shows: the
// server refuses it if the game has moved on (another tab played).
export function versioned(body) { return { ...(body || {}), version: page.state.version }; }


// What a command did, in one line (an autoplay cascade is one count).
export function said(data) { return data.summary || (data.messages || []).join("; "); }
