#include "lib/catalog/snapshot_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/catalog/settings.h"
#include "lib/crypto/sha256.h"

namespace {

using placard::catalog::CatalogBase;
using placard::catalog::CategoryRow;
using placard::catalog::kOpenEnd;
using placard::catalog::kOpenStart;
using placard::catalog::LiveOffer;
using placard::catalog::OfferRow;
using placard::catalog::parse_settings;
using placard::catalog::Settings;
using placard::catalog::Snapshot;
using placard::catalog::SnapshotBuilder;

constexpr std::int64_t kNow = 1'790'000'000;  // 2026-09-21

CategoryRow category(std::uint32_t id, std::string path, std::optional<std::uint32_t> parent,
                     std::string name, std::string icon, int order, bool enabled = true) {
  CategoryRow c;
  c.id = id;
  c.path = std::move(path);
  c.parent_id = parent;
  c.name = std::move(name);
  c.icon = std::move(icon);
  c.display_order = order;
  c.enabled = enabled;
  return c;
}

// Category rows in scrambled order; ids:
//  1 electronics (10)          2 electronics.phones (10)   3 electronics.audio (10)
//  4 electronics.tv (5)        5 fashion (5)               6 garden (20, disabled)
//  7 garden.tools              8 garden.tools.saws         9 fashion.shoes (disabled)
// 10 fashion.shoes.kids       11 books (10)
CatalogBase sample_base() {
  CatalogBase b;
  b.version = 7;
  b.countries = {{"US", true}, {"GB", false}, {"DE", true}, {"FR", true}, {"AT", false}};
  b.placements = {{"sidebar", 3, true}, {"popup-main", 6, true}, {"hidden", 5, false}};
  b.categories = {
      category(8, "garden.tools.saws", 7, "Saws", "saw", 1),
      category(2, "electronics.phones", 1, "Phones", "phone", 10),
      category(11, "books", std::nullopt, "Books", "book", 10),
      category(6, "garden", std::nullopt, "Garden", "tree", 20, false),
      category(3, "electronics.audio", 1, "Audio", "headphones", 10),
      category(10, "fashion.shoes.kids", 9, "Kids", "kid", 1),
      category(1, "electronics", std::nullopt, "Electronics", "plug", 10),
      category(7, "garden.tools", 6, "Tools", "hammer", 1),
      category(9, "fashion.shoes", 5, "Shoes", "shoe", 1, false),
      category(4, "electronics.tv", 1, "TV", "tv", 5),
      category(5, "fashion", std::nullopt, "Fashion", "shirt", 5),
  };
  return b;
}

OfferRow offer_row(std::uint64_t id, std::uint32_t category_id, int priority,
                   std::string countries) {
  OfferRow o;
  o.id = id;
  o.title = "Offer " + std::to_string(id);
  o.category_id = category_id;
  o.priority = priority;
  o.countries = std::move(countries);
  return o;
}

// The offers of the sample catalog. Live: 100, 101, 102, 103, 110, 112.
std::vector<OfferRow> sample_offers() {
  std::vector<OfferRow> v;
  v.push_back(offer_row(101, 3, 5, "DE,FR"));   // electronics.audio
  v.push_back(offer_row(102, 2, 10, "DE"));     // electronics.phones
  v.push_back(offer_row(103, 1, 5, "US,DE"));   // electronics
  auto disabled = offer_row(104, 1, 50, "DE");  // disabled
  disabled.enabled = false;
  v.push_back(disabled);
  auto expired = offer_row(105, 1, 50, "DE");  // expired before the build
  expired.valid_until = kNow - 1;
  v.push_back(expired);
  auto ends_now = offer_row(115, 1, 50, "DE");  // ends exactly at build time
  ends_now.valid_until = kNow;
  v.push_back(ends_now);
  v.push_back(offer_row(106, 7, 50, "DE"));        // garden.tools: parent disabled
  v.push_back(offer_row(116, 6, 50, "DE"));        // garden: disabled
  v.push_back(offer_row(107, 10, 50, "DE"));       // fashion.shoes.kids: grandparent... disabled
  v.push_back(offer_row(108, 1, 50, "GB"));        // country not selected
  v.push_back(offer_row(118, 1, 50, "GB,AT,XX"));  // no selected country at all
  v.push_back(offer_row(109, 1, 50, ""));          // no country
  auto future = offer_row(110, 11, 5, "DE");       // books, starts later: kept
  future.valid_from = kNow + 100;
  v.push_back(future);
  v.push_back(offer_row(111, 999, 50, "DE"));  // unknown category
  auto soon = offer_row(112, 4, 10, "FR,DE");  // electronics.tv, ends in one second
  soon.valid_until = kNow + 1;
  v.push_back(soon);
  v.push_back(offer_row(100, 3, 5, "DE"));  // electronics.audio
  return v;
}

std::shared_ptr<const Snapshot> build(CatalogBase base, const std::vector<OfferRow>& offers,
                                      std::vector<std::string>* problems = nullptr) {
  SnapshotBuilder b(std::move(base), kNow);
  for (const auto& o : offers) b.add_offer(o);
  if (problems) *problems = b.problems();
  return b.finish();
}

std::vector<std::uint64_t> ids_of(const Snapshot& s, std::span<const std::uint32_t> list) {
  std::vector<std::uint64_t> out;
  for (const auto idx : list) out.push_back(s.offers.at(idx).id);
  return out;
}

std::vector<std::uint64_t> candidate_ids(const Snapshot& s, std::optional<std::string> path,
                                         const std::string& country) {
  const auto c = s.country_index(country);
  EXPECT_TRUE(c.has_value()) << country;
  if (!c) return {};
  std::optional<std::uint32_t> node;
  if (path) {
    const auto it = s.enabled_category_by_path.find(*path);
    EXPECT_NE(it, s.enabled_category_by_path.end()) << *path;
    if (it == s.enabled_category_by_path.end()) return {};
    node = it->second;
  }
  return ids_of(s, s.candidates(node, *c));
}

const LiveOffer* find_offer(const Snapshot& s, std::uint64_t id) {
  for (const auto& o : s.offers) {
    if (o.id == id) return &o;
  }
  return nullptr;
}

std::string expected_etag(const std::string& body) {
  const auto d = placard::crypto::sha256(body);
  return "\"" +
         placard::crypto::to_hex(std::string_view(reinterpret_cast<const char*>(d.data()), 12)) +
         "\"";
}

TEST(CatalogSnapshotBuilder, VersionAndBuildTime) {
  const auto s = build(sample_base(), {});
  EXPECT_EQ(s->version, 7u);
}

TEST(CatalogSnapshotBuilder, ConfigJsonExact) {
  const auto s = build(sample_base(), sample_offers());
  EXPECT_EQ(
      s->config_answer.json,
      R"({"apiVersion":1,"available":true,"refreshIntervalSeconds":900,)"
      R"("minExtensionVersion":"1.0.0","countries":["DE","FR","US"],)"
      R"("placements":[{"name":"popup-main","maxOffers":6},{"name":"sidebar","maxOffers":3}]})");
  EXPECT_EQ(s->countries, (std::vector<std::string>{"DE", "FR", "US"}));
  EXPECT_EQ(s->placements.size(), 2u);
  EXPECT_EQ(s->placements.at("popup-main"), 6);
  EXPECT_EQ(s->placements.at("sidebar"), 3);
  EXPECT_EQ(s->placements.count("hidden"), 0u);
}

TEST(CatalogSnapshotBuilder, ConfigJsonReflectsSettings) {
  auto base = sample_base();
  base.settings = {
      {"available", "false"}, {"refreshIntervalSeconds", "120"}, {"minExtensionVersion", "2.10.3"}};
  base.countries = {};
  base.placements = {};
  const auto s = build(base, {});
  EXPECT_EQ(s->config_answer.json,
            R"({"apiVersion":1,"available":false,"refreshIntervalSeconds":120,)"
            R"("minExtensionVersion":"2.10.3","countries":[],"placements":[]})");
}

TEST(CatalogSnapshotBuilder, PlacementMaxOffersClampedTo1To20) {
  auto base = sample_base();
  base.placements = {{"zeta", 50, true}, {"alpha", 0, true}, {"mid", 20, true}, {"one", 1, true}};
  const auto s = build(base, {});
  EXPECT_NE(
      s->config_answer.json.find(R"("placements":[{"name":"alpha","maxOffers":1},)"
                                 R"({"name":"mid","maxOffers":20},{"name":"one","maxOffers":1},)"
                                 R"({"name":"zeta","maxOffers":20}]})"),
      std::string::npos)
      << s->config_answer.json;
}

TEST(CatalogSnapshotBuilder, CategoriesJsonExactTree) {
  const auto s = build(sample_base(), sample_offers());
  EXPECT_EQ(
      s->categories_answer.json,
      R"({"categories":[)"
      R"({"path":"fashion","name":"Fashion","icon":"shirt","displayOrder":5,"children":[]},)"
      R"({"path":"books","name":"Books","icon":"book","displayOrder":10,"children":[]},)"
      R"({"path":"electronics","name":"Electronics","icon":"plug","displayOrder":10,"children":[)"
      R"({"path":"electronics.tv","name":"TV","icon":"tv","displayOrder":5,"children":[]},)"
      R"({"path":"electronics.audio","name":"Audio","icon":"headphones","displayOrder":10,"children":[]},)"
      R"({"path":"electronics.phones","name":"Phones","icon":"phone","displayOrder":10,"children":[]})"
      R"(]}]})");
}

TEST(CatalogSnapshotBuilder, EnabledCategoryMapExcludesDisabledSubtrees) {
  const auto s = build(sample_base(), {});
  std::vector<std::string> paths;
  for (const auto& [path, node] : s->enabled_category_by_path) {
    paths.push_back(path);
    EXPECT_EQ(s->categories.at(node).path, path);
    EXPECT_TRUE(s->categories.at(node).enabled) << path;
  }
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths, (std::vector<std::string>{"books", "electronics", "electronics.audio",
                                             "electronics.phones", "electronics.tv", "fashion"}));
  // Enabled rows under a disabled ancestor are effectively disabled.
  for (const auto& n : s->categories) {
    if (n.path == "garden.tools" || n.path == "garden.tools.saws" ||
        n.path == "fashion.shoes.kids") {
      EXPECT_FALSE(n.enabled) << n.path;
    }
  }
}

