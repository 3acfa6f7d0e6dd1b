#include "proven_collector.h"

#include <stdexcept>

namespace konobi {

ProvenCollector::ProvenCollector(size_t slots, size_t max_buffered)
    : table_(slots == 0 ? throw std::invalid_argument("ProvenCollector needs at least one slot") : slots),
      max_buffered_(max_buffered) {}

std::optional<ProvenPosition> ProvenCollector::find(uint64_t key) {
  std::lock_guard lock(mutex_);
  const ProvenPosition& e = table_[key % table_.size()];
  if (key != 0 && e.key == key) return e;
  return std::nullopt;
}

void ProvenCollector::add(const ProvenPosition& p) {
  std::lock_guard lock(mutex_);
  if (p.key != 0) table_[p.key % table_.size()] = p;
  if (buffer_.size() < max_buffered_) buffer_.push_back(p);
  else ++dropped_;
}

std::vector<ProvenPosition> ProvenCollector::take() {
  std::lock_guard lock(mutex_);
  std::vector<ProvenPosition> out;
  out.swap(buffer_);
  return out;
}

uint64_t ProvenCollector::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

}  // namespace konobi
