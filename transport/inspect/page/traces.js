// The page's record of requests, built from the trace channel's events (no DOM: it runs in Node for
// its tests too). Each request keeps its steps: the states it entered, in order, each with the
// transition that led there, and the time since the request began.

export const MAX_REQUESTS = 200;

export class RequestLog {
  constructor(max = MAX_REQUESTS) {
    this.max = max;
    /** Requests by id, oldest first. */
    this.requests = new Map();
  }

  /** Records one event; returns the request it belongs to, or null when its request is unknown. */
  add(event) {
    if (event.kind === 'request') {
      const request = {
        id: event.id,
        machine: event.machine,
        method: event.method,
        path: event.path,
        transport: event.transport,
        started: event.t,
        steps: [],
        status: null,
        ms: null,
        done: false,
      };
      this.requests.set(event.id, request);
      while (this.requests.size > this.max) this.requests.delete(this.requests.keys().next().value);
      return request;
    }
    const request = this.requests.get(event.id);
    if (request === undefined) return null;
    if (event.kind === 'transition') {
      request.pending = { from: event.from, to: event.to, event: event.event, guard: event.guard };
    } else if (event.kind === 'state') {
      // Both engines report a transition just before the state it enters.
      const via = request.pending && request.pending.to === event.state ? request.pending : null;
      request.steps.push({ state: event.state, via, at: event.t - request.started });
      request.pending = null;
    } else if (event.kind === 'done') {
      request.status = event.status;
      request.ms = event.ms;
      request.done = true;
    }
    return request;
  }

  /** Newest first. */
  list() {
    return [...this.requests.values()].reverse();
  }

  get(id) {
    return this.requests.get(id) ?? null;
  }

  clear() {
    this.requests.clear();
  }
}

/**
 * What the diagram shows for `request` up to step `index` (the last step when omitted): the state
 * entered at that step is active, earlier ones visited, and the transitions taken so far marked.
 * `resolveState`/`resolveEdge` map trace names to the graph's ids (diagram.js).
 */
export function viewAt(request, index, graph, resolveState, resolveEdge) {
  const last = Math.min(index ?? request.steps.length - 1, request.steps.length - 1);
  const visited = new Set();
  const taken = new Set();
  let lastEdge = null;
  for (let i = 0; i <= last; i++) {
    const step = request.steps[i];
    const id = resolveState(graph, step.state);
    if (id !== null) visited.add(id);
    if (step.via) {
      lastEdge = resolveEdge(graph, step.via);
      if (lastEdge !== null) taken.add(lastEdge);
    }
  }
  const active = last >= 0 ? resolveState(graph, request.steps[last].state) : null;
  return { active, visited, taken, last: lastEdge };
}