TEST(CatalogSnapshotBuilder, DisabledParentHidesEnabledChild) {
  CatalogBase base;
  base.categories = {category(1, "a", std::nullopt, "A", "i", 1, false),
                     category(2, "a.b", 1, "B", "i", 1, true),
                     category(3, "c", std::nullopt, "C", "i", 1, true)};
  const auto s = build(base, {});
  EXPECT_EQ(
      s->categories_answer.json,
      R"({"categories":[{"path":"c","name":"C","icon":"i","displayOrder":1,"children":[]}]})");
  EXPECT_EQ(s->enabled_category_by_path.count("a.b"), 0u);
}

TEST(CatalogSnapshotBuilder, SiblingsSortedByDisplayOrderThenPath) {
  CatalogBase base;
  base.categories = {category(1, "zeta", std::nullopt, "Z", "z", 1),
                     category(2, "alpha", std::nullopt, "A", "a", 2),
                     category(3, "beta", std::nullopt, "B", "b", 1),
                     category(4, "neg", std::nullopt, "N", "n", -3),
                     category(5, "beta.y", 3, "Y", "y", 0),
                     category(6, "beta.x", 3, "X", "x", 0),
                     category(7, "beta.a", 3, "A2", "a", 9)};
  const auto s = build(base, {});
  EXPECT_EQ(s->categories_answer.json,
            R"({"categories":[)"
            R"({"path":"neg","name":"N","icon":"n","displayOrder":-3,"children":[]},)"
            R"({"path":"beta","name":"B","icon":"b","displayOrder":1,"children":[)"
            R"({"path":"beta.x","name":"X","icon":"x","displayOrder":0,"children":[]},)"
            R"({"path":"beta.y","name":"Y","icon":"y","displayOrder":0,"children":[]},)"
            R"({"path":"beta.a","name":"A2","icon":"a","displayOrder":9,"children":[]}]},)"
            R"({"path":"zeta","name":"Z","icon":"z","displayOrder":1,"children":[]},)"
            R"({"path":"alpha","name":"A","icon":"a","displayOrder":2,"children":[]}]})");
}

