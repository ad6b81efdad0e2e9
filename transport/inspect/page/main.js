// The inspector page: draws every machine from machines.json, follows requests live over the trace
// channel, and replays a chosen request step by step.
import { connectTraces } from './channel.js';
import { drawMachine, resolveEdge, resolveState } from './diagram.js';
import { RequestLog, viewAt } from './traces.js';

const $ = (id) => document.getElementById(id);
const log = new RequestLog();
/** Drawn machines by id: { graph, show }. */
const diagrams = new Map();
let selected = null;
let step = 0;
let playing = null;
let renderQueued = false;
let latest = null;

async function drawMachines() {
  const container = $('machines');
  try {
    const response = await fetch('machines.json');
    if (!response.ok) throw new Error(`machines.json: ${response.status}`);
    const graphs = await response.json();
    // Without elkjs (an optional dependency) the server sends, in its place, the reason to show here.
    if (window.ELK === undefined) throw new Error(window.SIGNALBOX_ELK_MISSING ?? 'elk.bundled.js did not load');
    // elk.bundled.js runs the layout in this thread (no worker): nothing to fetch, nothing to allow.
    const elk = new window.ELK();
    container.replaceChildren();
    for (const graph of graphs) {
      const section = document.createElement('section');
      section.className = 'machine';
      section.dataset.machine = graph.id;
      const title = document.createElement('h2');
      title.textContent = graph.title;
      const small = document.createElement('small');
      small.textContent = ` — ${graph.states.length} states, ${graph.transitions.length} transitions`;
      title.append(small);
      section.append(title);
      container.append(section);
      const drawn = await drawMachine(graph, elk);
      section.append(drawn.svg);
      diagrams.set(graph.id, { graph, show: drawn.show });
    }
    container.setAttribute('aria-busy', 'false');
    container.dataset.ready = 'true';
  } catch (error) {
    const p = document.createElement('p');
    p.className = 'error';
    p.textContent = `Could not draw the machines: ${error.message}`;
    container.replaceChildren(p);
    container.setAttribute('aria-busy', 'false');
  }
}

function show(request, index) {
  for (const [id, d] of diagrams) {
    d.show(request && request.machine === id ? viewAt(request, index, d.graph, resolveState, resolveEdge) : null);
  }
}

function renderSoon() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    renderRequests();
    if (selected !== null) renderSteps();
    else if ($('follow').checked && latest !== null) show(latest);
  });
}

