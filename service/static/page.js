// The page: start or resume a game, stream the webcam to the live socket, draw what comes back.
"use strict";

const $ = (id) => document.getElementById(id);
let game = null;      // the game as the service last described it
let socket = null;
let waitingForAnswer = false;
let framesTimer = null;  // sends the camera's frames, once the camera is on

async function call(method, url, body) {
  const options = { method, headers: {} };
  if (body instanceof FormData) options.body = body;
  else if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(url, options);
  const data = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail));
  return data;
}

function setStatus(status, message) {
  $("status").dataset.status = status;
  $("status").textContent = status.replace(/_/g, " ");
  $("message").textContent = message || "";
  // Before a game is shown its message line is hidden: an error there (a game refused, a game
  // that cannot be resumed) is said on the start panel.
  $("start-error").textContent = $("play").hidden && status === "error" ? message : "";
}

function cell(text, tag) { const td = document.createElement(tag); td.textContent = text; return td; }
function row(cells, className, tag = "td") {
  const tr = document.createElement("tr");
  cells.forEach((c) => tr.appendChild(cell(c, tag)));
  if (className) tr.className = className;
  return tr;
}

function showGame(data) {
  if (!game || game.id !== data.id) $("advice").textContent = "";  // another game's camera advice
  game = data;
  location.hash = "game=" + data.id;
  $("start").hidden = true;
  $("play").hidden = false;
  $("leave").hidden = false;
  $("round").textContent = data.round;
  $("turn").textContent = data.winner !== null ? data.players[data.winner] + " wins the game"
    : data.turn === null ? "waiting for the opening tile" : data.players[data.turn] + " to play";
  const scores = $("scores");
  scores.replaceChildren(row(["Player", "Score", "Tiles in hand"], "", "th"));
  data.players.forEach((name, i) => scores.appendChild(
    row([name, data.scores[i], data.hand_counts[i]], i === data.turn ? "turn" : "")));
  const sheet = $("sheet");
  sheet.replaceChildren(row(["Round", "What happened", ...data.players], "", "th"));
  data.score_sheet.forEach((line) => sheet.appendChild(
    row([line.round, line.description, ...line.totals.map((t, i) => `${t} (${line.deltas[i] >= 0 ? "+" : ""}${line.deltas[i]})`)])));
  $("sheet-csv").href = `/v1/games/${data.id}/sheet.csv`;
  $("game-rules-name").textContent = data.rules + (data.max_number === 6 ? ", numbers 0 to 6" : "") +
    (data.rounds ? `, ${data.rounds} rounds at most` : "");
  showSentences($("game-rules-said"), data.rules_described);
  showLastTile(data);
  const opener = $("opener");
  if (opener.options.length !== data.players.length) {
    opener.replaceChildren(...data.players.map((name, i) => new Option(name, i)));
  }
  const settling = data.phase === "settling";
  $("settle").hidden = !settling;
  if (settling && !$("racks").children.length) {
    $("racks").replaceChildren(...data.players.map((name, i) => {
      const label = document.createElement("label");
      label.textContent = name;
      const input = document.createElement("input");
      input.type = "number"; input.min = 0; input.value = 0; input.dataset.player = i;
      label.appendChild(input);
      return label;
    }));
  } else if (!settling) $("racks").replaceChildren();
  // Keyed by the events themselves: a correction rewrites one without adding any.
  showBoard(`/v1/games/${data.id}/board.svg?v=${fingerprint(JSON.stringify([data.events, data.provisional_cells]))}`);
  setStatus(data.live.status, data.live.message);
  showChoices(data.live.choices);
}

// What a preset means, in the service's words: players choose among presets they may not know.
const presetsSaid = {};
async function describePreset(name, list) {
  if (list.dataset.preset === name) return;
  list.dataset.preset = name;
  let sentences;
  try {
    sentences = presetsSaid[name] ??= (await call("GET", `/v1/rules/${encodeURIComponent(name)}`)).described;
  } catch (error) { sentences = ["The rules cannot be described: " + error.message]; }
  if (list.dataset.preset !== name) return;  // another preset was chosen meanwhile
  showSentences(list, sentences);
}

function showSentences(list, sentences) {
  list.replaceChildren(...sentences.map((sentence) => {
    const item = document.createElement("li");
    item.textContent = sentence;
    return item;
  }));
}

