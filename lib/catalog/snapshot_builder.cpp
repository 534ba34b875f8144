#include "lib/catalog/snapshot_builder.h"

#include <algorithm>
#include "lib/crypto/sha256.h"
#include "lib/http/gzip.h"
#include "lib/json/writer.h"
#include "lib/util/time_format.h"

namespace placard::catalog {

namespace {

constexpr std::size_t kMaxFieldBytes = 10000;

// Cuts a string at a UTF-8 character boundary at or below max bytes.
std::string_view utf8_prefix(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

std::uint16_t append_value(std::string& text, const std::optional<std::string>& value) {
  const std::size_t before = text.size();
  if (value) {
    json::append_quoted(text, utf8_prefix(*value, kMaxFieldBytes));
  } else {
    text += "null";
  }
  return static_cast<std::uint16_t>(text.size() - before);
}

// The JSON answer, its gzip, and a strong ETag for each (one per representation).
Snapshot::CachedAnswer cached_answer(std::string json) {
  const auto digest = crypto::sha256(json);
  const std::string hex =
      crypto::to_hex(std::string_view(reinterpret_cast<const char*>(digest.data()), 12));
  Snapshot::CachedAnswer a;
  a.etag = "\"" + hex + "\"";
  a.gzip_etag = "\"" + hex + "-gz\"";
  a.gzip = http::gzip_compress(json);
  a.json = std::move(json);
  return a;
}

}  // namespace

SnapshotBuilder::SnapshotBuilder(CatalogBase base, std::int64_t now)
    : snap_(std::make_unique<Snapshot>()), now_(now), placements_(std::move(base.placements)) {
  snap_->version = base.version;
  snap_->built_at = now;
  build_click_targets(base.click_targets);
  snap_->settings = parse_settings(base.settings, problems_);
  for (const auto& c : base.countries) {
    if (c.selected) snap_->countries.push_back(c.code);
  }
  std::sort(snap_->countries.begin(), snap_->countries.end());
  for (const auto& p : placements_) {
    if (p.enabled) snap_->placements.emplace(p.name, std::clamp(p.max_offers, 1, 20));
  }
  build_categories(std::move(base.categories));
}

void SnapshotBuilder::build_click_targets(std::vector<ClickTargetRow>& rows) {
  std::sort(rows.begin(), rows.end(),
            [](const ClickTargetRow& a, const ClickTargetRow& b) { return a.id < b.id; });
  auto& s = *snap_;
  s.click_targets.reserve(rows.size());
  for (const auto& r : rows) {
    ClickTarget t;
    t.id = r.id;
    t.enabled = r.enabled;
    t.valid_from = r.valid_from.value_or(kOpenStart);
    t.valid_until = r.valid_until.value_or(kOpenEnd);
    t.network = r.network == "admitad" ? ClickTarget::Network::admitad
                : r.network == "awin"  ? ClickTarget::Network::awin
                                       : ClickTarget::Network::manual;
    // The admin API and the importer keep URLs to 2048 bytes; a longer one is not redirected to.
    t.has_url = r.tracking_url && r.tracking_url->size() <= 0xFFFF;
    if (t.has_url) {
      t.url_offset = static_cast<std::uint32_t>(s.click_urls.size());
      t.url_len = static_cast<std::uint16_t>(r.tracking_url->size());
      s.click_urls += *r.tracking_url;
    }
    s.click_targets.push_back(t);
  }
}

void SnapshotBuilder::build_categories(std::vector<CategoryRow> rows) {
  std::sort(rows.begin(), rows.end(), [](const CategoryRow& a, const CategoryRow& b) {
    return a.display_order != b.display_order ? a.display_order < b.display_order : a.path < b.path;
  });
  auto& nodes = snap_->categories;
  auto& by_id = node_by_id_;
  for (auto& r : rows) {
    by_id.emplace(r.id, static_cast<std::uint32_t>(nodes.size()));
    CategoryNode n;
    n.id = r.id;
    n.path = std::move(r.path);
    n.name = std::move(r.name);
    n.icon = std::move(r.icon);
    n.display_order = r.display_order;
    n.enabled = r.enabled;
    nodes.push_back(std::move(n));
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].parent_id) continue;
    const auto it = by_id.find(*rows[i].parent_id);
    if (it == by_id.end()) {
      nodes[i].enabled = false;
      problems_.push_back("category " + nodes[i].path + " has a missing parent");
      continue;
    }
    nodes[i].parent = static_cast<int>(it->second);
    nodes[it->second].children.push_back(static_cast<std::uint32_t>(i));  // keeps sorted order
  }
  // Effective state: enabled only when every ancestor is. Depth is small (<= 4 levels), and a
  // cycle (impossible through the foreign key, but cheap to guard) disables the category.
  for (auto& n : nodes) {
    int p = n.parent;
    for (int hops = 0; n.enabled && p >= 0; ++hops) {
      if (hops > 8 || !nodes[static_cast<std::size_t>(p)].enabled) n.enabled = false;
      p = nodes[static_cast<std::size_t>(p)].parent;
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].enabled) {
      snap_->enabled_category_by_path.emplace(nodes[i].path, static_cast<std::uint32_t>(i));
    }
  }
}

