// konobi verify-proof: checks proof files with the independent checker.
// Files ending in .xz or .gz are decompressed (liblzma, zlib) up to a limit.
#include <filesystem>
#include <iostream>

#include "command.h"
#include "solver/io/compressed_file.h"
#include "solver/verify/proof_checker.h"

namespace konobi {

int cmd_verify_proof(const Args& args) {
  po::options_description opts("verify-proof options");
  po::positional_options_description positional;
  std::vector<std::string> files;
  std::string game, ko, edges;
  size_t max_mb = kMaxDecompressedBytes >> 20;
  int threads = 1;
  // clang-format off
  opts.add_options()("files", po::value<std::vector<std::string>>(&files)->multitoken(), "proof files to check")
    ("game", po::value<std::string>(&game),
     "konobi or gonnect: require proofs of this game (by default each file's first line says which)")
    ("ko", po::value<std::string>(&ko), "gonnect: require proofs under this ko rule, simple or superko")
    ("edges", po::value<std::string>(&edges), "gonnect: require proofs under this edge rule, either or own")
    ("max-mb", po::value<size_t>(&max_mb)->default_value(max_mb),
     "refuse a proof larger than this many MiB (after decompression)")
    ("threads", po::value<int>(&threads)->default_value(threads),
     "check this many parts of a proof in parts at once (each holds its own positions: memory adds up)");
  // clang-format on
  positional.add("files", -1);
  po::variables_map vm;
  if (parse_command_line("verify-proof", "[--game G] [--ko K] [--edges E] [--threads N] FILE...", args, opts,
                         vm, &positional))
    return 0;
  if (!game.empty() && game != "konobi" && game != "gonnect")
    throw UsageError("--game must be 'konobi' or 'gonnect', not '" + game + "'");
  if (!ko.empty() && ko != "simple" && ko != "superko")
    throw UsageError("--ko must be 'simple' or 'superko', not '" + ko + "'");
  if (!edges.empty() && edges != "either" && edges != "own")
    throw UsageError("--edges must be 'either' or 'own', not '" + edges + "'");
  if ((!ko.empty() || !edges.empty()) && game == "konobi")
    throw UsageError("--ko and --edges are Gonnect options");
  if (files.empty()) throw UsageError("name at least one proof file");
  if (max_mb < 1 || max_mb > (size_t(1) << 20)) throw UsageError("--max-mb must be from 1 to 1048576");
  if (threads < 1 || threads > 1024) throw UsageError("--threads must be from 1 to 1024");
  int failures = 0;
  for (const std::string& f : files) {
    ProofCheck c;
    try {
      const std::string text = read_maybe_compressed(f, max_mb << 20);
      // A proof in parts (format 3) names files beside it, each read as
      // this one is, under the same limit, when the checker needs it.
      const std::filesystem::path folder = std::filesystem::path(f).parent_path();
      // Each part that holds is told on stderr: 6x6 c3's 35 parts take over
      // an hour and a half to check, and stdout keeps one line per file for scripts.
      const ProofParts parts{
          [&](const std::string& path) {
            return read_maybe_compressed((folder / path).string(), max_mb << 20);
          },
          [&](const std::string& path, size_t index, size_t count, const ProofCheck& part) {
            std::cerr << "  part " << index << " of " << count << " holds: " << (folder / path).string()
                      << " (" << part.entries << " strategy entries, " << part.positions
                      << " positions checked)" << std::endl;
          },
          threads};
      c = game == "gonnect"  ? check_gonnect_proof(text)
          : game == "konobi" ? check_proof(text, &parts)
                             : check_any_proof(text, &parts);
      // The rules asked for must be the ones the file proves.
      if (c.ok && (!ko.empty() || !edges.empty()) && c.game != "gonnect")
        c.ok = false, c.message = "a " + c.game + " proof, but --ko and --edges ask for Gonnect";
      else if (c.ok && ((!ko.empty() && c.ko != ko) || (!edges.empty() && c.edges != edges)))
        c.ok = false, c.message = "the proof holds under ko " + c.ko + ", edges " + c.edges +
                                  ", not under the rules asked for";
    } catch (const std::exception& e) {
      c.ok = false;
      c.message = e.what();
    }
    if (c.ok) {
      std::cout << "OK    " << f << ": " << c.winner << " wins from " << c.start;
      if (c.game == "gonnect") std::cout << " (gonnect, ko " << c.ko << ", edges " << c.edges << ")";
      std::cout << " (format " << c.version;
      if (c.parts) std::cout << ", " << c.parts << (c.parts == 1 ? " part" : " parts");
      std::cout << ", " << c.entries << " strategy entries, " << c.positions << " positions checked)\n";
    } else {
      ++failures;
      std::cout << "FAIL  " << f << ": " << c.message << "\n";
    }
  }
  return failures ? 1 : 0;
}

}  // namespace konobi
