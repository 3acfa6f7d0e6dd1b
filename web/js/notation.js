// Point names and position strings (docs/NOTATION.md), only as far as the page
// needs them to draw: the server decides every rule question.

const LETTERS = "abcdefghijklmnopqrs";

// "c3" -> {col: 2, row: 3} (row 1 is the bottom), or null.
export function parsePoint(text, size) {
  const m = /^([a-s])(\d{1,2})$/i.exec(String(text).trim());
  if (!m) return null;
  const col = LETTERS.indexOf(m[1].toLowerCase());
  const row = Number(m[2]);
  if (col >= size || row < 1 || row > size) return null;
  return { col, row };
}

export function pointName(col, row) {
  return LETTERS[col] + String(row);
}

// The stones of a position string: a Map from point name to "black"/"white".
export function parsePosition(position) {
  const rowsField = String(position).trim().split(/[\s,]+/)[0] || "";
  const rows = rowsField.split("/");
  const size = rows.length;
  const stones = new Map();
  rows.forEach((text, i) => {
    const row = size - i;
    let col = 0;
    for (let j = 0; j < text.length; ) {
      const c = text[j];
      if (c >= "0" && c <= "9") {
        let k = j;
        while (k < text.length && text[k] >= "0" && text[k] <= "9") k++;
        col += Number(text.slice(j, k));
        j = k;
        continue;
      }
      if ("BbXx".includes(c)) stones.set(pointName(col, row), "black");
      else if ("WwOo".includes(c)) stones.set(pointName(col, row), "white");
      col++;
      j++;
    }
  });
  return { size, stones };
}

// A pasted text is a position string when its first field holds a '/'.
export function looksLikePosition(text) {
  return (String(text).trim().split(/[\s,]+/)[0] || "").includes("/");
}

// The moves of a record: spaces or commas between them.
export function splitRecord(text) {
  return String(text).trim().split(/[\s,]+/).filter((m) => m.length > 0);
}

export function capitalize(color) {
  return color ? color[0].toUpperCase() + color.slice(1) : "";
}
