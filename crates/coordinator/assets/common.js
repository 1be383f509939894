// What both pages share: the token, API calls, the event stream, DOM and
// number helpers. Everything is built with DOM calls and textContent, never
// from HTML strings: sweep and strategy names are user data.
"use strict";

const PF = (() => {
  const TOKEN_KEY = "pf1e-token";
  const tokenListeners = [];

  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  }

  // The custom header tells the coordinator this call comes from its own
  // page: a foreign page cannot send it without a preflight it never gets.
  function headers() {
    const t = token();
    const h = { "X-PF1E-Request": "1" };
    if (t) h.Authorization = "Bearer " + t;
    return h;
  }

  // Shows the token form; `message` says why (missing or wrong token).
  function askToken(message) {
    const form = document.getElementById("token-form");
    if (!form) return;
    form.hidden = false;
    document.getElementById("token-error").textContent = message || "";
    document.getElementById("token-input").focus();
  }

  function setupTokenForm() {
    const form = document.getElementById("token-form");
    if (!form) return;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const value = document.getElementById("token-input").value.trim();
      if (!value) return;
      sessionStorage.setItem(TOKEN_KEY, value);
      form.hidden = true;
      for (const f of tokenListeners) f();
    });
  }

  // Called when a token has been entered.
  function onToken(f) {
    tokenListeners.push(f);
  }

  class HttpError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  // A JSON API call; a 401 shows the token form and throws. With
  // `raw: true`, returns { text, body }: the document as sent (a JavaScript
  // number cannot hold every 64-bit seed) and as parsed.
  async function api(path, options) {
    const opts = Object.assign({}, options || {});
    const raw = opts.raw;
    delete opts.raw;
    opts.headers = Object.assign({}, opts.headers || {}, headers());
    const r = await fetch(path, opts);
    const text = await r.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch (_) {
      body = null;
    }
    if (r.status === 401) {
      askToken(token() ? "Wrong token." : "");
    }
    if (!r.ok) {
      throw new HttpError(r.status, (body && body.error) || r.statusText);
    }
    return raw ? { text, body } : body;
  }

  // Follows /api/events: `handlers` maps an event name to a function of its
  // JSON data. Reconnects with a growing delay (1 s to 10 s). Returns
  // { stop() }. Read with fetch (not EventSource) so the token travels in a
  // header, never in the URL. Only the unparsed tail of the stream is kept.
  function events(query, handlers) {
    let stopped = false;
    let controller = null;
    let delay = 1000;
    const conn = document.getElementById("conn");
    const state = (text, cls) => {
      if (conn) {
        conn.textContent = text;
        conn.className = "conn " + cls;
      }
    };
    function dispatch(block) {
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (!data.length || !handlers[name]) return;
      handlers[name](JSON.parse(data.join("\n")));
    }
    async function run() {
      while (!stopped) {
        controller = new AbortController();
        try {
          const r = await fetch("/api/events" + query, { headers: headers(), signal: controller.signal });
          if (r.status === 401) {
            state("token required", "down");
            askToken(token() ? "Wrong token." : "");
            return;
          }
          if (!r.ok) {
            let body = null;
            try {
              body = await r.json();
            } catch (_) {
              body = null;
            }
            state((body && body.error) || "error " + r.status, "down");
            if (handlers.error) handlers.error(new HttpError(r.status, (body && body.error) || r.statusText));
            return;
          }
          state("live", "up");
          delay = 1000;
          const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += value.replace(/\r\n?/g, "\n");
            let end;
            while ((end = buf.indexOf("\n\n")) >= 0) {
              const block = buf.slice(0, end);
              buf = buf.slice(end + 2);
              dispatch(block);
            }
          }
        } catch (e) {
          if (stopped) return;
          if (e.name !== "AbortError" && e.name !== "TypeError") {
            console.warn("event stream:", e.message);
          }
        }
        if (stopped) return;
        state("reconnecting", "down");
        await new Promise((res) => setTimeout(res, delay));
        delay = Math.min(delay * 2, 10000);
      }
    }
    run();
    return {
      stop() {
        stopped = true;
        if (controller) controller.abort();
      },
    };
  }

  // Whether the page may call the API: false (and the token form shown)
  // when the coordinator requires a token and none was entered yet, so that
  // no call is made only to be refused.
  async function ready() {
    try {
      const r = await fetch("/api/auth");
      const a = await r.json();
      if (a.token_required && !token()) {
        askToken("");
        return false;
      }
    } catch (e) {
      console.warn("auth:", e.message);
    }
    return true;
  }

  // Saves `text` as a file named `name`.
  function download(name, text, type) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // el("td", {class: "x"}, "text", child…)
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) {
      if (c === undefined || c === null) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  function setText(id, text) {
    const e = document.getElementById(id);
    if (e && e.textContent !== text) e.textContent = text;
  }

  const intFmt = new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
  function int(n) {
    return intFmt.format(n);
  }
  function pct(p, digits) {
    return (100 * p).toFixed(digits === undefined ? 1 : digits) + " %";
  }
  function num(x, digits) {
    return Number(x).toFixed(digits === undefined ? 2 : digits);
  }
  function rate(perSecond, unit) {
    if (!isFinite(perSecond) || perSecond <= 0) return "–";
    const v = perSecond >= 100 ? int(perSecond) : perSecond.toFixed(1);
    return v + " " + unit + "/s";
  }
  function duration(ms) {
    if (!isFinite(ms) || ms < 0) return "–";
    let s = Math.round(ms / 1000);
    if (s < 60) return s + " s";
    const d = Math.floor(s / 86400);
    s -= d * 86400;
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    if (d) return d + " d " + h + " h";
    if (h) return h + " h " + m + " min";
    return m + " min " + s + " s";
  }

  // Rates from successive samples of a counter, over the last `windowMs`.
  // Keeps at most `max` samples per key; keys not seen in a snapshot are
  // dropped by `retain`, so nothing grows while a page stays open.
  class Rates {
    constructor(windowMs, max) {
      this.windowMs = windowMs;
      this.max = max;
      this.samples = new Map();
    }
    add(key, value, now) {
      let s = this.samples.get(key);
      if (!s) this.samples.set(key, (s = []));
      s.push([now, value]);
      while (s.length > this.max || (s.length > 2 && now - s[0][0] > this.windowMs)) s.shift();
    }
    perSecond(key) {
      const s = this.samples.get(key);
      if (!s || s.length < 2) return NaN;
      const [t0, v0] = s[0];
      const [t1, v1] = s[s.length - 1];
      return t1 > t0 ? ((v1 - v0) * 1000) / (t1 - t0) : NaN;
    }
    retain(keys) {
      for (const k of [...this.samples.keys()]) if (!keys.has(k)) this.samples.delete(k);
    }
  }

  // A criterion in the words every report uses (the CLI's render/words.rs).
  const CRITERIA = { p_survives: "P(no PC dies)", p_tpk: "P(everyone down)", p_any_death: "P(a PC dies)", expected_hp_lost: "HP lost", p_win: "P(win)" };
  const criterion = (name) => CRITERIA[name] || name;

  document.addEventListener("DOMContentLoaded", setupTokenForm);

  return { api, ready, events, download, el, setText, int, pct, num, rate, duration, criterion, Rates, onToken, HttpError };
})();
