#include "lib/db/stats_part.h"

#include <algorithm>
#include <unordered_set>

namespace placard::db {

bool ranks_before(StatsGroup group, const StatsRow& a, const StatsRow& b) {
  if (group != StatsGroup::day && a.counts.impressions != b.counts.impressions) {
    return a.counts.impressions > b.counts.impressions;
  }
  return a.key < b.key;
}

StatsPart::StatsPart(StatsGroup group, std::vector<StatsRow> rows) : ranked_(std::move(rows)) {
  std::sort(ranked_.begin(), ranked_.end(),
            [group](const StatsRow& a, const StatsRow& b) { return ranks_before(group, a, b); });
  index_.reserve(ranked_.size());
  for (std::size_t i = 0; i < ranked_.size(); ++i) {
    index_.emplace(ranked_[i].key, i);
    totals_ += ranked_[i].counts;
  }
}

const StatsCounts* StatsPart::find(const std::string& key) const {
  const auto it = index_.find(key);
  return it == index_.end() ? nullptr : &ranked_[it->second].counts;
}

StatsReport merge_parts(StatsGroup group, const StatsPart* closed, const StatsPart* live,
                        std::size_t max_rows) {
  StatsReport out;
  std::vector<StatsRow> candidates;
  std::unordered_set<std::string> live_keys;
  if (live != nullptr) {
    out.totals += live->totals();
    for (const auto& row : live->ranked()) {
      StatsRow r = row;
      if (closed != nullptr) {
        if (const auto* c = closed->find(row.key)) r.counts += *c;
      }
      live_keys.insert(row.key);
      candidates.push_back(std::move(r));
    }
  }
  if (closed != nullptr) {
    out.totals += closed->totals();
    // Only the best max_rows keys without live counts can make the cut.
    std::size_t taken = 0;
    for (const auto& row : closed->ranked()) {
      if (taken == max_rows) break;
      if (live_keys.count(row.key) != 0) continue;
      candidates.push_back(row);
      ++taken;
    }
  }
  std::sort(candidates.begin(), candidates.end(),
            [group](const StatsRow& a, const StatsRow& b) { return ranks_before(group, a, b); });
  if (candidates.size() > max_rows) candidates.resize(max_rows);
  out.rows = std::move(candidates);
  return out;
}

std::shared_ptr<const StatsPart> StatsCache::get(const Key& key) {
  const std::lock_guard lock(mutex_);
  const auto it =
      std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == key; });
  if (it == entries_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, it);  // most recently used first
  return entries_.front().second;
}

void StatsCache::put(const Key& key, std::shared_ptr<const StatsPart> part) {
  const std::lock_guard lock(mutex_);
  const auto it =
      std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == key; });
  if (it != entries_.end()) entries_.erase(it);
  entries_.emplace_front(key, std::move(part));
  while (entries_.size() > capacity_) entries_.pop_back();
}

}  // namespace placard::db
