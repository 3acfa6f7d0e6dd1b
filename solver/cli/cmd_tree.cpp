// konobi tree: where an unfinished solve stands, read from its checkpoint
// without running it (and without its lock: checkpoints are replaced
// atomically, so one read while a solve runs is whole). Without --class, a
// line per open class; with it, one node of that class's tree (the class
// root, or the position after --line): its diagram, its numbers, its moves
// judged for the player who makes them, and the line the numbers point to.
// docs/JOBS.md, "Where a solve stands".
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "command.h"
#include "core/game.h"
#include "core/notation.h"
#include "diagram.h"
#include "progress.h"
#include "solver/io/json.h"
#include "solver/jobs/checkpoint.h"
#include "solver/jobs/tree_view.h"
#include "solver/search/tt.h"

namespace konobi {

namespace {

const char* verdict_name(TreeMove::Verdict v) {
  return v == TreeMove::Verdict::Wins ? "wins" : v == TreeMove::Verdict::Loses ? "loses" : "open";
}

std::string line_text(int n, const std::vector<Move>& moves, const char* sep = " ") {
  std::string s;
  for (Move m : moves) s += (s.empty() ? "" : sep) + move_name(n, m);
  return s;
}

// The moves of --line: names separated by commas or spaces.
std::vector<Move> parse_line(int n, const std::string& text) {
  std::vector<Move> moves;
  std::string words = text;
  for (char& c : words)
    if (c == ',') c = ' ';
  std::stringstream in(words);
  for (std::string name; in >> name;) {
    try {
      const Move m = parse_move(n, name);
      if (m == kSwap)
        throw UsageError("--line: swap is not a move of a class's tree (the swap is settled before it)");
      moves.push_back(m);
    } catch (const ParseError& e) { throw UsageError("--line: " + std::string(e.what())); }
  }
  return moves;
}

// Gonnect's rules as the checkpoint names them ("ko superko, edges either,
// ghi strict"); the ghi word changes how positions are keyed, not play.
GonnectVariant gonnect_variant(const std::string& text, const std::string& where) {
  GonnectVariant v;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    std::stringstream words(part);
    std::string key, value;
    words >> key >> value;
    const auto ko = key == "ko" ? parse_ko_rule(value) : std::nullopt;
    const auto edges = key == "edges" ? parse_edge_rule(value) : std::nullopt;
    if (ko) v.ko = *ko;
    else if (edges) v.edges = *edges;
    else if (key != "ghi")
      throw std::runtime_error(where + ": its variant '" + text +
                               "' names no Gonnect rules this program knows");
  }
  return v;
}

// The position after the class's stone and the line, drawn.
template <class Rules, int W>
std::string diagram(int n, const typename Rules::Variant& v, const std::vector<Move>& record) {
  auto game = Game<Rules, W>::new_game(n, v);
  game.play_record(record);
  std::vector<char> marks(game.position().g->cells, 0);
  const Move last = record.back();
  if (last >= 0) marks[last] = game.position().at(last) == Black ? 'b' : 'w';
  return render_board(game.position(), marks);
}

std::string draw(const Checkpoint& cp, const std::vector<Move>& record, const std::string& where) {
  try {
    if (cp.game == "gonnect") {
      const GonnectVariant v = gonnect_variant(cp.variant, where);
      return with_words(
          cp.size, [&](auto w) { return diagram<GonnectRules, decltype(w)::value>(cp.size, v, record); });
    }
    return with_words(cp.size,
                      [&](auto w) { return diagram<KonobiRules, decltype(w)::value>(cp.size, {}, record); });
  } catch (const RuleError& e) {
    throw std::runtime_error(where + ": the line " + line_text(cp.size, record) +
                             " is not a game of these rules (" + e.what() +
                             "); the checkpoint is of another program");
  }
}

std::string number(uint32_t v) { return v >= kInf ? "inf" : std::to_string(v); }

Json move_json(int n, const TreeMove& m) {
  Json j = {{"move", move_name(n, m.move)}, {"verdict", verdict_name(m.verdict)}};
  if (m.verdict == TreeMove::Verdict::Open) j["pn"] = m.pn, j["dn"] = m.dn;
  if (m.verdict == TreeMove::Verdict::Loses && m.answer >= 0) j["answer"] = move_name(n, m.answer);
  j["nodes"] = m.nodes, j["jobs"] = m.jobs, j["tree_nodes"] = m.tree_nodes;
  return j;
}

std::string class_name(const Checkpoint& cp, const CheckpointClass& c) {
  return point_name(cp.size, c.opening);
}

std::string title(const Checkpoint& cp) {
  return std::string(cp.game == "gonnect" ? "Gonnect " : "Konobi ") + std::to_string(cp.size) + "x" +
         std::to_string(cp.size) + (cp.variant.empty() ? "" : " (" + cp.variant + ")");
}

// A line per open class: the root's numbers for White (to move at every
// class root) and how its replies stand.
int show_classes(const Checkpoint& cp, const std::string& path, bool json) {
  if (json) {
    Json classes = Json::array();
    for (const CheckpointClass& c : cp.classes) {
      const CheckpointTree t(c);
      Json j = {{"class", class_name(cp, c)},
                {"jobs", c.jobs},
                {"nodes", c.nodes},
                {"seconds", c.seconds},
                {"tree_nodes", t.size()}};
      // The root as White's: its own numbers, not a move's.
      const CheckpointNode& r = t.node(0);
      j["value"] = r.value == CheckpointNode::Value::Open        ? "open"
                   : r.value == CheckpointNode::Value::MoverWins ? "white"
                                                                 : "black";
      if (r.value == CheckpointNode::Value::Open) j["pn"] = r.pn, j["dn"] = r.dn;
      int counts[3] = {0, 0, 0};
      for (const TreeMove& m : t.moves(0)) ++counts[int(m.verdict)];
      j["replies"] = {{"win", counts[0]}, {"lose", counts[1]}, {"open", counts[2]}};
      classes.push_back(j);
    }
    Json j = {{"checkpoint", path},    {"game", cp.game},           {"size", cp.size},
              {"variant", cp.variant}, {"job_nodes", cp.job_nodes}, {"classes", classes}};
    std::cout << json_text(j);
    return 0;
  }
  std::cout << path << ": " << title(cp) << ", " << cp.classes.size() << " open class"
            << (cp.classes.size() == 1 ? "" : "es") << ", jobs of " << cp.job_nodes << " nodes\n";
  if (cp.classes.empty()) return 0;
  std::cout << "White moves at each class's root (Black's first stone); pn: what proving White's win would "
               "take, dn: Black's.\n";
  std::cout << "class  value         pn         dn      jobs     nodes     time   tree  White's moves\n";
  for (const CheckpointClass& c : cp.classes) {
    const CheckpointTree t(c);
    const CheckpointNode& r = t.node(0);
    int counts[3] = {0, 0, 0};
    const auto moves = t.moves(0);
    for (const TreeMove& m : moves) ++counts[int(m.verdict)];
    const bool open = r.value == CheckpointNode::Value::Open;
    std::cout << std::left << std::setw(7) << class_name(cp, c) << std::setw(7)
              << (open                                          ? "open"
                  : r.value == CheckpointNode::Value::MoverWins ? "White"
                                                                : "Black")
              << std::right << std::setw(11) << (open ? number(r.pn) : "-") << std::setw(11)
              << (open ? number(r.dn) : "-") << std::setw(10) << c.jobs << std::setw(10)
              << human_count(double(c.nodes)) << std::setw(9) << human_duration(c.seconds) << std::setw(7)
              << t.size() << "  " << moves.size() << ": " << counts[0] << " win, " << counts[1] << " lose, "
              << counts[2] << " open\n";
  }
  return 0;
}

int show_node(const Checkpoint& cp, const std::string& path, const std::string& cls,
              const std::string& line_arg, bool json) {
  const int n = cp.size;
  int opening = -1;
  try {
    opening = parse_point(n, cls);
  } catch (const ParseError& e) { throw UsageError("--class: " + std::string(e.what())); }
  const CheckpointClass* c = nullptr;
  std::string names;
  for (const CheckpointClass& k : cp.classes) {
    if (k.opening == opening) c = &k;
    names += (names.empty() ? "" : ", ") + class_name(cp, k);
  }
  if (!c)
    throw UsageError(path + " holds no open class " + cls +
                     (names.empty() ? ": it holds none" : "; its open classes are " + names));
  const CheckpointTree t(*c);
  const std::vector<Move> line = parse_line(n, line_arg);
  const int i = t.find(line);
  if (i < 0) {
    const int d = t.deepest(line);
    const std::vector<Move>& held = t.node(d).path;
    const std::string there = line_text(n, held);
    throw UsageError(
        "class " + cls + "'s tree does not reach " + cls + " " + line_text(n, line) +
        "; the deepest position of that line it holds is " + cls + (there.empty() ? "" : " " + there) +
        (t.node(d).value != CheckpointNode::Value::Open
             ? ", proven (the tree keeps no moves below a proven node)"
         : t.node(d).expanded ? ""
                              : ", a leaf (its moves are searched by jobs, not kept in the tree)"));
  }
  std::vector<Move> record{opening};
  record.insert(record.end(), line.begin(), line.end());
  const CheckpointNode& nd = t.node(i);
  const Color mover = CheckpointTree::mover(line);
  const Color other = mover == White ? Black : White;
  const TreeMove self = t.as_move(i);
  const auto moves = t.moves(i);
  const auto cheapest = t.cheapest_line(i);
  // A hint whose move has been refuted stays in the checkpoint (the node's
  // BEST), but the jobs pass it over: said, so that nobody takes it for
  // the move being searched (6x6 b3 c1 kept b1 so, refuted by c2).
  const bool has_hint = nd.value == CheckpointNode::Value::Open && nd.best >= 0;
  bool hint_refuted = false;
  if (has_hint)
    for (const TreeMove& m : moves)
      if (m.move == nd.best) hint_refuted = m.verdict == TreeMove::Verdict::Loses;
  const char* value = nd.value == CheckpointNode::Value::Open        ? "open"
                      : nd.value == CheckpointNode::Value::MoverWins ? "wins"
                                                                     : "loses";
  if (json) {
    Json ms = Json::array();
    for (const TreeMove& m : moves) ms.push_back(move_json(n, m));
    Json cl = Json::array();
    for (Move m : cheapest) cl.push_back(move_name(n, m));
    Json ln = Json::array();
    for (Move m : line) ln.push_back(move_name(n, m));
    Json j = {{"checkpoint", path}, {"game", cp.game}, {"size", n},
              {"class", cls},       {"line", ln},      {"to_move", mover == White ? "white" : "black"},
              {"value", value}};
    if (nd.value == CheckpointNode::Value::Open) j["pn"] = nd.pn, j["dn"] = nd.dn;
    if (nd.value == CheckpointNode::Value::MoverWins && nd.best >= 0) j["best"] = move_name(n, nd.best);
    if (has_hint) j["hint"] = move_name(n, nd.best), j["hint_refuted"] = hint_refuted;
    j["nodes"] = self.nodes, j["jobs"] = self.jobs, j["tree_nodes"] = self.tree_nodes;
    j["moves"] = ms;
    j["cheapest_line"] = cl;
    std::cout << json_text(j);
    return 0;
  }
  std::cout << title(cp) << ", class " << cls << " (" << path << "): " << c->jobs << " job"
            << (c->jobs == 1 ? "" : "s") << ", " << human_count(double(c->nodes)) << " nodes, "
            << human_duration(c->seconds) << "\n";
  std::cout << "After " << line_text(n, record) << ", " << color_name(mover) << " to move:\n\n";
  std::cout << draw(cp, record, path) << "\n";
  if (nd.value == CheckpointNode::Value::Open)
    std::cout << "Open: pn " << number(nd.pn) << " to prove that " << color_name(mover) << " wins, dn "
              << number(nd.dn) << " to prove that " << color_name(other) << " wins.";
  else
    std::cout << "Proven: " << color_name(nd.value == CheckpointNode::Value::MoverWins ? mover : other)
              << " wins"
              << (nd.value == CheckpointNode::Value::MoverWins && nd.best >= 0
                      ? " with " + move_name(n, nd.best)
                      : std::string())
              << ".";
  if (has_hint)
    std::cout << " Hint: " << move_name(n, nd.best)
              << (hint_refuted ? ", refuted (the jobs pass it over)." : ".");
  std::cout << "\nHere and below: " << self.tree_nodes << " node" << (self.tree_nodes == 1 ? "" : "s")
            << " of the tree, " << human_count(double(self.nodes)) << " nodes in " << self.jobs << " job"
            << (self.jobs == 1 ? "" : "s") << ".\n";
  if (!nd.expanded) {
    std::cout << "A leaf of the tree: its moves are searched by jobs, not kept.\n";
    return 0;
  }
  int counts[3] = {0, 0, 0};
  for (const TreeMove& m : moves) ++counts[int(m.verdict)];
  std::cout << color_name(mover) << "'s " << moves.size() << " moves (" << counts[0] << " win, " << counts[1]
            << " lose, " << counts[2] << " open); pn and dn for " << color_name(mover)
            << " after the move:\n";
  std::cout << "  move  verdict           pn         dn     nodes    jobs   tree\n";
  for (const TreeMove& m : moves) {
    std::cout << "  " << std::left << std::setw(6) << move_name(n, m.move);
    if (m.verdict == TreeMove::Verdict::Open)
      std::cout << std::setw(8) << "open" << std::right << std::setw(13) << number(m.pn) << std::setw(11)
                << number(m.dn);
    else
      std::cout << std::setw(32)
                << (m.verdict == TreeMove::Verdict::Wins
                        ? std::string("wins")
                        : "loses" + (m.answer >= 0 ? " to " + move_name(n, m.answer) : std::string()));
    std::cout << std::right << std::setw(10) << human_count(double(m.nodes)) << std::setw(8) << m.jobs
              << std::setw(7) << m.tree_nodes << "\n";
  }
  // A proven node's subtree leaves the checkpoint with its figures: what
  // is left of it is the jobs run on it while it was a leaf.
  if (counts[0] + counts[1] > 0)
    std::cout
        << "(A proven move's nodes and jobs are those run on it as a leaf: the tree keeps no moves below "
           "it, nor their figures; the class's totals above count them.)\n";
  if (!cheapest.empty()) std::cout << "The line the numbers point to: " << line_text(n, cheapest) << "\n";
  return 0;
}

}  // namespace

