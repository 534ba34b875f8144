// The offers query through its own entry point: the order of its refusals and its records. The
// ETag / 304 / gzip negotiation of config and categories: test_catalog_handlers.cpp.
#include "lib/api/offers_query.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lib/crypto/base64.h"
#include "lib/http/api_error.h"
#include "lib/tokens/token.h"
#include "tests/unit/small_snapshot.h"

namespace {

using placard::catalog::Snapshot;
using placard::http::ApiError;
using placard::http::Request;
using placard::http::Response;

using placard::test::snapshot;

constexpr std::int64_t kNow = placard::test::kSnapshotNow;

// ---- POST /api/v1/offers/query: the order of the checks --------------------------------------

// The key every answer here is signed with (and its tokens verified with).
placard::tokens::KeyRing test_keys() {
  return placard::tokens::KeyRing::parse(
      "k1:" + placard::crypto::base64url_encode(std::string(32, 'k')), "k1");
}

Response query_response(const Snapshot& s, const std::string& body) {
  Request r;
  r.method = "POST";
  r.path = "/api/v1/offers/query";
  r.headers.push_back({"content-type", "application/json"});
  r.body = body;
  const auto keys = test_keys();
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
  const auto keys = test_keys();
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

// Issue 24: each offer's nonce leads with the answer's time (the unique index takes recent events
// at its recent end), is shared by the offer's impression and click token, and differs between
// answers of one second.
TEST(OffersQueryRecords, NoncesLeadWithTheIssueTime) {
  const auto s = snapshot();
  const auto keys = test_keys();
  std::vector<std::array<unsigned char, 16>> seen;
  for (int answer = 0; answer < 2; ++answer) {
    const auto r = query_response(*s, body("DE", "sidebar", "1.0.0", "electronics"));
    ASSERT_EQ(r.status, 200);
    rapidjson::Document doc;
    doc.Parse(r.body.c_str());
    ASSERT_TRUE(doc.IsObject()) << r.body;
    for (const auto& o : doc["offers"].GetArray()) {
      const auto imp = placard::tokens::verify_token(keys, o["impressionToken"].GetString(),
                                                     placard::tokens::TokenKind::impression);
      ASSERT_EQ(imp.status, placard::tokens::VerifyStatus::ok);
      EXPECT_EQ(imp.claims.issued_at, kNow);
      const auto t = static_cast<std::uint32_t>(kNow);
      EXPECT_EQ(imp.claims.nonce[0], static_cast<unsigned char>(t >> 24));
      EXPECT_EQ(imp.claims.nonce[1], static_cast<unsigned char>(t >> 16));
      EXPECT_EQ(imp.claims.nonce[2], static_cast<unsigned char>(t >> 8));
      EXPECT_EQ(imp.claims.nonce[3], static_cast<unsigned char>(t));
      const std::string url = o["clickUrl"].GetString();
      const auto click = placard::tokens::verify_token(keys, url.substr(url.find("?t=") + 3),
                                                       placard::tokens::TokenKind::click);
      ASSERT_EQ(click.status, placard::tokens::VerifyStatus::ok);
      EXPECT_EQ(click.claims.nonce, imp.claims.nonce);
      seen.push_back(imp.claims.nonce);
    }
  }
  ASSERT_GE(seen.size(), 2U);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
}

}  // namespace
