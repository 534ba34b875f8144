// The public handlers through their own entry points: the order of the offers query's refusals
// and the ETag / 304 / gzip negotiation of config and categories.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <zlib.h>

#include <map>
#include <memory>
#include <string>

#include "lib/api/catalog_handlers.h"
#include "lib/api/offers_query.h"
#include "lib/catalog/snapshot_builder.h"
#include "lib/crypto/base64.h"
#include "lib/http/api_error.h"

namespace {

using placard::catalog::CatalogBase;
using placard::catalog::CategoryRow;
using placard::catalog::OfferRow;
using placard::catalog::Snapshot;
using placard::catalog::SnapshotBuilder;
using placard::http::ApiError;
using placard::http::Request;
using placard::http::Response;

constexpr std::int64_t kNow = 1'790'000'000;

std::shared_ptr<const Snapshot> snapshot(std::map<std::string, std::string> settings = {},
                                         bool with_demo = false) {
  CatalogBase b;
  b.version = 3;
  b.settings = std::move(settings);
  b.countries = {{"DE", true}, {"FR", true}, {"GB", false}};
  b.placements = {{"sidebar", 3, true}, {"hidden", 5, false}};
  CategoryRow electronics;
  electronics.id = 1;
  electronics.path = "electronics";
  electronics.name = "Electronics";
  electronics.icon = "plug";
  CategoryRow garden = electronics;
  garden.id = 2;
  garden.path = "garden";
  garden.name = "Garden";
  garden.enabled = false;
  b.categories = {electronics, garden};
  SnapshotBuilder builder(std::move(b), kNow);
  OfferRow o;
  o.id = 10;
  o.title = "Ten";
  o.category_id = 1;
  o.countries = "DE";
  builder.add_offer(o);
  if (with_demo) {
    OfferRow demo = o;
    demo.id = 11;
    demo.title = "Eleven, a demonstration";
    demo.is_demo = true;
    builder.add_offer(demo);
  }
  return builder.finish();
}

// ---- POST /api/v1/offers/query: the order of the checks --------------------------------------

Response query_response(const Snapshot& s, const std::string& body) {
  Request r;
  r.method = "POST";
  r.path = "/api/v1/offers/query";
  r.headers.push_back({"content-type", "application/json"});
  r.body = body;
  const auto keys = placard::tokens::KeyRing::parse(
      "k1:" + placard::crypto::base64url_encode(std::string(32, 'k')), "k1");
  placard::tokens::MacWorkspace macs;
  placard::util::FastRng rng(1);
  placard::crypto::RandomPool nonces;
  return placard::api::query_offers(r, s, keys, macs, rng, nonces, kNow);
}

std::string query_result(const Snapshot& s, const std::string& body) {
  Request r;
  r.method = "POST";
  r.path = "/api/v1/offers/query";
  r.headers.push_back({"content-type", "application/json"});
  r.body = body;
  const auto keys = placard::tokens::KeyRing::parse(
      "k1:" + placard::crypto::base64url_encode(std::string(32, 'k')), "k1");
  placard::tokens::MacWorkspace macs;
  placard::util::FastRng rng(1);
  placard::crypto::RandomPool nonces;
  try {
    const auto resp = placard::api::query_offers(r, s, keys, macs, rng, nonces, kNow);
    return std::to_string(resp.status);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code() + (e.field().empty() ? "" : " " + e.field());
  }
}

std::string body(const std::string& country, const std::string& placement,
                 const std::string& version, const std::string& category = {}) {
  std::string b = R"({"country":")" + country + R"(","placement":")" + placement +
                  R"(","extensionVersion":")" + version + '"';
  if (!category.empty()) b += R"(,"category":")" + category + '"';
  return b + "}";
}

// Every check can fail at once: outdated, switched off, unknown placement, unselected country
// and unknown category.
std::map<std::string, std::string> off_and_outdated() {
  return {{"available", "false"}, {"minExtensionVersion", "2.0.0"}};
}