// The drawing is put in the page itself (not an image) so that a click tells which tile it hit.
let boardShown = null;
async function showBoard(url) {
  if (url === boardShown) return;
  boardShown = url;
  try {
    const response = await fetch(url);
    if (response.ok && url === boardShown) $("board").innerHTML = await response.text();
  } catch (error) { setStatus("error", "the board cannot be drawn: " + error.message); }
}

// A tile clicked on the drawing fills the form that corrects a misread tile; an empty cell
// beside the board, the same form to place a tile the camera cannot read there.
function pickTile(event) {
  const picked = event.target.closest("g[data-cell]");
  if (!picked) return;
  $("correct-cell").value = picked.dataset.cell.replace(",", ", ");
  $("correct-corners").value = (picked.dataset.corners || "").replace(/,/g, ", ");
  $("by-hand").open = true;
  $("correct-corners").focus();
  showFitting(picked.dataset.cell.split(",").map(Number), picked.dataset.corners);
}

// The tiles the rest of the board allows in the picked cell, a button each, so that a tile is
// placed or corrected with one click instead of its numbers typed (none where any tile fits:
// the round's first tile).
async function showFitting(cell, corners) {
  const picked = $("correct-cell").value;
  $("fitting").replaceChildren();
  let tiles;
  try { tiles = await call("GET", `/v1/games/${game.id}/fitting?m=${cell[0]}&k=${cell[1]}`); }
  catch (error) { setStatus("error", error.message); return; }
  if ($("correct-cell").value !== picked) return;  // another cell was picked meanwhile
  const buttons = tiles.filter((tile) => String(tile.corners) !== corners).map((tile) => button(named(tile), () => {
    $("fitting").replaceChildren();
    if (corners) event({ kind: "correct", ...tile });
    else place(tile);
  }));
  if (buttons.length) $("fitting").replaceChildren(corners ? "Or one of these:" : "Tiles that fit here:", ...buttons);
}

function fingerprint(text) {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash >>> 0;
}

// A reading drawn on a canvas the size of its photo (or of the video under it): each tile's
// outline and numbers, the tile added in blue, tiles that break a rule in red, tiles read
// unsurely dashed, outlines found but not read in orange, face-down tiles in purple.
const INK = { board: "#2ecc71", loose: "#00d0ff", added: "#3498db", bad: "#e74c3c", unread: "#f39c12", down: "#9b59b6" };
function drawReading(canvas, reading) {
  const ctx = canvas.getContext("2d");
  const sx = canvas.width / reading.image.width, sy = canvas.height / reading.image.height;
  const key = (cell) => (cell ? cell.join(",") : null);
  const bad = new Set(reading.violations.flatMap((v) => v.cells.map(key)));
  const added = reading.last_placement ? key(reading.last_placement.cell) : null;
  const line = Math.max(2, canvas.width / 640);
  const outline = (points, colour, dashed, width = line) => {
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.setLineDash(dashed ? [3 * width, 2 * width] : []);
    ctx.beginPath();
    points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    ctx.stroke();
  };
  const scaled = (corners) => corners.map(([x, y]) => [x * sx, y * sy]);
  reading.face_down.forEach((back) => outline(scaled(back.corners), INK.down, false));
  reading.unread.forEach((tile) => outline(scaled(tile.corners), INK.unread, true));
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const tile of reading.tiles) {
    const at = key(tile.cell), isAdded = added !== null && at === added;
    const xy = scaled(tile.corners.map((c) => [c.x, c.y]));
    const colour = bad.has(at) ? INK.bad : isAdded ? INK.added : tile.cell ? INK.board : INK.loose;
    outline(xy, colour, tile.ambiguous, isAdded ? 2 * line : line);
    const side = Math.hypot(xy[1][0] - xy[0][0], xy[1][1] - xy[0][1]);
    const size = Math.max(9, side * 0.3);
    ctx.font = `bold ${size}px sans-serif`;
    const cx = (xy[0][0] + xy[1][0] + xy[2][0]) / 3, cy = (xy[0][1] + xy[1][1] + xy[2][1]) / 3;
    tile.corners.forEach((c, i) => {
      const x = xy[i][0] * 0.62 + cx * 0.38, y = xy[i][1] * 0.62 + cy * 0.38;
      ctx.fillStyle = "#000b";
      ctx.fillRect(x - size * 0.4, y - size * 0.55, size * 0.8, size * 1.1);
      ctx.fillStyle = "#fff";
      ctx.fillText(c.value, x, y);
    });
  }
  ctx.setLineDash([]);
}

