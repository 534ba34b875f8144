#include "lib/stats/stats_part.h"

#include <algorithm>

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
  by_key_.resize(ranked_.size());
  for (std::size_t i = 0; i < ranked_.size(); ++i) {
    by_key_[i] = static_cast<std::uint32_t>(i);
    totals_ += ranked_[i].counts;
  }
  std::sort(by_key_.begin(), by_key_.end(),
            [this](std::uint32_t a, std::uint32_t b) { return ranked_[a].key < ranked_[b].key; });
  ranked_.shrink_to_fit();
}

std::size_t StatsPart::position(std::string_view key) const {
  const auto it = std::lower_bound(
      by_key_.begin(), by_key_.end(), key,
      [this](std::uint32_t at, std::string_view k) { return ranked_[at].key < k; });
  return it != by_key_.end() && ranked_[*it].key == key ? *it : npos;
}

StatsReport merge_parts(StatsGroup group, const StatsPart* closed, std::vector<StatsRow> live,
                        std::size_t max_rows) {
  const auto before = [group](const StatsRow& a, const StatsRow& b) {
    return ranks_before(group, a, b);
  };
  StatsReport out;
  std::vector<StatsRow> candidates = std::move(live);
  for (const auto& row : candidates) out.totals += row.counts;
  if (closed != nullptr) {
    out.totals += closed->totals();
    const auto& ranked = closed->ranked();
    std::vector<bool> in_live(ranked.size(), false);
    for (auto& row : candidates) {
      const std::size_t at = closed->position(row.key);
      if (at == StatsPart::npos) continue;
      row.counts += ranked[at].counts;
      in_live[at] = true;
    }
    // Only the best max_rows keys without live counts can make the cut.
    std::size_t taken = 0;
    for (std::size_t i = 0; i < ranked.size() && taken < max_rows; ++i) {
      if (in_live[i]) continue;
      candidates.push_back(ranked[i]);
      ++taken;
    }
  }
  if (candidates.size() > max_rows) {
    std::partial_sort(candidates.begin(),
                      candidates.begin() + static_cast<std::ptrdiff_t>(max_rows), candidates.end(),
                      before);
    candidates.resize(max_rows);
  } else {
    std::sort(candidates.begin(), candidates.end(), before);
  }
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

StatsCache::Rows StatsCache::get_open(StatsGroup group, std::int64_t day,
                                      const StatsCounts& fingerprint) {
  const std::lock_guard lock(mutex_);
  const auto it = open_.find({group, day});
  if (it == open_.end() || !(it->second.fingerprint == fingerprint)) return nullptr;
  return it->second.rows;
}

void StatsCache::put_open(StatsGroup group, std::int64_t day, const StatsCounts& fingerprint,
                          Rows rows) {
  const std::lock_guard lock(mutex_);
  open_[{group, day}] = Open{fingerprint, std::move(rows)};
  // Open days are today and its neighbours: forget the days before those.
  for (auto it = open_.begin(); it != open_.end();) {
    it = it->first.second < day - std::int64_t{2} * 86400 ? open_.erase(it) : std::next(it);
  }
}

}  // namespace placard::db
