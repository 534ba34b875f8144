// The Admitad adapter: parsing captured answers, and the adapter against a scripted fake (token,
// pages, renewal, refusals, back-off, error sentences). Awin: test_awin.cpp; normalizing:
// test_normalize.cpp; pacing: test_pacing.cpp.
#include "lib/network/admitad.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/crypto/base64.h"
#include "lib/network/pacing.h"
#include "lib/util/time_format.h"
#include "tests/fakes/network_fakes.h"

namespace {

using namespace placard::network;
using std::chrono::milliseconds;

std::int64_t at(const char* rfc3339) {
  return *placard::util::parse_rfc3339(rfc3339);
}

// A coupon in the shape of captured Admitad answers, with every quirk.
const char* kAdmitadPage = R"({
  "results": [
    {"id": 2001, "name": "20% off headphones", "short_name": "20%", "description": "",
     "status": "active", "rating": "4.82",
     "campaign": {"id": 77, "name": "Sound Shop", "site_url": "https://sound.example/"},
     "date_start": "2024-05-01T00:00:00", "date_end": "2024-05-31T23:59:00",
     "regions": ["DE", "at", "xx1"], "language": null, "discount": null,
     "types": [{"id": 1, "name": "Discount"}],
     "categories": [{"id": 62, "name": "Electronics"}, {"id": 7, "name": "Audio"}],
     "image": "//cdn.admitad.com/campaign/images/77.svg", "species": "promocode",
     "exclusive": false, "is_unique": false, "is_personal": false, "promocode": "SOUND20",
     "frameset_link": "", "goto_link": "https://ad.admitad-track.example/g/abc/?i=3&erid=2VtzqxY"},
    {"id": 2002, "name": "Free delivery", "description": "On every order", "status": "active",
     "campaign": {"id": 78, "name": "Books Ltd"},
     "date_start": "2024-01-01 08:00:00", "date_end": null, "regions": ["FR"],
     "categories": [{"id": 9, "name": "Books"}],
     "image": "http://cdn.admitad.com/x.png", "species": "action",
     "promocode": "НЕ НУЖЕН", "goto_link": "https://ad.admitad-track.example/g/def/"},
    {"id": 2003, "name": "Old", "status": "disabled", "campaign": {"id": 1, "name": "X"},
     "goto_link": "https://x.example/"},
    {"id": 2004, "name": "Code but placeholder", "status": "active", "species": "promocode",
     "promocode": "не нужен", "campaign": {"id": 1, "name": "X"}, "image": "data:image/png;base64,AA",
     "goto_link": "https://x.example/?a=1"}
  ],
  "_meta": {"count": 57, "limit": 4, "offset": 0}
})";

TEST(AdmitadParse, CouponsWithTheirQuirks) {
  const auto page = parse_admitad_coupons(kAdmitadPage);
  EXPECT_EQ(page.count, 57u);
  EXPECT_EQ(page.results, 4u);
  ASSERT_EQ(page.offers.size(), 3u);  // the disabled coupon is not offered
  const auto& a = page.offers[0];
  EXPECT_EQ(a.external_id, "2001");
  EXPECT_EQ(a.title, "20% off headphones");
  EXPECT_EQ(a.description, "");
  EXPECT_EQ(a.merchant, "Sound Shop");
  EXPECT_EQ(a.image_url, "https://cdn.admitad.com/campaign/images/77.svg");
  EXPECT_EQ(a.coupon_code, "SOUND20");
  EXPECT_EQ(a.categories, (std::vector<std::pair<std::string, std::string>>{{"62", "Electronics"},
                                                                            {"7", "Audio"}}));
  EXPECT_EQ(a.countries, (std::vector<std::string>{"DE", "AT"}));
  EXPECT_FALSE(a.all_countries);
  EXPECT_EQ(a.valid_from, at("2024-05-01T00:00:00Z"));  // no zone: UTC
  EXPECT_EQ(a.valid_until, at("2024-05-31T23:59:00Z"));
  EXPECT_EQ(a.tracking_url, "https://ad.admitad-track.example/g/abc/?i=3&erid=2VtzqxY");
  const auto& b = page.offers[1];
  EXPECT_EQ(b.image_url, "https://cdn.admitad.com/x.png");
  EXPECT_EQ(b.coupon_code, std::nullopt);  // action: the placeholder is not a code
  EXPECT_EQ(b.valid_from, at("2024-01-01T08:00:00Z"));
  EXPECT_EQ(b.valid_until, std::nullopt);  // open-ended
  const auto& c = page.offers[2];
  EXPECT_EQ(c.coupon_code, std::nullopt);
  EXPECT_EQ(c.image_url, std::nullopt);
  EXPECT_TRUE(c.countries.empty());
}

TEST(AdmitadParse, MalformedIsANetworkError) {
  for (const char* bad :
       {"", "not json", "[]", R"({"results": []})", R"({"results": {}, "_meta": {"count": 1}})",
        R"({"results": [], "_meta": {"count": "1"}})", "{\"results\": [1,"}) {
    EXPECT_THROW(parse_admitad_coupons(bad), NetworkError) << bad;
  }
  EXPECT_EQ(parse_admitad_coupons(R"({"results": [], "_meta": {"count": 0}})").count, 0u);
}

