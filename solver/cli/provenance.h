// Who wrote a results file and how: the program version and commit (fixed
// at build time), the command line and the date. Only the program's own
// sources include this; they alone see the generated version header.
#pragma once

#include <ctime>
#include <string>

#include "command.h"
#include "konobi_version.h"
#include "solver/io/results.h"
#include "solver/search/dfpn.h"

namespace konobi {

inline std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

inline std::string command_line(const std::string& name, const Args& args) {
  std::string c = "konobi " + name;
  for (const auto& a : args) c += " " + a;
  return c;
}

inline Provenance make_provenance(const std::string& command, int threads, double tt_mb,
                                  const DfpnOptions& search = {}) {
  return {std::string("konobi ") + KONOBI_VERSION,
          KONOBI_COMMIT,
          command,
          now_utc(),
          threads,
          tt_mb,
          search.symmetry,
          search.evaluate,
          search.simulation,
          search.must_play ? search.must_play_depth : 0};
}

}  // namespace konobi
