// The subcommands of the konobi program. Each takes its own arguments (the
// words after the subcommand name) and returns the process exit status.
// Errors in what the user gave throw UsageError (exit 2); a failed check
// returns 1.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace konobi {

namespace po = boost::program_options;
using Args = std::vector<std::string>;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

int cmd_show(const Args& args);
int cmd_perft(const Args& args);
int cmd_play(const Args& args);
int cmd_solve(const Args& args);
int cmd_verify_proof(const Args& args);
int cmd_analyze(const Args& args);
int cmd_bench(const Args& args);
int cmd_puzzles(const Args& args);
int cmd_verify_nodraw(const Args& args);
int cmd_pie(const Args& args);
int cmd_paper(const Args& args);
int cmd_gtp(const Args& args);
int cmd_serve(const Args& args);
int cmd_tree(const Args& args);

// --simulation (solve, bench): a budget in positions per replay, 0 for none.
inline void check_simulation(int budget) {
  if (budget < 0 || budget > 100000) throw UsageError("--simulation must be from 0 to 100000");
}

// Parses args against opts (with positional ones if given); prints help and
// returns true when --help was asked for.
bool parse_command_line(const std::string& name, const std::string& usage, const Args& args,
                        po::options_description& opts, po::variables_map& vm,
                        const po::positional_options_description* positional = nullptr);

}  // namespace konobi
