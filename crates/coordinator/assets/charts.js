// Small hand-written SVG charts: the playbook's forest plot, the danger map
// heatmap, the frontier probes, the sensitivity levers and lever importance. Colours are
// colour-blind safe: viridis for values, Okabe–Ito for categories; every
// chart has axis labels and a legend or a key in its caption.
"use strict";

const Charts = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const OKABE = { blue: "#0072B2", orange: "#E69F00", vermillion: "#D55E00", sky: "#56B4E9", green: "#009E73", grey: "#8a8a8a" };
  // Viridis at t = 0, 1/8, … 1 (matplotlib's table).
  const VIRIDIS = ["#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962", "#addc30", "#fde725"];
  let uid = 0;

  function S(tag, attrs, ...children) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null) continue;
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, String(v));
    }
    for (const c of children) if (c) e.append(c);
    return e;
  }

  function title(text) {
    return S("title", { text });
  }

  function hex(c) {
    return [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
  }

  // Viridis colour of t in [0, 1].
  function viridis(t) {
    const x = Math.min(1, Math.max(0, isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
    const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
    const f = x - i;
    const a = hex(VIRIDIS[i]);
    const b = hex(VIRIDIS[i + 1]);
    const m = a.map((v, k) => Math.round(v + (b[k] - v) * f));
    return "#" + m.map((v) => v.toString(16).padStart(2, "0")).join("");
  }

  // The smallest of 1, 2, 2.5, 5 × 10^k at or above v.
  function niceCeil(v) {
    if (!(v > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v * (1 - 1e-9)) return m * p;
    return 10 * p;
  }

  // Round ticks from 0 to max (max itself a round number from niceCeil).
  function niceTicks(max) {
    const step = niceCeil(max / 5);
    const out = [];
    for (let v = 0; v <= max * (1 + 1e-9); v += step) out.push(v);
    return out;
  }

  // Round ticks within [d0, d1].
  function rangeTicks(d0, d1) {
    const step = niceCeil((d1 - d0) / 5);
    const out = [];
    for (let v = Math.ceil(d0 / step - 1e-9) * step; v <= d1 + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return out;
  }

  // An <svg> drawn at its natural size (shrunk on narrow screens).
  function chart(cls, W, H, caption) {
    const svg = S("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "chart " + cls, role: "img" });
    svg.append(title(caption));
    return svg;
  }

  // A linear map of [d0, d1] onto [r0, r1]; `span` is its output range.
  function scale(d0, d1, r0, r1) {
    const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
    const f = (v) => r0 + (v - d0) * k;
    f.span = [r0, r1];
    return f;
  }

  function fmt(v, digits) {
    return Number(v).toFixed(digits === undefined ? 2 : digits);
  }

  function truncate(s, n) {
    return s.length > n ? s.slice(0, n - 1) + "…" : s;
  }

  function ticks(d0, d1, n) {
    const out = [];
    for (let i = 0; i <= n; i++) out.push(d0 + ((d1 - d0) * i) / n);
    return out;
  }

  // A horizontal axis at y with ticks at `values` and a label under it.
  function xAxis(g, x, y, values, label, format, height) {
    for (const v of values) {
      const px = x(v);
      if (height) g.append(S("line", { x1: px, x2: px, y1: y - height, y2: y, class: "gridline" }));
      g.append(S("line", { x1: px, x2: px, y1: y, y2: y + 4, class: "tick" }));
      g.append(S("text", { x: px, y: y + 16, "text-anchor": "middle", class: "tick-label", text: format(v) }));
    }
    g.append(S("line", { x1: x.span[0], x2: x.span[1], y1: y, y2: y, class: "axis" }));
    const mid = (x.span[0] + x.span[1]) / 2;
    g.append(S("text", { x: mid, y: y + 34, "text-anchor": "middle", class: "axis-label", text: label }));
  }

  // A vertical axis at x with ticks at `values` and a rotated label left of it.
  function yAxis(g, x, y, values, label, format, width) {
    for (const v of values) {
      const py = y(v);
      if (width) g.append(S("line", { x1: x, x2: x + width, y1: py, y2: py, class: "gridline" }));
      g.append(S("line", { x1: x - 4, x2: x, y1: py, y2: py, class: "tick" }));
      g.append(S("text", { x: x - 7, y: py + 4, "text-anchor": "end", class: "tick-label", text: format(v) }));
    }
    g.append(S("line", { x1: x, x2: x, y1: y.span[0], y2: y.span[1], class: "axis" }));
    const mid = (y.span[0] + y.span[1]) / 2;
    g.append(S("text", { x: x - 44, y: mid, "text-anchor": "middle", class: "axis-label", transform: `rotate(-90 ${x - 44} ${mid})`, text: label }));
  }

  function legendItem(g, x, y, mark, text) {
    g.append(mark(x + 6, y - 4));
    g.append(S("text", { x: x + 16, y, class: "legend-label", text }));
  }

  // A domain around [lo, hi] padded and rounded to `step`, within [0, 1].
  function zoom(lo, hi, step) {
    let d0 = Math.max(0, Math.floor((lo - step / 4) / step) * step);
    let d1 = Math.min(1, Math.ceil((hi + step / 4) / step) * step);
    if (d1 - d0 < step) d1 = Math.min(1, d0 + step);
    if (d1 - d0 < step) d0 = Math.max(0, d1 - step);
    return [d0, d1];
  }

  // Width in the chart's units of a 12 px label (a generous average).
  function labelWidth(labels) {
    return Math.min(330, 24 + 7.1 * Math.max(8, ...labels.map((l) => l.length)));
  }

  // Forest plot: one row per entry {label, p, lo, hi, tied, rank}; x is a
  // probability, zoomed on the bars. The leader's band is shaded: rows whose
  // bar reaches into it cannot be told apart from the leader at 3σ.
  function forest(rows, xLabel) {
    const labels = rows.map((r) => `${r.rank}. ${truncate(r.label, 42)}`);
    const lw = labelWidth(labels);
    const W = 820, rowH = 22, top = 10, bottom = 78;
    const H = top + rows.length * rowH + bottom;
    const [d0, d1] = rows.length ? zoom(Math.min(...rows.map((r) => r.lo)), Math.max(...rows.map((r) => r.hi)), 0.05) : [0, 1];
    const x = scale(d0, d1, lw, W - 24);
    const svg = chart("forest", W, H, "Forest plot: " + xLabel + " per strategy, with 3σ bars");
    const g = S("g");
    svg.append(g);
    const plotBottom = top + rows.length * rowH;
    if (rows.length) {
      const lead = rows[0];
      g.append(S("rect", { x: x(lead.lo), y: top, width: Math.max(1, x(lead.hi) - x(lead.lo)), height: rows.length * rowH, class: "leader-band" }));
    }
    const n = Math.max(1, Math.round((d1 - d0) / 0.05));
    const every = n <= 8 ? 1 : n <= 16 ? 2 : 4;
    xAxis(g, x, plotBottom, ticks(d0, d1, n / every), xLabel + " — dot: measured, bar: 3σ band", (v) => Math.round(v * 100) + " %", rows.length * rowH);
    rows.forEach((r, i) => {
      const cy = top + i * rowH + rowH / 2;
      const close = r.rank === 1 || r.tied;
      const colour = close ? OKABE.blue : OKABE.grey;
      const row = S("g", { class: "forest-row" + (close ? " tied" : "") });
      row.append(title(`${r.rank}. ${r.label}\n${xLabel} ${fmt(100 * r.p, 1)} % [${fmt(100 * r.lo, 1)}, ${fmt(100 * r.hi, 1)}]` + (r.rank === 1 ? "\nthe leader" : r.tied ? "\ntied with the leader at 3σ" : "")));
      row.append(S("text", { x: lw - 8, y: cy + 4, "text-anchor": "end", class: "row-label", text: labels[i] }));
      row.append(S("line", { x1: x(r.lo), x2: x(r.hi), y1: cy, y2: cy, stroke: colour, "stroke-width": 2 }));
      row.append(S("line", { x1: x(r.lo), x2: x(r.lo), y1: cy - 5, y2: cy + 5, stroke: colour, "stroke-width": 2 }));
      row.append(S("line", { x1: x(r.hi), x2: x(r.hi), y1: cy - 5, y2: cy + 5, stroke: colour, "stroke-width": 2 }));
      row.append(close ? S("circle", { cx: x(r.p), cy, r: 4.5, fill: colour }) : S("rect", { x: x(r.p) - 4, y: cy - 4, width: 8, height: 8, fill: colour }));
      g.append(row);
    });
    const ly = H - 14;
    legendItem(g, 10, ly, (cx, cy) => S("circle", { cx, cy, r: 4.5, fill: OKABE.blue }), "the leader, or tied with it at 3σ");
    legendItem(g, 250, ly, (cx, cy) => S("rect", { x: cx - 4, y: cy - 4, width: 8, height: 8, fill: OKABE.grey }), "below the leader");
    legendItem(g, 400, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, class: "leader-band" }), "the leader's 3σ band");
    return svg;
  }

  const PROBABILITY = new Set(["p_survives", "p_tpk", "p_any_death", "p_win"]);

  // Sorted unique values.
  function uniq(values) {
    return [...new Set(values)].sort((a, b) => a - b);
  }

  // Half-extents of each coordinate among `coords` (sorted): half the gap to
  // each neighbour, mirrored at the ends.
  function extents(coords) {
    const out = new Map();
    coords.forEach((c, i) => {
      const left = i > 0 ? (c - coords[i - 1]) / 2 : i + 1 < coords.length ? (coords[i + 1] - c) / 2 : 0.05;
      const right = i + 1 < coords.length ? (coords[i + 1] - c) / 2 : left;
      out.set(c, [left, right]);
    });
    return out;
  }

  // Danger map heatmap of one layer: x the adversary's starting HP, y the
  // party's. Each measured point is a cell as wide as half the gap to its
  // neighbours measured at its level or coarser, so refined points draw
  // smaller cells over the coarse ones as they arrive.
  function heatmap(result, layer) {
    const points = [...layer.points].sort((a, b) => a.level - b.level);
    const criterion = result.criterion;
    // An absolute scale from 0 to a round number above every value and the
    // threshold (a probability's at most 100 %): the same colour is the same
    // value on every layer of the job.
    const all = result.layers.flatMap((l) => l.points.map((p) => p.value));
    const top = niceCeil(Math.max(1e-9, result.threshold * 1.25, ...all));
    const maxValue = PROBABILITY.has(criterion) ? Math.min(1, top) : top;
    const norm = (v) => v / maxValue;
    const W = 640, H = 440, left = 74, right = 150, topMargin = 14, bottom = 58;
    const svg = chart("heatmap", W, H, `Danger map: ${PF.criterion(criterion)} over party and adversary starting HP`);
    const g = S("g");
    svg.append(g);
    if (!points.length) {
      g.append(S("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "empty-label", text: "no point measured yet" }));
      return svg;
    }
    const levels = uniq(points.map((p) => p.level));
    const ext = new Map();
    for (const L of levels) {
      const at = points.filter((p) => p.level <= L);
      ext.set(L, [extents(uniq(at.map((p) => p.adversary_hp))), extents(uniq(at.map((p) => p.party_hp)))]);
    }
    const [ex0, ey0] = ext.get(levels[0]);
    const xs0 = [...ex0.keys()];
    const ys0 = [...ey0.keys()];
    const xd = [xs0[0] - ex0.get(xs0[0])[0], xs0[xs0.length - 1] + ex0.get(xs0[xs0.length - 1])[1]];
    const yd = [ys0[0] - ey0.get(ys0[0])[0], ys0[ys0.length - 1] + ey0.get(ys0[ys0.length - 1])[1]];
    const x = scale(xd[0], xd[1], left, W - right);
    const y = scale(yd[0], yd[1], H - bottom, topMargin);
    const cells = S("g", { class: "cells" });
    for (const p of points) {
      const [ex, ey] = ext.get(p.level);
      const [l, r] = ex.get(p.adversary_hp);
      const [b, t] = ey.get(p.party_hp);
      const x0 = x(p.adversary_hp - l), x1 = x(p.adversary_hp + r);
      const y0 = y(p.party_hp + t), y1 = y(p.party_hp - b);
      const cell = S("rect", {
        x: x0, y: y0, width: Math.max(0.5, x1 - x0), height: Math.max(0.5, y1 - y0),
        fill: viridis(norm(p.value)), class: "cell" + (p.crossed ? " crossed" : ""),
        "data-party-hp": p.party_hp, "data-adversary-hp": p.adversary_hp, "data-value": p.value, "data-level": p.level,
      });
      cell.append(title(
        `party HP ${fmt(100 * p.party_hp, 1)} %, adversary HP ${fmt(100 * p.adversary_hp, 1)} %\n` +
        `${PF.criterion(criterion)} = ${fmt(p.value, 3)}` + (p.crossed ? ` (beyond the threshold ${result.threshold})` : "") +
        `\nP(no PC dies) ${fmt(100 * p.party.p_survives, 1)} %, P(win) ${fmt(100 * p.party.win_rate, 1)} %, P(everyone down) ${fmt(100 * p.party.p_tpk, 1)} %, ${p.party.runs} battles, level ${p.level}`));
      cells.append(cell);
    }
    g.append(cells);
    const pctFmt = (v) => Math.round(v * 100) + " %";
    xAxis(g, x, H - bottom, xs0, "adversary starting HP (fraction of maximum)", pctFmt);
    // Put the y-axis on the left edge of the plot.
    const yTicks = ys0;
    const yg = S("g");
    yAxis(yg, left, y, yTicks, "party starting HP", pctFmt);
    g.append(yg);
    // Legend: a vertical colour bar with an absolute scale and the threshold.
    const lx = W - right + 28, ly0 = topMargin + 10, ly1 = H - bottom - 10, steps = 48;
    const ly = scale(0, maxValue, ly1, ly0);
    const legend = S("g", { class: "legend" });
    for (let i = 0; i < steps; i++) {
      const v0 = (maxValue * i) / steps, v1 = (maxValue * (i + 1)) / steps;
      legend.append(S("rect", { x: lx, y: ly(v1), width: 16, height: Math.abs(ly(v0) - ly(v1)) + 0.6, fill: viridis(norm((v0 + v1) / 2)) }));
    }
    legend.append(S("rect", { x: lx, y: ly0, width: 16, height: ly1 - ly0, class: "legend-frame" }));
    const digits = niceCeil(maxValue / 5) < 0.01 ? 1 : 0;
    for (const v of niceTicks(maxValue)) {
      legend.append(S("line", { x1: lx + 16, x2: lx + 20, y1: ly(v), y2: ly(v), class: "tick" }));
      legend.append(S("text", { x: lx + 23, y: ly(v) + 4, class: "tick-label", text: PROBABILITY.has(criterion) ? fmt(100 * v, digits) + " %" : String(Math.round(v * 1e6) / 1e6) }));
    }
    const ty = ly(Math.min(maxValue, result.threshold));
    legend.append(S("line", { x1: lx - 5, x2: lx + 21, y1: ty, y2: ty, class: "threshold" }));
    // Right of the tick labels: left of the bar it would lie over the map.
    legend.append(S("text", { x: lx + 62, y: ty + 4, class: "legend-label", text: "threshold" }));
    legend.append(S("text", { x: lx + 8, y: H - bottom + 16, "text-anchor": "middle", class: "axis-label", text: PF.criterion(criterion) }));
    g.append(legend);
    return svg;
  }

  // Frontier: the criterion at each probed party HP fraction, the target and the answer.
  function frontier(result) {
    const probes = result.probes;
    const criterion = result.criterion;
    // Fitted to the probes and the target (a probability's at most 100 %).
    const fitted = niceCeil(Math.max(1e-9, result.target * 1.25, ...probes.map((p) => p.value)));
    const maxValue = PROBABILITY.has(criterion) ? Math.min(1, fitted) : fitted;
    const W = 640, H = 330, left = 74, right = 24, top = 14, bottom = 80;
    const x = scale(result.min_fraction, result.max_fraction, left, W - right);
    const y = scale(0, maxValue, H - bottom, top);
    const svg = chart("frontier", W, H, `Frontier: ${PF.criterion(criterion)} against the party's starting HP`);
    const g = S("g");
    svg.append(g);
    const yFmt = PROBABILITY.has(criterion) ? (v) => Math.round(v * 100) + " %" : (v) => fmt(v, 1);
    yAxis(g, left, y, niceTicks(maxValue), PF.criterion(criterion), yFmt, W - left - right);
    xAxis(g, x, H - bottom, rangeTicks(result.min_fraction, result.max_fraction), "party starting HP (fraction of maximum)", (v) => Math.round(v * 100) + " %");
    g.append(S("line", { x1: left, x2: W - right, y1: y(result.target), y2: y(result.target), class: "target" }));
    if (result.fraction !== null && result.fraction !== undefined) {
      g.append(S("line", { x1: x(result.fraction), x2: x(result.fraction), y1: top, y2: H - bottom, class: "answer" }));
      // Right of the line, or left of it past the middle: never clipped by the plot's edge.
      const right = x(result.fraction) > (left + W - 24) / 2;
      g.append(S("text", {
        x: x(result.fraction) + (right ? -5 : 5), y: top + 12, "text-anchor": right ? "end" : "start", class: "legend-label",
        text: `frontier ${Math.round(result.fraction * 100)} % (${String(result.crossed).replace(/_/g, " ")})`,
      }));
    }
    const sorted = [...probes].sort((a, b) => a.party_hp - b.party_hp);
    if (sorted.length > 1) {
      g.append(S("polyline", { points: sorted.map((p) => `${x(p.party_hp)},${y(p.value)}`).join(" "), class: "probe-line" }));
    }
    probes.forEach((p, i) => {
      const dot = p.crossed
        ? S("circle", { cx: x(p.party_hp), cy: y(p.value), r: 5, fill: OKABE.vermillion, class: "probe crossed" })
        : S("circle", { cx: x(p.party_hp), cy: y(p.value), r: 4.5, fill: "#fff", stroke: OKABE.blue, "stroke-width": 2, class: "probe" });
      dot.append(title(`probe ${i + 1}: party HP ${fmt(100 * p.party_hp, 1)} %, ${PF.criterion(criterion)} = ${fmt(p.value, 3)}` + (p.crossed ? " (crossed the target)" : "")));
      g.append(dot);
    });
    const ly = H - 14;
    legendItem(g, left, ly, (cx, cy) => S("circle", { cx, cy, r: 4.5, fill: "#fff", stroke: OKABE.blue, "stroke-width": 2 }), "probe below the target");
    legendItem(g, left + 170, ly, (cx, cy) => S("circle", { cx, cy, r: 5, fill: OKABE.vermillion }), "probe that crossed it");
    legendItem(g, left + 330, ly, (cx, cy) => S("line", { x1: cx - 8, x2: cx + 4, y1: cy, y2: cy, class: "target" }), `target ${result.target}`);
    legendItem(g, left + 440, ly, (cx, cy) => S("line", { x1: cx - 2, x2: cx - 2, y1: cy - 6, y2: cy + 6, class: "answer" }), "answer");
    return svg;
  }

  // Sensitivity: each adversary lever's change of the criterion against the default adversary.
  function sensitivity(result) {
    const levers = result.levers;
    const labels = levers.map((l) => `${l.rank}. ${truncate(l.adversary_strategy, 42)}`);
    const lw = labelWidth(labels);
    const W = 820, rowH = 22, top = 10, bottom = 78;
    const H = top + Math.max(1, levers.length) * rowH + bottom;
    const m = niceCeil(Math.max(1e-9, ...levers.map((l) => Math.abs(l.delta))));
    const x = scale(-m, m, lw, W - 30);
    const svg = chart("sensitivity", W, H, `Sensitivity: change of ${PF.criterion(result.criterion)} per adversary lever`);
    const g = S("g");
    svg.append(g);
    const plotBottom = top + Math.max(1, levers.length) * rowH;
    xAxis(g, x, plotBottom, rangeTicks(-m, m), `change of ${PF.criterion(result.criterion)} against the default adversary` + (result.baseline !== null && result.baseline !== undefined ? ` (baseline ${fmt(result.baseline, 3)})` : ""), (v) => String(Math.round(v * 1e6) / 1e6), plotBottom - top);
    g.append(S("line", { x1: x(0), x2: x(0), y1: top, y2: plotBottom, class: "axis" }));
    levers.forEach((l, i) => {
      const cy = top + i * rowH + rowH / 2;
      const row = S("g", { class: "lever" });
      row.append(title(`${l.rank}. ${l.adversary_strategy}\n${PF.criterion(result.criterion)} ${fmt(l.value, 3)} (${l.delta >= 0 ? "+" : ""}${fmt(l.delta, 3)})`));
      row.append(S("text", { x: lw - 8, y: cy + 4, "text-anchor": "end", class: "row-label", text: labels[i] }));
      const x0 = Math.min(x(0), x(l.delta)), x1 = Math.max(x(0), x(l.delta));
      row.append(S("rect", { x: x0, y: cy - 7, width: Math.max(1, x1 - x0), height: 14, fill: l.delta >= 0 ? OKABE.vermillion : OKABE.blue }));
      g.append(row);
    });
    const ly = H - 14;
    legendItem(g, 10, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.vermillion }), "raises " + PF.criterion(result.criterion));
    legendItem(g, 250, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.blue }), "lowers it");
    return svg;
  }

  // Lever importance: per group {heading, bars: [{label, share, noise, kind}]},
  // one bar per lever as long as its first-order share of the variance, the
  // share noise alone would give as a dark band ending in a tick; blue for a
  // lever the paired test finds to matter, grey for the others, green for a
  // lever searched as a range (shares of the Gaussian process's mean),
  // orange for the interactions (the CLI's importance_N.svg).
  function importance(groups, criterion) {
    const colours = { significant: OKABE.blue, other: OKABE.grey, ranged: OKABE.green, interactions: OKABE.orange };
    const rows = [];
    for (const grp of groups) {
      rows.push({ heading: grp.heading });
      for (const b of grp.bars) rows.push(b);
    }
    const lw = labelWidth(rows.filter((r) => !r.heading).map((r) => r.label));
    const W = 820, rowH = 22, top = 10, bottom = 78, valueW = 110;
    const H = top + rows.length * rowH + bottom;
    const x = scale(0, 1, lw, W - valueW);
    const svg = chart("importance", W, H, `Lever importance: share of the variance of ${PF.criterion(criterion)} each lever explains alone`);
    const g = S("g");
    svg.append(g);
    const plotBottom = top + rows.length * rowH;
    xAxis(g, x, plotBottom, niceTicks(1), `share of the variance of ${PF.criterion(criterion)} [noise alone]`, (v) => Math.round(v * 100) + " %", rows.length * rowH);
    rows.forEach((r, i) => {
      const cy = top + i * rowH + rowH / 2;
      if (r.heading) {
        g.append(S("text", { x: 10, y: cy + 4, class: "axis-label", text: r.heading }));
        return;
      }
      const row = S("g", { class: "importance-row " + r.kind });
      const pct = (v) => (v >= 1 ? "≥100" : fmt(100 * v, 0)) + " %";
      const value = pct(Math.min(1, r.share)) + (r.noise === undefined ? "" : ` [${pct(r.noise)}]`);
      row.append(title(`${r.label}: ${value}` + (r.noise === undefined ? "" : "\nin brackets: the share noise alone would give")));
      row.append(S("text", { x: lw - 8, y: cy + 4, "text-anchor": "end", class: "row-label", text: truncate(r.label, 40) }));
      row.append(S("rect", { x: x(0), y: cy - 7, width: Math.max(1, x(Math.min(1, r.share)) - x(0)), height: 14, fill: colours[r.kind], class: "share" }));
      if (r.noise !== undefined) {
        const end = x(Math.min(1, r.noise));
        row.append(S("rect", { x: x(0), y: cy - 2.5, width: Math.max(1, end - x(0)), height: 5, fill: "#333333", class: "floor" }));
        row.append(S("line", { x1: end, x2: end, y1: cy - 9, y2: cy + 9, stroke: "#333333", "stroke-width": 2 }));
      }
      row.append(S("text", { x: x(1) + 8, y: cy + 4, class: "legend-label", text: value }));
      g.append(row);
    });
    const ly = H - 14;
    legendItem(g, 10, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.blue }), "matters (paired test)");
    legendItem(g, 170, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.grey }), "not shown to matter");
    legendItem(g, 330, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.green }), "searched as a range");
    legendItem(g, 490, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.orange }), "interactions");
    legendItem(g, 610, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 2.5, width: 12, height: 5, fill: "#333333" }), "noise alone");
    return svg;
  }

  // The day's funnel: a bar per fight, as long as the share of days that
  // reach it, its end in vermillion for the days that end there (defeated);
  // a last bar for the days completed. Deaths per fight are in the label.
  function funnel(s) {
    const runs = Math.max(1, s.runs);
    const rows = s.fights.map((f, i) => ({
      label: `${i + 1}. ${truncate(f.name, 34)}`,
      reached: f.reached / runs,
      ended: f.broke_here.count / runs,
      note: `reached ${fmt(100 * f.reached / runs, 1)} % · ends ${fmt(100 * f.broke_here.count / runs, 1)} % · deaths ${fmt(100 * f.deaths.count / runs, 1)} %`,
      full: f.name,
    }));
    rows.push({ label: "day completed", reached: s.completed.rate, ended: 0, note: `${fmt(100 * s.completed.rate, 1)} % [${fmt(100 * s.completed.low, 1)}, ${fmt(100 * s.completed.high, 1)}]`, full: "the day completed", done: true });
    const lw = labelWidth(rows.map((r) => r.label));
    const noteW = 320;
    const W = 900, rowH = 26, top = 10, bottom = 70;
    const H = top + rows.length * rowH + bottom;
    const x = scale(0, 1, lw, W - noteW);
    const svg = chart("funnel", W, H, "The day's funnel: the share of days that reach each fight, and that end there");
    const g = S("g");
    svg.append(g);
    const plotBottom = top + rows.length * rowH;
    xAxis(g, x, plotBottom, niceTicks(1), "share of all days", (v) => Math.round(v * 100) + " %", rows.length * rowH);
    rows.forEach((r, i) => {
      const y = top + i * rowH + 4;
      const h = rowH - 8;
      const row = S("g", { class: "funnel-row" + (r.done ? " completed" : "") });
      row.append(title(`${r.full}\n${r.note}`));
      row.append(S("text", { x: lw - 8, y: y + h / 2 + 4, "text-anchor": "end", class: "row-label", text: r.label }));
      const go = Math.max(0, r.reached - r.ended);
      row.append(S("rect", { x: x(0), y, width: Math.max(0, x(go) - x(0)), height: h, fill: r.done ? OKABE.green : OKABE.blue, class: "reached" }));
      if (r.ended > 0) row.append(S("rect", { x: x(go), y, width: Math.max(1, x(r.reached) - x(go)), height: h, fill: OKABE.vermillion, class: "ended" }));
      row.append(S("text", { x: x(1) + 8, y: y + h / 2 + 4, class: "legend-label", text: r.note }));
      g.append(row);
    });
    const ly = H - 14;
    legendItem(g, 10, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.blue }), "days that reach the fight and go on");
    legendItem(g, 290, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.vermillion }), "days that end there (defeated)");
    legendItem(g, 540, ly, (cx, cy) => S("rect", { x: cx - 6, y: cy - 6, width: 12, height: 12, fill: OKABE.green }), "days completed");
    return svg;
  }

  return { forest, heatmap, frontier, sensitivity, funnel, importance, viridis };
})();