// --- the adapters against a scripted fake

using FakeClock = placard::network::fakes::FakeClock;
using FakeHttp = placard::network::fakes::ScriptedHttp;

using placard::network::fakes::header;

std::string coupons(int first_id, int n, int count) {
  std::string s = R"({"results": [)";
  for (int i = 0; i < n; ++i) {
    if (i) s += ",";
    s += R"({"id": )" + std::to_string(first_id + i) +
         R"(, "name": "C", "status": "active", "goto_link": "https://t.example/"})";
  }
  return s + R"(], "_meta": {"count": )" + std::to_string(count) + "}}";
}

constexpr const char* kToken =
    R"({"access_token": "tok1", "token_type": "bearer", "expires_in": 604800})";

struct AdmitadRig {
  FakeHttp http;
  FakeClock clock;
  AdmitadTokenCache cache;
  AdapterOptions options{"https://api.admitad.test", 0, 2, BackoffPolicy{2, milliseconds(100)}};
  AdmitadAdapter make() {
    return AdmitadAdapter(http, clock, {"my id", placard::crypto::SecretString("s3cr:et"), "42"},
                          cache, options);
  }
  std::vector<OfferPage> pull() {
    std::vector<OfferPage> pages;
    auto a = make();
    a.pull([&](const OfferPage& p) { pages.push_back(p); });
    return pages;
  }
};

