// konobi verify-proof: checks proof files with the independent checker.
// Files ending in .xz or .gz are decompressed through xz/gzip.
#include <cstdio>
#include <iostream>

#include "command.h"
#include "solver/io/atomic_file.h"
#include "solver/verify/proof_checker.h"

namespace konobi {

namespace {
std::string load(const std::string& path) {
  const bool xz = path.size() > 3 && path.compare(path.size() - 3, 3, ".xz") == 0;
  const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  if (!xz && !gz) return read_file(path);
  read_file(path);  // a clear error when it cannot be read at all
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  FILE* pipe = popen(((xz ? "xz -dc " : "gzip -dc ") + quoted + " 2>/dev/null").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run the decompressor for " + path);
  std::string text;
  char buf[1 << 16];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, got);
  if (pclose(pipe) != 0) throw std::runtime_error(path + " is not a valid compressed file (truncated or corrupt?)");
  return text;
}
}  // namespace

int cmd_verify_proof(const Args& args) {
  po::options_description opts("verify-proof options");
  po::positional_options_description positional;
  std::vector<std::string> files;
  std::string game, ko, edges;
  opts.add_options()("files", po::value<std::vector<std::string>>(&files)->multitoken(), "proof files to check")
    ("game", po::value<std::string>(&game),
     "konobi or gonnect: require proofs of this game (by default each file's first line says which)")
    ("ko", po::value<std::string>(&ko), "gonnect: require proofs under this ko rule, simple or superko")
    ("edges", po::value<std::string>(&edges), "gonnect: require proofs under this edge rule, either or own");
  positional.add("files", -1);
  po::variables_map vm;
  if (parse_command_line("verify-proof", "[--game G] [--ko K] [--edges E] FILE...", args, opts, vm, &positional))
    return 0;
  if (!game.empty() && game != "konobi" && game != "gonnect")
    throw UsageError("--game must be 'konobi' or 'gonnect', not '" + game + "'");
  if (!ko.empty() && ko != "simple" && ko != "superko") throw UsageError("--ko must be 'simple' or 'superko', not '" + ko + "'");
  if (!edges.empty() && edges != "either" && edges != "own")
    throw UsageError("--edges must be 'either' or 'own', not '" + edges + "'");
  if ((!ko.empty() || !edges.empty()) && game == "konobi") throw UsageError("--ko and --edges are Gonnect options");
  if (files.empty()) throw UsageError("name at least one proof file");
  int failures = 0;
  for (const std::string& f : files) {
    ProofCheck c;
    try {
      const std::string text = load(f);
      c = game == "gonnect" ? check_gonnect_proof(text) : game == "konobi" ? check_proof(text) : check_any_proof(text);
      // The rules asked for must be the ones the file proves.
      if (c.ok && (!ko.empty() || !edges.empty()) && c.game != "gonnect")
        c.ok = false, c.message = "a " + c.game + " proof, but --ko and --edges ask for Gonnect";
      else if (c.ok && ((!ko.empty() && c.ko != ko) || (!edges.empty() && c.edges != edges)))
        c.ok = false, c.message = "the proof holds under ko " + c.ko + ", edges " + c.edges + ", not under the rules asked for";
    } catch (const std::exception& e) {
      c.ok = false;
      c.message = e.what();
    }
    if (c.ok) {
      std::cout << "OK    " << f << ": " << c.winner << " wins from " << c.start;
      if (c.game == "gonnect") std::cout << " (gonnect, ko " << c.ko << ", edges " << c.edges << ")";
      std::cout << " (" << c.entries << " strategy entries, " << c.positions << " positions checked)\n";
    } else {
      ++failures;
      std::cout << "FAIL  " << f << ": " << c.message << "\n";
    }
  }
  return failures ? 1 : 0;
}

}  // namespace konobi
