#include "puzzle_file.h"

#include <sstream>
#include <stdexcept>

#include "json_value.h"
#include "json_writer.h"

namespace konobi {

std::string PuzzleSet::to_json() const {
  std::ostringstream out;
  JsonWriter j(out);
  j.begin_object();
  j.field("schema", kPuzzleSchema).field("game", game).field("size", size);
  j.key("provenance");
  write_provenance(j, provenance);
  j.key("settings").begin_object();
  j.field("seed", seed).field("min_remoteness", min_remoteness).field("min_stones", min_stones);
  j.field("max_per_remoteness", max_per_remoteness);
  j.field("dfpn_nodes", dfpn_nodes).field("alphabeta_nodes", alphabeta_nodes);
  j.end_object();
  j.field("games", games).field("positions", positions).field("candidates", candidates);
  j.field("skipped", skipped).field("seconds", seconds);
  j.key("puzzles").begin_array();
  for (const PuzzleEntry& p : puzzles) {
    j.begin_object().field("id", p.id).field("position", p.position).field("to_move", p.to_move);
    j.field("solution", p.solution).field("remoteness", p.remoteness).field("moves_to_win", p.moves_to_win());
    j.key("record").begin_array();
    for (const auto& m : p.record) j.value(m);
    j.end_array();
    j.field("game", p.game).field("dfpn_nodes", p.dfpn_nodes).field("alphabeta_nodes", p.alphabeta_nodes);
    j.end_object();
  }
  j.end_array();
  j.end_object().finish();
  return out.str();
}

PuzzleSet PuzzleSet::from_json(const std::string& text, const std::string& where) {
  try {
    const JsonValue v = JsonValue::parse(text);
    if (v["schema"].str() != kPuzzleSchema)
      throw std::runtime_error("schema '" + v["schema"].str() + "' is not " + kPuzzleSchema);
    PuzzleSet s;
    s.game = v["game"].str();
    s.size = int(v["size"].integer());
    s.provenance = read_provenance(v["provenance"]);
    const JsonValue& st = v["settings"];
    s.seed = (unsigned long long)st["seed"].integer();
    s.min_remoteness = int(st["min_remoteness"].integer());
    s.min_stones = int(st["min_stones"].integer());
    s.max_per_remoteness = int(st["max_per_remoteness"].integer());
    s.dfpn_nodes = (unsigned long long)st["dfpn_nodes"].integer();
    s.alphabeta_nodes = (unsigned long long)st["alphabeta_nodes"].integer();
    s.games = (unsigned long long)v["games"].integer();
    s.positions = (unsigned long long)v["positions"].integer();
    s.candidates = (unsigned long long)v["candidates"].integer();
    s.skipped = (unsigned long long)v["skipped"].integer();
    s.seconds = v["seconds"].number();
    for (const JsonValue& p : v["puzzles"].array()) {
      PuzzleEntry e;
      e.id = int(p["id"].integer());
      e.position = p["position"].str();
      e.to_move = p["to_move"].str();
      if (e.to_move != "black" && e.to_move != "white")
        throw std::runtime_error("puzzle " + std::to_string(e.id) + ": to_move '" + e.to_move + "' is not black or white");
      e.solution = p["solution"].str();
      e.remoteness = int(p["remoteness"].integer());
      for (const JsonValue& m : p["record"].array()) e.record.push_back(m.str());
      e.game = int(p["game"].integer());
      e.dfpn_nodes = (unsigned long long)p["dfpn_nodes"].integer();
      e.alphabeta_nodes = (unsigned long long)p["alphabeta_nodes"].integer();
      s.puzzles.push_back(std::move(e));
    }
    return s;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + " is not a valid puzzle file: " + e.what());
  }
}

}  // namespace konobi
