// The fleet page: the coordinator's figures, every sweep with its progress,
// rate and ETA, and the workers. One event stream; each event replaces
// what it describes.
"use strict";

(() => {
  const sweepRates = new PF.Rates(15000, 40);
  const workerRates = new PF.Rates(15000, 40);
  // The largest total seen per sweep: planners may add cells as they go, and
  // a progress bar whose total shrank would seem to run backwards.
  const totals = new Map();
  let started = null; // [uptime_ms at fetch, performance.now() at fetch]
  let stream = null;

  async function about() {
    try {
      const a = await PF.api("/api/about");
      PF.setText("version", "pf1e " + a.version + " · rules " + a.rules_version);
      started = [a.uptime_ms, performance.now()];
      tick();
    } catch (e) {
      if (e.status !== 401) PF.setText("version", "version unknown (" + e.message + ")");
    }
  }

  function tick() {
    if (started) PF.setText("uptime", PF.duration(started[0] + performance.now() - started[1]));
  }

  function progressCell(id, stats) {
    const total = Math.max(stats.runs_total, totals.get(id) || 0);
    totals.set(id, total);
    const done = Math.min(stats.runs_done, total);
    const bar = PF.el("progress", { max: Math.max(total, 1), value: done });
    const label = PF.el("span", { class: "progress-label" }, PF.int(done) + " / " + PF.int(total));
    return [PF.el("td", { class: "progress" }, bar, label), total, done];
  }

  async function cancel(id, button) {
    if (!confirm("Cancel sweep " + id + "?")) return;
    button.disabled = true;
    try {
      await PF.api("/api/sweeps/" + id + "/cancel", { method: "POST" });
    } catch (e) {
      button.disabled = false;
      alert("Cannot cancel sweep " + id + ": " + e.message);
    }
  }

  function onStatus(doc) {
    const c = doc.coordinator;
    PF.setText("fig-workers", PF.int(c.workers));
    PF.setText("fig-rate", c.runs_per_second > 0 ? PF.int(c.runs_per_second) : "0");
    PF.setText("fig-queued", PF.int(c.shards_queued));
    PF.setText("fig-leased", PF.int(c.shards_leased));
    PF.setText("fig-done", PF.int(c.shards_done));
    PF.setText("fig-hits", PF.int(c.cache_hits));

    const now = performance.now();
    const body = document.querySelector("#sweeps tbody");
    const rows = [];
    const ids = new Set();
    // Newest first.
    for (const s of [...doc.sweeps].reverse()) {
      ids.add(s.id);
      const st = s.stats;
      sweepRates.add(s.id, st.runs_done, now);
      const [progress, total, done] = progressCell(s.id, st);
      const running = s.status === "running";
      const r = running ? sweepRates.perSecond(s.id) : NaN;
      const eta = running && r > 0 ? ((total - done) / r) * 1000 : NaN;
      const cancelButton = running ? PF.el("button", { type: "button", class: "small" }, "cancel") : null;
      if (cancelButton) cancelButton.addEventListener("click", () => cancel(s.id, cancelButton));
      const status = PF.el("td", { class: "status " + s.status, title: s.error || null }, s.status);
      rows.push(
        PF.el(
          "tr",
          { "data-sweep-id": s.id },
          PF.el("td", {}, PF.el("a", { href: "/sweeps/" + s.id }, String(s.id))),
          PF.el("td", {}, PF.el("a", { href: "/sweeps/" + s.id }, s.name)),
          status,
          progress,
          PF.el("td", { class: "num" }, PF.int(st.cells_done) + " / " + PF.int(st.cells_total)),
          PF.el("td", { class: "num" }, running ? PF.rate(r, "battles") : "–"),
          PF.el("td", { class: "num" }, running ? PF.duration(eta) : "–"),
          PF.el("td", { class: "num", title: "shards served from the cache / planned" },
            PF.int(st.shards_from_cache) + " / " + PF.int(st.shards_total)),
          PF.el("td", {}, cancelButton),
        ),
      );
    }
    sweepRates.retain(ids);
    for (const k of [...totals.keys()]) if (!ids.has(k)) totals.delete(k);
    body.replaceChildren(...rows);
    document.getElementById("no-sweeps").hidden = rows.length > 0;
  }

  function onWorkers(workers) {
    const now = performance.now();
    const body = document.querySelector("#workers tbody");
    const ids = new Set();
    const rows = workers.map((w) => {
      ids.add(w.id);
      workerRates.add(w.id, w.shards_done, now);
      return PF.el(
        "tr",
        { "data-worker-id": w.id },
        PF.el("td", {}, w.name),
        PF.el("td", { class: "mono" }, w.id),
        PF.el("td", { class: "num" }, PF.int(w.threads)),
        PF.el("td", { class: "num" }, PF.int(w.leases)),
        PF.el("td", { class: "num" }, PF.int(w.shards_done)),
        PF.el("td", { class: "num" }, PF.rate(workerRates.perSecond(w.id), "shards")),
        PF.el("td", { class: "num" }, PF.duration(w.last_seen_ms) + " ago"),
      );
    });
    workerRates.retain(ids);
    body.replaceChildren(...rows);
    document.getElementById("no-workers").hidden = rows.length > 0;
  }

  function start() {
    if (stream) stream.stop();
    about();
    stream = PF.events("", { status: onStatus, workers: onWorkers });
  }

  PF.onToken(start);
  PF.ready().then((ok) => ok && start());
  setInterval(tick, 1000);
})();
