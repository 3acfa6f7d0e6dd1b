#include "results.h"

#include <sstream>
#include <stdexcept>

#include "json_value.h"
#include "json_writer.h"
#include "results_check.h"

namespace konobi {

void write_provenance(JsonWriter& j, const Provenance& p) {
  j.begin_object();
  j.field("program", p.program).field("commit", p.commit).field("command", p.command);
  j.field("date", p.date).field("threads", p.threads).field("tt_mb", p.tt_mb);
  j.field("symmetry", p.symmetry).field("evaluation", p.evaluation).field("simulation", p.simulation);
  j.end_object();
}

Provenance read_provenance(const JsonValue& p) {
  return {p["program"].str(), p["commit"].str(), p["command"].str(), p["date"].str(),
          int(p["threads"].integer()), p["tt_mb"].number(), p["symmetry"].boolean(), p["evaluation"].boolean(),
          p.has("simulation") ? int(p["simulation"].integer()) : 0};
}

namespace {
// Node counts, sizes and proof numbers: a negative one is a corrupt file.
unsigned long long count(const JsonValue& v, const char* name) {
  const long long x = v[name].integer();
  if (x < 0) throw std::runtime_error(std::string(name) + " is negative");
  return (unsigned long long)x;
}
}  // namespace

bool Results::complete() const {
  if (openings.empty()) return false;
  for (const auto& o : openings)
    if (!o.solved) return false;
  return true;
}

std::string Results::empty_board_winner() const {
  bool all = true;
  for (const auto& o : openings) {
    if (o.solved && o.winner == "black") return "black";
    all &= o.solved;
  }
  return all && !openings.empty() ? "white" : "";
}

std::string Results::to_json() const {
  std::ostringstream out;
  JsonWriter j(out);
  j.begin_object();
  j.field("schema", kResultsSchema).field("game", game).field("size", size).field("complete", complete());
  if (game == "gonnect")
    j.field("ko_rule", ko_rule).field("edges", edges).field("ghi", ghi).field("ghi_hazards", ghi_hazards);
  j.key("provenance");
  write_provenance(j, provenance);
  const std::string eb = empty_board_winner();
  j.key("empty_board").begin_object();
  j.key("winner");
  eb.empty() ? j.null() : j.value(eb);
  j.key("winning_openings").begin_array();
  for (const auto& o : openings)
    if (o.solved && o.winner == "black") j.value(o.point);
  j.end_array();
  j.end_object();
  int solved = 0, black_wins = 0;
  for (const auto& o : openings) solved += o.solved, black_wins += o.solved && o.winner == "black";
  j.key("pie").begin_object();
  j.field("openings_solved", solved).field("openings_black_wins", black_wins);
  j.field("openings_white_wins", solved - black_wins);
  j.key("second_player_wins");
  complete() ? j.value(true) : j.null();
  j.end_object();
  j.field("nodes", nodes).field("seconds", seconds);
  j.key("openings").begin_array();
  for (const auto& o : openings) {
    j.begin_object().field("point", o.point).field("class", o.representative).field("solved", o.solved);
    if (o.solved) {
      j.field("winner", o.winner).field("swap", o.swap());
      j.key("continuation").begin_array();
      for (const auto& m : o.continuation) j.value(m);
      j.end_array();
      j.field("nodes", o.nodes).field("proof_size", o.proof_size).field("seconds", o.seconds);
    } else if (o.searched_unproven()) {
      j.field("nodes", o.nodes).field("seconds", o.seconds).field("pn", o.pn).field("dn", o.dn);
    }
    j.end_object();
  }
  j.end_array();
  j.end_object().finish();
  return out.str();
}

Results Results::from_json(const std::string& text, const std::string& where) {
  try {
    const JsonValue v = JsonValue::parse(text);
    if (v["schema"].str() != kResultsSchema)
      throw std::runtime_error("schema '" + v["schema"].str() + "' is not " + kResultsSchema);
    Results r;
    r.game = v["game"].str();
    r.size = int(v["size"].integer());
    if (r.game == "gonnect") {
      r.ko_rule = v["ko_rule"].str();
      r.edges = v["edges"].str();
      r.ghi = v["ghi"].str();
      r.ghi_hazards = count(v, "ghi_hazards");
    }
    r.provenance = read_provenance(v["provenance"]);
    r.nodes = count(v, "nodes");
    r.seconds = v["seconds"].number();
    for (const JsonValue& o : v["openings"].array()) {
      OpeningResult x;
      x.point = o["point"].str();
      x.representative = o["class"].str();
      x.solved = o["solved"].boolean();
      if (x.solved) {
        x.winner = o["winner"].str();
        if (x.winner != "black" && x.winner != "white") throw std::runtime_error("winner '" + x.winner + "' is not black or white");
        for (const JsonValue& m : o["continuation"].array()) x.continuation.push_back(m.str());
        x.nodes = count(o, "nodes");
        x.proof_size = count(o, "proof_size");
        x.seconds = o["seconds"].number();
      } else if (o.has("nodes")) {
        x.nodes = count(o, "nodes");
        x.seconds = o["seconds"].number();
        x.pn = count(o, "pn");
        x.dn = count(o, "dn");
      }
      r.openings.push_back(std::move(x));
    }
    if (int(r.openings.size()) != r.size * r.size)
      throw std::runtime_error("it lists " + std::to_string(r.openings.size()) + " openings, not " +
                               std::to_string(r.size * r.size));
    check_results(r);
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + " is not a valid results file: " + e.what());
  }
}

}  // namespace konobi