TEST(CatalogSnapshotBuilder, CategoryWithMissingParentIsDisabledAndReported) {
  CatalogBase base;
  base.categories = {category(1, "a", std::nullopt, "A", "i", 1),
                     category(2, "orphan.x", 42, "X", "i", 1)};
  std::vector<std::string> problems;
  const auto s = build(base, {offer_row(1, 2, 1, "")}, &problems);
  EXPECT_EQ(
      s->categories_answer.json,
      R"({"categories":[{"path":"a","name":"A","icon":"i","displayOrder":1,"children":[]}]})");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("orphan.x"), std::string::npos) << problems[0];
}

TEST(CatalogSnapshotBuilder, CategoryNamesAreJsonEscaped) {
  CatalogBase base;
  base.categories = {category(1, "a", std::nullopt, "Caf\xc3\xa9 \"Q\" \\ \x01", "i", 1)};
  const auto s = build(base, {});
  EXPECT_EQ(s->categories_answer.json,
            "{\"categories\":[{\"path\":\"a\",\"name\":\"Caf\xc3\xa9 \\\"Q\\\" \\\\ \\u0001\","
            "\"icon\":\"i\",\"displayOrder\":1,\"children\":[]}]}");
}

TEST(CatalogSnapshotBuilder, EtagIsQuotedDigestOfTheBody) {
  const auto s = build(sample_base(), sample_offers());
  EXPECT_EQ(s->config_answer.etag, expected_etag(s->config_answer.json));
  EXPECT_EQ(s->categories_answer.etag, expected_etag(s->categories_answer.json));
  EXPECT_EQ(s->config_answer.etag.size(), 26u);
  EXPECT_NE(s->config_answer.etag, s->categories_answer.etag);
}

