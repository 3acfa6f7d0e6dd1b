// The no-draw report (results/nodraw-NxN.json, written by verify-nodraw),
// schema documented in docs/NODRAW.md. Read by the paper's tables.
#pragma once

#include <string>

#include "json.h"

namespace konobi {

// Parses and checks a no-draw report: every field's presence, type and range,
// the totals against the plies, and the verdict against the two checks.
// Returns the document; throws std::runtime_error
// "WHERE is not a valid no-draw report: FIELD: why".
Json read_nodraw_file(const std::string& text, const std::string& where);

}  // namespace konobi