void SnapshotBuilder::add_offer(const OfferRow& row) {
  if (!row.enabled) return;
  if (row.valid_until && *row.valid_until <= now_) return;
  auto& s = *snap_;
  const auto found = node_by_id_.find(row.category_id);
  if (found == node_by_id_.end() || !s.categories[found->second].enabled) return;
  const std::uint32_t node = found->second;

  std::vector<std::uint16_t> countries;
  if (row.all_countries) {
    for (std::size_t i = 0; i < s.countries.size(); ++i) {
      countries.push_back(static_cast<std::uint16_t>(i));
    }
  }
  std::string_view list = row.all_countries ? std::string_view{} : row.countries;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto code = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (const auto idx = s.country_index(code)) countries.push_back(*idx);
  }
  if (countries.empty()) return;

  LiveOffer o;
  o.id = row.id;
  o.valid_from = row.valid_from.value_or(kOpenStart);
  o.valid_until = row.valid_until.value_or(kOpenEnd);
  o.priority = row.priority;
  o.category = node;
  o.is_demo = row.is_demo;
  o.text_offset = static_cast<std::uint32_t>(s.text.size());
  o.text_len[0] = append_value(s.text, std::to_string(row.id));
  o.text_len[1] = append_value(s.text, row.title);
  o.text_len[2] = append_value(s.text, row.description);
  o.text_len[3] = append_value(s.text, row.merchant);
  o.text_len[4] = append_value(s.text, row.image_url);
  o.text_len[5] = append_value(s.text, row.coupon_code);
  o.text_len[6] =
      append_value(s.text, row.valid_until ? std::optional(util::format_rfc3339(*row.valid_until))
                                           : std::nullopt);

  const auto offer_index = static_cast<std::uint32_t>(s.offers.size());
  s.offers.push_back(o);
  for (const auto c : countries) {
    lists_[Snapshot::index_key(std::nullopt, c)].push_back(offer_index);
    for (int n = static_cast<int>(node); n >= 0;
         n = s.categories[static_cast<std::size_t>(n)].parent) {
      lists_[Snapshot::index_key(static_cast<std::uint32_t>(n), c)].push_back(offer_index);
    }
  }
}

void SnapshotBuilder::render_config() {
  auto& s = *snap_;
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("apiVersion");
  w.Int(1);
  w.Key("available");
  w.Bool(s.settings.available);
  w.Key("refreshIntervalSeconds");
  w.Int(s.settings.refresh_interval_seconds);
  w.Key("minExtensionVersion");
  w.String(s.settings.min_extension_version.to_string());
  w.Key("countries");
  w.StartArray();
  for (const auto& c : s.countries) w.String(c);
  w.EndArray();
  w.Key("placements");
  w.StartArray();
  std::vector<std::pair<std::string, int>> sorted(s.placements.begin(), s.placements.end());
  std::sort(sorted.begin(), sorted.end());
  for (const auto& [name, max] : sorted) {
    w.StartObject();
    w.Key("name");
    w.String(name);
    w.Key("maxOffers");
    w.Int(max);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  s.config_answer = cached_answer(json::to_string(buf));
}

void SnapshotBuilder::render_categories() {
  auto& s = *snap_;
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  // Depth is bounded by the path rule (at most 4 segments), so recursion is shallow.
  auto write_node = [&](auto&& self, const CategoryNode& n) -> void {
    w.StartObject();
    w.Key("path");
    w.String(n.path);
    w.Key("name");
    w.String(n.name);
    w.Key("icon");
    w.String(n.icon);
    w.Key("displayOrder");
    w.Int(n.display_order);
    w.Key("children");
    w.StartArray();
    for (const auto c : n.children) {
      if (s.categories[c].enabled) self(self, s.categories[c]);
    }
    w.EndArray();
    w.EndObject();
  };
  w.StartObject();
  w.Key("categories");
  w.StartArray();
  for (const auto& n : s.categories) {
    if (n.parent < 0 && n.enabled) write_node(write_node, n);
  }
  w.EndArray();
  w.EndObject();
  s.categories_answer = cached_answer(json::to_string(buf));
}

std::shared_ptr<const Snapshot> SnapshotBuilder::finish() {
  auto& s = *snap_;
  std::size_t total = 0;
  for (auto& [key, list] : lists_) {
    std::sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) {
      return s.offers[a].priority != s.offers[b].priority
                 ? s.offers[a].priority > s.offers[b].priority
                 : s.offers[a].id < s.offers[b].id;
    });
    total += list.size();
  }
  s.index_entries.reserve(total);
  s.index.reserve(lists_.size());
  for (const auto& [key, list] : lists_) {
    s.index.push_back({key, static_cast<std::uint32_t>(s.index_entries.size()),
                       static_cast<std::uint32_t>(list.size())});
    s.index_entries.insert(s.index_entries.end(), list.begin(), list.end());
  }
  std::sort(
      s.index.begin(), s.index.end(),
      [](const Snapshot::IndexRange& a, const Snapshot::IndexRange& b) { return a.key < b.key; });
  lists_ = {};
  s.offers.shrink_to_fit();
  s.text.shrink_to_fit();
  render_config();
  render_categories();
  return std::shared_ptr<const Snapshot>(std::move(snap_));
}

}  // namespace placard::catalog