TEST(CatalogSnapshotBuilder, EtagStableForSameContent) {
  const auto a = build(sample_base(), sample_offers());
  auto base = sample_base();
  base.version = 8;                                            // a new catalog version...
  std::reverse(base.countries.begin(), base.countries.end());  // ...rows in another order...
  std::reverse(base.placements.begin(), base.placements.end());
  std::reverse(base.categories.begin(), base.categories.end());
  const auto b = build(base, {offer_row(1, 1, 1, "DE")});  // ...and other offers
  EXPECT_EQ(a->config_answer.json, b->config_answer.json);
  EXPECT_EQ(a->config_answer.etag, b->config_answer.etag);
  EXPECT_EQ(a->categories_answer.json, b->categories_answer.json);
  EXPECT_EQ(a->categories_answer.etag, b->categories_answer.etag);
}

TEST(CatalogSnapshotBuilder, EtagChangesWhenContentChanges) {
  const auto a = build(sample_base(), {});

  auto more_countries = sample_base();
  more_countries.countries[1].selected = true;  // GB
  const auto b = build(more_countries, {});
  EXPECT_NE(a->config_answer.etag, b->config_answer.etag);
  EXPECT_EQ(a->categories_answer.etag, b->categories_answer.etag);

  auto placement = sample_base();
  placement.placements[0].max_offers = 4;
  EXPECT_NE(a->config_answer.etag, build(placement, {})->config_answer.etag);

  auto switched_off = sample_base();
  switched_off.settings["available"] = "false";
  EXPECT_NE(a->config_answer.etag, build(switched_off, {})->config_answer.etag);

  auto renamed = sample_base();
  renamed.categories[1].name = "Mobile phones";
  const auto c = build(renamed, {});
  EXPECT_NE(a->categories_answer.etag, c->categories_answer.etag);
  EXPECT_EQ(a->config_answer.etag, c->config_answer.etag);

  auto disabled = sample_base();
  disabled.categories[2].enabled = false;  // books
  EXPECT_NE(a->categories_answer.etag, build(disabled, {})->categories_answer.etag);

  auto reordered = sample_base();
  reordered.categories[9].display_order = 50;  // electronics.tv moves last
  EXPECT_NE(a->categories_answer.etag, build(reordered, {})->categories_answer.etag);
}

TEST(CatalogSnapshotBuilder, OnlyServableOffersAreKept) {
  const auto s = build(sample_base(), sample_offers());
  std::vector<std::uint64_t> ids;
  for (const auto& o : s->offers) ids.push_back(o.id);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::uint64_t>{100, 101, 102, 103, 110, 112}));
}

TEST(CatalogSnapshotBuilder, LiveOfferFields) {
  const auto s = build(sample_base(), sample_offers());
  const LiveOffer* future = find_offer(*s, 110);
  ASSERT_NE(future, nullptr);
  EXPECT_EQ(future->valid_from, kNow + 100);
  EXPECT_EQ(future->valid_until, kOpenEnd);
  EXPECT_EQ(future->priority, 5);
  EXPECT_EQ(s->categories.at(future->category).path, "books");
  EXPECT_FALSE(future->valid_at(kNow));
  EXPECT_TRUE(future->valid_at(kNow + 100));

  const LiveOffer* soon = find_offer(*s, 112);
  ASSERT_NE(soon, nullptr);
  EXPECT_EQ(soon->valid_from, kOpenStart);
  EXPECT_EQ(soon->valid_until, kNow + 1);
  EXPECT_EQ(s->categories.at(soon->category).path, "electronics.tv");
  EXPECT_TRUE(soon->valid_at(kNow));
  EXPECT_FALSE(soon->valid_at(kNow + 1));
}