TEST(AdmitadAdapter, TokenRequestThenPagesUntilCount) {
  AdmitadRig rig;
  rig.http.add(200, kToken);
  rig.http.add(200, coupons(1, 2, 5));
  rig.http.add(200, coupons(3, 2, 5));
  rig.http.add(200, coupons(5, 1, 5));
  const auto pages = rig.pull();
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_EQ(pages[2].pages_done, 3);
  EXPECT_EQ(pages[0].pages_total, 3);
  EXPECT_EQ(pages[2].offers[0].external_id, "5");
  const auto& t = rig.http.sent[0];
  EXPECT_EQ(t.method, "POST");
  EXPECT_EQ(t.url, "https://api.admitad.test/token/");
  EXPECT_EQ(header(t, "Authorization"), "Basic " + placard::crypto::base64_encode("my id:s3cr:et"));
  EXPECT_EQ(header(t, "Content-Type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(t.body, "grant_type=client_credentials&client_id=my%20id&scope=coupons_for_website");
  EXPECT_EQ(rig.http.sent[1].url, "https://api.admitad.test/coupons/website/42/?limit=2&offset=0");
  EXPECT_EQ(rig.http.sent[3].url, "https://api.admitad.test/coupons/website/42/?limit=2&offset=4");
  EXPECT_EQ(header(rig.http.sent[1], "Authorization"), "Bearer tok1");
}

TEST(AdmitadAdapter, TokenCachedAcrossPullsUntilItExpires) {
  AdmitadRig rig;
  rig.http.add(200, kToken);
  rig.http.add(200, coupons(1, 1, 1));
  rig.http.add(200, coupons(1, 1, 1));
  rig.pull();
  rig.pull();
  EXPECT_EQ(rig.http.sent.size(), 3u);  // one token for both pulls
  rig.clock.t += std::chrono::seconds(604800);
  rig.http.add(200, R"({"access_token": "tok2", "expires_in": 3600})");
  rig.http.add(200, coupons(1, 1, 1));
  rig.pull();
  EXPECT_EQ(rig.http.sent[3].url, "https://api.admitad.test/token/");
  EXPECT_EQ(header(rig.http.sent[4], "Authorization"), "Bearer tok2");
}

TEST(AdmitadAdapter, AbsurdTokenLifetimeIsCappedAtThirtyDays) {
  // Found by the network_adapters fuzzer: seconds this large overflowed the clock's nanoseconds.
  for (const char* ttl : {"60480888888800", "9223372036854775807"}) {
    AdmitadRig rig;
    rig.http.add(200, std::string(R"({"access_token": "tok1", "expires_in": )") + ttl + "}");
    rig.http.add(200, coupons(1, 1, 1));
    rig.pull();
    rig.clock.t += std::chrono::hours(24 * 30 - 1);
    rig.http.add(200, coupons(1, 1, 1));
    rig.pull();
    EXPECT_EQ(rig.http.sent.size(), 3u) << ttl;  // still the first token
    rig.clock.t += std::chrono::hours(1);
    rig.http.add(200, R"({"access_token": "tok2", "expires_in": 3600})");
    rig.http.add(200, coupons(1, 1, 1));
    rig.pull();
    ASSERT_EQ(rig.http.sent.size(), 5u) << ttl;
    EXPECT_EQ(rig.http.sent[3].url, "https://api.admitad.test/token/") << ttl;
    EXPECT_EQ(header(rig.http.sent[4], "Authorization"), "Bearer tok2") << ttl;
  }
}

TEST(AdmitadAdapter, NegativeTokenLifetimeMeansRenewEveryTime) {
  for (const char* ttl : {"0", "-5", "-9223372036854775808"}) {
    AdmitadRig rig;
    rig.http.add(200, std::string(R"({"access_token": "tok1", "expires_in": )") + ttl + "}");
    rig.http.add(200, coupons(1, 1, 1));
    rig.pull();
    rig.http.add(200, R"({"access_token": "tok2", "expires_in": 3600})");
    rig.http.add(200, coupons(1, 1, 1));
    rig.pull();
    ASSERT_EQ(rig.http.sent.size(), 4u) << ttl;  // a new token for the second pull
    EXPECT_EQ(header(rig.http.sent[3], "Authorization"), "Bearer tok2") << ttl;
  }
}

TEST(AdmitadAdapter, ExpiredTokenRenewedOnceAndPageRetried) {
  AdmitadRig rig;
  rig.http.add(200, kToken);
  rig.http.add(200, coupons(1, 2, 3));
  rig.http.add(401,
               R"({"error": "invalid_token", "error_description": "expired", "error_code": 0})");
  rig.http.add(200, R"({"access_token": "tok2", "expires_in": 3600})");
  rig.http.add(200, coupons(3, 1, 3));
  const auto pages = rig.pull();
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(rig.http.sent[4].url, "https://api.admitad.test/coupons/website/42/?limit=2&offset=2");
  EXPECT_EQ(header(rig.http.sent[4], "Authorization"), "Bearer tok2");
}

TEST(AdmitadAdapter, SecondRefusalAfterRenewalFails) {
  AdmitadRig rig;
  rig.http.add(200, kToken);
  rig.http.add(401, R"({"error_code": 0})");
  rig.http.add(200, kToken);
  rig.http.add(401, R"({"error_code": 1})");
  try {
    rig.pull();
    ADD_FAILURE();
  } catch (const NetworkError& e) {
    EXPECT_STREQ(e.what(), "Admitad refused the access token");
  }
  EXPECT_TRUE(rig.cache.access_token.empty());
}

TEST(AdmitadAdapter, CredentialsRefusedAndTooManyTokens) {
  AdmitadRig rig;
  rig.http.add(401, R"({"error": "invalid_client", "error_description": "s3cr:et wrong"})");
  try {
    rig.pull();
    ADD_FAILURE();
  } catch (const NetworkError& e) {
    EXPECT_STREQ(e.what(), "Admitad refused the credentials");
  }
  rig.http.add(400, R"({"error": "maximum_tokens", "error_code": 6})");
  try {
    rig.pull();
    ADD_FAILURE();
  } catch (const NetworkError& e) {
    EXPECT_NE(std::string(e.what()).find("too many tokens"), std::string::npos) << e.what();
  }
}

TEST(AdmitadAdapter, RateLimitBacksOffBounded) {
  AdmitadRig rig;
  rig.http.add(200, kToken);
  rig.http.add(503, R"({"error_code": 4})");
  rig.http.add(503, R"({"error_code": 4})", 3);
  rig.http.add(200, coupons(1, 1, 1));
  EXPECT_EQ(rig.pull().size(), 1u);
  EXPECT_EQ(rig.clock.slept, (std::vector<milliseconds>{milliseconds(100), milliseconds(3000)}));
  // more refusals than retries
  AdmitadRig again;
  again.http.add(200, kToken);
  for (int i = 0; i < 3; ++i) again.http.add(503, R"({"error_code": 4})");
  try {
    again.pull();
    ADD_FAILURE();
  } catch (const NetworkError& e) {
    EXPECT_NE(std::string(e.what()).find("request limit"), std::string::npos) << e.what();
  }
}

TEST(AdmitadAdapter, ErrorsAreSentencesWithoutBodiesOrSecrets) {
  const std::pair<int, std::string> cases[] = {{500, "<html>Internal s3cr:et trace</html>"},
                                               {200, "{\"results\": [1, 2"}};
  for (const auto& [status, body] : cases) {
    AdmitadRig rig;
    rig.http.add(200, kToken);
    rig.http.add(200, coupons(1, 2, 4));
    rig.http.add(status, body);
    try {
      rig.pull();
      ADD_FAILURE();
    } catch (const NetworkError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("(page 2)"), std::string::npos) << m;
      EXPECT_EQ(m.find("s3cr"), std::string::npos) << m;
      EXPECT_EQ(m.find("html"), std::string::npos) << m;
      EXPECT_EQ(m.find("tok1"), std::string::npos) << m;
    }
  }
  AdmitadRig timeout;
  timeout.http.add(200, kToken);
  timeout.http.add(-1, "");
  try {
    timeout.pull();
    ADD_FAILURE();
  } catch (const NetworkError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Admitad could not be reached: 127.0.0.1 did not answer in time");
  }
}

}  // namespace