TEST(OffersQueryOrder, FieldErrorsComeFirst) {
  const auto s = snapshot(off_and_outdated());
  EXPECT_EQ(query_result(*s, body("de", "nowhere", "1.0.0", "nothing")),
            "400 invalid_field country");
  EXPECT_EQ(query_result(*s, body("GB", "Bad Name", "1.0.0", "nothing")),
            "400 invalid_field placement");
  EXPECT_EQ(query_result(*s, body("GB", "nowhere", "1.0", "nothing")),
            "400 invalid_field extensionVersion");
  EXPECT_EQ(query_result(*s, body("GB", "nowhere", "1.0.0", "Not.A.Path")),
            "400 invalid_field category");
  EXPECT_EQ(query_result(*s, R"({"placement":"nowhere","extensionVersion":"1.0.0"})"),
            "400 missing_field country");
  EXPECT_EQ(query_result(*s, body("GB", "nowhere", "1.0.0") + "x"), "400 invalid_json");
}

TEST(OffersQueryOrder, OutdatedBeforeSwitchedOff) {
  const auto s = snapshot(off_and_outdated());
  EXPECT_EQ(query_result(*s, body("GB", "nowhere", "1.9.99", "nothing")), "426 extension_outdated");
}

TEST(OffersQueryOrder, SwitchedOffBeforePlacement) {
  const auto s = snapshot({{"available", "false"}, {"minExtensionVersion", "2.0.0"}});
  EXPECT_EQ(query_result(*s, body("GB", "nowhere", "2.0.0", "nothing")), "503 service_unavailable");
}

TEST(OffersQueryOrder, PlacementBeforeCountryBeforeCategory) {
  const auto s = snapshot();
  EXPECT_EQ(query_result(*s, body("GB", "nowhere", "1.0.0", "nothing")),
            "422 placement_unknown placement");
  // A disabled placement is unknown too.
  EXPECT_EQ(query_result(*s, body("GB", "hidden", "1.0.0", "nothing")),
            "422 placement_unknown placement");
  EXPECT_EQ(query_result(*s, body("GB", "sidebar", "1.0.0", "nothing")),
            "422 country_not_selected country");
  EXPECT_EQ(query_result(*s, body("DE", "sidebar", "1.0.0", "nothing")),
            "422 category_not_selected category");
  // A disabled category is not offered either.
  EXPECT_EQ(query_result(*s, body("DE", "sidebar", "1.0.0", "garden")),
            "422 category_not_selected category");
  EXPECT_EQ(query_result(*s, body("DE", "sidebar", "1.0.0", "electronics")), "200");
  EXPECT_EQ(query_result(*s, body("FR", "sidebar", "1.0.0")), "200");
}

// ---- POST /api/v1/offers/query: the records -----------------------------------------------

// Issue 27: a demonstration record has no clickUrl (nothing to follow), an ordinary one has;
// both carry an impression token.
TEST(OffersQueryRecords, ADemonstrationRecordHasNoClickUrl) {
  const auto s = snapshot({}, true);
  const auto r = query_response(*s, body("DE", "sidebar", "1.0.0", "electronics"));
  ASSERT_EQ(r.status, 200);
  rapidjson::Document doc;
  doc.Parse(r.body.c_str());
  ASSERT_TRUE(doc.IsObject()) << r.body;
  const auto& offers = doc["offers"];
  ASSERT_EQ(offers.Size(), 2U) << r.body;
  int demos = 0;
  for (const auto& o : offers.GetArray()) {
    const std::string id = o["id"].GetString();
    EXPECT_TRUE(o.HasMember("impressionToken")) << id;
    if (id == "11") {
      ++demos;
      EXPECT_TRUE(o["isDemo"].GetBool());
      EXPECT_FALSE(o.HasMember("clickUrl")) << r.body;
    } else {
      EXPECT_EQ(id, "10");
      EXPECT_FALSE(o["isDemo"].GetBool());
      ASSERT_TRUE(o.HasMember("clickUrl")) << r.body;
      EXPECT_EQ(std::string(o["clickUrl"].GetString()).rfind("/r/click/10?t=", 0), 0U);
    }
  }
  EXPECT_EQ(demos, 1);
}

