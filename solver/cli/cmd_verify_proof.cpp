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
  std::string game = "konobi";
  opts.add_options()("files", po::value<std::vector<std::string>>(&files)->multitoken(), "proof files to check")
    ("game", po::value<std::string>(&game)->default_value("konobi"), "the game of the proofs: konobi (gonnect has no proof files)");
  positional.add("files", -1);
  po::variables_map vm;
  if (parse_command_line("verify-proof", "[--game G] FILE...", args, opts, vm, &positional)) return 0;
  if (game == "gonnect")
    throw UsageError("there are no Gonnect proof files to verify: a proof lists positions by board, while a Gonnect "
                     "position's legal moves depend on the earlier boards (superko), so solve --game gonnect writes "
                     "none (docs/GONNECT.md)");
  if (game != "konobi") throw UsageError("--game must be 'konobi' or 'gonnect', not '" + game + "'");
  if (files.empty()) throw UsageError("name at least one proof file");
  int failures = 0;
  for (const std::string& f : files) {
    ProofCheck c;
    try {
      c = check_proof(load(f));
    } catch (const std::exception& e) {
      c.ok = false;
      c.message = e.what();
    }
    if (c.ok) {
      std::cout << "OK    " << f << ": " << c.winner << " wins from " << c.start << " (" << c.entries
                << " strategy entries, " << c.positions << " positions checked)\n";
    } else {
      ++failures;
      std::cout << "FAIL  " << f << ": " << c.message << "\n";
    }
  }
  return failures ? 1 : 0;
}

}  // namespace konobi
