// The page's own script (serve-web, tui_tictactoe/servers/web/page/): runs after
// textual-serve's textual.js has loaded and before its window.onload starts the terminal.
//
// textual.js keeps its terminal and its websocket to itself, so this script works around it
// through the page: it sets the terminal's data attributes before onload reads them (the
// websocket's address relative to the page, a font size that leaves the game its minimum
// columns), and it gives the page a WebSocket of its own (a subclass of the browser's) that
// reads the server's close code and reason into the "ended" panel, holds keys typed before
// the socket opens, and drops a message larger than the server takes (a paste) instead of
// letting it end the game.
//
// Rooms (tui_tictactoe/servers/web/rooms.py): the page's own parameters (?lobby, ?room=new,
// ?join=CODE, ?watch=CODE, ?match, with board= and public=) go on to the websocket's address.
// A guest's seat is kept in this tab's session storage, as the server hands it over
// (["seat", {code, token}]): a reload asks for ?join=CODE&seat=1 and sends the token as the
// socket's first message, never in an address.
"use strict";

(() => {
  const terminal = document.getElementById("terminal");
  const dataset = terminal.dataset;
  const minColumns = Number(dataset.minColumns) || 60;
  const minRows = Number(dataset.minRows) || 19;
  const maxMessage = Number(dataset.maxMessage) || 65536;
  const CELL_WIDTH = 0.6; // Roboto Mono's advance, in ems
  const CELL_HEIGHT = 1.2; // a line's height, in ems, with xterm's rounding
  const LARGEST_FONT = 16;
  const SMALLEST_FONT = 6;

  // textual.js would fetch any URL a link gives as ?ping= (with a Referer) before it connects,
  // and fail on ?delay= (this page has no Start button): neither is read.
  const query = new URLSearchParams(window.location.search);
  if (query.has("ping") || query.has("delay")) {
    query.delete("ping");
    query.delete("delay");
    const rest = query.toString();
    const page = window.location.pathname + (rest ? "?" + rest : "") + window.location.hash;
    window.history.replaceState(null, "", page);
  }

  // The websocket of the page's own address (ws://, or wss:// under https), so that a
  // page opened as localhost while the public URL says 127.0.0.1 connects all the same.
  const socketUrl = new URL("ws", window.location.href);
  socketUrl.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
  socketUrl.search = "";
  dataset.sessionWebsocketUrl = socketUrl.href;

  // Where the tab goes first: its seat back if it holds one, else what the address asks.
  const SEAT_KEY = "tui-tictactoe.seat";
  const ROOM_PARAMETERS = ["lobby", "room", "join", "watch", "match", "board", "public"];
  function keptSeat() {
    try {
      const seat = JSON.parse(window.sessionStorage.getItem(SEAT_KEY) || "null");
      return seat && typeof seat.code === "string" && typeof seat.token === "string" && seat.code
        ? seat
        : null;
    } catch (error) {
      return null; // storage off, or not ours
    }
  }
  function keepSeat(seat) {
    try {
      if (seat && seat.code && seat.token) {
        window.sessionStorage.setItem(SEAT_KEY, JSON.stringify(seat));
      } else {
        window.sessionStorage.removeItem(SEAT_KEY);
      }
    } catch (error) {
      // no storage: a reload then starts afresh
    }
  }
  const seat = keptSeat();
  function withRoom(url) {
    const address = new URL(url, window.location.href);
    if (seat) {
      address.searchParams.set("join", seat.code);
      address.searchParams.set("seat", "1");
      return address.href;
    }
    for (const name of ROOM_PARAMETERS) {
      if (query.has(name)) address.searchParams.set(name, query.get(name));
    }
    return address.href;
  }

  // The largest font (up to 16 px) at which the window holds the game's minimum size.
  function fontSize() {
    const width = window.innerWidth;
    const height = window.innerHeight;
    const across = Math.floor(width / (minColumns * CELL_WIDTH) - 0.5);
    const down = Math.floor(height / (minRows * CELL_HEIGHT));
    return Math.max(SMALLEST_FONT, Math.min(LARGEST_FONT, across, down));
  }
  dataset.fontSize = String(fontSize());

  // What the page says for each way a game ends or a tab is refused (the close codes of
  // tui_tictactoe/servers/web/guard.py): a headline and what to do. The server's reason,
  // in its own words, goes between them.
  const ENDINGS = {
    1000: ["The game has ended.", "Reload the page to play again."],
    1001: [
      "The server is shutting down.",
      "Reload the page in a few seconds: if the server is restarting, a new game starts.",
    ],
    1006: [
      "The connection to the server was lost.",
      "Check your connection, then reload the page.",
    ],
    1009: ["The page sent the server more than it takes at once.", "Reload the page to play again."],
    1011: ["The game stopped on the server.", "Reload the page to try again."],
    4400: [
      "This page's address asks for what the server cannot do.",
      "Check the room's code in the address, or open the page without its ?… part.",
    ],
    4000: ["You left the game.", "Reload the page to play again."],
    4001: ["This server restarted after your round.", "Reload the page to play again."],
    4008: ["The game was closed for want of input.", "Reload the page to play again."],
    4403: [
      "This page is not the server's own address.",
      "Open the game at the address its host gave (the page's address must match it).",
    ],
    4429: [
      "You have too many games on this server at once.",
      "Close one of your other tabs playing here, then reload this page.",
    ],
    4503: ["The server is full.", "Reload the page in a minute or two to try again."],
    4513: [
      "The server is restarting.",
      "Reload the page in a few seconds (or open the game on another host).",
    ],
  };

  const panel = document.querySelector(".ended");
  function showEnding(code, reason) {
    const [headline, advice] = ENDINGS[code] || ENDINGS[reason ? 1000 : 1006];
    panel.querySelector(".headline").textContent = headline;
    // the headline says it all when the game ended itself (the player quit, or a drain)
    const own = code === 4000 || code === 4001;
    panel.querySelector(".reason").textContent = reason && !own
      ? reason.charAt(0).toUpperCase() + reason.slice(1) + "."
      : "";
    panel.querySelector(".advice").textContent = advice;
    panel.dataset.code = String(code);
  }
  panel.querySelector(".reload").addEventListener("click", () => {
    window.location.reload();
  });

  const dropped = document.querySelector(".dropped");
  let droppedTimer = null;
  function sayDropped(bytes) {
    const kib = Math.ceil(bytes / 1024);
    dropped.textContent =
      `That paste (${kib} KiB) is larger than the game takes at once ` +
      `(${maxMessage / 1024} KiB): it was not sent. The game goes on.`;
    dropped.classList.add("-shown");
    clearTimeout(droppedTimer);
    droppedTimer = setTimeout(() => dropped.classList.remove("-shown"), 8000);
  }

  const BrowserSocket = window.WebSocket;
  class GameSocket extends BrowserSocket {
    constructor(url, protocols) {
      super(withRoom(url), protocols);
      this.waiting = []; // keys typed before the socket opened
      this.addEventListener("open", () => {
        if (seat) super.send(JSON.stringify(["seat", seat.token])); // before anything else
        for (const data of this.waiting.splice(0)) super.send(data);
        focusTerminal();
      });
      this.addEventListener("message", (event) => {
        if (typeof event.data === "string" && event.data.startsWith('["seat"')) {
          const said = JSON.parse(event.data)[1];
          keepSeat(said && { code: String(said.code), token: String(said.token) });
        }
      });
      this.addEventListener("close", (event) => showEnding(event.code, event.reason));
    }

    send(data) {
      const bytes = typeof data === "string" && data.length * 3 > maxMessage
        ? new Blob([data]).size : 0;
      if (bytes > maxMessage) {
        sayDropped(bytes);
        return;
      }
      if (this.readyState === BrowserSocket.CONNECTING) {
        this.waiting.push(data);
      } else if (this.readyState === BrowserSocket.OPEN) {
        super.send(data);
      }
    }
  }
  window.WebSocket = GameSocket;

  // Keys go to the terminal from the start: no click needed first (a click plays a cell).
  function focusTerminal() {
    const input = terminal.querySelector("textarea");
    if (input && document.activeElement !== input) input.focus();
  }
  window.addEventListener("load", focusTerminal);
})();
