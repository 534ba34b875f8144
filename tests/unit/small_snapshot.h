#pragma once

// A small catalog snapshot for the public handlers' unit tests: countries DE and FR selected (GB
// not), the placements sidebar (3) and hidden (off), the categories electronics and garden (off),
// offer 10 in electronics for DE, and with `with_demo` offer 11, a demonstration.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "lib/catalog/snapshot.h"
#include "lib/catalog/snapshot_builder.h"

namespace placard::test {

inline constexpr std::int64_t kSnapshotNow = 1'790'000'000;

inline std::shared_ptr<const catalog::Snapshot> snapshot(
    std::map<std::string, std::string> settings = {}, bool with_demo = false) {
  catalog::CatalogBase b;
  b.version = 3;
  b.settings = std::move(settings);
  b.countries = {{"DE", true}, {"FR", true}, {"GB", false}};
  b.placements = {{"sidebar", 3, true}, {"hidden", 5, false}};
  catalog::CategoryRow electronics;
  electronics.id = 1;
  electronics.path = "electronics";
  electronics.name = "Electronics";
  electronics.icon = "plug";
  catalog::CategoryRow garden = electronics;
  garden.id = 2;
  garden.path = "garden";
  garden.name = "Garden";
  garden.enabled = false;
  b.categories = {electronics, garden};
  catalog::SnapshotBuilder builder(std::move(b), kSnapshotNow);
  catalog::OfferRow o;
  o.id = 10;
  o.title = "Ten";
  o.category_id = 1;
  o.countries = "DE";
  builder.add_offer(o);
  if (with_demo) {
    catalog::OfferRow demo = o;
    demo.id = 11;
    demo.title = "Eleven, a demonstration";
    demo.is_demo = true;
    builder.add_offer(demo);
  }
  return builder.finish();
}

}  // namespace placard::test
