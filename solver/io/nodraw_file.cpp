#include "nodraw_file.h"

#include <stdexcept>

#include "core/types.h"

namespace konobi {

namespace {

// Returns whether the census is complete and whether it found a draw.
std::pair<bool, bool> check_reachable(const JsonField& r) {
  const bool complete = r["complete"].boolean();
  if (!complete) r["stopped"].str();
  r["symmetries"].integer(1, 8);
  unsigned long long totals[4] = {};
  const char* names[4] = {"positions", "must_pass", "won", "draws"};
  long long ply = 0;
  for (const JsonField& p : r["plies"].array()) {
    if (p["ply"].integer(0, kMaxCells) != ply) p["ply"].fail("expected ply " + std::to_string(ply));
    ++ply;
    for (int i = 0; i < 4; ++i) totals[i] += p[names[i]].count();
  }
  for (int i = 0; i < 4; ++i)
    if (r["totals"][names[i]].count() != totals[i])
      r["totals"][names[i]].fail("is not the sum over the plies, " + std::to_string(totals[i]));
  r["seconds"].seconds();
  r["peak_table_mb"].number(0, 1e12);
  const bool draw = r.has("counterexample");
  if (draw) {
    const JsonField c = r["counterexample"];
    c["ply"].integer(0, kMaxCells);
    c["position"].str();
    c["record"].str();
    c["record_replayed"].boolean();
  }
  if ((totals[3] > 0) != draw)
    r["totals"]["draws"].fail(draw ? "is 0 beside a counterexample"
                                   : "counts draws but no counterexample is given");
  return {complete, draw};
}

std::pair<bool, bool> check_crosscut_free(const JsonField& c) {
  const bool complete = c["complete"].boolean();
  for (const char* f : {"lemma_pruning", "won_pruning", "full_board_skip", "frontier_merging"})
    c[f].boolean();
  for (const char* f :
       {"nodes", "boards_checked", "both_stuck", "memo_hits", "memo_entries", "tasks", "tasks_done"})
    c[f].count();
  const unsigned long long counterexamples = c["counterexamples"].count();
  if (c["tasks_done"].count() > c["tasks"].count()) c["tasks_done"].fail("exceeds tasks");
  c["seconds"].seconds();
  for (const JsonField& e : c["examples"].array()) e.str();
  return {complete, counterexamples > 0};
}

}  // namespace

Json read_nodraw_file(const std::string& text, const std::string& where) {
  try {
    Json doc = parse_json(text);
    const JsonField v(doc, "");
    if (!doc.is_object()) v.fail("expected an object");
    v["check"].one_of({"no-draw"});
    v["game"].one_of({"konobi"});
    v["size"].integer(kMinSize, kMaxSize);
    for (const char* f : {"program", "commit", "command", "date"}) v[f].str();
    v["threads"].integer(1, 1 << 16);
    bool complete = true, counter = false;
    if (!v.has("reachable") && !v.has("crosscut_free"))
      v.fail("neither reachable nor crosscut_free is present");
    if (v.has("reachable")) {
      const auto [c, d] = check_reachable(v["reachable"]);
      complete &= c, counter |= d;
    }
    if (v.has("crosscut_free")) {
      const auto [c, d] = check_crosscut_free(v["crosscut_free"]);
      complete &= c, counter |= d;
    }
    v["peak_rss_mb"].number(0, 1e12);
    const std::string& verdict = v["verdict"].one_of({"holds", "counterexample", "incomplete"});
    const char* expected = counter ? "counterexample" : complete ? "holds" : "incomplete";
    if (verdict != expected) v["verdict"].fail("'" + verdict + "' but the checks say '" + expected + "'");
    return doc;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + " is not a valid no-draw report: " + e.what());
  }
}

}  // namespace konobi
