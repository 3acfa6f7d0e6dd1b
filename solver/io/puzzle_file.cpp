#include "puzzle_file.h"

#include <stdexcept>

#include "core/game.h"

namespace konobi {

std::string PuzzleSet::to_json() const {
  Json j = {
      {"schema", kPuzzleSchema}, {"game", game}, {"size", size}, {"provenance", provenance_json(provenance)}};
  j["settings"] = Json{{"seed", seed},
                       {"min_remoteness", min_remoteness},
                       {"min_stones", min_stones},
                       {"max_per_remoteness", max_per_remoteness},
                       {"dfpn_nodes", dfpn_nodes},
                       {"alphabeta_nodes", alphabeta_nodes}};
  j["games"] = games;
  j["positions"] = positions;
  j["candidates"] = candidates;
  j["skipped"] = skipped;
  j["seconds"] = json_number(seconds);
  Json& list = j["puzzles"] = Json::array();
  for (const PuzzleEntry& p : puzzles)
    list.push_back(Json{{"id", p.id},
                        {"position", p.position},
                        {"to_move", p.to_move},
                        {"solution", p.solution},
                        {"remoteness", p.remoteness},
                        {"moves_to_win", p.moves_to_win()},
                        {"record", p.record},
                        {"game", p.game},
                        {"dfpn_nodes", p.dfpn_nodes},
                        {"alphabeta_nodes", p.alphabeta_nodes}});
  return json_text(j);
}

namespace {

// The record replayed from the empty board must reach the position, and the
// solution must be a legal placement there. The position is parsed and its
// size compared with the file's before anything is indexed by it.
template <int W>
void check_puzzle(int n, const JsonField& f, const PuzzleEntry& e) {
  PositionText t;
  try {
    t = parse_position(e.position);
  } catch (const ParseError& x) { f["position"].fail(x.what()); }
  if (t.n != n)
    f["position"].fail("a " + std::to_string(t.n) + "x" + std::to_string(t.n) +
                       " position in a file of size " + std::to_string(n));
  const char* side = t.to_move == Black ? "black" : "white";
  if (e.to_move != side) f["to_move"].fail("'" + e.to_move + "' but the position has " + side + " to move");
  int sol = 0;
  try {
    sol = parse_point(n, e.solution);
  } catch (const ParseError& x) { f["solution"].fail(x.what()); }
  if (t.cells[sol] >= 0) f["solution"].fail(e.solution + " is not an empty point");
  using G = Game<KonobiRules, W>;
  Position<W> start = from_text<W>(t);
  start.swap_available = false;
  const G at(start);
  if (at.over()) f["position"].fail("the game is already over");
  if (const std::string why = at.why_illegal(sol); !why.empty())
    f["solution"].fail(e.solution + " is not legal: " + why);
  G game = G::new_game(n);
  std::vector<Move> record;
  for (const JsonField& m : f["record"].array()) {
    try {
      record.push_back(parse_move(n, m.str()));
    } catch (const ParseError& x) { m.fail(x.what()); }
  }
  try {
    game.play_record(record);
  } catch (const RuleError& x) { f["record"].fail(x.what()); }
  PositionText reached = to_text(game.position());
  if (reached.cells != t.cells || reached.to_move != t.to_move)
    f["record"].fail("does not reach the position: it reaches " + format_position(reached));
}

}  // namespace

PuzzleSet PuzzleSet::from_json(const std::string& text, const std::string& where) {
  try {
    const Json doc = parse_json(text);
    const JsonField v(doc, "");
    if (!doc.is_object()) v.fail("expected an object");
    if (v["schema"].str() != kPuzzleSchema)
      v["schema"].fail("'" + v["schema"].str() + "' is not " + kPuzzleSchema);
    PuzzleSet s;
    s.game = v["game"].one_of({"konobi"});
    s.size = int(v["size"].integer(kMinSize, kMaxSize));
    const int cells = s.size * s.size;
    s.provenance = read_provenance(v["provenance"]);
    const JsonField st = v["settings"];
    s.seed = st["seed"].count();
    s.min_remoteness = int(st["min_remoteness"].integer(1, cells));
    s.min_stones = int(st["min_stones"].integer(0, cells));
    s.max_per_remoteness = int(st["max_per_remoteness"].integer(0, 1 << 30));
    s.dfpn_nodes = st["dfpn_nodes"].count();
    s.alphabeta_nodes = st["alphabeta_nodes"].count();
    s.games = v["games"].count();
    s.positions = v["positions"].count();
    s.candidates = v["candidates"].count();
    s.skipped = v["skipped"].count();
    s.seconds = v["seconds"].seconds();
    for (const JsonField& p : v["puzzles"].array()) {
      PuzzleEntry e;
      e.id = int(p["id"].integer(1, 1 << 30));
      e.position = p["position"].str();
      e.to_move = p["to_move"].one_of({"black", "white"});
      e.solution = p["solution"].str();
      // Plies to the win, the solution included: at least 1, at most one per empty point.
      e.remoteness = int(p["remoteness"].integer(1, cells));
      if (p["moves_to_win"].integer(1, cells) != e.moves_to_win())
        p["moves_to_win"].fail("is not (remoteness + 1) / 2 = " + std::to_string(e.moves_to_win()));
      for (const JsonField& m : p["record"].array()) e.record.push_back(m.str());
      e.game = int(p["game"].integer(0, 1 << 30));
      e.dfpn_nodes = p["dfpn_nodes"].count();
      e.alphabeta_nodes = p["alphabeta_nodes"].count();
      try {
        with_words(s.size, [&](auto w) { check_puzzle<decltype(w)::value>(s.size, p, e); });
      } catch (const ParseError& x) { p.fail(x.what()); }
      s.puzzles.push_back(std::move(e));
    }
    return s;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + " is not a valid puzzle file: " + e.what());
  }
}

}  // namespace konobi
