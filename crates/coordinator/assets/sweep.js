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

  // The playbook by group: strategies that played the same battles as
  // another (`same_as`) are listed with it and share its figures, as in the
  // CLI's report; intervals are the job's own (Wilson, p_survives_ci).
  function playbookGroups(result) {
    const pb = result.playbook;
    const known = new Set(pb.map((e) => e.strategy));
    const leads = pb.filter((e) => !e.same_as || !known.has(e.same_as));
    return leads.map((e) => {
      const names = [e.strategy, ...pb.filter((f) => f.same_as === e.strategy).map((f) => f.strategy)];
      const [lo, hi] = e.party.p_survives_ci || PF.band(e.party.p_survives, e.party.runs);
      return { e, names, lo, hi };
    });
  }

  function optimize(result, live) {
    const rows = playbookGroups(result);
    const out = [el("p", { class: "answer" }, `Against ${named(result.adversary_strategy)}: ${PF.int(result.spent_runs)} battles spent, ${result.playbook.length} strategies measured, ${rows.length} distinct results.`)];
    if (live) {
      out.push(el("h3", {}, "Leaders so far"));
      out.push(
        el("ol", { class: "leaders" }, ...rows.slice(0, 3).map(({ e, lo, hi }) =>
          el("li", {}, el("strong", {}, named(e.strategy)), ` — P(no PC dies) ${pctBand(e.party.p_survives, lo, hi)}, P(win) ${PF.pct(e.party.win_rate)} over ${PF.int(e.runs)} battles`))),
      );
      return out;
    }
    const shown = rows.slice(0, 25);
    out.push(el("h3", {}, "Playbook"));
    const label = (names) => names[0] + (names.length > 1 ? ` (+${names.length - 1} same battles)` : "");
    out.push(Charts.forest(shown.map(({ e, names, lo, hi }) => ({ label: label(names), p: e.party.p_survives, lo, hi, tied: e.tied_with_leader, rank: e.rank })), "P(no PC dies)"));
    if (rows.length > shown.length) out.push(el("p", { class: "hint" }, `The plot shows the first ${shown.length} of ${rows.length}; the table has them all.`));
    out.push(
      table("playbook", ["#rank", "strategy", "in words", "stage", "#battles", "#P(no PC dies) [3σ]", "#P(win)", "#P(everyone down)", "#HP lost", "tied with the leader"],
        rows.map(({ e, names, lo, hi }) => [
          numCell(e.rank), names.join("; "), strategyWords(e.strategy), e.stage, numCell(PF.int(e.runs)), numCell(pctBand(e.party.p_survives, lo, hi)),
          numCell(PF.pct(e.party.win_rate)), numCell(PF.pct(e.party.p_tpk)), numCell(PF.num(e.party.expected_hp_lost, 1)), e.rank === 1 ? "leader" : e.tied_with_leader ? "yes" : "no",
        ])),
    );
    out.push(el("p", { class: "hint" }, "Names listed together played the same battles (inert levers under the same dice)."));
    return out;
  }

  function minmax(result) {
    return [
      el("p", { class: "answer" }, result.converged ? "Converged: the last iteration kept the previous pair." : `${result.iterations.length} iterations, not converged.`),
      table("minmax", ["#iteration", "party strategy", "adversary strategy", "#P(no PC dies)", "#P(win)", "#P(everyone down)", "#HP lost"],
        result.iterations.map((it) => [numCell(it.iteration), named(it.party_strategy), named(it.adversary_strategy), numCell(PF.pct(it.party.p_survives)), numCell(PF.pct(it.party.win_rate)), numCell(PF.pct(it.party.p_tpk)), numCell(PF.num(it.party.expected_hp_lost, 1))])),
    ];
  }

  function dangerMap(result) {
    const out = [el("p", { class: "answer" }, `${thresholdText(result.criterion, result.threshold)} marks a point; the party plays ${named(result.party_strategy)}, the other sides ${named(result.adversary_strategy)}; depth ${result.depth}. Hover a cell for its values.`)];
    result.layers.forEach((layer, i) => {
      const extra = extraText(layer);
      const fig = el("figure", { class: "layer", "data-layer": i });
      fig.append(Charts.heatmap(result, layer));
      fig.append(el("figcaption", {}, `${layer.points.length} point${layer.points.length === 1 ? "" : "s"} measured` + (extra ? ` — ${extra}` : "")));
      out.push(fig);
    });
    return out;
  }

  // The criterion against its threshold, on the side it is crossed (the CLI's threshold_words).
  function thresholdText(criterion, threshold) {
    const value = criterion === "expected_hp_lost" ? PF.num(threshold, 1) : PF.pct(threshold);
    return `${PF.criterion(criterion)} ${criterion === "p_survives" ? "≤" : "≥"} ${value}`;
  }
  // A frontier's answer in words (the CLI's render/jobs.rs frontier).
  function frontierText(result) {
    const t = thresholdText(result.criterion, result.target);
    if (result.fraction === null || result.fraction === undefined) return `No frontier: ${t} nowhere over the probed range (yet).`;
    const f = PF.pct(result.fraction, 0);
    switch (result.crossed) {
      case "at_or_below": return `Frontier: ${t} when the party starts at ${f} of its HP or less.`;
      case "at_or_above": return `Frontier: ${t} when the party starts at ${f} of its HP or more.`;
      case "everywhere": return `Frontier: ${t} at every party HP measured.`;
      default: return `Frontier: ${t} when the party starts at ${f} of its HP.`;
    }
  }
  function frontier(result) {
    return [
      el("p", { class: "answer" }, frontierText(result)),
      el("p", {}, `The party plays ${named(result.party_strategy)}; the other sides play ${named(result.adversary_strategy)}.`),
      Charts.frontier(result),
    ];
  }

  function sensitivity(result) {
    const base = result.baseline === null || result.baseline === undefined ? "not measured yet" : PF.num(result.baseline, 3);
    return [
      el("p", { class: "answer" }, `${PF.criterion(result.criterion)} for the party playing ${named(result.party_strategy)} against the default adversary: ${base}.` + (result.levers.length ? ` Largest effect: ${named(result.levers[0].adversary_strategy)}.` : "")),
      Charts.sensitivity(result),
    ];
  }

  // Who carries the fight: the CLI's render/contribution.rs, in English.
  // A change is told apart from chance when its own interval excludes 0
  // (the engine's Without::win_told_apart / death_told_apart).
  const apart = ([lo, hi]) => lo > 0 || hi < 0;
  const changeText = (p, change, significant) =>
    `${PF.pct(p)} (${change < 0 ? "−" : "+"}${PF.num(Math.abs(change) * 100, 1)})${significant ? "*" : ""}`;
  function carry(result) {
    const measured = result.combatants.filter((c) => c.side === result.party && c.without);
    const told = measured.filter((c) => (apart(c.without.win_interval) && c.without.win_change < 0) || (apart(c.without.death_interval) && c.without.death_change > 0));
    told.sort((a, b) => a.without.win_change - b.without.win_change || b.without.death_change - a.without.death_change || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (told.length) {
      const c = told[0], w = c.without;
      return `Who carries the fight: ${c.id} (without it the party wins ${PF.pct(w.p_win)} instead of ${PF.pct(w.p_win - w.win_change)}; a PC dies in ${PF.pct(w.p_pc_dies)} instead of ${PF.pct(w.p_pc_dies - w.death_change)}).`;
    }
    if (measured.length) {
      const most = Math.max(...measured.map((c) => Math.abs(c.without.win_change)));
      return `No one member carries the fight: without any one of them the party's win rate moves by at most ${PF.num(most * 100, 1)} points, not told apart from chance.`;
    }
    return null;
  }
  const contributionHead = ["combatant", "side", "#damage/round", "#healing/battle", "#conditions/battle", "#party wins without", "#a PC dies without"];
  const contributionRow = (c) => [c.id, c.side, PF.num(c.damage_per_round, 1), PF.num(c.healing, 1), PF.num(c.conditions, 2),
    c.without ? changeText(c.without.p_win, c.without.win_change, apart(c.without.win_interval)) : "—",
    c.without ? changeText(c.without.p_pc_dies, c.without.death_change, apart(c.without.death_interval)) : "—"];
  const contributionNote = (result) => `Change against the full encounter in points; * told apart from no change (paired, ${PF.pct(result.confidence)} confidence, Bonferroni over the removals); — the last of its side: no battle without it.`;

  function contribution(result) {
    return [
      el("p", { class: "answer" }, carry(result) || "Who carries the fight: no battle without a party member to compare (every party member is alone on its side)."),
      el("p", {}, `The party plays ${named(result.party_strategy)}; the other sides play ${named(result.adversary_strategy)}.`),
      table("contribution", contributionHead, result.combatants.map((c) => contributionRow(c).map((v, i) => (i >= 2 ? numCell(v) : v)))),
      el("p", { class: "hint" }, contributionNote(result)),
    ];
  }

  // The encounter designer: the CLI's render/design.rs, in English.
  const band = (v, lo, hi) => `${PF.pct(v)} [${PF.num(lo * 100, 1)}, ${PF.num(hi * 100, 1)}]`;
  const groupText = (c) => c.members.map((m) => (m.count > 1 ? `${m.count} ${m.id}` : m.id)).join(", ") +
    (c.hp_fraction < 1 ? ` (at ${Math.round(c.hp_fraction * 100)}% HP)` : "");
  const gapText = (c) => !c.book ? `no CR by the book, the simulation says ${c.simulated}`
    : c.book === c.simulated ? `the book and the simulation both say ${c.book}` : `the book says ${c.book}, the simulation says ${c.simulated}`;
  function design(result) {
    const proposals = result.candidates.filter((c) => c.rank > 0);
    const target = result.target.map((b) => `${b.metric} in [${PF.pct(b.low)}, ${PF.pct(b.high)}]`).join(", ");
    const best = result.candidates[0];
    const answer = !best ? "No candidate was measured."
      : `${proposals.length} encounter${proposals.length === 1 ? "" : "s"} hit the target (${target}) for APL ${result.apl}; ${proposals.length ? "the best" : "the nearest"}: ${groupText(best)} — CR ${best.cr ?? "-"}, ${best.xp} XP; ${gapText(best)}.`;
    return [
      el("p", { class: "answer" }, answer),
      table("design", ["#rank", "monsters", "CR (XP)", "book", "simulation", "#P(a PC dies)", "#P(everyone down)", "#HP lost", "#battles", "status"],
        result.candidates.map((c) => [
          numCell(c.rank || "-"), groupText(c), `${c.cr ?? "-"} (${c.xp})`, c.book || "-", c.simulated,
          numCell(band(c.party.p_any_death, c.party.p_any_death_ci[0], c.party.p_any_death_ci[1])),
          numCell(band(c.party.p_tpk, c.party.p_tpk_ci[0], c.party.p_tpk_ci[1])),
          numCell(band(c.hp_lost_share, c.hp_lost_share_interval[0], c.hp_lost_share_interval[1])),
          numCell(PF.int(c.party.runs)),
          c.confirmed ? "confirmed" : c.inside ? "inside" : c.dropped ? "dropped" : "outside",
        ])),
      el("p", { class: "hint" }, proposals.map((c) => `#${c.rank}: ${c.files.join(" ")}`).join(" · ")),
    ];
  }

  function grid(cells) {
    if (!cells) return [el("p", { class: "hint" }, "Cells are listed when the sweep is done.")];
    return [
      table("cells", ["#cell", "hit points", "party strategy", "adversary strategy", "#battles", "#party win rate [3σ]", "#all down", "#mean rounds", "#HP lost (mean / p90)"],
        cells.map((c) => [
          numCell(c.index), hpText(c.hp), named(c.party_strategy), named(c.adversary_strategy), numCell(PF.int(c.runs)),
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
      case "contribution": body = contribution(j.result); break;
      case "design": body = design(j.result); break;
      case "grid": body = grid(j.cells); break;
      default: body = [el("p", {}, "Unknown job kind.")];
    }
    section.append(...body);
    return section;
  }

  // ------------------------------------------------------------ difficulty

  // The encounter's difficulty by the book and, for the cell that plays it
  // as written (both default plans, full hit points; danger maps aside),
  // by simulation: the same two lines as the CLI's report.
  // The resources the party spent per battle, where the engine counted some (render/difficulty.rs).
  function resourcesText(cell, party) {
    const members = cell.combatants.filter((m) => m.side === party);
    const slots = members.reduce((s, m) => s + (m.slots_spent || 0), 0) / cell.runs;
    const uses = members.reduce((s, m) => s + (m.uses_spent || 0), 0) / cell.runs;
    return slots > 0 || uses > 0
      ? `; resources spent per battle: ${PF.num(slots, 1)} spell slots, ${PF.num(uses, 1)} class-ability uses (channels, hexes, grit, arcane pool, performance rounds, smites)`
      : "";
  }

  function difficultyLines(r) {
    const d = r.difficulty;
    if (!d) return [];
    const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
    let book = d.cr === undefined || d.cr === null
      ? `Difficulty by the book: none — the foes total ${d.xp} XP, below CR 1/8, against APL ${d.apl}`
      : `Difficulty by the book: ${d.label} — encounter CR ${d.cr} (${d.xp} XP) against APL ${d.apl} (CR − APL = ${signed(d.cr_minus_apl)})`;
    book += d.pcs_only ? `; APL: the ${d.party_size} PCs of ${d.party}` : `; APL: the levels of the ${d.party_size} members of ${d.party} (no PC)`;
    const unrated = d.foes.filter((f) => f.cr === undefined || f.cr === null).map((f) => f.id);
    if (unrated.length) book += `; foes without a CR, not counted: ${unrated.join(", ")}`;
    const lines = [book];
    const cell = r.jobs
      .filter((j) => j.kind !== "danger_map")
      .flatMap((j) => j.cells)
      .find((c) => c.party_strategy === "default" && c.adversary_strategy === "default" && c.runs > 0 && Object.values(c.hp).every((f) => f === 1));
    if (cell) {
      const start = cell.combatants.filter((m) => m.side === r.party).reduce((s, m) => s + Math.max(0, m.start_hp), 0);
      const share = start ? cell.party_hp_lost.mean / start : 0;
      lines.push(`Simulated for ${r.party} (both sides' default plans, full hit points, ${cell.runs} battles): win ${PF.pct(cell.party_win_rate)}, ` +
        `a PC dies ${PF.pct(cell.party_death_rate || 0)}, everyone down ${PF.pct(cell.party_all_down_rate)}, HP lost ${PF.num(cell.party_hp_lost.mean, 1)} (${PF.pct(share)} of the party's)` +
        resourcesText(cell, r.party));
    }
    return lines;
  }

  // A canonical strategy spec in words (the CLI's render/strategy.rs), the spec beside it.
  const LEVER_WORDS = {
    "target=nearest": "attack the nearest", "target=weakest_ac": "focus the weakest armour",
    "target=lowest_hp": "focus the most wounded", "target=healer": "go for the spellcasters",
    "spell_policy=none": "cast no spells", "use_charges=false": "never charge", "use_class_abilities=false": "no class abilities",
    "power_attack=always": "Power Attack every melee turn", "power_attack=never": "never Power Attack",
    "maneuver=trip": "trip when it is as likely as a hit", "maneuver=disarm": "disarm when it is as likely as a hit",
    "maneuver=auto": "trip or disarm when as likely as a hit", "open_with_buffs=true": "open with buffs",
    "focus_casters=true": "enemy casters first", "save_heals=true": "keep slots for healing",
  };
  function strategyWords(spec) {
    if (!spec || spec === "default") return "the default play";
    return spec.split(", ").map((part) => {
      const full = part.includes("=") ? part : `target=${part}`;
      if (LEVER_WORDS[full]) return LEVER_WORDS[full];
      const [k, v] = full.split("=");
      if (k === "retreat" && !Number.isNaN(Number(v))) return `fall back below ${Math.round(Number(v) * 100)}% of hit points`;
      if (k === "area_min") return `area spells on ${v} enemies or more`;
      return part;
    }).join("; ");
  }
  const named = (spec) => `${strategyWords(spec)} (${spec})`;
  const mdNamed = (spec) => `${strategyWords(spec)} (\`${spec}\`)`;
  function headcount(ids) {
    const groups = new Map();
    for (const id of ids) {
      const m = id.match(/^(.*)-(\d+)$/);
      const base = m ? m[1] : id;
      groups.set(base, (groups.get(base) || 0) + 1);
    }
    return [...groups].map(([b, n]) => (n === 1 ? b : `${n} ${b}`)).join(", ");
  }

  // The verdict: the CLI's render/verdict.rs, in English.
  function verdict(r) {
    const parts = [];
    const d = r.difficulty;
    if (d) {
      const map = r.map || r.scenario.slice(0, 12);
      const who = `${map}: ${d.party} (${headcount(d.members || [])}) against ${headcount(d.foes.map((f) => f.id))}`;
      parts.push(d.cr === undefined || d.cr === null ? `${who}; no CR by the book (APL ${d.apl}).` : `${who}; by the book ${d.label} (CR ${d.cr} against APL ${d.apl}).`);
    }
    const base = r.jobs.filter((j) => j.kind !== "danger_map").flatMap((j) => j.cells)
      .find((c) => c.party_strategy === "default" && c.adversary_strategy === "default" && c.runs > 0 && Object.values(c.hp).every((f) => f === 1));
    if (base) parts.push(`With both sides' default plans the party wins ${PF.pct(base.party_win_rate)} of ${base.runs} battles; a PC dies in ${PF.pct(base.party_death_rate || 0)}, everyone is down in ${PF.pct(base.party_all_down_rate)}.`);
    const opt = r.jobs.find((j) => j.kind === "optimize");
    if (opt && opt.result.playbook.length) {
      const pb = opt.result.playbook;
      const lead = pb[0];
      const against = named(opt.result.adversary_strategy);
      if (opt.result.none_survives || pb.every((e) => e.party.runs > 0 && e.party.p_survives === 0)) {
        const least = pb.find((e) => e.strategy === opt.result.least_bad) || lead;
        parts.push(`Against ${against} no plan survives: a PC dies in every battle; the least bad plan is ${named(least.strategy)} (P(win) ${PF.pct(least.party.win_rate)}).`);
      } else {
        const def = pb.find((e) => e.strategy === "default");
        parts.push(def && def !== lead
          ? `Best plan against ${against}: ${named(lead.strategy)}, P(no PC dies) ${PF.pct(lead.party.p_survives)} (the default play: ${PF.pct(def.party.p_survives)}).`
          : `Best plan against ${against}: ${named(lead.strategy)}, P(no PC dies) ${PF.pct(lead.party.p_survives)}.`);
      }
    }
    const contrib = r.jobs.find((j) => j.kind === "contribution");
    const carried = contrib ? carry(contrib.result) : null;
    if (carried) parts.push(carried);
    let worst = null;
    for (const j of r.jobs.filter((j) => j.kind === "danger_map")) {
      const res = j.result;
      const danger = (v) => (res.criterion === "p_survives" ? 1 - v : v);
      for (const layer of res.layers) for (const p of layer.points) {
        if (!worst || danger(p.value) > worst.danger) worst = { danger: danger(p.value), p, layer, res };
      }
    }
    if (worst) {
      const words = { p_survives: "P(no PC dies)", p_tpk: "P(everyone down)", p_any_death: "P(a PC dies)", expected_hp_lost: "HP lost" }[worst.res.criterion] || worst.res.criterion;
      const value = worst.res.criterion === "expected_hp_lost" ? PF.num(worst.p.value, 1) : PF.pct(worst.p.value);
      const extra = extraText(worst.layer);
      parts.push(`Riskiest condition found: the party at ${Math.round(worst.p.party_hp * 100)}% of its HP, the adversary at ${Math.round(worst.p.adversary_hp * 100)}%${extra ? ", " + extra : ""}: ${words} ${value}.`);
    }
    return parts.join(" ");
  }

  function renderDifficulty(results) {
    const box = document.getElementById("difficulty");
    const v = verdict(results);
    const lines = difficultyLines(results);
    box.hidden = lines.length === 0 && !v;
    box.replaceChildren(...(v ? [el("p", { class: "verdict" }, el("strong", {}, "Verdict: "), v)] : []), ...lines.map((l) => el("p", { class: "answer" }, l)));
  }

  function renderJobs(jobs, live) {
    document.getElementById("jobs").replaceChildren(...jobs.map((j, i) => job(j, i, live)));
  }

  // ------------------------------------------------------------ report.md

  function markdown(doc) {
    const r = doc.results;
    const lines = [`# ${r.name}`, "", `Sweep ${doc.id}, seed ${r.seed}, party \`${r.party}\`, rules ${r.rules_version}, scenario \`${r.scenario.slice(0, 16)}\`.`, ""];
    const v = verdict(r);
    if (v) lines.push(`**Verdict.** ${v}`, "");
    for (const l of difficultyLines(r)) lines.push(l, "");
    const mdTable = (head, rows) => {
      lines.push("| " + head.join(" | ") + " |", "|" + head.map(() => " --- ").join("|") + "|");
      for (const row of rows) lines.push("| " + row.map((c) => String(c).replace(/\|/g, "\\|")).join(" | ") + " |");
      lines.push("");
    };
    r.jobs.forEach((j, i) => {
      lines.push(`## Job ${i + 1}: ${j.kind}`, "");
      const res = j.result;
      if (j.kind === "optimize") {
        lines.push(`Against ${mdNamed(res.adversary_strategy)}, ${res.spent_runs} battles.`, "");
        mdTable(["rank", "strategy", "in words", "battles", "P(no PC dies) [3σ]", "P(win)", "P(everyone down)", "HP lost", "tied"],
          playbookGroups(res).map(({ e, names, lo, hi }) => [e.rank, names.map((n) => "`" + n + "`").join("; "), strategyWords(e.strategy), e.runs, pctBand(e.party.p_survives, lo, hi), PF.pct(e.party.win_rate), PF.pct(e.party.p_tpk), PF.num(e.party.expected_hp_lost, 1), e.tied_with_leader ? "yes" : "no"]));
      } else if (j.kind === "minmax") {
        lines.push(res.converged ? "Converged." : "Not converged.", "");
        mdTable(["iteration", "party", "adversary", "P(no PC dies)", "P(win)", "P(everyone down)"], res.iterations.map((it) => [it.iteration, mdNamed(it.party_strategy), mdNamed(it.adversary_strategy), PF.pct(it.party.p_survives), PF.pct(it.party.win_rate), PF.pct(it.party.p_tpk)]));
      } else if (j.kind === "danger_map") {
        lines.push(`${thresholdText(res.criterion, res.threshold)} marks a point; the party plays ${mdNamed(res.party_strategy)}, the other sides ${mdNamed(res.adversary_strategy)}.`, "");
        res.layers.forEach((layer) => {
          const extra = extraText(layer);
          if (extra) lines.push(`Layer: ${extra}.`, "");
          mdTable(["party HP", "adversary HP", PF.criterion(res.criterion), "crossed", "level"], layer.points.map((p) => [PF.pct(p.party_hp, 0), PF.pct(p.adversary_hp, 0), PF.num(p.value, 3), p.crossed ? "yes" : "no", p.level]));
        });
      } else if (j.kind === "frontier") {
        lines.push(frontierText(res), "", `The party plays ${mdNamed(res.party_strategy)}; the other sides play ${mdNamed(res.adversary_strategy)}.`, "");
        mdTable(["party HP", PF.criterion(res.criterion), "crossed"], res.probes.map((p) => [PF.pct(p.party_hp, 0), PF.num(p.value, 3), p.crossed ? "yes" : "no"]));
      } else if (j.kind === "sensitivity") {
        lines.push(`${PF.criterion(res.criterion)} for the party playing ${mdNamed(res.party_strategy)} against the default adversary: ${res.baseline === null ? "–" : PF.num(res.baseline, 3)}.`, "");
        mdTable(["rank", "adversary", PF.criterion(res.criterion), "change"], res.levers.map((l) => [l.rank, mdNamed(l.adversary_strategy), PF.num(l.value, 3), PF.num(l.delta, 3)]));
      } else if (j.kind === "contribution") {
        lines.push(carry(res) || "No battle without a party member to compare.", "", `The party plays ${mdNamed(res.party_strategy)}; the other sides play ${mdNamed(res.adversary_strategy)}.`, "");
        mdTable(contributionHead.map((h) => h.replace(/^#/, "")), res.combatants.map(contributionRow));
        lines.push(contributionNote(res), "");
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
      renderDifficulty(final.body.results);
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