int cmd_tree(const Args& args) {
  po::options_description opts("tree options");
  po::positional_options_description positional;
  std::string file, game = "konobi", cls, line;
  int size = 0;
  bool json = false;
  // clang-format off
  opts.add_options()
    ("checkpoint", po::value<std::string>(&file),
     "the checkpoint file (default results/GAME-NxN.checkpoint.xz, from --game and --size)")
    ("game", po::value<std::string>(&game)->default_value("konobi"), "with --size: the game, konobi or gonnect")
    ("size,n", po::value<int>(&size), "the board size, to find the checkpoint under results/")
    ("class", po::value<std::string>(&cls), "show this class's tree (its point, such as c2) instead of all classes")
    ("line", po::value<std::string>(&line)->default_value(""),
     "with --class: the node after these moves from the class's position (such as d6,f4)")
    ("json", po::bool_switch(&json), "print JSON");
  // clang-format on
  positional.add("checkpoint", 1);
  po::variables_map vm;
  if (parse_command_line("tree", "[FILE | --size N [--game G]] [--class P [--line MOVES]] [--json]", args,
                         opts, vm, &positional))
    return 0;
  if (vm.count("checkpoint") && vm.count("size"))
    throw UsageError("give the checkpoint file or --size, not both");
  if (!vm.count("checkpoint")) {
    if (!vm.count("size"))
      throw UsageError("give the checkpoint file, or --size N for results/GAME-NxN.checkpoint.xz");
    if (game != "konobi" && game != "gonnect")
      throw UsageError("--game must be konobi or gonnect, not '" + game + "'");
    check_size(size);
    file = "results/" + game + "-" + std::to_string(size) + "x" + std::to_string(size) + ".checkpoint.xz";
  } else if (!vm["game"].defaulted()) {
    throw UsageError("--game goes with --size; a checkpoint file names its own game");
  }
  if (!vm["line"].defaulted() && cls.empty()) throw UsageError("--line goes with --class");
  if (!std::filesystem::exists(file))
    throw UsageError(
        "no checkpoint " + file +
        (vm.count("size") ? " (a solve of that board has written none here, or has finished)" : ""));
  const Checkpoint cp = read_checkpoint(file);
  if (cls.empty()) return show_classes(cp, file, json);
  return show_node(cp, file, cls, line, json);
}

}  // namespace konobi
