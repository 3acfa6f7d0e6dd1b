// The one WebSocket to the server (/ws): requests with a `req` number whose
// reply comes back as a promise, every other message to the listeners, and an
// automatic reconnect with a growing delay. After each (re)connection the
// `onOpen` hooks run, so the page can rejoin its game.

export class Connection {
  constructor(url = defaultUrl()) {
    this.url = url;
    this.ws = null;
    this.nextReq = 1;
    this.pending = new Map(); // req -> {resolve, reject}
    this.listeners = new Set();
    this.openHooks = new Set();
    this.statusHooks = new Set();
    this.queue = []; // messages sent while closed
    this.delay = 250;
    this.connected = false;
    this.connect();
  }

  connect() {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.connected = true;
      this.delay = 250;
      this.setStatus("connected");
      for (const hook of this.openHooks) hook();
      const queued = this.queue;
      this.queue = [];
      for (const text of queued) ws.send(text);
    });
    ws.addEventListener("message", (event) => this.dispatch(event.data));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.connected = false;
      this.setStatus("reconnecting");
      // Requests in flight are lost with the socket: fail them so nobody waits.
      for (const { reject } of this.pending.values()) reject(new Error("connection lost"));
      this.pending.clear();
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 4000);
    });
  }

  dispatch(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.req !== undefined && this.pending.has(msg.req)) {
      const { resolve, reject, expect } = this.pending.get(msg.req);
      // A request's reply may be followed by a state with the same req: the
      // promise takes the reply of the expected type (or the error).
      if (msg.type === "error") {
        this.pending.delete(msg.req);
        reject(new Error(msg.message || "error"));
      } else if (!expect || msg.type === expect) {
        this.pending.delete(msg.req);
        resolve(msg);
      }
    }
    for (const listener of this.listeners) listener(msg);
  }

  // Sends a message; the promise holds the reply of type `expect` (any type
  // when not given) or rejects with the server's error message.
  request(msg, expect) {
    const req = this.nextReq++;
    const text = JSON.stringify({ ...msg, req });
    const promise = new Promise((resolve, reject) => {
      this.pending.set(req, { resolve, reject, expect });
      this.sendText(text);
    });
    promise.req = req;
    return promise;
  }

  // Stops waiting for the reply to a request (its promise stays unsettled).
  forget(req) {
    this.pending.delete(req);
  }

  // Sends a message without waiting for a reply.
  send(msg) {
    this.sendText(JSON.stringify(msg));
  }

  sendText(text) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
  }

  onMessage(listener) {
    this.listeners.add(listener);
  }

  onOpen(hook) {
    this.openHooks.add(hook);
  }

  onStatus(hook) {
    this.statusHooks.add(hook);
  }

  setStatus(status) {
    for (const hook of this.statusHooks) hook(status);
  }
}

function defaultUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}