// The live view: the reading that last counted, over the video.
function drawOverlay(reading) {
  const canvas = $("overlay"), video = $("video");
  canvas.width = video.videoWidth || 640;
  canvas.height = video.videoHeight || 480;
  canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
  if (reading) drawReading(canvas, reading);
}

// A photo with its reading drawn on it, so that a misread tile shows where it lies; false where
// this browser cannot show the photo (HEIC in Chromium), which then keeps the text alone. A
// phone's photo is drawn at most 1600 pixels long: a page shows no more, and a 50-megapixel
// canvas costs a phone 200 MB.
const PHOTO_DRAWN_AT_MOST = 1600;
async function drawPhotoRead(canvas, file, reading) {
  let picture;
  try { picture = await createImageBitmap(file); } catch { return false; }
  const scale = Math.min(1, PHOTO_DRAWN_AT_MOST / Math.max(picture.width, picture.height));
  canvas.width = Math.round(picture.width * scale);
  canvas.height = Math.round(picture.height * scale);
  canvas.getContext("2d").drawImage(picture, 0, 0, canvas.width, canvas.height);
  if (reading) drawReading(canvas, reading);
  return true;
}

function sendFrame() {
  const video = $("video");
  if (!socket || socket.readyState !== WebSocket.OPEN || waitingForAnswer || !video.videoWidth) return;
  const canvas = document.createElement("canvas");
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext("2d").drawImage(video, 0, 0);
  waitingForAnswer = true;
  canvas.toBlob((blob) => {
    if (blob && socket.readyState === WebSocket.OPEN) socket.send(blob);
    else waitingForAnswer = false;
  }, "image/jpeg", 0.9);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/v1/games/${game.id}/live`);
  socket.onopen = () => socket.send(JSON.stringify({ opener: Number($("opener").value || 0) }));
  socket.onmessage = (event) => {
    waitingForAnswer = false;
    const answer = JSON.parse(event.data);
    if (answer.game) showGame(answer.game);
    if (answer.reading !== undefined) drawOverlay(answer.reading);
    setStatus(answer.status, answer.message);
    showAdvice(answer.advice);
  };
  socket.onclose = (event) => {
    socket = null;
    waitingForAnswer = false;
    // 4404: the game was deleted (another tab); 4409: it is stored but cannot be replayed. Either
    // way connecting again gets the same answer: say why and stop. 4001: another page streams
    // this game's camera now; this one stops, and its camera button takes the stream back.
    if (event.code === 4404 || event.code === 4409) setStatus("error", event.reason + ": start or resume another game");
    else if (event.code === 4001) {
      setStatus("error", event.reason + ": press the camera button to stream from this page again");
      $("camera").disabled = false;
    } else setTimeout(() => game && connect(), 2000);
  };
}

// Shows the camera ``deviceId`` (none: the one facing away from the screen), remembers it on
// this browser, and offers the others. It is asked for 1920-wide pictures, and gives the nearest
// it has: a whole table's tiles read far better with 1.5 times the pixels of 1280
// (docs/decisions.md, *More of the camera's pixels*).
async function openCamera(deviceId) {
  const wanted = deviceId ? { deviceId: { exact: deviceId } } : { facingMode: "environment" };
  const stream = await navigator.mediaDevices.getUserMedia({ video: { ...wanted, width: 1920 } });
  const before = $("video").srcObject;
  if (before) before.getTracks().forEach((track) => track.stop());
  $("video").srcObject = stream;
  const opened = stream.getVideoTracks()[0].getSettings().deviceId || "";
  if (opened) localStorage.setItem("camera", opened);
  // Cameras are named only once the page may use one; the choice is offered where there are two.
  const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "videoinput");
  $("cameras").replaceChildren(...cameras.map((d, i) => new Option(d.label || `camera ${i + 1}`, d.deviceId)));
  $("cameras").value = opened;
  $("camera-choice").hidden = cameras.length < 2;
}

// The camera last chosen on this browser: a laptop's own camera faces the player, a webcam on a
// stand the table.
async function startCamera() {
  if (!navigator.mediaDevices) {  // a page served over plain http to another device (a phone on the network)
    setStatus("error", "this browser opens a camera only for a page served over https or from this device: " +
      "send a photo of the table after each turn instead");
    return;
  }
  const saved = localStorage.getItem("camera");
  try {
    await openCamera(saved);
  } catch (error) {
    if (saved) {  // the camera chosen last is gone (unplugged): take the usual one
      localStorage.removeItem("camera");
      return startCamera();
    }
    setStatus("error", "no camera: " + error.message);
    return;
  }
  $("camera").disabled = true;
  $("stage").classList.remove("photo");  // the video again, the overlay over it
  if (!socket) connect();
  if (!framesTimer) framesTimer = setInterval(sendFrame, 150);
}

// Why the camera's picture reads poorly and what to change (the tiles too small, blur or glare,
// a cloth printed with triangles), from the last frame read: kept while frames go unread.
function showAdvice(advice) {
  if (advice) $("advice").textContent = advice.length ? `Camera: ${advice.join("; ")}.` : "";
}

// A photo of the table after each turn: a phone's camera, where the page cannot stream one. The
// service commits the tile it shows, and reads it again for a second one played meanwhile.
async function sendPhoto(file) {
  if (!file) return;
  const form = new FormData();
  form.append("image", file);
  form.append("opener", $("opener").value || 0);
  $("table-photo").value = "";  // the same photo may be sent again
  setStatus("settling", "reading the photo");
  try {
    const answer = await call("POST", `/v1/games/${game.id}/frames`, form);
    showGame(answer.game);
    setStatus(answer.status, answer.message);
    showAdvice(answer.advice);
    // The stage shows the photo in the camera's place, with what was read on it.
    if (!socket && await drawPhotoRead($("overlay"), file, answer.reading)) $("stage").classList.add("photo");
  } catch (error) { setStatus("error", error.message); }
}

async function event(body) {
  try { showGame((await call("POST", `/v1/games/${game.id}/events`, body)).game); }
  catch (error) { setStatus("error", error.message); }
}

// Who plays the next tile: the chosen opener for the round's first, else whoever's turn it is.
function nextPlayer() {
  return game.turn === null ? Number($("opener").value || 0) : game.turn;
}

// A tile placed by hand, for the player who plays next.
function place(tile) {
  event({ kind: "place", ...tile, player: nextPlayer() });
}

// A button that is no form's submit.
function button(text, onclick) {
  const made = document.createElement("button");
  made.type = "button";
  made.textContent = text;
  made.onclick = onclick;
  return made;
}

// A tile on a button, named as the game's log names it: its numbers from the lowest (the cell's
// neighbours turn it).
const named = (tile) => `[${[...tile.corners].sort((a, b) => a - b).join(", ")}]`;

// A tile committed from an unsure reading stays dashed on the board until the camera reads it
// surely, and is wrong one time in four: the line naming it says so, with a button for each tile
// its cell allows (the one read first), so that one click confirms or corrects it.
function showLastTile(data) {
  const last = data.last_placement;
  const unsure = last && data.provisional_cells.some((cell) => String(cell) === String(last.placement.cell));
  const buttons = data.last_tile_choices.map((tile, i) =>
    button(named(tile) + (i === 0 ? " as read" : ""), () => event({ kind: "correct", ...tile })));
  const check = !unsure ? [] : buttons.length ? [" (read unsurely: which is it?)", ...buttons]
    : [" (read unsurely: check its numbers, and click the tile to correct it)"];
  $("last").replaceChildren(...(last ? [`Last tile: ${last.description}`, ...check] : []));
}

// Where the camera saw several new tiles and cannot tell which came first, the player names it;
// the tiles after it follow from the next frames, or the next photo, in the order they came.
function showChoices(choices) {
  const buttons = choices.map((tile) => button(
    `${game.players[nextPlayer()]} played ${tile.corners.join("-")} at [${tile.cell.join(", ")}] first`, () => place(tile)));
  $("choices").replaceChildren(...(buttons.length ? ["Which tile was played first?", ...buttons] : []));
}

async function resume(id) {
  try { showGame(await call("GET", `/v1/games/${id}`)); } catch (error) { setStatus("error", error.message); }
}

// The games the service keeps, newest first: a closed tab or another device picks one up again.
function storedGame(summary) {
  const entry = document.createElement("p");
  if (summary.error) {
    entry.textContent = "A game that cannot be resumed: " + summary.error;
    return entry;
  }
  const scores = summary.players.map((name, i) => `${name} ${summary.scores[i]}`).join(", ");
  const stage = summary.winner !== null ? `${summary.players[summary.winner]} won` : `round ${summary.round}`;
  const started = new Date(summary.created * 1000).toLocaleString();
  entry.append(button("Resume", () => resume(summary.id)), ` ${scores} \u00b7 ${stage} \u00b7 started ${started}`);
  return entry;
}

async function init() {
  const presets = await call("GET", "/v1/rules");
  $("rules").replaceChildren(...presets.map((name) => new Option(name, name)));
  describePreset($("rules").value, $("rules-said"));
  const id = new URLSearchParams(location.hash.slice(1)).get("game");
  if (id) await resume(id);
  try {
    const stored = (await call("GET", "/v1/games")).reverse().slice(0, 8);
    $("games").replaceChildren(...stored.map(storedGame));
    $("resume").hidden = !stored.length;
  } catch (error) { setStatus("error", "the stored games cannot be listed: " + error.message); }
}

$("new-game").onsubmit = async (e) => {
  e.preventDefault();
  const players = $("players").value.split(",").map((p) => p.trim()).filter(Boolean);
  const rounds = $("rounds").value ? Number($("rounds").value) : null;
  const body = { players, rules: $("rules").value, max_number: Number($("max-number").value), rounds };
  try { showGame(await call("POST", "/v1/games", body)); }
  catch (error) { setStatus("error", error.message); }
};
$("rules").onchange = () => describePreset($("rules").value, $("rules-said"));
$("camera").onclick = startCamera;
$("table-photo").onchange = () => sendPhoto($("table-photo").files[0]);
$("board").onclick = pickTile;
$("cameras").onchange = () => openCamera($("cameras").value).catch((error) => setStatus("error", "camera: " + error.message));
$("opener").onchange = () => socket && socket.send(JSON.stringify({ opener: Number($("opener").value) }));
$("draw").onclick = () => event({ kind: "draw" });
$("pass").onclick = () => event({ kind: "pass" });
$("undo").onclick = () => event({ kind: "undo" });
$("settle").onsubmit = (e) => {
  e.preventDefault();
  event({ kind: "end_round", racks: [...$("racks").querySelectorAll("input")].map((i) => Number(i.value)) });
};
$("correct").onsubmit = (e) => {
  e.preventDefault();
  const numbers = (text) => text.split(",").map((n) => Number(n.trim()));
  const tile = { cell: numbers($("correct-cell").value), corners: numbers($("correct-corners").value) };
  if (e.submitter && e.submitter.value === "place") place(tile);
  else event({ kind: "correct", ...tile });
};
$("photo-form").onsubmit = async (e) => {
  e.preventDefault();
  const file = $("photo").files[0], form = new FormData();
  form.append("image", file);
  if ($("previous").files.length) form.append("previous", $("previous").files[0]);
  form.append("rules", game ? game.rules : $("rules").value);
  $("photo-result").textContent = "reading the photo";
  $("photo-view").hidden = true;  // the last photo's picture, until this one's is drawn
  try {
    const reading = await call("POST", "/v1/readings", form);
    const board = reading.tiles.filter((t) => t.cell).sort((a, b) => a.cell[1] - b.cell[1] || a.cell[0] - b.cell[0]);
    const lines = board.map((t) => `${t.tile.join("-")} at [${t.cell}]`);  // row by row, as `triominoes read` lists them
    lines.push(...reading.violations.map((v) => "violation: " + v.message));
    const last = reading.last_placement;
    if (last) {
      const bonuses = last.score.bonuses.map((b) => ` +${b.points} ${b.kind}`).join("");
      lines.push(`last tile ${last.tile.join("-")} at [${last.cell}]: ${last.score.base}${bonuses} = ` +
        `${last.score.total}${last.legal ? "" : " (not legal)"}`);
    }
    lines.push(...(reading.notes || []).map((n) => "note: " + n));
    $("photo-result").textContent = `${reading.tiles.length} tiles, ${reading.unread.length} unread, ${reading.face_down.length} face down ` +
      `(${Math.round(reading.timing_ms.total)} ms)\n` + lines.join("\n");
    $("photo-view").hidden = !(await drawPhotoRead($("photo-canvas"), file, reading));
  } catch (error) { $("photo-result").textContent = error.message; }
};

// Others may change the game too: a second phone enters a draw, or `triominoes live` keeps it
// from a camera on the service's file. While this page streams no camera of its own (whose
// answers bring the game), it looks again every 3 s and shows what changed.
const GAME_LOOK_MS = 3000;
const gameKey = (data) => JSON.stringify([data.events, data.provisional_cells, data.live]);
setInterval(async () => {
  if (!game || socket || document.hidden) return;
  try {
    const data = await call("GET", `/v1/games/${game.id}`);
    if (game && data.id === game.id && gameKey(data) !== gameKey(game)) showGame(data);
  } catch (error) { /* looked at again at the next turn of the clock */ }
}, GAME_LOOK_MS);
init();
