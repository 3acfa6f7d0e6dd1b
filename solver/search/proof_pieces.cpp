#include "proof_pieces.h"

#include <stdexcept>

#include <xxhash.h>

namespace konobi {

ProofPieces::Key ProofPieces::key_of(std::string_view position) {
  const XXH128_hash_t h = XXH3_128bits(position.data(), position.size());
  return {h.low64, h.high64};
}

bool ProofPieces::add(std::string_view line) {
  const size_t cut = line.rfind(' ');
  if (cut == std::string_view::npos || cut == 0 || cut + 1 == line.size())
    throw std::invalid_argument("a proof piece line needs a position and a move: '" + std::string(line) +
                                "'");
  const std::string_view move = line.substr(cut + 1);
  if (move.size() > kMaxMove)
    throw std::invalid_argument("a proof piece line's move is longer than a move: '" + std::string(line) +
                                "'");
  Move m;
  move.copy(m.text.data(), move.size());
  m.size = uint8_t(move.size());
  return moves_.emplace(key_of(line.substr(0, cut)), m).second;
}

std::optional<std::string_view> ProofPieces::move_of(std::string_view position) const {
  const auto it = moves_.find(key_of(position));
  if (it == moves_.end()) return std::nullopt;
  return std::string_view(it->second.text.data(), it->second.size);
}

}  // namespace konobi
