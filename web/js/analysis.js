// The analysis view: asks the server for the value of every legal move of
// the position on the board and turns the reply into marks for the board
// (win or loss with the remoteness, "?" where nothing is known). Values are
// from the side to move's view, as the server gives them.

export function valueMark(entry) {
  if (entry.value === "win" || entry.value === "loss") {
    const r = entry.remoteness === null || entry.remoteness === undefined ? "" : String(entry.remoteness);
    const label = (entry.value === "win" ? "W" : "L") + r;
    const how = r ? ` in ${r}` : "";
    return { label, cls: entry.value, title: `${entry.value}${how}${entry.source ? `, from the ${entry.source}` : ""}` };
  }
  return { label: "?", cls: "unknown", title: "value not known" };
}

export class Analysis {
  constructor(connection) {
    this.connection = connection;
    this.active = false;
    this.reply = null; // the last `analysis` message
    this.busy = false;
  }

  // The marks for the board, when the analysis is on and matches the position.
  overlay(state) {
    if (!this.active || !this.reply || !state) return null;
    if (this.reply.id !== state.id || this.reply.ply !== state.ply) return null;
    return new Map(this.reply.moves.map((m) => [m.move, valueMark(m)]));
  }

  said() {
    return this.active && this.reply ? this.reply.said || "" : "";
  }

  // Asks for the analysis of the game's current position unless it is held.
  async refresh(state) {
    if (!this.active || !state || state.winner) return false;
    if (this.reply && this.reply.id === state.id && this.reply.ply === state.ply) return false;
    if (this.busy) return false;
    this.busy = true;
    try {
      const reply = await this.connection.request({ type: "analyze", id: state.id }, "analysis");
      this.reply = reply;
      return true;
    } finally {
      this.busy = false;
    }
  }
}
