#include "zone_table.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace konobi {

ZoneTable::ZoneTable(double megabytes) {
  const double bytes = megabytes * 1024.0 * 1024.0;
  if (!(bytes >= double(sizeof(Slot))))
    throw std::invalid_argument("a zone table of " + std::to_string(megabytes) + " MB cannot hold one slot");
  if (!(bytes < 0x1p48)) throw_not_enough_memory(bytes);
  nslots_ = std::bit_floor(size_t(bytes / sizeof(Slot)));
  memory_ = allocate_big_zeroed(nslots_ * sizeof(Slot));
  // Zeroed memory is a valid array of empty slots (an all-zero slot fails
  // find's check); the atomics need no construction beyond that.
  table_ = static_cast<Slot*>(memory_.get());
}

}  // namespace konobi
