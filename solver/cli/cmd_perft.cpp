// konobi perft: move-sequence counts per depth from the empty board (or a
// given position), split over threads at the first two plies.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <type_traits>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for_each.h>

#include "command.h"
#include "core/perft.h"
#include "game_input.h"
#include "solver/io/json.h"

namespace konobi {

namespace {

template <class Rules, class State>
std::vector<uint64_t> parallel_perft(const State& root, int depth) {
  constexpr int W = StateWords<State>::value;
  // Work items are the positions after two plies (or one), so that even the
  // 3x3 root has enough pieces for every thread.
  struct Item {
    State pos;
    int ply;
  };
  std::vector<uint64_t> counts(depth, 0);
  std::vector<Item> items{{root, 0}};
  for (int split = 0; split < 2 && split + 1 < depth; ++split) {
    std::vector<Item> next;
    for (const Item& it : items) {
      const Bitboard<W> moves = Rules::placements(it.pos);
      counts[it.ply] += moves.none() ? int(Rules::can_pass) : moves.count();
      if (moves.none() && Rules::can_pass) {
        State q = it.pos;
        Rules::pass(q);
        next.push_back({q, it.ply + 1});
      }
      moves.minus(Rules::winning(it.pos, moves)).for_each([&](int p) {
        State q = it.pos;
        Rules::play(q, p);
        next.push_back({q, it.ply + 1});
      });
    }
    items = std::move(next);
  }
  std::mutex mu;
  oneapi::tbb::parallel_for_each(items.begin(), items.end(), [&](const Item& it) {
    const std::vector<uint64_t> sub = perft<Rules>(it.pos, depth - it.ply);
    std::lock_guard lock(mu);
    for (size_t d = 0; d < sub.size(); ++d) counts[it.ply + d] += sub[d];
  });
  return counts;
}

template <class Rules, int W>
int run_perft(const GameInput& input, const typename Rules::Variant& v, const std::string& variant_note,
              int depth, int threads, bool json) {
  const auto game = input.build_game<Rules, W>(v);
  if (game.over()) throw UsageError("the position is already won; perft needs a game in progress");
  oneapi::tbb::global_control limit(oneapi::tbb::global_control::max_allowed_parallelism, threads);
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<uint64_t> counts = parallel_perft<Rules>(game.state(), depth);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  const double rate = secs > 0 ? double(total) / secs : 0;
  const int n = game.position().size();
  if (json) {
    Json j = {{"game", Rules::name}};
    if constexpr (std::is_same_v<Rules, GonnectRules>) {
      j["ko_rule"] = ko_rule_name(v.ko);
      j["edges"] = edge_rule_name(v.edges);
    }
    j["size"] = n;
    j["depth"] = depth;
    j["threads"] = threads;
    j["position"] = format_position(to_text(game.position()));
    j["counts"] = counts;
    j["nodes"] = total;
    j["seconds"] = json_number(secs);
    j["nodes_per_second"] = json_number(rate);
    std::cout << json_text(j);
    return 0;
  }
  std::cout << "perft" << variant_note << " " << n << "x" << n << " from "
            << format_position(to_text(game.position())) << "\n";
  for (int d = 0; d < depth; ++d)
    std::cout << "  depth " << std::setw(2) << d + 1 << "  " << counts[d] << "\n";
  std::cout << std::fixed << std::setprecision(3) << "nodes " << total << " in " << secs << " s, "
            << std::setprecision(0) << rate << " nodes/s, " << threads << " thread"
            << (threads == 1 ? "" : "s") << "\n";
  return 0;
}

}  // namespace

int cmd_perft(const Args& args) {
  po::options_description opts("perft options");
  po::positional_options_description positional;
  GameInput input;
  GameChoice choice;
  int depth = 0, threads = 1;
  bool json = false;
  input.add_options(opts, positional);
  choice.add_options(opts, "superko");
  // clang-format off
  opts.add_options()
    ("depth,d", po::value<int>(&depth)->required(), "sequence length to count up to (1 to 64)")
    ("threads,t", po::value<int>(&threads)->default_value(1), "worker threads")
    ("json", po::bool_switch(&json), "print JSON");
  // clang-format on
  po::variables_map vm;
  if (parse_command_line("perft", "[--game G] --size N --depth D [--threads T] [--json]", args, opts, vm,
                         &positional))
    return 0;
  if (depth < 1 || depth > 64) throw UsageError("--depth must be from 1 to 64");
  if (threads < 1 || threads > 1024) throw UsageError("--threads must be from 1 to 1024");
  choice.check(vm);
  return with_words(input.board_size(), [&](auto w) {
    return choice.dispatch([&](auto rules, const auto& v) {
      std::string note;
      if constexpr (std::is_same_v<decltype(rules), GonnectRules>)
        note = std::string(" gonnect (ko ") + ko_rule_name(v.ko) + ", edges " + edge_rule_name(v.edges) + ")";
      return run_perft<decltype(rules), decltype(w)::value>(input, v, note, depth, threads, json);
    });
  });
}

}  // namespace konobi