TEST(CatalogSnapshotBuilder, CandidatesOfEveryCategoryInACountry) {
  const auto s = build(sample_base(), sample_offers());
  EXPECT_EQ(candidate_ids(*s, std::nullopt, "DE"),
            (std::vector<std::uint64_t>{102, 112, 100, 101, 103, 110}));
  EXPECT_EQ(candidate_ids(*s, std::nullopt, "FR"), (std::vector<std::uint64_t>{112, 101}));
  EXPECT_EQ(candidate_ids(*s, std::nullopt, "US"), (std::vector<std::uint64_t>{103}));
}

TEST(CatalogSnapshotBuilder, CandidatesOfACategorySubtree) {
  const auto s = build(sample_base(), sample_offers());
  EXPECT_EQ(candidate_ids(*s, "electronics", "DE"),
            (std::vector<std::uint64_t>{102, 112, 100, 101, 103}));
  EXPECT_EQ(candidate_ids(*s, "electronics.audio", "DE"), (std::vector<std::uint64_t>{100, 101}));
  EXPECT_EQ(candidate_ids(*s, "electronics.phones", "DE"), (std::vector<std::uint64_t>{102}));
  EXPECT_EQ(candidate_ids(*s, "electronics.tv", "DE"), (std::vector<std::uint64_t>{112}));
  EXPECT_EQ(candidate_ids(*s, "books", "DE"), (std::vector<std::uint64_t>{110}));
  EXPECT_EQ(candidate_ids(*s, "electronics", "FR"), (std::vector<std::uint64_t>{112, 101}));
  EXPECT_EQ(candidate_ids(*s, "electronics", "US"), (std::vector<std::uint64_t>{103}));
  EXPECT_TRUE(candidate_ids(*s, "electronics.audio", "US").empty());
  EXPECT_TRUE(candidate_ids(*s, "fashion", "DE").empty());
  EXPECT_TRUE(candidate_ids(*s, "books", "FR").empty());
}

TEST(CatalogSnapshotBuilder, CountryIndex) {
  const auto s = build(sample_base(), {});
  EXPECT_EQ(s->country_index("DE"), std::optional<std::uint16_t>(0));
  EXPECT_EQ(s->country_index("FR"), std::optional<std::uint16_t>(1));
  EXPECT_EQ(s->country_index("US"), std::optional<std::uint16_t>(2));
  EXPECT_EQ(s->country_index("GB"), std::nullopt);
  EXPECT_EQ(s->country_index("AT"), std::nullopt);
  EXPECT_EQ(s->country_index(""), std::nullopt);
  EXPECT_EQ(s->country_index("de"), std::nullopt);
}

TEST(CatalogSnapshotBuilder, CandidatesSortedByPriorityThenId) {
  auto base = sample_base();
  std::vector<OfferRow> rows;
  const int priorities[] = {3, -1, 7, 3, 0, 7, 3, -1, 100, 0};
  rows.reserve(std::size(priorities));
  for (int i = 0; i < 10; ++i) rows.push_back(offer_row(900 - i * 7, 1, priorities[i], "DE"));
  const auto s = build(base, rows);
  const auto ids = candidate_ids(*s, std::nullopt, "DE");
  ASSERT_EQ(ids.size(), 10u);
  for (std::size_t i = 1; i < ids.size(); ++i) {
    const auto* prev = find_offer(*s, ids[i - 1]);
    const auto* cur = find_offer(*s, ids[i]);
    ASSERT_TRUE(prev && cur);
    EXPECT_TRUE(prev->priority > cur->priority ||
                (prev->priority == cur->priority && prev->id < cur->id))
        << i;
  }
  EXPECT_EQ(ids.front(), 844u);  // priority 100
  EXPECT_EQ(ids, candidate_ids(*s, "electronics", "DE"));
}

TEST(CatalogSnapshotBuilder, OfferTextFieldsAreJsonLiterals) {
  CatalogBase base = sample_base();
  OfferRow o = offer_row(1042, 3, 1, "DE");
  o.title = "quote\"and\\backslash";
  o.description = std::string("ctl\x01\x1f\n\t\r\b\f end");
  o.merchant = "Caf\xc3\xa9 \xe2\x98\x95 \xf0\x9f\x98\x80";
  o.image_url = std::nullopt;
  o.coupon_code = "</script>";
  o.valid_until = 1798761599;  // 2026-12-31T23:59:59Z
  const auto s = build(base, {o});
  ASSERT_EQ(s->offers.size(), 1u);
  const auto& live = s->offers[0];
  EXPECT_EQ(s->offer_text(live, 0), "\"1042\"");
  EXPECT_EQ(s->offer_text(live, 1), R"("quote\"and\\backslash")");
  EXPECT_EQ(s->offer_text(live, 2), R"("ctl\u0001\u001F\n\t\r\b\f end")");
  EXPECT_EQ(s->offer_text(live, 3), "\"Caf\xc3\xa9 \xe2\x98\x95 \xf0\x9f\x98\x80\"");
  EXPECT_EQ(s->offer_text(live, 4), "null");
  EXPECT_EQ(s->offer_text(live, 5), "\"</script>\"");
  EXPECT_EQ(s->offer_text(live, 6), "\"2026-12-31T23:59:59Z\"");
}

