// The gpufleet dashboard: plays a finished run frame by frame from the server's JSON API.
'use strict';

const state = { runs: [], run: null, frame: 0, playing: null, target: 0, charts: {}, compare: null,
  view: null, filter: '', limit: 0 };

// A fleet: above this many nodes in a moment the page opens with the overview (counts by NodePool,
// instance type, capacity type and state) above the cards.
const FLEET_NODES = 50;
// At most this many cards and lifecycle lanes are drawn at once; "Show more" draws as many again,
// up to MAX_SHOWN. The server sends only those (and applies the filter), so a 2,000-node moment
// sends and builds 100 cards, not 2,000 (the filter finds the others).
const PAGE = 100;
const MAX_SHOWN = 1000;
state.limit = PAGE;

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

async function api(path, options) {
  const res = await fetch(path, options);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || ('HTTP ' + res.status));
  return body;
}

// A point in run time, as every output writes it: +HH:MM:SS since the start.
function hms(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return '+' + String(h).padStart(2, '0') + ':' + String(m).padStart(2, '0') + ':' + String(r).padStart(2, '0');
}

// A duration, as the CLI and kubectl write one (Go's time.Duration): 0s, 45s, 3m56s, 1h0m5s.
function dur(seconds) {
  let s = Math.round(Math.abs(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return (h ? h + 'h' + m + 'm' : m ? m + 'm' : '') + r + 's';
}

function parseHms(text) {
  const parts = text.trim().replace(/^\+/, '').split(':');
  if (parts.length === 0 || parts.length > 3 || parts.some(p => !/^\d{1,6}$/.test(p))) return null;
  return parts.reduce((acc, p) => acc * 60 + Number(p), 0);
}

// ---- the view in the address: #run=ID&frame=N&compare=A,B (or &t=+HH:MM:SS for a moment) ----

// What the address asks for; a missing part is null.
function readAddress() {
  const p = new URLSearchParams(location.hash.replace(/^#/, ''));
  const frame = p.get('frame');
  const t = p.get('t');
  const cmp = (p.get('compare') || '').split(',');
  return {
    run: p.get('run'),
    frame: frame !== null && /^\d{1,9}$/.test(frame) ? Number(frame) : null,
    seconds: t !== null ? parseHms(t) : null,
    compare: cmp.length === 2 && cmp.every(x => x !== '') ? { a: cmp[0], b: cmp[1] } : null,
    filter: p.get('filter') || ''
  };
}

function address() {
  const parts = ['run=' + encodeURIComponent(state.run.id), 'frame=' + state.frame,
    't=' + hms(state.run.frameSeconds[state.frame]).replace('+', '%2B')];
  if (state.compare) parts.push('compare=' + encodeURIComponent(state.compare.a) + ',' + encodeURIComponent(state.compare.b));
  if (state.filter) parts.push('filter=' + encodeURIComponent(state.filter));
  return '#' + parts.join('&');
}

// 'push': a move the Back button undoes; 'replace': playing and scrubbing, which would flood the history;
// 'none': the move came from the address (opening it, Back, Forward).
function record(how) {
  if (how === 'none' || !state.run) return;
  const target = address();
  if (location.hash === target) return;
  if (how === 'push') history.pushState(null, '', target); else history.replaceState(null, '', target);
}

// Shows what the address names: its run, its moment (frame, else run time), its comparison.
async function showAddress(how) {
  const want = readAddress();
  const runId = want.run !== null && state.runs.some(r => String(r.id) === want.run) ? want.run : String(state.runs[0].id);
  if (!state.run || String(state.run.id) !== runId) await loadRun(runId);
  const at = want.frame === null && want.seconds !== null ? landing(want.seconds) : { frame: want.frame || 0, note: '' };
  await showCompare(want.compare);
  setFilter(want.filter);
  await goTo(at.frame, how, at.note);
}

// The frame shown for a run time: the last at or before it; where none is exactly then, a note says
// which moment is shown and when the cluster next changes.
function landing(seconds) {
  const frame = frameAt(seconds);
  const at = state.run.frameSeconds[frame];
  const next = state.run.frameSeconds[frame + 1];
  const note = at === seconds ? '' : 'No change at ' + hms(seconds) + ': showing ' + hms(at) + ' (frame ' + (frame + 1)
    + '), the last before it' + (next !== undefined ? '; the next change is at ' + hms(next) : '; nothing changes after it');
  return { frame, note };
}

// ---- loading ----

async function loadRuns() {
  state.runs = await api('/api/runs');
  const sel = $('#run-select');
  sel.replaceChildren(...state.runs.map(r => el('option', { value: r.id, text: r.id + ': ' + r.label })));
  if (state.run) sel.value = state.run.id;
  renderNodePools(state.runs[0].nodePools);
}

async function showRun(id, how) {
  await loadRun(id);
  await goTo(0, how);
}

async function loadRun(id) {
  pause();
  state.run = await api('/api/runs/' + encodeURIComponent(id));
  $('#run-select').value = id;
  $('#scenario').textContent = state.run.scenario;
  $('#run-label').textContent = state.run.label;
  $('#description').textContent = state.run.description;
  $('#scrubber').max = String(state.run.frameSeconds.length - 1);
  state.frame = Math.min(state.frame, state.run.frameSeconds.length - 1);
  renderThinning();
  renderSteps();
  state.lanesShown = null;
  renderCharts();
  renderHeatmap();
}

// The NodePool the NodePool knobs change: the only one preselected, else the user picks one.
function renderNodePools(pools) {
  const sel = $('#nodepool-select');
  if (sel.options.length > 0) return; // keep the user's choice across re-runs
  const options = pools.length === 1 ? [] : [el('option', { value: '', text: pools.length ? 'choose one' : 'none in the scenario' })];
  sel.replaceChildren(...options, ...pools.map(p => el('option', { value: p, text: p })));
}

// ---- timeline ----

// A long run keeps only some of its cluster images: say so, never thin silently.
function renderThinning() {
  const note = $('#thinned');
  const r = state.run;
  note.hidden = !r.thinned;
  note.textContent = r.thinned
    ? 'Long run: the timeline keeps ' + r.frameSeconds.length.toLocaleString('en') + ' frames of the run\'s '
      + r.images.toLocaleString('en') + ' cluster changes (each step\'s end and the last are always kept), so '
      + 'Next event, the cards and the charts skip the changes in between; the event log still lists their events.'
    : '';
}

function renderSteps() {
  const box = $('#steps');
  box.replaceChildren(...state.run.steps.map(s => {
    // A step's button shows the cluster as the step begins: its first action is the next event.
    const b = el('button', { class: 'step-button', 'data-step': s.id, 'data-start-frame': String(s.startFrame),
      title: 'starts at ' + hms(state.run.frameSeconds[s.startFrame]) + ': ' + s.description,
      text: (s.id ? s.id + ' ' : '') + s.title });
    b.addEventListener('click', () => { pause(); goTo(s.startFrame, 'push'); });
    return b;
  }));
}

async function goTo(frame, how, note) {
  const n = state.run.frameSeconds.length;
  frame = Math.max(0, Math.min(n - 1, frame));
  state.frame = frame;
  record(how || 'push');
  $('#jump-note').textContent = note || '';
  const runId = state.run.id, query = pageQuery(frame);
  // The moment's cards, its events and (where they depend on it, through the filter) the lanes are
  // asked for at once; each draws what it got unless a later move has asked again.
  const others = Promise.all([state.filter || state.lanesShown !== lanesKey() ? renderLanes() : null, renderEvents(frame)]);
  const view = await api('/api/runs/' + runId + '/cluster?' + query);
  if (state.run.id !== runId || pageQuery(state.frame) !== query) return; // a later move won
  state.target = view.seconds;
  $('#scrubber').value = String(frame);
  $('#clock').textContent = hms(view.seconds) + '  (frame ' + (frame + 1) + ' of ' + n + ')';
  $('#cluster-time').textContent = hms(view.seconds);
  $('#checkpoint').textContent = view.checkpoint ? 'checkpoint: ' + view.checkpoint : '';
  // The step under way: the last one begun by this frame.
  const begun = state.run.steps.filter(s => s.startFrame <= frame);
  const current = begun.length ? begun[begun.length - 1].id : null;
  for (const b of document.querySelectorAll('.step-button')) b.classList.toggle('active', b.dataset.step === current);
  state.view = view;
  renderCards(view);
  moveCursor(view.seconds);
  await others;
  document.body.dataset.frame = String(frame);
}

function frameAt(seconds) {
  const t = state.run.frameSeconds;
  let lo = 0, hi = t.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (t[mid] > seconds) hi = mid - 1; else lo = mid; }
  return lo;
}

function play() {
  if (state.playing) return;
  $('#play').disabled = true; $('#pause').disabled = false;
  const tickMs = 250;
  state.playing = setInterval(() => {
    const speed = Number($('#speed').value);
    state.target += speed * tickMs / 1000;
    const last = state.run.frameSeconds.length - 1;
    let f = frameAt(state.target);
    if (f === state.frame && state.frame < last && state.run.frameSeconds[state.frame + 1] <= state.target) f++;
    if (f !== state.frame) goTo(f, 'replace');
    if (state.target >= state.run.seconds) pause();
  }, tickMs);
}

function pause() {
  if (state.playing) clearInterval(state.playing);
  state.playing = null;
  $('#play').disabled = false; $('#pause').disabled = true;
}

// ---- cluster ----

// ---- filter: which nodes the cards and lanes show ----

// The filter's words, each of which a node must match: FIELD:VALUE matches that field exactly
// (pool, type, capacity, state), a bare word matches part of the node's name, NodePool, instance
// type or capacity type, ignoring case. The server applies it (NodeFilter) and sends one page.
function pageQuery(frame) {
  return 'frame=' + frame + '&limit=' + state.limit + (state.filter ? '&filter=' + encodeURIComponent(state.filter) : '');
}

// Sets the filter from the address or the box, starting again at one page of cards.
function setFilter(text) {
  if (text === state.filter) return false;
  state.filter = text;
  state.limit = PAGE;
  if ($('#node-filter').value !== text) $('#node-filter').value = text;
  return true;
}

// The filter or the page changed: the moment's cards and the lanes again, from the server.
async function refilter(how) {
  record(how);
  if (state.view) await goTo(state.frame, 'none');
}

// Nodes and GPUs of the moment by NodePool, instance type, capacity type and state; each value a
// button that filters the cards to it. Counts the whole moment, whatever the filter shows.
function renderOverview(view) {
  const box = $('#overview');
  box.hidden = view.total <= FLEET_NODES;
  if (box.hidden) { box.replaceChildren(); return; }
  const dims = [['NodePool', 'pool'], ['instance type', 'type'], ['capacity type', 'capacity'], ['state', 'state']];
  box.replaceChildren(...dims.map(([title, key]) => {
    // Counted by the server over the whole moment (ClusterView), most nodes first.
    const rows = view.overview[key].map(g => {
      const v = g.value;
      const pick = el('button', { type: 'button', text: v, title: 'show only ' + key + ':' + v });
      pick.addEventListener('click', () => { if (setFilter(key + ':' + v)) refilter('push'); });
      return el('tr', { 'data-group': key + ':' + v }, el('td', {}, pick), el('td', { class: 'n nodes', text: String(g.nodes) }),
        el('td', { class: 'n physical', text: String(g.physical) }), el('td', { class: 'n allocated', text: String(g.allocated) }));
    });
    return el('table', { 'data-dimension': key }, el('caption', { text: 'by ' + title }),
      el('tr', {}, el('th', { text: title }), el('th', { text: 'nodes' }), el('th', { text: 'GPUs' }), el('th', { text: 'allocated' })),
      ...rows);
  }));
}

function renderCards(view) {
  renderOverview(view);
  const shownNodes = view.nodes;
  $('#shown').textContent = (state.filter ? view.matching + ' of ' + view.total + ' nodes match' : view.total + ' nodes')
    + (shownNodes.length < view.matching ? '; showing the first ' + shownNodes.length
      + (shownNodes.length >= MAX_SHOWN ? ' (the filter finds the others)' : '') : '');
  $('#more').hidden = shownNodes.length >= view.matching || shownNodes.length >= MAX_SHOWN;
  const cards = shownNodes.map(n => {
    const card = el('article', {
      class: 'node-card', 'data-node': n.name, 'data-lifecycle': n.lifecycle, 'data-nodepool': n.nodePool,
      'data-advertised': String(n.gpuAdvertised),
      title: 'taints: ' + (n.taints.length ? n.taints.join(', ') : 'none') + '\nGFD labels:\n'
        + Object.entries(n.gfdLabels).map(([k, v]) => '  ' + k + '=' + v).join('\n')
    });
    card.append(el('div', { class: 'name', text: n.name }));
    card.append(el('div', { class: 'meta', text: [n.instanceType, n.capacityType, 'NodePool ' + (n.nodePool || '-'),
      n.lifecycle, n.price === null ? 'no price' : n.price].join(' · ') }));
    const counts = el('div', { class: 'counts' });
    counts.append('nvidia.com/gpu advertised ', el('b', { class: 'advertised', text: String(n.gpuAdvertised) }),
      ', allocated ', el('b', { class: 'allocated', text: String(n.gpuAllocated) }),
      ' · ', n.sharing);
    card.append(counts);
    if (n.removalReason) card.append(el('div', { class: 'meta', text: 'removing: ' + n.removalReason }));
    for (const g of n.gpus) {
      const gpu = el('div', { class: 'gpu', 'data-index': String(g.index) });
      gpu.append(el('div', { class: 'title', text: 'GPU ' + g.index + ' · ' + g.product
        + (g.memoryMiB > 0 ? ' · ' + Math.round(g.memoryMiB / 1024) + ' GiB' : '') + ' · ' + g.pods.length + ' pod(s)' }));
      const slices = el('div', { class: 'slices' });
      for (const d of g.devices) {
        const label = d.mig ? d.mig : (d.replicas > 1 ? 'replica ' + d.replica : 'whole GPU');
        const dev = el('div', { class: 'device' + (d.pod ? ' held' : ''), title: d.id + ' (' + d.resource + ')' });
        dev.append(el('div', { text: label }));
        if (d.pod) dev.append(el('span', { class: 'pod-chip', 'data-pod': d.pod, text: d.pod.replace(/^default\//, '') }));
        slices.append(dev);
      }
      if (g.devices.length === 0) slices.append(el('div', { class: 'device', text: 'nothing advertised' }));
      gpu.append(slices);
      card.append(gpu);
    }
    const others = n.pods.filter(p => p.gpus === 0);
    if (others.length) card.append(el('div', { class: 'pods', text: 'other pods: ' + others.map(p => p.pod.replace(/^[^/]*\//, '') + ' (' + p.phase + ')').join(', ') }));
    const gpuPods = n.pods.filter(p => p.gpus > 0);
    if (gpuPods.length) card.append(el('div', { class: 'pods', text: 'GPU pods: ' + gpuPods.map(p => p.pod.replace(/^[^/]*\//, '') + ' (' + p.phase + ')').join(', ') }));
    card.append(el('div', { class: 'tags', text: n.taints.length ? 'taints: ' + n.taints.join(', ') : 'no taints' }));
    return card;
  });
  $('#cards').replaceChildren(...cards);
  $('#pending').replaceChildren(...(view.pendingCount ? [el('h3', { text: view.pendingCount + ' pending pod(s)'
    + (view.pending.length < view.pendingCount ? '; the first ' + view.pending.length + ' listed' : '') })] : []),
    ...view.pending.map(p => el('div', { class: 'pending-pod', 'data-pod': p.pod,
      text: p.pod + ' waiting ' + dur(p.waitingSeconds) + (p.message ? ': ' + p.message : '') })));
}

// The newest 60 events up to the moment, newest first, as the server pages them.
async function renderEvents(frame) {
  const runId = state.run.id;
  const got = await api('/api/runs/' + runId + '/events?frame=' + frame);
  if (state.run.id !== runId || state.frame !== frame) return; // a later move won
  $('#events tbody').replaceChildren(...got.events.map(e => el('tr', { 'data-reason': e.reason },
    el('td', { text: hms(e.seconds) }), el('td', { text: e.reason }), el('td', { text: e.object }), el('td', { text: e.message }))));
}

// ---- lanes ----

function pct(seconds) {
  return (state.run.seconds > 0 ? 100 * seconds / state.run.seconds : 0) + '%';
}

function markerClass(kind) {
  if (kind === 'SpotInterruptionWarning' || kind === 'SpotReclaimed') return 'marker interruption';
  if (kind === 'DisruptionExecuted' || kind === 'NodeclaimDeleting' || kind === 'PodEvicted') return 'marker disruption';
  return 'marker';
}

// What the lanes shown depend on: the run and the page, and with a filter the moment too.
function lanesKey() {
  return state.run.id + '|' + (state.filter ? pageQuery(state.frame) : 'limit=' + state.limit);
}

// The lanes of nodes the filter matches (by the lane's name, or as a node of the moment shown), one
// page of them at most, as the cards; the server chooses them and sends their launches and deletions.
async function renderLanes() {
  const box = $('#lanes');
  const key = lanesKey();
  const got = await api('/api/runs/' + state.run.id + '/lanes?' + pageQuery(state.frame));
  if (lanesKey() !== key) return; // a later move won
  state.lanesShown = key;
  const lanes = got.lanes.map(l => {
    const track = el('div', { class: 'track' });
    for (const s of l.spans) {
      const width = Math.max(0.2, 100 * (s.to - s.from) / Math.max(1, state.run.seconds));
      track.append(el('div', { class: 'span ' + s.state, 'data-state': s.state,
        style: 'left:' + pct(s.from) + ';width:' + width + '%', title: l.node + ': ' + s.state + ' ' + hms(s.from) + ' to ' + hms(s.to) }));
    }
    return el('div', { class: 'lane', 'data-lane': l.node }, el('div', { class: 'lane-name', text: l.node, title: l.key }), track);
  });
  const area = el('div', { class: 'track-area' });
  for (const m of [...state.run.markers, ...got.markers]) {
    area.append(el('div', { class: markerClass(m.kind), 'data-kind': m.kind, style: 'left:' + pct(m.seconds),
      title: hms(m.seconds) + ' ' + m.kind + ' ' + m.subject + (m.message ? ': ' + m.message : '') }));
  }
  area.append(el('div', { class: 'cursor', id: 'lane-cursor' }));
  box.replaceChildren(...lanes, area);
  $('#lanes-shown').textContent = lanes.length < got.total
    ? lanes.length + ' of ' + got.total + ' lanes (the filter and Show more above choose them)' : '';
  moveCursor(state.target);
}

function moveCursor(seconds) {
  const c = $('#lane-cursor');
  if (c) c.style.left = pct(seconds);
  for (const chart of Object.values(state.charts)) {
    chart.setOption({ series: [{ id: 'cursor', markLine: { data: [{ xAxis: seconds }] } }] });
  }
}

// ---- charts ----

// Step and disruption markers, with their labels laid out in rows so that none overlaps another:
// each label takes the lowest row where it clears the one before it by a few pixels (labels are
// estimated at 7 px a character); one that clears no row is left unlabelled (its line stays).
const LABEL_ROWS = 3;
function markerLines(plotWidth) {
  const marks = state.run.markers.filter(m => m.kind === 'Step' || m.kind.startsWith('Spot') || m.kind === 'DisruptionExecuted')
    .slice().sort((a, b) => a.seconds - b.seconds);
  const span = Math.max(1, state.run.seconds);
  const rightEdge = new Array(LABEL_ROWS).fill(-Infinity);
  return marks.map(m => {
    const text = m.kind === 'Step' ? m.subject : m.kind.replace('SpotInterruptionWarning', 'spot warning');
    const x = m.seconds / span * plotWidth, w = text.length * 7 + 4;
    const row = rightEdge.findIndex(r => r + 4 <= x - w / 2);
    if (row >= 0) rightEdge[row] = x + w / 2;
    return { xAxis: m.seconds, name: text,
      lineStyle: { color: m.kind === 'Step' ? '#8250df' : '#cf222e', type: m.kind === 'Step' ? 'dashed' : 'solid' },
      label: row >= 0 ? { formatter: text, position: 'end', distance: 4 + 14 * row } : { show: false } };
  });
}

// Line styles in series order: solid and wide at the bottom, then ever narrower dashes drawn on top,
// each with its own symbol, so that two series with equal values both stay visible.
const LINE_STYLES = [
  { type: 'solid', width: 4, symbol: 'circle' },
  { type: 'dashed', width: 2.5, symbol: 'triangle' },
  { type: 'dotted', width: 2, symbol: 'rect' },
  { type: [8, 3, 2, 3], width: 1.5, symbol: 'diamond' },
  { type: [2, 2], width: 1, symbol: 'pin' }
];

// The axis tooltip: the run time as +HH:MM:SS, then one row per series with its value.
function chartTooltip(format) {
  return params => {
    const list = Array.isArray(params) ? params : [params];
    const seen = new Map();
    for (const p of list) if (p.seriesId !== 'cursor') seen.set(p.seriesName, p);
    const text = v => String(v).replace(/[&<>"]/g, ch => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]);
    const rows = [...seen.values()].map(p => p.marker + ' ' + text(p.seriesName) + ': <b>' + format(p.value[1]) + '</b>');
    return '<div class="tip-time">' + hms(list.length ? list[0].axisValue : 0) + '</div>' + rows.join('<br>');
  };
}

// Counts hold their value until the next frame (a step); cost accrues linearly between frames, since
// the rate changes only with an event, and every event that changes the cluster is a frame.
function chart(id, series, wholeNumbers) {
  if (!window.echarts) return;
  const dom = $('#' + id);
  const existing = state.charts[id];
  if (existing) existing.dispose();
  const c = echarts.init(dom, null, { renderer: 'svg' });
  state.charts[id] = c;
  const grid = { left: 50, right: 20, bottom: 60 };
  const marks = markerLines(Math.max(100, dom.clientWidth - grid.left - grid.right));
  const rows = Math.max(1, ...marks.map(m => (m.label.show === false ? 0 : 1 + Math.round((m.label.distance - 4) / 14))));
  grid.top = 40 + 14 * (rows - 1);
  const all = series.map((s, i) => {
    const style = LINE_STYLES[i % LINE_STYLES.length];
    // One point per time, the last frame's of that instant, as the server sends them (RunOverview).
    const data = s.data;
    return {
      name: s.name, type: 'line', step: wholeNumbers ? 'end' : false, data, z: 2 + i,
      symbol: style.symbol, symbolSize: 7, showSymbol: data.length <= 60,
      lineStyle: { type: style.type, width: style.width },
      markLine: i === 0 ? { symbol: 'none', silent: true, data: marks } : undefined
    };
  });
  all.push({ id: 'cursor', name: 'now', type: 'line', data: [], markLine: { symbol: 'none', silent: true,
    lineStyle: { color: '#0969da', width: 2, type: 'solid' }, label: { show: false }, data: [{ xAxis: 0 }] } });
  const format = wholeNumbers ? v => String(Math.round(v)) : v => '$' + Number(v).toFixed(2);
  c.setOption({
    animation: false,
    tooltip: { trigger: 'axis', formatter: chartTooltip(format) },
    legend: { top: 0, data: series.map(s => s.name) },
    grid,
    xAxis: { type: 'value', min: 0, max: state.run.seconds, axisLabel: { formatter: v => hms(v).slice(1) } },
    yAxis: wholeNumbers ? { type: 'value', minInterval: 1 } : { type: 'value' },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
    series: all
  });
}

function renderCharts() {
  const s = state.run.series;
  chart('chart-nodes', [{ name: 'nodes', data: s.nodes }, { name: 'NodeClaims', data: s.nodeClaims }], true);
  chart('chart-gpus', [{ name: 'physical', data: s.gpusPhysical }, { name: 'advertised', data: s.gpusAdvertised },
    { name: 'allocated', data: s.gpusAllocated }, { name: 'idle', data: s.gpusIdle }], true);
  chart('chart-pending', [{ name: 'pending pods', data: s.pendingPods }], true);
  chart('chart-cost', [{ name: 'total', data: s.costCumulative },
    ...Object.entries(s.costByNodePool).map(([pool, data]) => ({ name: 'NodePool ' + pool, data }))]);
}

// ---- heatmap: GPUs allocated of advertised, by node (or group of nodes) and time ----

// What a cell says: its row, its columns' times and the share of GPU time allocated in it.
function heatTip(h, cell) {
  const [col, row, percent, allocated, advertised] = cell;
  const from = col * h.columnSeconds, to = Math.min(h.seconds, from + h.columnSeconds);
  return h.rows[row].label + ', ' + hms(from) + ' to ' + hms(to) + ': ' + percent.toFixed(1)
    + '% of GPU time allocated (on average ' + allocated.toFixed(1) + ' of ' + advertised.toFixed(1) + ' GPUs)';
}

// Colour from white (none allocated) to dark blue (all), with its legend; a blank cell had no GPU
// advertised then. A click filters to the row's nodes and shows the column's start.
async function renderHeatmap() {
  const runId = state.run.id;
  const h = await api('/api/runs/' + runId + '/heatmap');
  if (state.run.id !== runId) return;
  state.heatmap = h;
  $('#heatmap-by').textContent = 'by ' + h.by + ' (' + h.nodes + ' nodes in the run; columns of ' + dur(h.columnSeconds)
    + '; blank: no GPU advertised)';
  if (!window.echarts) return;
  const dom = $('#heatmap');
  dom.style.height = (90 + 18 * Math.max(3, h.rows.length)) + 'px';
  // Not among state.charts: it has no time axis for the cursor.
  if (state.heatmapChart) state.heatmapChart.dispose();
  const c = echarts.init(dom, null, { renderer: 'canvas' });
  state.heatmapChart = c;
  const columns = Math.ceil(h.seconds / h.columnSeconds);
  c.setOption({
    animation: false,
    tooltip: { formatter: p => heatTip(h, p.data).replace(/[&<>"]/g, ch => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]) },
    grid: { left: 10, right: 20, top: 10, bottom: 70, containLabel: true },
    xAxis: { type: 'category', data: Array.from({ length: columns }, (_, i) => hms(i * h.columnSeconds).slice(1)), splitArea: { show: false } },
    yAxis: { type: 'category', inverse: true, data: h.rows.map(r => r.label),
      axisLabel: { width: 220, overflow: 'truncate' } },
    visualMap: { type: 'continuous', dimension: 2, min: 0, max: 100, calculable: false, orient: 'horizontal',
      left: 'center', bottom: 5, itemHeight: 200, text: ['100% of GPUs allocated', '0%'],
      inRange: { color: ['#f7fbff', '#9ecae1', '#3182bd', '#08306b'] } },
    series: [{ type: 'heatmap', data: h.cells, emphasis: { itemStyle: { borderColor: '#cf222e', borderWidth: 1 } } }]
  });
  c.on('click', p => {
    pause();
    setFilter(h.rows[p.data[1]].filter);
    goTo(frameAt(p.data[0] * h.columnSeconds), 'push');
  });
}

// ---- what-if ----

async function whatIf(event) {
  event.preventDefault();
  const form = $('#whatif');
  const knobs = {};
  for (const [k, v] of new FormData(form).entries()) if (String(v).trim() !== '') knobs[k] = String(v).trim();
  $('#whatif-error').textContent = '';
  $('#rerun').disabled = true;
  $('#status').textContent = 'playing the what-if...';
  const base = state.run.id;
  try {
    const made = await api('/api/runs', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(knobs) });
    await loadRuns();
    // The comparison joins the view; the run and the moment shown stay.
    await showCompare({ a: String(base), b: String(made.id) });
    record('push');
    $('#status').textContent = 'what-if ' + made.id + ' played; pick it under Run to watch it';
  } catch (e) {
    $('#whatif-error').textContent = e.message;
    $('#status').textContent = '';
  } finally {
    $('#rerun').disabled = false;
  }
}

// Shows the comparison the view names (null: none); a run that is gone clears it, saying why.
async function showCompare(pair) {
  const same = (x, y) => x === y || (x && y && x.a === y.a && x.b === y.b);
  if (same(pair, state.compare)) return;
  state.compare = pair;
  if (!pair) {
    $('#compare').replaceChildren();
    $('#compare-expectations').replaceChildren();
    return;
  }
  try {
    renderCompare(await api('/api/compare?a=' + encodeURIComponent(pair.a) + '&b=' + encodeURIComponent(pair.b)));
  } catch (e) {
    state.compare = null;
    $('#whatif-error').textContent = 'comparison ' + pair.a + ' with ' + pair.b + ': ' + e.message;
  }
}

function renderCompare(cmp) {
  const a = cmp.a.summary, b = cmp.b.summary, d = cmp.difference;
  const secs = v => (v === null || v === undefined) ? '-' : dur(v);
  const rows = [
    // Money comes written by the server (Money), as every other output writes it, its difference too.
    ['total cost', 'totalCost', a.totalCostText, b.totalCostText, d.totalCost, null, d.totalCostText],
    ['pending p50', 'pendingP50', secs(a.pendingSeconds.p50), secs(b.pendingSeconds.p50), d.pendingSeconds.p50, secs],
    ['pending p90', 'pendingP90', secs(a.pendingSeconds.p90), secs(b.pendingSeconds.p90), d.pendingSeconds.p90, secs],
    ['pending max', 'pendingMax', secs(a.pendingSeconds.max), secs(b.pendingSeconds.max), d.pendingSeconds.max, secs],
    ['still pending', 'stillPending', a.stillPending, b.stillPending, d.stillPending, String],
    ['disruptions', 'disruptions', a.disruptions, b.disruptions, d.disruptions, String],
    ['evictions', 'evictions', a.evictions, b.evictions, d.evictions, String],
    ['idle GPU-hours', 'gpuHoursIdle', a.gpuHoursIdle.toFixed(2), b.gpuHoursIdle.toFixed(2), d.gpuHoursIdle, v => v.toFixed(2)],
    ['expectations passed', 'expectations', a.expectationsPassed + ' of ' + a.expectations, b.expectationsPassed + ' of ' + b.expectations, null, String]
  ];
  // Each service's time with none Ready (and requests lost, where its traffic was modelled): what a
  // cheaper run may cost its users, which the totals above do not show.
  for (const sv of cmp.services || []) {
    const o = sv.outageSeconds;
    rows.push([sv.workload + ': time with none Ready', 'service:' + sv.workload, sv.aText, sv.bText, o,
      dur]);
    if (sv.aLost !== undefined) {
      rows.push([sv.workload + ': requests lost', 'lost:' + sv.workload, sv.aLost, sv.bLost, null, String]);
    }
  }
  const head = el('tr', {}, el('th', { text: '' }),
    el('th', { text: 'run ' + cmp.a.id + ': ' + cmp.a.label }), el('th', { text: 'run ' + cmp.b.id + ': ' + cmp.b.label }),
    el('th', { text: 'difference' }));
  const body = rows.map(([name, key, va, vb, diff, fmt, written]) => {
    const cls = diff === null || diff === undefined || diff === 0 ? '' : (diff < 0 ? 'better' : 'worse');
    const shown = diff === null || diff === undefined ? '' : written !== undefined ? written
      : (diff > 0 ? '+' : diff < 0 ? '-' : '') + fmt(Math.abs(diff));
    return el('tr', { 'data-row': key }, el('td', { text: name }), el('td', { class: 'a', text: String(va) }),
      el('td', { class: 'b', text: String(vb) }), el('td', { class: 'diff ' + cls, text: shown }));
  });
  $('#compare').replaceChildren(head, ...body);
  // Each expectation whose result changed, by name, with what each run saw.
  const changed = (cmp.expectationsChanged || []).map(e => el('li',
    { class: e.passedB ? 'better' : 'worse', 'data-expectation': e.description },
    el('strong', { text: (e.passedB ? 'now passes: ' : 'now fails: ') + e.description }),
    el('span', { text: ' (run ' + cmp.a.id + ': ' + e.a + '; run ' + cmp.b.id + ': ' + e.b + ')' })));
  $('#compare-expectations').replaceChildren(...changed);
}

// ---- when would a job run: gpufleet when's answer (its -o json), asked of the server ----

// The when view, where serve was started with the cluster's manifests (hidden otherwise).
async function loadWhen() {
  const when = await api('/api/when');
  if (!when.available) return;
  $('#when-cluster').textContent = when.cluster;
  $('#when-within').value = when.within;
  $('#when-seeds').value = when.seeds;
  $('#when-section').hidden = false;
}

async function askWhen(event) {
  event.preventDefault();
  const ask = { job: $('#when-job').value };
  for (const k of ['within', 'seeds']) {
    const v = $('#when-' + k).value.trim();
    if (v !== '') ask[k] = v;
  }
  $('#when-error').textContent = '';
  $('#when-ask').disabled = true;
  $('#status').textContent = 'playing the job forward...';
  try {
    renderWhen(await api('/api/when', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ask) }));
    $('#status').textContent = '';
  } catch (e) {
    $('#when-answer').replaceChildren();
    $('#when-error').textContent = e.message;
    $('#status').textContent = '';
  } finally {
    $('#when-ask').disabled = false;
  }
}

// The answer as gpufleet when prints it: p50 and p90 of when Kueue admitted it, when its pods had all
// started, when it was done and what it cost; then each seed's run: nodes, what Karpenter launched
// (instance type, capacity type, zone, price), and for pods that never started the reasons given.
function renderWhen(a) {
  const never = 'not within the horizon';
  const at = v => (v === null || v === undefined) ? never : hms(v);
  const money = v => '$' + v.toFixed(2);
  const rows = [];
  if (a.admittedSeconds) rows.push(['admitted', 'admitted (by Kueue)', at(a.admittedSeconds.p50), at(a.admittedSeconds.p90)]);
  rows.push(['running', 'running (' + a.podsAtOnce + ' pod(s) started)', at(a.runningSeconds.p50), at(a.runningSeconds.p90)]);
  if (a.doneSeconds) rows.push(['done', 'done (' + a.completions + ' completed)', at(a.doneSeconds.p50), at(a.doneSeconds.p90)]);
  rows.push(['cost', 'cost (the cards its pods held)', money(a.dollars.p50), money(a.dollars.p90)]);
  const head = el('p', { class: 'when-job-name', text: a.job + ': ' + a.podsAtOnce + ' pod(s) at once'
    + (a.completions > 0 ? ', ' + a.completions + ' completion(s)' : '') + '; ' + a.runs.length + ' run(s) of '
    + dur(a.horizonSeconds) + ' (seeds ' + a.runs.map(r => r.seed).join(',') + ')' });
  const quantiles = el('table', { id: 'when-quantiles' },
    el('tr', {}, el('th', { text: '' }), el('th', { text: 'p50' }), el('th', { text: 'p90' })),
    ...rows.map(([key, name, p50, p90]) => el('tr', { 'data-row': key }, el('td', { text: name }),
      el('td', { class: 'p50', text: p50 }), el('td', { class: 'p90', text: p90 }))));
  const runs = el('table', { id: 'when-runs' },
    el('tr', {}, ...['seed', 'admitted', 'running', 'done', 'nodes', 'GPU-h', 'cost', 'why not'].map(t => el('th', { text: t }))),
    ...a.runs.map(r => {
      const nodes = el('ul', {}, ...Object.entries(r.nodes).map(([node, launch]) => el('li', { 'data-node': node },
        el('strong', { text: node }), el('span', { text: launch === null ? ': a node already there' : ': Karpenter launched ' + launch }))));
      const why = [];
      if (r.kueuePending) why.push('Kueue: ' + r.kueuePending);
      for (const [said, pods] of Object.entries(r.waiting)) why.push(pods + ' pod(s) never started; last said: ' + said);
      return el('tr', { 'data-seed': String(r.seed) }, el('td', { text: String(r.seed) }),
        el('td', { class: 'admitted', text: 'admittedSeconds' in r ? at(r.admittedSeconds) : '-' }),
        el('td', { class: 'running', text: at(r.runningSeconds) }),
        el('td', { class: 'done', text: a.completions > 0 ? at(r.doneSeconds) : '-' }),
        el('td', { class: 'nodes' }, nodes), el('td', { text: r.gpuHours.toFixed(2) }),
        el('td', { class: 'cost', text: money(r.dollars) }),
        el('td', { class: 'why' }, el('ul', {}, ...why.map(w => el('li', { text: w })))));
    }));
  $('#when-answer').replaceChildren(head, quantiles, runs);
}

// ---- wiring ----

window.addEventListener('DOMContentLoaded', () => {
  $('#play').addEventListener('click', play);
  $('#pause').addEventListener('click', pause);
  $('#next').addEventListener('click', () => { pause(); goTo(state.frame + 1); });
  $('#prev').addEventListener('click', () => { pause(); goTo(state.frame - 1); });
  $('#first').addEventListener('click', () => { pause(); goTo(0); });
  $('#last').addEventListener('click', () => { pause(); goTo(state.run.frameSeconds.length - 1); });
  $('#scrubber').addEventListener('input', e => { pause(); goTo(Number(e.target.value), 'replace'); });
  $('#scrubber').addEventListener('change', () => record('push'));
  const jump = () => {
    const s = parseHms($('#jump-time').value);
    if (s === null) { $('#jump-note').textContent = 'jump: expected a run time such as +00:12:30 or 0:12:30'; return; }
    pause();
    const at = landing(s);
    goTo(at.frame, 'push', at.note);
  };
  $('#jump').addEventListener('click', jump);
  $('#jump-time').addEventListener('keydown', e => { if (e.key === 'Enter') jump(); });
  $('#run-select').addEventListener('change', e => showRun(e.target.value, 'push'));
  $('#whatif').addEventListener('submit', whatIf);
  $('#when').addEventListener('submit', askWhen);
  // A file picked is read here and put in the box, to be read and changed before it is asked.
  $('#when-file').addEventListener('change', e => {
    const f = e.target.files[0];
    if (f) f.text().then(t => { $('#when-job').value = t; });
  });
  $('#node-filter').addEventListener('input', e => { if (setFilter(e.target.value.trim())) refilter('replace'); });
  $('#node-filter').addEventListener('change', () => record('push'));
  $('#more').addEventListener('click', () => { state.limit = Math.min(MAX_SHOWN, state.limit + PAGE); refilter('none'); });
  window.addEventListener('resize', () => [...Object.values(state.charts), state.heatmapChart].forEach(c => c && c.resize()));
  window.addEventListener('popstate', () => { showAddress('none').catch(e => { $('#status').textContent = e.message; }); });
  loadRuns().then(() => showAddress('replace')).then(loadWhen).then(() => { document.body.dataset.ready = 'true'; })
    .catch(e => { $('#status').textContent = 'could not load the run: ' + e.message; });
});
