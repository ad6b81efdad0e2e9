// The trace channel's client: a WebSocket to `trace` beside the page, reopened after a pause when it
// drops (the server restarting, a laptop waking up). Frames are described in trace-channel.ts.

export function connectTraces({ onHello, onEvents, onDropped, onStatus }) {
  const url = new URL('trace', document.baseURI);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  let delay = 500;
  const open = () => {
    onStatus('connecting');
    const ws = new WebSocket(url);
    ws.addEventListener('open', () => {
      delay = 500;
    });
    ws.addEventListener('message', (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame.type === 'hello') {
        onStatus('live');
        onHello(frame);
      } else if (frame.type === 'events') onEvents(frame.events);
      else if (frame.type === 'dropped') onDropped(frame.events);
    });
    ws.addEventListener('close', () => {
      onStatus('disconnected');
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 10_000);
    });
  };
  open();
}
