// The sweep page: progress, then per job its live answer (leaders, the
// danger map refining, probes and levers so far) and, once done, the final
// results with their charts, the coordinator's report.md (pf1e-render's,
// the CLI's words: this page writes no report of its own) and downloads.
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
      const [lo, hi] = e.party.p_survives_ci;
      return { e, names, lo, hi };
    });
  }

  // The bars of lever importance: the grid's levers (a functional ANOVA of
  // its cells) and, after a search, the ranged levers (of the Gaussian
  // process's mean), each group with its interactions.
  function importanceGroups(result) {
    const groups = [];
    const i = result.importance;
    if (i) {
      groups.push({
        heading: `the grid (${i.cells} cells)`,
        bars: i.levers.map((l) => ({ label: l.lever + (l.significant ? "*" : ""), share: l.share, noise: l.noise, kind: l.significant ? "significant" : "other" }))
          .concat([{ label: "interactions", share: i.interactions, kind: "interactions" }]),
      });
    }
    const s = result.search && result.search.importance;
    if (s) {
      groups.push({
        heading: `the ranges (Gaussian process over ${s.points} points)`,
        bars: s.levers.map((l) => ({ label: l.lever, share: l.share, noise: l.noise, kind: "ranged" }))
          .concat(s.levers.length > 1 ? [{ label: "interactions", share: s.interactions, kind: "interactions" }] : []),
      });
    }
    return groups;
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
    const constrained = (result.constraints || []).length > 0;
    out.push(el("h3", {}, "Playbook"));
    const label = (names) => names[0] + (names.length > 1 ? ` (+${names.length - 1} same battles)` : "");
    out.push(Charts.forest(shown.map(({ e, names, lo, hi }) => ({ label: label(names), p: e.party.p_survives, lo, hi, tied: e.tied_with_leader, rank: e.rank })), "P(no PC dies)"));
    if (rows.length > shown.length) out.push(el("p", { class: "hint" }, `The plot shows the first ${shown.length} of ${rows.length}; the table has them all.`));
    // P(fled) beside P(everyone down) when some plan ever fled (as the text reports).
    const fled = rows.some(({ e }) => (e.party.p_fled || 0) > 0);
    out.push(
      table("playbook", ["#rank", "strategy", "in words", "stage", "#battles", "#P(no PC dies) [3σ]", "#P(win)", "#P(everyone down)"]
        .concat(fled ? ["#P(fled)"] : [], ["#HP lost", "tied with the leader", "Pareto front"], constrained ? ["constraints"] : []),
        rows.map(({ e, names, lo, hi }) => [
          numCell(e.rank), names.join("; "), strategyWords(e.strategy), e.stage, numCell(PF.int(e.runs)), numCell(pctBand(e.party.p_survives, lo, hi)),
          numCell(PF.pct(e.party.win_rate)), numCell(PF.pct(e.party.p_tpk)),
        ].concat(fled ? [numCell(PF.pct(e.party.p_fled || 0))] : [], [
          numCell(PF.num(e.party.expected_hp_lost, 1)), e.rank === 1 ? "leader" : e.tied_with_leader ? "yes" : "no",
          e.pareto ? "on the front" : "",
        ], constrained ? [e.constraints || ""] : []))),
    );
    out.push(el("p", { class: "hint" }, "Names listed together played the same battles (inert levers under the same dice)."));
    if ((result.pareto_criteria || []).length) {
      out.push(el("p", { class: "hint" }, `Pareto front on ${result.pareto_criteria.map(PF.criterion).join(", ")}: no other plan at least as good on each and significantly better on one.`));
    }
    const imp = importanceGroups(result);
    if (imp.length) {
      out.push(el("h3", {}, "Lever importance"));
      out.push(Charts.importance(imp, result.objective || "p_survives"));
    }
    if (constrained) {
      // `p_tpk <= 0.02` in the reports' words: P(everyone down) ≤ 2.0 %.
      const words = (c) => {
        const [name, op, value] = c.split(/\s+/);
        const v = Number(value);
        return `${PF.criterion(name)} ${op === "<=" ? "≤" : "≥"} ${name === "expected_hp_lost" ? PF.num(v, 1) : PF.pct(v)}`;
      };
      out.push(el("p", { class: "hint" }, (result.none_feasible ? "No plan meets the constraints " : "Plans meeting the constraints rank first: ") + result.constraints.map(words).join(", ")
        + " (met: over the whole interval; likely: at the estimates; unlikely or violated: not)."));
    }
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
    return `${PF.criterion(criterion)} ${criterion === "p_survives" || criterion === "p_win" ? "≤" : "≥"} ${value}`;
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
      el("ul", { class: "proposals" }, ...proposals.map(proposal)),
      el("p", {}, "The book's labels against the simulation, over every candidate measured (P(a PC dies)):"),
      table("calibration", ["book", "#candidates", "#median", "#range", "the simulation says"], calibration(result.candidates)),
    ];
  }
  // The book's labels against the simulation: render/design.rs's calibration_rows.
  const LABELS = ["easy", "average", "challenging", "hard", "epic"];
  function calibration(candidates) {
    return LABELS.flatMap((book) => {
      const p = candidates.filter((c) => c.book === book).map((c) => c.party.p_any_death).sort((a, b) => a - b);
      if (!p.length) return [];
      const n = p.length;
      const median = n % 2 ? p[(n - 1) / 2] : (p[n / 2 - 1] + p[n / 2]) / 2;
      const says = LABELS.map((sim) => [sim, candidates.filter((c) => c.book === book && c.simulated === sim).length])
        .filter(([, k]) => k > 0).map(([sim, k]) => `${sim} ${k}`).join(", ");
      return [[book, numCell(String(n)), numCell(PF.pct(median)), numCell(`${PF.pct(p[0])} – ${PF.pct(p[n - 1])}`), says]];
    });
  }
  const planText = (p) => p.better
    ? `best party plan: ${p.strategy}, P(a PC dies) ${band(p.p_some_pc_dies, p.p_some_pc_dies_interval[0], p.p_some_pc_dies_interval[1])}, ${points(p.change, false)} points against the party's own play [${points(p.change_interval[0], false)}, ${points(p.change_interval[1], false)}]${p.told_apart ? ", told apart" : ""} (${p.measured} plans measured)`
    : `best party plan: its own (${p.strategy}), P(a PC dies) ${band(p.p_some_pc_dies, p.p_some_pc_dies_interval[0], p.p_some_pc_dies_interval[1])}; none of ${p.measured} single-lever plans does better`;
  const worthText = (b) => `battle worth reading: run ${b.run} of ${b.runs} (the worst decile: ${b.hp_lost} HP lost${b.all_down ? ", everyone down" : b.some_death ? ", a PC died" : ""})`;
  // One proposal: its files, its best party plan, its battle worth reading and the command that replays it.
  function proposal(c) {
    const lines = [el("div", {}, `#${c.rank}: ${c.files.join(" ")}`)];
    if (c.plan) lines.push(el("div", { class: "plan" }, planText(c.plan)));
    if (c.worth_reading) {
      lines.push(el("div", { class: "worth" }, worthText(c.worth_reading)));
      if (c.worth_reading.command) lines.push(el("code", { class: "replay" }, c.worth_reading.command));
    }
    return el("li", {}, ...lines);
  }

  // The adventuring day: the CLI's render/day.rs, in English. The answer
  // first, the funnel of the day (how many days reach each fight and how
  // many end there), then a row per fight, per member and per plan.
  const rateBand = (r) => band(r.rate, r.low, r.high);
  function day(result) {
    if (!result) return [el("p", { class: "hint" }, "The day's figures are shown when its days are played.")];
    const s = result;
    const level = Math.abs(s.confidence - 0.9973) < 1e-4 ? "3σ" : PF.pct(s.confidence);
    const breaks = s.breaking_point === null || s.breaking_point === undefined ? null : s.fights[s.breaking_point];
    const answer = [`${s.name}: the party completes the day in ${rateBand(s.completed)} of ${PF.int(s.runs)} days; some PC dies in ${rateBand(s.some_death)}.`];
    answer.push(breaks
      ? ` The day breaks at ${breaks.name}: it ends there in ${PF.pct(breaks.broke_here.rate)} of days, and someone dies there in ${PF.pct(breaks.deaths.count / Math.max(1, s.runs))}.`
      : " No fight ends a day or kills anyone.");
    if (s.fled.count > 0) answer.push(` The party withdrew in ${PF.pct(s.fled.rate)} of days.`);
    const plans = s.plans || [];
    const best = plans[0];
    if (best && best.name !== "as written" && best.significant) {
      answer.push(` Best plan: ${best.name}, completing ${rateBand(best.completed)} (${points(best.completed_change, true)} points against the day as written).`);
    }
    const out = [el("p", { class: "answer" }, answer.join(""))];
    out.push(Charts.funnel(s));
    out.push(table("fights", ["#n", "fight", "#reached", `#won [${level}]`, "#a PC dies", "#ends the day here", "#HP before", "#slots before", "#uses before", "#standing before", "#rounds"],
      s.fights.map((f, i) => [
        numCell(i + 1), f.name, numCell(PF.pct(f.reached / Math.max(1, s.runs))), numCell(rateBand(f.won)), numCell(PF.pct(f.deaths.rate)),
        numCell(PF.pct(f.broke_here.rate)), numCell(PF.pct(f.hp_before)), numCell(PF.num(f.slots_before, 1)), numCell(PF.num(f.uses_before, 1)),
        numCell(PF.num(f.standing_before, 2)), numCell(PF.num(f.rounds, 1)),
      ])));
    out.push(el("p", { class: "hint" }, "Reached and ends-the-day-here are shares of all days; won and a PC dies are shares of the days that reach the fight; before: what the party has as it enters the fight (hit points as a share of its maximum)."));
    out.push(table("members", ["member", `#dead at the end of the day [${level}]`, "#mean HP at the end"],
      s.members.map((m) => [m.name, numCell(rateBand(m.dead)), numCell(PF.num(m.hp_end, 1))])));
    out.push(el("p", {}, `Between fights, per day: ${PF.num(s.healed_between, 1)} hit points restored, ${PF.num(s.slots_spent_between, 1)} spell slots and ${PF.num(s.charges_spent_between, 1)} wand charges spent.`));
    if (plans.length) {
      out.push(el("h3", {}, "Plans"));
      out.push(table("plans", ["plan", `#days completed [${level}]`, "#change", `#some PC dies [${level}]`, "#change"],
        plans.map((p) => [p.name, numCell(rateBand(p.completed)), numCell(p.name === "as written" ? "—" : points(p.completed_change, p.significant)),
          numCell(rateBand(p.some_death)), numCell(p.name === "as written" ? "—" : points(p.death_change, p.significant))])));
      out.push(el("p", { class: "hint" }, `Changes against the day as written, in points, on the same dice run by run; * a change told apart from none (paired, ${level}, Bonferroni over the plans and the two figures).`));
    }
    return out;
  }
  const points = (change, significant) => `${change < 0 ? "−" : "+"}${PF.num(Math.abs(change) * 100, 1)}${significant ? "*" : ""}`;

  function grid(cells) {
    if (!cells) return [el("p", { class: "hint" }, "Cells are listed when the sweep is done.")];
    const fled = cells.some((c) => (c.party_fled_rate || 0) > 0);
    return [
      table("cells", ["#cell", "hit points", "party strategy", "adversary strategy", "#battles", "#party win rate [3σ]", "#all down"]
        .concat(fled ? ["#fled"] : [], ["#mean rounds", "#HP lost (mean / p90)"]),
        cells.map((c) => [
          numCell(c.index), hpText(c.hp), named(c.party_strategy), named(c.adversary_strategy), numCell(PF.int(c.runs)),
          numCell(pctBand(c.party_win_rate, c.party_win_band[0], c.party_win_band[1])), numCell(PF.pct(c.party_all_down_rate)),
        ].concat(fled ? [numCell(PF.pct(c.party_fled_rate))] : [], [
          numCell(PF.num(c.mean_rounds, 2)), numCell(`${PF.num(c.party_hp_lost.mean, 1)} / ${c.party_hp_lost.p90}`),
        ]))),
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
      case "day": body = day(j.result); break;
      default: body = [el("p", {}, "Unknown job kind.")];
    }
    section.append(...body);
    return section;
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
  function renderJobs(jobs, live) {
    document.getElementById("jobs").replaceChildren(...jobs.map((j, i) => job(j, i, live)));
  }

  // ------------------------------------------------------------ report.md

  // The served report in the language chosen (the browser's by default).
  let report = null; // { lang, text } last shown
  const langSelect = document.getElementById("report-lang");
  langSelect.value = (navigator.language || "").toLowerCase().startsWith("fr") ? "fr" : "en";

  async function loadReport() {
    const lang = langSelect.value;
    const { text } = await PF.api(`/api/sweeps/${id}/report.md?lang=${lang}`, { raw: true });
    report = { lang, text };
    document.getElementById("report-text").textContent = text;
    document.getElementById("report").hidden = false;
    document.getElementById("download-md").disabled = false;
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
      await loadReport();
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
    if (report) PF.download(`sweep-${id}-report.${report.lang}.md`, report.text, "text/markdown");
  });
  langSelect.addEventListener("change", () => {
    if (final) loadReport().catch((e) => console.warn("report.md:", e.message));
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
