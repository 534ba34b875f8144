#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/catalog/catalog_rows.h"
#include "lib/catalog/snapshot.h"

namespace placard::catalog {

// Turns database rows into an immutable Snapshot. Offers are streamed in one at a time so a
// large catalog is never held twice. Offers that can never be served (disabled, expired at build
// time, in a disabled category, in no selected country) are left out; the validity window is
// still checked per request, against the request's time.
class SnapshotBuilder {
 public:
  SnapshotBuilder(CatalogBase base, std::int64_t now);
  void add_offer(const OfferRow& row);
  std::shared_ptr<const Snapshot> finish();
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  void build_categories(std::vector<CategoryRow> rows);
  void build_click_targets(std::vector<ClickTargetRow>& rows);
  void render_config();
  void render_categories();

  std::unique_ptr<Snapshot> snap_;
  std::int64_t now_;
  std::vector<std::string> problems_;
  std::vector<PlacementRow> placements_;
  std::unordered_map<std::uint32_t, std::uint32_t> node_by_id_;  // category id -> node index
  // The candidate lists while offers are added; finish() copies them into the snapshot's one
  // block (Snapshot::index_entries).
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> lists_;
};

}  // namespace placard::catalog
