// konobi: the command-line front end. Dispatches to one subcommand per file.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "command.h"
#include "konobi_version.h"
#include "core/game.h"

namespace konobi {

namespace {
struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Args&);
};

const Command kCommands[] = {
    {"show", "draw a position or game record: whose turn, legal points and why others are not", cmd_show},
    {"perft", "count move sequences from the empty board (move-generator check and speed)", cmd_perft},
    {"play", "play a console game: people, the random mover, the solver or the engine", cmd_play},
    {"analyze", "value of a position and of every move, with remoteness and a principal variation",
     cmd_analyze},
    {"bench", "fixed solves and a perft: node-count fingerprint and speed", cmd_bench},
    {"verify-proof", "check proof files with an independent, simple rules implementation", cmd_verify_proof},
    {"solve", "prove every opening of a board up to 8x8 and write results/konobi-NxN.json", cmd_solve},
    {"tree", "where an unfinished solve stands: its checkpoint's classes, a node's moves and numbers",
     cmd_tree},
    {"puzzles", "find positions with exactly one winning move, graded by remoteness", cmd_puzzles},
    {"verify-nodraw", "check that some player can always move: reachable positions and crosscut-free boards",
     cmd_verify_nodraw},
    {"pie", "the pie rule on the solved boards: swap decisions, losing openings, verdict", cmd_pie},
    {"paper", "regenerate the paper's tables and figures from results/", cmd_paper},
    {"gtp", "the playing engine (or a baseline player) over the Go Text Protocol, every size", cmd_gtp},
    {"serve", "the web board: play in the browser, online or against the engine", cmd_serve},
};

void print_usage(std::ostream& out) {
  out << "konobi - rules engine and solver for the connection game Konobi\n\n"
         "usage: konobi <command> [options]    (konobi <command> --help for its options)\n\ncommands:\n";
  for (const Command& c : kCommands)
    out << "  " << c.name << std::string(14 - std::strlen(c.name), ' ') << c.summary << "\n";
}

// An error message with every very long word cut to its start: messages
// quote what the user gave, which may be a whole file pasted as one word.
// Paths and diagrams are far shorter than the cut.
std::string shorten_words(const std::string& message) {
  constexpr size_t kLongest = 200, kShown = 40;
  std::string out;
  size_t i = 0;
  while (i < message.size()) {
    size_t j = i;
    while (j < message.size() && !std::isspace(static_cast<unsigned char>(message[j]))) ++j;
    if (j - i > kLongest)
      out.append(message, i, kShown).append("... (" + std::to_string(j - i) + " characters)");
    else out.append(message, i, j - i);
    while (j < message.size() && std::isspace(static_cast<unsigned char>(message[j]))) out += message[j++];
    i = j;
  }
  return out;
}

// Output that never arrived (a full disk, a closed file) is a failure, not
// a success with nothing written: the exit status says so.
int finish(int status) {
  errno = 0;
  std::cout.flush();
  bool failed = !std::cout;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) failed = true;
  if (!failed) return status;
  const int err = errno;
  std::cerr << "konobi: cannot write standard output: " << (err ? std::strerror(err) : "write error") << "\n";
  return status == 0 ? 2 : status;
}
}  // namespace

bool parse_command_line(const std::string& name, const std::string& usage, const Args& args,
                        po::options_description& opts, po::variables_map& vm,
                        const po::positional_options_description* positional) {
  // clang-format off
  opts.add_options()("help,h", "show this help");
  // clang-format on
  try {
    // Boost's parser takes each word off the front of a vector, so a record
    // of 100,000 moves took it many seconds: it sees the words up to the
    // first of the final run of plain words (which may be an option's value),
    // and the rest go to the positional options here.
    size_t cut = args.size();
    if (positional)
      while (cut > 0 && !args[cut - 1].empty() && args[cut - 1][0] != '-') --cut;
    const size_t seen = std::min(args.size(), cut + 1);
    auto parser =
        po::command_line_parser(Args(args.begin(), args.begin() + std::ptrdiff_t(seen))).options(opts);
    if (positional) parser.positional(*positional);
    po::parsed_options parsed = parser.run();
    if (seen < args.size()) {
      unsigned taken = 0;
      for (const po::option& o : parsed.options) taken += o.position_key >= 0;
      for (size_t i = seen; i < args.size(); ++i, ++taken) {
        if (taken >= positional->max_total_count())
          throw UsageError("too many words: " + quote_token(args[i]) +
                           " is not an option or an option's value");
        po::option o(positional->name_for_position(taken), {args[i]});
        o.position_key = int(taken);
        o.original_tokens = {args[i]};
        parsed.options.push_back(std::move(o));
      }
    }
    po::store(parsed, vm);
    if (vm.count("help")) {
      std::cout << "usage: konobi " << name << " " << usage << "\n\n" << opts << "\n";
      return true;
    }
    po::notify(vm);
  } catch (const po::error& e) { throw UsageError(e.what()); }
  return false;
}

}  // namespace konobi

int main(int argc, char** argv) {
  using namespace konobi;
  if (argc < 2) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return finish(0);
  }
  if (name == "--version") {
    std::cout << "konobi " << KONOBI_VERSION << " (" << KONOBI_COMMIT << ")\n";
    return finish(0);
  }
  for (const Command& c : kCommands) {
    if (name != c.name) continue;
    try {
      return finish(c.run(Args(argv + 2, argv + argc)));
    } catch (const UsageError& e) {
      std::cerr << "konobi " << name << ": " << shorten_words(e.what()) << " (see konobi " << name
                << " --help)\n";
    } catch (const ParseError& e) {
      std::cerr << "konobi " << name << ": " << shorten_words(e.what()) << "\n";
    } catch (const RuleError& e) {
      std::cerr << "konobi " << name << ": illegal move: " << shorten_words(e.what()) << "\n";
    } catch (const std::bad_alloc&) {
      std::cerr << "konobi " << name << ": out of memory\n";
    } catch (const std::exception& e) {
      std::cerr << "konobi " << name << ": " << shorten_words(e.what()) << "\n";
    }
    return finish(2);
  }
  std::cerr << "konobi: unknown command '" << name << "'\n\n";
  print_usage(std::cerr);
  return 2;
}
