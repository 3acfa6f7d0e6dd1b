// Who this browser is: a random player token made once and kept in
// localStorage (it names the person across reloads and reconnections), and
// the name the person last gave.

const TOKEN_KEY = "konobi.player";
const NAME_KEY = "konobi.name";

let cached = null;

export function playerToken() {
  if (cached) return cached;
  let token = readStore(TOKEN_KEY);
  if (!token || !/^[A-Za-z0-9_-]{16,64}$/.test(token)) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    token = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    writeStore(TOKEN_KEY, token);
  }
  cached = token;
  return token;
}

export function savedName() {
  return readStore(NAME_KEY) || "";
}

export function saveName(name) {
  writeStore(NAME_KEY, name);
}

function readStore(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStore(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // A browser without storage still plays; it just cannot rejoin after a reload.
  }
}
