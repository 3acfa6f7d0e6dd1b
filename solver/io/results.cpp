#include "results.h"

#include <stdexcept>

#include "core/notation.h"
#include "core/types.h"
#include "results_check.h"

namespace konobi {

Json provenance_json(const Provenance& p) {
  Json j{{"program", p.program},   {"commit", p.commit},         {"command", p.command},
         {"date", p.date},         {"threads", p.threads},       {"tt_mb", json_number(p.tt_mb)},
         {"symmetry", p.symmetry}, {"evaluation", p.evaluation}, {"simulation", p.simulation}};
  // Only where regions were on, so that files from before them (and
  // Gonnect's) read and re-write byte for byte.
  if (p.must_play > 0) j["must_play"] = p.must_play;
  return j;
}

Provenance read_provenance(const JsonField& p) {
  Provenance v;
  v.program = p["program"].str();
  v.commit = p["commit"].str();
  v.command = p["command"].str();
  v.date = p["date"].str();
  v.threads = int(p["threads"].integer(1, 1 << 16));
  v.tt_mb = p["tt_mb"].number(0, 1e12);
  v.symmetry = p["symmetry"].boolean();
  v.evaluation = p["evaluation"].boolean();
  v.simulation = p.has("simulation") ? int(p["simulation"].integer(0, 1 << 30)) : 0;
  v.must_play = p.has("must_play") ? int(p["must_play"].integer(0, 4)) : 0;
  return v;
}

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

namespace {

// The summary fields, computed from the openings (written, and compared on reading).
struct Summary {
  Json empty_board, pie;
};
Summary summarize(const Results& r) {
  const std::string eb = r.empty_board_winner();
  Json winning = Json::array();
  int solved = 0, black_wins = 0;
  for (const auto& o : r.openings) {
    if (o.solved && o.winner == "black") winning.push_back(o.point);
    solved += o.solved, black_wins += o.solved && o.winner == "black";
  }
  Summary s;
  s.empty_board = Json{{"winner", eb.empty() ? Json(nullptr) : Json(eb)}, {"winning_openings", winning}};
  s.pie = Json{{"openings_solved", solved},
               {"openings_black_wins", black_wins},
               {"openings_white_wins", solved - black_wins},
               {"second_player_wins", r.complete() ? Json(true) : Json(nullptr)}};
  return s;
}

}  // namespace

std::string Results::to_json() const {
  Json j = {{"schema", kResultsSchema}, {"game", game}, {"size", size}, {"complete", complete()}};
  if (game == "gonnect") {
    j["ko_rule"] = ko_rule;
    j["edges"] = edges;
    j["ghi"] = ghi;
    j["ghi_hazards"] = ghi_hazards;
  }
  j["provenance"] = provenance_json(provenance);
  Summary s = summarize(*this);
  j["empty_board"] = std::move(s.empty_board);
  j["pie"] = std::move(s.pie);
  j["nodes"] = nodes;
  j["seconds"] = json_number(seconds);
  Json& list = j["openings"] = Json::array();
  for (const auto& o : openings) {
    Json x = {{"point", o.point}, {"class", o.representative}, {"solved", o.solved}};
    if (o.solved) {
      x["winner"] = o.winner;
      x["swap"] = o.swap();
      x["continuation"] = o.continuation;
      x["nodes"] = o.nodes;
      x["proof_size"] = o.proof_size;
      x["seconds"] = json_number(o.seconds);
    } else if (o.searched_unproven()) {
      x["nodes"] = o.nodes;
      x["seconds"] = json_number(o.seconds);
      x["pn"] = o.pn;
      x["dn"] = o.dn;
    }
    list.push_back(std::move(x));
  }
  return json_text(j);
}

Results Results::from_json(const std::string& text, const std::string& where) {
  try {
    const Json doc = parse_json(text);
    const JsonField v(doc, "");
    if (!doc.is_object()) v.fail("expected an object");
    if (v["schema"].str() != kResultsSchema)
      v["schema"].fail("'" + v["schema"].str() + "' is not " + kResultsSchema);
    Results r;
    r.game = v["game"].one_of({"konobi", "gonnect"});
    r.size = int(v["size"].integer(kMinSize, kMaxSize));
    const bool gonnect = r.game == "gonnect";
    for (const char* rule : {"ko_rule", "edges", "ghi", "ghi_hazards"})
      if (!gonnect && v.has(rule)) v[rule].fail("a Gonnect rule field in a Konobi file");
    if (gonnect) {
      r.ko_rule = v["ko_rule"].one_of({"simple", "superko"});
      r.edges = v["edges"].one_of({"either", "own"});
      r.ghi = v["ghi"].one_of({"strict", "merge-before-capture"});
      r.ghi_hazards = v["ghi_hazards"].count();
    }
    r.provenance = read_provenance(v["provenance"]);
    r.nodes = v["nodes"].count();
    r.seconds = v["seconds"].seconds();
    const std::vector<JsonField> list = v["openings"].array();
    if (int(list.size()) != r.size * r.size)
      v["openings"].fail("lists " + std::to_string(list.size()) + " openings, not " +
                         std::to_string(r.size * r.size) + " (one per point of the " +
                         std::to_string(r.size) + "x" + std::to_string(r.size) + " board)");
    for (const JsonField& o : list) {
      OpeningResult x;
      x.point = o["point"].str();
      x.representative = o["class"].str();
      x.solved = o["solved"].boolean();
      if (x.solved) {
        x.winner = o["winner"].one_of({"black", "white"});
        if (o["swap"].boolean() != x.swap())
          o["swap"].fail(std::string("says ") + (x.swap() ? "false" : "true") + " but the winner is " +
                         x.winner);
        for (const JsonField& m : o["continuation"].array()) {
          try {
            parse_move(r.size, m.str());
          } catch (const ParseError& e) { m.fail(e.what()); }
          x.continuation.push_back(m.str());
        }
        x.nodes = o["nodes"].count();
        x.proof_size = o["proof_size"].count();
        x.seconds = o["seconds"].seconds();
      } else if (o.has("nodes")) {
        x.nodes = o["nodes"].count();
        x.seconds = o["seconds"].seconds();
        x.pn = o["pn"].count();
        x.dn = o["dn"].count();
      } else {
        for (const char* f : {"winner", "continuation", "proof_size"})
          if (o.has(f)) o[f].fail("present in an opening that is not solved");
      }
      r.openings.push_back(std::move(x));
    }
    // The summary fields restate the openings; a file where they disagree was edited or is corrupt.
    if (v["complete"].boolean() != r.complete())
      v["complete"].fail("disagrees with the openings' solved fields");
    const Summary s = summarize(r);
    for (const char* f : {"winner", "winning_openings"})
      if (v["empty_board"][f].json() != s.empty_board[f])
        v["empty_board"][f].fail("is " + v["empty_board"][f].json().dump() + ", the openings give " +
                                 s.empty_board[f].dump());
    for (const char* f :
         {"openings_solved", "openings_black_wins", "openings_white_wins", "second_player_wins"})
      if (v["pie"][f].json() != s.pie[f])
        v["pie"][f].fail("is " + v["pie"][f].json().dump() + ", the openings give " + s.pie[f].dump());
    // Then the order of the openings, their names and classes, and equal values within a class
    // (solver/io/results_check.*); after the summary, which restates the openings as the file has
    // them, since an old Gonnect file's openings are re-grouped there.
    check_results(r);
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + " is not a valid results file: " + e.what());
  }
}

}  // namespace konobi