// ---- GET /api/v1/config and /api/v1/categories: ETag, 304, gzip -----------------------------

std::string gunzip(const std::string& data) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("inflateInit2");
  std::string out;
  char buf[4096];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("not a whole gzip stream");
  return out;
}

Request get(const std::string& path, const std::string& accept_encoding = {},
            const std::string& if_none_match = {}) {
  Request r;
  r.method = "GET";
  r.path = path;
  if (!accept_encoding.empty()) r.headers.push_back({"accept-encoding", accept_encoding});
  if (!if_none_match.empty()) r.headers.push_back({"if-none-match", if_none_match});
  return r;
}

using Handler = Response (*)(const Request&, const Snapshot&);

void expect_negotiation(Handler handler, const std::string& path,
                        const Snapshot::CachedAnswer& cached) {
  const auto s = snapshot();
  // Plain JSON with a strong ETag.
  const auto plain = handler(get(path), *s);
  EXPECT_EQ(plain.status, 200);
  EXPECT_EQ(plain.body, cached.json);
  EXPECT_EQ(plain.header("Content-Type"), "application/json; charset=utf-8");
  EXPECT_EQ(plain.header("Content-Encoding"), "");
  const std::string etag(plain.header("ETag"));
  EXPECT_EQ(etag, cached.etag);
  EXPECT_EQ(etag.front(), '"');
  EXPECT_EQ(plain.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(plain.header("Cache-Control"), "no-cache");

  // gzip when accepted: another representation, another ETag, the same JSON inside.
  const auto zipped = handler(get(path, "br, gzip;q=0.5"), *s);
  EXPECT_EQ(zipped.status, 200);
  EXPECT_EQ(zipped.header("Content-Encoding"), "gzip");
  const std::string gzip_etag(zipped.header("ETag"));
  EXPECT_NE(gzip_etag, etag);
  EXPECT_EQ(gunzip(zipped.body), plain.body);
  EXPECT_EQ(zipped.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(handler(get(path, "gzip;q=0"), *s).header("Content-Encoding"), "");
  EXPECT_EQ(handler(get(path, "identity"), *s).header("Content-Encoding"), "");

  // 304 when the client's copy of that representation is current, with no body.
  auto r = handler(get(path, "", etag), *s);
  EXPECT_EQ(r.status, 304);
  EXPECT_EQ(r.body, "");
  EXPECT_EQ(r.header("ETag"), etag);
  EXPECT_EQ(r.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(handler(get(path, "gzip", gzip_etag), *s).status, 304);
  EXPECT_EQ(handler(get(path, "", "W/" + etag), *s).status, 304);  // weak comparison
  EXPECT_EQ(handler(get(path, "", "\"other\", " + etag), *s).status, 304);
  EXPECT_EQ(handler(get(path, "", "*"), *s).status, 304);
  // The other representation's tag does not match.
  EXPECT_EQ(handler(get(path, "gzip", etag), *s).status, 200);
  EXPECT_EQ(handler(get(path, "", gzip_etag), *s).status, 200);
  EXPECT_EQ(handler(get(path, "", "\"stale\""), *s).status, 200);
}

TEST(CatalogHandlers, ConfigNegotiation) {
  const auto s = snapshot();
  expect_negotiation(placard::api::get_config, "/api/v1/config", s->config_answer);
}

TEST(CatalogHandlers, CategoriesNegotiation) {
  const auto s = snapshot();
  expect_negotiation(placard::api::get_categories, "/api/v1/categories", s->categories_answer);
}

TEST(CatalogHandlers, AChangedCatalogHasAnotherETag) {
  const auto before = snapshot();
  const auto after = snapshot({{"available", "false"}});
  EXPECT_NE(before->config_answer.etag, after->config_answer.etag);
  const auto r =
      placard::api::get_config(get("/api/v1/config", "", before->config_answer.etag), *after);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, after->config_answer.json);
}

}  // namespace