TEST(CatalogSnapshotBuilder, OfferTextOfSeveralOffersDoesNotOverlap) {
  std::vector<OfferRow> rows;
  for (std::uint64_t id = 1; id <= 5; ++id) {
    OfferRow o = offer_row(id, 1, 0, "DE");
    o.title = std::string(id * 3, static_cast<char>('a' + id));
    o.merchant = "m" + std::to_string(id);
    rows.push_back(o);
  }
  const auto s = build(sample_base(), rows);
  ASSERT_EQ(s->offers.size(), 5u);
  for (const auto& live : s->offers) {
    EXPECT_EQ(s->offer_text(live, 0), "\"" + std::to_string(live.id) + "\"");
    EXPECT_EQ(s->offer_text(live, 1),
              "\"" + std::string(live.id * 3, static_cast<char>('a' + live.id)) + "\"");
    EXPECT_EQ(s->offer_text(live, 2), "null");
    EXPECT_EQ(s->offer_text(live, 3), "\"m" + std::to_string(live.id) + "\"");
    EXPECT_EQ(s->offer_text(live, 6), "null");
  }
}

TEST(CatalogSnapshotBuilder, LongTextCutAtACharacterBoundary) {
  OfferRow o = offer_row(1, 1, 0, "DE");
  o.title = std::string(9999, 'a') + "\xc3\xa9" + "tail";  // the 2-byte char straddles 10000
  o.description = std::string(10000, 'b') + "c";
  OfferRow worst = offer_row(2, 1, 0, "DE");
  worst.title = std::string(20000, '\x01');  // escapes to 6 bytes each after the cut
  const auto s = build(sample_base(), {o, worst});
  ASSERT_EQ(s->offers.size(), 2u);
  const auto* a = find_offer(*s, 1);
  const auto* b = find_offer(*s, 2);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(s->offer_text(*a, 1), "\"" + std::string(9999, 'a') + "\"");
  EXPECT_EQ(s->offer_text(*a, 2), "\"" + std::string(10000, 'b') + "\"");
  std::string escaped = "\"";
  for (int i = 0; i < 10000; ++i) escaped += "\\u0001";
  escaped += "\"";
  EXPECT_EQ(s->offer_text(*b, 1), escaped);
  EXPECT_EQ(s->offer_text(*b, 0), "\"2\"");
}

TEST(CatalogSnapshotBuilder, DemoFlagKept) {
  OfferRow demo = offer_row(5, 1, 0, "DE");
  demo.is_demo = true;
  const auto s = build(sample_base(), {demo, offer_row(6, 1, 0, "DE")});
  ASSERT_NE(find_offer(*s, 5), nullptr);
  ASSERT_NE(find_offer(*s, 6), nullptr);
  EXPECT_TRUE(find_offer(*s, 5)->is_demo);
  EXPECT_FALSE(find_offer(*s, 6)->is_demo);
}

// ---- settings ----