function fmtMs(ms) {
  return ms === null || ms === undefined ? '' : ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(1)} ms`;
}

function renderRequests() {
  const list = $('requests');
  const items = log.list().map((r) => {
    const li = document.createElement('li');
    li.dataset.requestId = r.id;
    li.dataset.transport = r.transport;
    li.dataset.states = r.steps.map((s) => s.state).join(',');
    li.dataset.status = r.status === null ? '' : String(r.status);
    li.dataset.done = String(r.done);
    if (selected === r.id) li.classList.add('selected');
    const transport = document.createElement('span');
    transport.className = `transport ${r.transport}`;
    transport.textContent = r.transport;
    const method = document.createElement('span');
    method.className = 'method';
    method.textContent = r.method;
    const path = document.createElement('span');
    path.className = 'path';
    path.textContent = r.path;
    path.title = r.path;
    const result = document.createElement('span');
    result.className = 'result';
    const code = document.createElement('span');
    code.className = 'status-code';
    code.textContent = r.done ? String(r.status) : '…';
    // Where it ended, before the common tail (responding → done in the request machine).
    const end = r.done && r.steps.length >= 3 ? r.steps[r.steps.length - 3].state : '';
    li.title = r.steps.map((s) => s.state).join(' → ');
    result.append(code, ` ${end} ${fmtMs(r.ms)}`);
    li.append(transport, method, path, result);
    li.addEventListener('click', () => select(r.id));
    return li;
  });
  list.replaceChildren(...items);
  $('requests-empty').hidden = items.length > 0;
}

function select(id) {
  stop();
  selected = id;
  step = 0;
  $('follow').checked = false;
  $('replay').hidden = false;
  renderRequests();
  renderSteps();
}

function renderSteps() {
  const request = log.get(selected);
  if (request === null) {
    $('replay').hidden = true;
    selected = null;
    return;
  }
  step = Math.min(step, Math.max(0, request.steps.length - 1));
  $('replay-title').textContent = `${request.method} ${request.path} → ${request.done ? request.status : '…'} (${request.transport})`;
  $('step-counter').textContent = `step ${step + 1} of ${request.steps.length}`;
  const graph = diagrams.get(request.machine)?.graph;
  const items = request.steps.map((s, i) => {
    const li = document.createElement('li');
    li.dataset.state = s.state;
    li.dataset.step = String(i);
    li.className = i === step ? 'current' : i > step ? 'future' : 'past';
    li.append(s.state);
    const at = document.createElement('span');
    at.className = 'at';
    at.textContent = `+${fmtMs(s.at)}`;
    li.append(at);
    if (s.via) {
      const via = document.createElement('span');
      via.className = 'via';
      const edge = graph ? graph.transitions.find((t) => t.id === resolveEdge(graph, s.via)) : null;
      via.textContent = `via ${edge ? edge.label : s.via.event}${s.via.guard ? ` [${s.via.guard}]` : ''}`;
      li.append(via);
    }
    li.addEventListener('click', () => {
      stop();
      step = i;
      renderSteps();
    });
    return li;
  });
  $('steps').replaceChildren(...items);
  items[step]?.scrollIntoView({ block: 'nearest' });
  $('steps').dataset.current = request.steps[step]?.state ?? '';
  show(request, step);
}

function move(to) {
  const request = log.get(selected);
  if (request === null) return;
  step = Math.max(0, Math.min(request.steps.length - 1, to));
  renderSteps();
}

function stop() {
  if (playing !== null) clearInterval(playing);
  playing = null;
  $('step-play').textContent = '▶ play';
}

function play() {
  if (playing !== null) return stop();
  const request = log.get(selected);
  if (request === null) return;
  if (step >= request.steps.length - 1) step = 0;
  $('step-play').textContent = '❚❚ pause';
  renderSteps();
  playing = setInterval(() => {
    const current = log.get(selected);
    if (current === null || step >= current.steps.length - 1) return stop();
    move(step + 1);
  }, 450);
}

$('step-first').addEventListener('click', () => { stop(); move(0); });
$('step-prev').addEventListener('click', () => { stop(); move(step - 1); });
$('step-next').addEventListener('click', () => { stop(); move(step + 1); });
$('step-last').addEventListener('click', () => { stop(); move(Infinity); });
$('step-play').addEventListener('click', play);
$('follow').addEventListener('change', () => {
  if (!$('follow').checked) return;
  stop();
  selected = null;
  $('replay').hidden = true;
  renderRequests();
  show(latest);
});
$('clear').addEventListener('click', () => {
  stop();
  log.clear();
  selected = null;
  latest = null;
  $('replay').hidden = true;
  show(null);
  renderRequests();
});

function record(events) {
  for (const event of events) {
    const request = log.add(event);
    if (request !== null) latest = request;
  }
  renderSoon();
}

await drawMachines();
connectTraces({
  onStatus(state) {
    const status = $('status');
    status.dataset.state = state;
    status.textContent = state === 'live' ? 'live' : state === 'connecting' ? 'connecting…' : 'disconnected, retrying…';
  },
  onHello(hello) {
    $('engine').textContent = `engine: ${hello.engine}`;
    record(hello.recent);
  },
  onEvents: record,
  onDropped(count) {
    const dropped = $('dropped');
    dropped.hidden = false;
    const total = Number(dropped.dataset.total ?? 0) + count;
    dropped.dataset.total = String(total);
    dropped.textContent = `${total} events dropped (the page could not keep up)`;
  },
});
