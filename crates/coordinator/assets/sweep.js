// The sweep page: progress, then per job its live answer (leaders, the
// danger map refining, probes and levers so far) and, once done, the final
// results with their charts; downloads of results.json and a report.md
// written here from it.
"use strict";

(() => {
  const el = PF.el;
  const match = location.pathname.match(/^\/sweeps\/(\d+)\/?$/);
  const id = match ? match[1] : null;
  let stream = null;
  let final = null; // { text, body } of /api/sweeps/ID/results once done
  let fetching = false;
  let maxTotal = 0;
  let lastStatus = null;
  let lastLive = ""; // the live jobs last drawn: an unchanged snapshot redraws nothing

  const pctBand = (p, lo, hi) => `${PF.pct(p)} [${PF.num(100 * lo, 1)}, ${PF.num(100 * hi, 1)}]`;
  const hpText = (hp) => Object.entries(hp).map(([side, f]) => `${side} ${Math.round(f * 100)} %`).join(", ");
  const extraText = (layer) => {
    const parts = [];
    for (const [side, aware] of Object.entries(layer.aware || {})) parts.push(`${side} ${aware ? "aware" : "surprised"}`);
    for (const [side, copies] of Object.entries(layer.copies || {})) if (copies.length) parts.push(`${side} +${copies.join(", +")}`);
    return parts.join("; ");
  };

  // A table; a heading written "#name" is a number column (right-aligned).
  function table(cls, head, rows) {
    return el(
      "table",
      { class: "grid " + cls },
      el("thead", {}, el("tr", {}, ...head.map((h) => (h.startsWith("#") ? el("th", { class: "num" }, h.slice(1)) : el("th", {}, h))))),
      el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => (c instanceof Node ? c : el("td", {}, c)))))),
    );
  }
  const numCell = (text) => el("td", { class: "num" }, text);

  // ------------------------------------------------------------ per kind

  function optimize(result, live) {
    const out = [el("p", { class: "answer" }, `Against ${result.adversary_strategy}: ${PF.int(result.spent_runs)} battles spent, ${result.playbook.length} strategies measured.`)];
    const rows = result.playbook.map((e) => {
      const [lo, hi] = PF.band(e.party.p_survives, e.party.runs);
      return { e, lo, hi };
    });
    if (live) {
      out.push(el("h3", {}, "Leaders so far"));
      out.push(
        el("ol", { class: "leaders" }, ...rows.slice(0, 3).map(({ e, lo, hi }) =>
          el("li", {}, el("strong", {}, e.strategy), ` — P(survive) ${pctBand(e.party.p_survives, lo, hi)} over ${PF.int(e.runs)} battles`))),
      );
      return out;
    }
    const shown = rows.slice(0, 25);
    out.push(el("h3", {}, "Playbook"));
    out.push(Charts.forest(shown.map(({ e, lo, hi }) => ({ label: e.strategy, p: e.party.p_survives, lo, hi, tied: e.tied_with_leader, rank: e.rank })), "P(survive)"));
    if (rows.length > shown.length) out.push(el("p", { class: "hint" }, `The plot shows the first ${shown.length} of ${rows.length}; the table has them all.`));
    out.push(
      table("playbook", ["#rank", "strategy", "stage", "#battles", "#P(survive) [3σ]", "#P(TPK)", "#E[HP lost]", "tied with the leader"],
        rows.map(({ e, lo, hi }) => [
          numCell(e.rank), e.strategy, e.stage, numCell(PF.int(e.runs)), numCell(pctBand(e.party.p_survives, lo, hi)),
          numCell(PF.pct(e.party.p_tpk)), numCell(PF.num(e.party.expected_hp_lost, 1)), e.rank === 1 ? "leader" : e.tied_with_leader ? "yes" : "no",
        ])),
    );
    return out;
  }

  function minmax(result) {
    return [
      el("p", { class: "answer" }, result.converged ? "Converged: the last iteration kept the previous pair." : `${result.iterations.length} iterations, not converged.`),
      table("minmax", ["#iteration", "party strategy", "adversary strategy", "#P(survive)", "#P(TPK)", "#E[HP lost]"],
        result.iterations.map((it) => [numCell(it.iteration), it.party_strategy, it.adversary_strategy, numCell(PF.pct(it.party.p_survives)), numCell(PF.pct(it.party.p_tpk)), numCell(PF.num(it.party.expected_hp_lost, 1))])),
    ];
  }

  function dangerMap(result) {
    const out = [el("p", { class: "answer" }, `${result.criterion} with threshold ${result.threshold}; ${result.party_strategy} against ${result.adversary_strategy}; depth ${result.depth}. Hover a cell for its values.`)];
    result.layers.forEach((layer, i) => {
      const extra = extraText(layer);
      const fig = el("figure", { class: "layer", "data-layer": i });
      fig.append(Charts.heatmap(result, layer));
      fig.append(el("figcaption", {}, `${layer.points.length} point${layer.points.length === 1 ? "" : "s"} measured` + (extra ? ` — ${extra}` : "")));
      out.push(fig);
    });
    return out;
  }

  function frontier(result) {
    const answer = result.fraction === null || result.fraction === undefined
      ? "No frontier over the probed range (yet)."
      : `${result.criterion} crosses ${result.target} at a party HP fraction of ${Math.round(result.fraction * 100)} % (${String(result.crossed).replace(/_/g, " ")}).`;
    return [el("p", { class: "answer" }, answer), Charts.frontier(result)];
  }

  function sensitivity(result) {
    const base = result.baseline === null || result.baseline === undefined ? "not measured yet" : PF.num(result.baseline, 3);
    return [
      el("p", { class: "answer" }, `${result.criterion} against the default adversary: ${base}.` + (result.levers.length ? ` Largest effect: ${result.levers[0].adversary_strategy}.` : "")),
      Charts.sensitivity(result),
    ];
  }

  function grid(cells) {
    if (!cells) return [el("p", { class: "hint" }, "Cells are listed when the sweep is done.")];
    return [
      table("cells", ["#cell", "hit points", "party strategy", "adversary strategy", "#battles", "#party win rate [3σ]", "#all down", "#mean rounds", "#HP lost (mean / p90)"],
        cells.map((c) => [
          numCell(c.index), hpText(c.hp), c.party_strategy, c.adversary_strategy, numCell(PF.int(c.runs)),
          numCell(pctBand(c.party_win_rate, c.party_win_band[0], c.party_win_band[1])), numCell(PF.pct(c.party_all_down_rate)),
          numCell(PF.num(c.mean_rounds, 2)), numCell(`${PF.num(c.party_hp_lost.mean, 1)} / ${c.party_hp_lost.p90}`),
        ])),
    ];
  }

  function job(j, index, live) {
    const section = el("section", { class: "job", "data-kind": j.kind, "data-index": index });
    section.append(el("h2", {}, `Job ${index + 1}: ${j.kind.replace(/_/g, " ")}` + (live ? " (live)" : "")));
    let body;
    switch (j.kind) {
      case "optimize": body = optimize(j.result, live); break;
      case "minmax": body = minmax(j.result); break;
      case "danger_map": body = dangerMap(j.result); break;
      case "frontier": body = frontier(j.result); break;
      case "sensitivity": body = sensitivity(j.result); break;
      case "grid": body = grid(j.cells); break;
      default: body = [el("p", {}, "Unknown job kind.")];
    }
    section.append(...body);
    return section;
  }

  function renderJobs(jobs, live) {
    document.getElementById("jobs").replaceChildren(...jobs.map((j, i) => job(j, i, live)));
  }

  // ------------------------------------------------------------ report.md

  function markdown(doc) {
    const r = doc.results;
    const lines = [`# ${r.name}`, "", `Sweep ${doc.id}, seed ${r.seed}, party \`${r.party}\`, rules ${r.rules_version}, scenario \`${r.scenario.slice(0, 16)}\`.`, ""];
    const mdTable = (head, rows) => {
      lines.push("| " + head.join(" | ") + " |", "|" + head.map(() => " --- ").join("|") + "|");
      for (const row of rows) lines.push("| " + row.map((c) => String(c).replace(/\|/g, "\\|")).join(" | ") + " |");
      lines.push("");
    };
    r.jobs.forEach((j, i) => {
      lines.push(`## Job ${i + 1}: ${j.kind}`, "");
      const res = j.result;
      if (j.kind === "optimize") {
        lines.push(`Against \`${res.adversary_strategy}\`, ${res.spent_runs} battles.`, "");
        mdTable(["rank", "strategy", "battles", "P(survive) [3σ]", "P(TPK)", "E[HP lost]", "tied"],
          res.playbook.map((e) => { const [lo, hi] = PF.band(e.party.p_survives, e.party.runs); return [e.rank, "`" + e.strategy + "`", e.runs, pctBand(e.party.p_survives, lo, hi), PF.pct(e.party.p_tpk), PF.num(e.party.expected_hp_lost, 1), e.tied_with_leader ? "yes" : "no"]; }));
      } else if (j.kind === "minmax") {
        lines.push(res.converged ? "Converged." : "Not converged.", "");
        mdTable(["iteration", "party", "adversary", "P(survive)", "P(TPK)"], res.iterations.map((it) => [it.iteration, "`" + it.party_strategy + "`", "`" + it.adversary_strategy + "`", PF.pct(it.party.p_survives), PF.pct(it.party.p_tpk)]));
      } else if (j.kind === "danger_map") {
        lines.push(`${res.criterion}, threshold ${res.threshold}.`, "");
        res.layers.forEach((layer) => {
          const extra = extraText(layer);
          if (extra) lines.push(`Layer: ${extra}.`, "");
          mdTable(["party HP", "adversary HP", res.criterion, "crossed", "level"], layer.points.map((p) => [PF.pct(p.party_hp, 0), PF.pct(p.adversary_hp, 0), PF.num(p.value, 3), p.crossed ? "yes" : "no", p.level]));
        });
      } else if (j.kind === "frontier") {
        lines.push(res.fraction === null ? "No frontier." : `${res.criterion} crosses ${res.target} at ${PF.pct(res.fraction, 0)} (${res.crossed}).`, "");
        mdTable(["party HP", res.criterion, "crossed"], res.probes.map((p) => [PF.pct(p.party_hp, 0), PF.num(p.value, 3), p.crossed ? "yes" : "no"]));
      } else if (j.kind === "sensitivity") {
        lines.push(`Baseline ${res.baseline === null ? "–" : PF.num(res.baseline, 3)}.`, "");
        mdTable(["rank", "adversary", res.criterion, "change"], res.levers.map((l) => [l.rank, "`" + l.adversary_strategy + "`", PF.num(l.value, 3), PF.num(l.delta, 3)]));
      } else if (j.kind === "grid") {
        mdTable(["cell", "hit points", "battles", "party win rate [3σ]", "mean rounds"], j.cells.map((c) => [c.index, hpText(c.hp), c.runs, pctBand(c.party_win_rate, c.party_win_band[0], c.party_win_band[1]), PF.num(c.mean_rounds, 2)]));
      }
    });
    return lines.join("\n");
  }

  // ------------------------------------------------------------ updates

  function header(doc) {
    document.title = `pf1e: sweep ${doc.id} ${doc.name}`;
    PF.setText("sweep-name", doc.name);
    const status = document.getElementById("sweep-status");
    status.textContent = doc.status;
    status.className = "status " + doc.status;
    const st = doc.stats;
    maxTotal = Math.max(maxTotal, st.runs_total);
    const bar = document.getElementById("sweep-progress");
    bar.max = Math.max(1, maxTotal);
    bar.value = Math.min(st.runs_done, maxTotal);
    PF.setText("sweep-counts",
      `${PF.int(st.runs_done)} / ${PF.int(maxTotal)} battles · ${PF.int(st.cells_done)} / ${PF.int(st.cells_total)} cells · ` +
      `${PF.int(st.shards_computed)} shards computed, ${PF.int(st.shards_from_cache)} from the cache, ${PF.int(st.shards_queued)} queued, ${PF.int(st.shards_leased)} leased`);
    const err = document.getElementById("sweep-error");
    err.hidden = !doc.error;
    err.textContent = doc.error || "";
    document.getElementById("cancel").hidden = doc.status !== "running";
  }

  async function loadFinal() {
    if (final || fetching) return;
    fetching = true;
    try {
      final = await PF.api(`/api/sweeps/${id}/results`, { raw: true });
      renderJobs(final.body.results.jobs.map((j) => ({ kind: j.kind, result: j.result, cells: j.cells })), false);
      document.getElementById("download-json").disabled = false;
      document.getElementById("download-md").disabled = false;
    } catch (e) {
      console.warn("results:", e.message);
    } finally {
      fetching = false;
    }
  }

  function onSweep(ev) {
    const doc = ev.sweep;
    header(doc);
    lastStatus = doc.status;
    if (doc.status === "done") {
      loadFinal();
    } else if (ev.jobs) {
      const key = JSON.stringify(ev.jobs);
      if (key !== lastLive) {
        lastLive = key;
        renderJobs(ev.jobs.map((j) => ({ kind: j.kind, result: j.result, cells: null })), true);
      }
    } else if (doc.status !== "running") {
      document.getElementById("jobs").replaceChildren(el("p", { class: "empty" }, `The sweep is ${doc.status}: it has no results.`));
    }
  }

  function missing(message) {
    const m = document.getElementById("missing");
    m.hidden = false;
    m.textContent = message;
  }

  function start() {
    if (stream) stream.stop();
    stream = PF.events(`?sweep=${id}`, {
      sweep: onSweep,
      error: (e) => missing(e.status === 404 ? `No sweep ${id} on this coordinator.` : e.message),
    });
  }

  document.getElementById("download-json").addEventListener("click", () => {
    if (final) PF.download(`sweep-${id}-results.json`, final.text + "\n", "application/json");
  });
  document.getElementById("download-md").addEventListener("click", () => {
    if (final) PF.download(`sweep-${id}-report.md`, markdown(final.body), "text/markdown");
  });
  document.getElementById("cancel").addEventListener("click", async (e) => {
    if (lastStatus !== "running" || !confirm(`Cancel sweep ${id}?`)) return;
    e.target.disabled = true;
    try {
      await PF.api(`/api/sweeps/${id}/cancel`, { method: "POST" });
    } catch (err) {
      alert(`Cannot cancel sweep ${id}: ${err.message}`);
    } finally {
      e.target.disabled = false;
    }
  });

  if (!id) {
    missing("This page shows /sweeps/ID.");
    return;
  }
  PF.setText("sweep-id", id);
  PF.onToken(start);
  PF.ready().then((ok) => ok && start());
})();