TEST(CatalogSettings, DefaultsWithoutValues) {
  std::vector<std::string> problems;
  const Settings s = parse_settings({}, problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_TRUE(s.available);
  EXPECT_EQ(s.refresh_interval_seconds, 900);
  EXPECT_EQ(s.min_extension_version.to_string(), "1.0.0");
  EXPECT_TRUE(s.allowed_client_origins.empty());
  EXPECT_EQ(s.token_ttl_seconds, 86400);
  EXPECT_EQ(s.public_origin, "");
}

TEST(CatalogSettings, GoodValues) {
  std::vector<std::string> problems;
  const Settings s =
      parse_settings({{"available", "false"},
                      {"refreshIntervalSeconds", "60"},
                      {"minExtensionVersion", "1.10.0"},
                      {"tokenTtlSeconds", "3600"},
                      {"publicOrigin", "https://offers.example.com"},
                      {"allowedClientOrigins",
                       R"(["chrome-extension://abcdefghijklmnop","moz-extension://1234-5678"])"}},
                     problems);
  EXPECT_TRUE(problems.empty()) << problems.size();
  EXPECT_FALSE(s.available);
  EXPECT_EQ(s.refresh_interval_seconds, 60);
  EXPECT_EQ(s.min_extension_version.to_string(), "1.10.0");
  EXPECT_EQ(s.token_ttl_seconds, 3600);
  EXPECT_EQ(s.public_origin, "https://offers.example.com");
  EXPECT_EQ(s.allowed_client_origins,
            (std::vector<std::string>{"chrome-extension://abcdefghijklmnop",
                                      "moz-extension://1234-5678"}));
}

TEST(CatalogSettings, Limits) {
  std::vector<std::string> problems;
  EXPECT_EQ(
      parse_settings({{"refreshIntervalSeconds", "86400"}}, problems).refresh_interval_seconds,
      86400);
  EXPECT_EQ(parse_settings({{"tokenTtlSeconds", "1"}}, problems).token_ttl_seconds, 1);
  EXPECT_EQ(parse_settings({{"tokenTtlSeconds", "2592000"}}, problems).token_ttl_seconds, 2592000);
  EXPECT_TRUE(
      parse_settings({{"allowedClientOrigins", "[]"}}, problems).allowed_client_origins.empty());
  EXPECT_TRUE(problems.empty());
}

TEST(CatalogSettings, BadValuesFallBackAndAreReported) {
  const std::pair<const char*, const char*> bad[] = {
      {"available", "yes"},
      {"available", "TRUE"},
      {"available", ""},
      {"refreshIntervalSeconds", "59"},
      {"refreshIntervalSeconds", "86401"},
      {"refreshIntervalSeconds", "abc"},
      {"refreshIntervalSeconds", "900s"},
      {"minExtensionVersion", "1.2"},
      {"minExtensionVersion", "v1.0.0"},
      {"tokenTtlSeconds", "0"},
      {"tokenTtlSeconds", "2592001"},
      {"tokenTtlSeconds", "-5"},
      {"allowedClientOrigins", "chrome-extension://abc"},
      {"allowedClientOrigins", R"({"a":"b"})"},
      {"allowedClientOrigins", R"("chrome-extension://abc")"},
      {"allowedClientOrigins", "[\"a\","},
  };
  for (const auto& [name, value] : bad) {
    std::vector<std::string> problems;
    const Settings s = parse_settings({{name, value}}, problems);
    ASSERT_EQ(problems.size(), 1u) << name << "=" << value;
    EXPECT_NE(problems[0].find(name), std::string::npos) << problems[0];
    EXPECT_TRUE(s.available) << name;
    EXPECT_EQ(s.refresh_interval_seconds, 900) << name;
    EXPECT_EQ(s.min_extension_version.to_string(), "1.0.0") << name;
    EXPECT_EQ(s.token_ttl_seconds, 86400) << name;
    EXPECT_TRUE(s.allowed_client_origins.empty()) << name;
  }
}

// An unreadable allowedClientOrigins fails closed: the flag makes the Service refuse every Origin.
TEST(CatalogSettings, UnreadableOriginListIsFlagged) {
  for (const char* value : {"chrome-extension://abc", R"({"a":"b"})", R"(["x", 5])", "[\"a\","}) {
    std::vector<std::string> problems;
    const Settings s = parse_settings({{"allowedClientOrigins", value}}, problems);
    EXPECT_TRUE(s.allowed_client_origins_unreadable) << value;
    EXPECT_TRUE(s.allowed_client_origins.empty()) << value;
  }
  std::vector<std::string> problems;
  EXPECT_FALSE(parse_settings({{"allowedClientOrigins", R"(["chrome-extension://a"])"}}, problems)
                   .allowed_client_origins_unreadable);
  EXPECT_FALSE(parse_settings({}, problems).allowed_client_origins_unreadable);
}

TEST(CatalogSettings, AdminSettingsAndTheirRanges) {
  std::vector<std::string> problems;
  const Settings s = parse_settings({{"sessionIdleMinutes", "5"},
                                     {"rawEventRetentionDays", "30"},
                                     {"networkSyncIntervalMinutes", "60"}},
                                    problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(s.session_idle_minutes, 5);
  EXPECT_EQ(s.raw_event_retention_days, 30);
  EXPECT_EQ(s.network_sync_interval_minutes, 60);
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{{"sessionIdleMinutes", "0"},
                                                        {"sessionIdleMinutes", "1441"},
                                                        {"rawEventRetentionDays", "0"},
                                                        {"rawEventRetentionDays", "3651"},
                                                        {"networkSyncIntervalMinutes", "-1"},
                                                        {"networkSyncIntervalMinutes", "10081"}}) {
    std::vector<std::string> p;
    const Settings d = parse_settings({{name, value}}, p);
    EXPECT_EQ(p.size(), 1u) << name << "=" << value;
    EXPECT_EQ(d.session_idle_minutes, 30);
    EXPECT_EQ(d.raw_event_retention_days, 90);
    EXPECT_EQ(d.network_sync_interval_minutes, 0);
  }
}

TEST(CatalogSettings, SeveralProblemsAllReportedGoodOnesKept) {
  std::vector<std::string> problems;
  const Settings s = parse_settings({{"available", "false"},
                                     {"refreshIntervalSeconds", "1"},
                                     {"tokenTtlSeconds", "x"},
                                     {"minExtensionVersion", "3.0.0"}},
                                    problems);
  EXPECT_EQ(problems.size(), 2u);
  EXPECT_FALSE(s.available);
  EXPECT_EQ(s.refresh_interval_seconds, 900);
  EXPECT_EQ(s.token_ttl_seconds, 86400);
  EXPECT_EQ(s.min_extension_version.to_string(), "3.0.0");
}

TEST(CatalogSettings, BuilderReportsSettingProblems) {
  auto base = sample_base();
  base.settings = {{"refreshIntervalSeconds", "5"}};
  std::vector<std::string> problems;
  const auto s = build(base, {}, &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("refreshIntervalSeconds"), std::string::npos);
  EXPECT_EQ(s->settings.refresh_interval_seconds, 900);
  EXPECT_NE(s->config_answer.json.find("\"refreshIntervalSeconds\":900,"), std::string::npos);
}

// Issue 22, item 2: what an ignored click is answered from, for every offer that is not a
// demonstration record, in any state, sorted by id whatever order the rows came in.
TEST(CatalogSnapshotBuilder, ClickTargetsOfEveryClickableOffer) {
  CatalogBase base = sample_base();
  placard::catalog::ClickTargetRow a;
  a.id = 30;
  a.enabled = true;
  a.network = "awin";
  a.tracking_url = "https://a.example/x";
  a.valid_until = kNow + 5;
  placard::catalog::ClickTargetRow b;
  b.id = 7;
  b.network = "admitad";
  b.tracking_url = "https://b.example/";
  b.valid_from = kNow - 5;
  placard::catalog::ClickTargetRow c;
  c.id = 12;
  c.enabled = true;
  c.network = "manual";
  base.click_targets = {a, b, c};
  const auto s = build(base, {});
  ASSERT_EQ(s->click_targets.size(), 3U);
  EXPECT_EQ(s->click_targets[0].id, 7U);
  EXPECT_EQ(s->click_targets[1].id, 12U);
  EXPECT_EQ(s->click_targets[2].id, 30U);
  const auto* t = s->click_target(30);
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->enabled);
  EXPECT_EQ(placard::catalog::network_name(t->network), "awin");
  EXPECT_EQ(s->click_url(*t), "https://a.example/x");
  EXPECT_EQ(t->valid_from, placard::catalog::kOpenStart);
  EXPECT_EQ(t->valid_until, kNow + 5);
  t = s->click_target(7);
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->enabled);
  EXPECT_EQ(placard::catalog::network_name(t->network), "admitad");
  EXPECT_EQ(s->click_url(*t), "https://b.example/");
  EXPECT_EQ(t->valid_from, kNow - 5);
  t = s->click_target(12);
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->has_url);
  EXPECT_EQ(s->click_target(8), nullptr);
  EXPECT_TRUE(s->is_clickable_offer(12));
  EXPECT_FALSE(s->is_clickable_offer(13));
}

}  // namespace

// An imported offer for "every selected country" (Awin regions.all) is in each selected country
// of the snapshot and nowhere else; its own list is ignored.
TEST(CatalogSnapshotBuilder, AllCountriesMeansEverySelectedCountry) {
  auto everywhere = offer_row(120, 11, 5, "GB");
  everywhere.all_countries = true;
  const auto s = build(sample_base(), {everywhere, offer_row(121, 11, 1, "FR")});
  EXPECT_EQ(candidate_ids(*s, "books", "DE"), (std::vector<std::uint64_t>{120}));
  EXPECT_EQ(candidate_ids(*s, "books", "US"), (std::vector<std::uint64_t>{120}));
  EXPECT_EQ(candidate_ids(*s, "books", "FR"), (std::vector<std::uint64_t>{120, 121}));
  EXPECT_FALSE(s->country_index("GB").has_value());  // not selected: not in the snapshot
}
