// The rooms WebSocket (docs/protocol.md): hello with the seat token and the last version seen,
// reconnection with back-off, and resync through hello{last_version} after every drop.
import { tokenKey } from "../dom.js";

const BACKOFF_MS = [300, 700, 1500, 3000, 5000];
const PING_MS = 20000;

export class RoomClient extends EventTarget {
  constructor(roomId) {
    super();
    this.roomId = roomId;
    this.version = null;
    this.attempt = 0;
    this.socket = null;
    this.open = false;
    this.closedForGood = false;
    this.nextId = 1;
  }

  get token() {
    return localStorage.getItem(tokenKey(this.roomId));
  }

  set token(value) {
    if (value) localStorage.setItem(tokenKey(this.roomId), value);
    else localStorage.removeItem(tokenKey(this.roomId));
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.roomId)}/`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.open = true;
      this.attempt = 0;
      socket.send(JSON.stringify({type: "hello", token: this.token, last_version: this.version}));
      this.emit("connection", {up: true});
      clearInterval(this.pinger);
      // A ping now and then lets a half-dead connection fail instead of hanging.
      this.pinger = setInterval(() => this.send("ping"), PING_MS);
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      // A replaced socket may close after its successor opened: it must not mark that one shut.
      if (this.socket !== socket) return;
      this.open = false;
      clearInterval(this.pinger);
      if (event.code === 4404) {
        this.closedForGood = true;
        this.emit("gone", {});
        return;
      }
      if (this.closedForGood) return;
      this.emit("connection", {up: false});
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  // Tests and the page's own "offline" handling use this to drop the socket; it reconnects.
  drop() {
    if (this.socket) this.socket.close();
  }

  close() {
    this.closedForGood = true;
    if (this.socket) this.socket.close();
  }

  receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    if (typeof message.version === "number" && (this.version === null || message.version > this.version)) {
      this.version = message.version;
    }
    if (message.type === "joined" && message.token) this.token = message.token;
    if (message.type === "error" && message.code === "bad_token") this.token = null;
    this.emit(message.type, message);
  }

  // Returns the message's id, or null when there is no open connection to carry it (the page
  // says so; a move is never queued to land later on a table that has moved on).
  send(type, fields = {}) {
    if (!this.open) return null;
    const id = `c${this.nextId++}`;
    this.socket.send(JSON.stringify({type, id, ...fields}));
    return id;
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, {detail}));
  }
}
