#include "lib/network/awin.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "lib/util/time_format.h"
#include "tests/fakes/network_fakes.h"

namespace {

using namespace placard::network;
using std::chrono::milliseconds;
using FakeClock = placard::network::fakes::FakeClock;
using FakeHttp = placard::network::fakes::ScriptedHttp;
using placard::network::fakes::header;

std::int64_t at(const char* rfc3339) {
  return *placard::util::parse_rfc3339(rfc3339);
}

const char* kAwinPage = R"({
  "data": [
    {"promotionId": 501, "type": "voucher", "advertiser": {"id": 15, "name": "Example Store",
     "joined": true}, "title": "10% off", "description": "With code", "terms": "",
     "startDate": "2024-04-09T08:48:00+00:00", "endDate": "2024-05-09T23:59:59+02:00",
     "url": "https://store.example/", "urlTracking":
     "https://www.awin1.com/cread.php?awinmid=15&awinaffid=98765&ued=https%3A%2F%2Fstore.example",
     "regions": {"all": false, "list": [{"name": "Germany", "countryCode": "DE"},
                                        {"name": "Austria", "countryCode": "AT"}]},
     "voucher": {"code": "TEN", "exclusive": false, "attributable": true}},
    {"promotionId": 502, "type": "promotion", "advertiser": {"id": 16, "name": "Everywhere",
     "joined": true}, "title": "Sale", "startDate": "2024-04-01T00:00:00+00:00",
     "endDate": null, "urlTracking": "https://www.awin1.com/cread.php?awinmid=16",
     "regions": {"all": true}},
    {"promotionId": 503, "type": "voucher", "advertiser": {"id": 17, "name": "Not joined",
     "joined": false}, "title": "Does not pay", "urlTracking": "https://www.awin1.com/x",
     "regions": {"all": true}, "voucher": {"code": "NOPE"}}
  ],
  "pagination": {"page": 1, "pageSize": 200, "total": 3}
})";

std::string promotions(int first_id, int n, int total, bool joined = true) {
  std::string s = R"({"data": [)";
  for (int i = 0; i < n; ++i) {
    if (i) s += ",";
    s += R"({"promotionId": )" + std::to_string(first_id + i) +
         R"(, "type": "promotion", "title": "P", "advertiser": {"id": 1, "name": "A", "joined": )" +
         (joined ? "true" : "false") +
         R"(}, "urlTracking": "https://www.awin1.com/cread.php?x=1", "regions": {"all": true}})";
  }
  return s + R"(], "pagination": {"page": 1, "pageSize": 2, "total": )" + std::to_string(total) +
         "}}";
}

TEST(AwinParse, PromotionsJoinedOnly) {
  const auto page = parse_awin_promotions(kAwinPage);
  EXPECT_EQ(page.total, 3u);
  EXPECT_EQ(page.results, 3u);
  ASSERT_EQ(page.offers.size(), 2u);
  const auto& v = page.offers[0];
  EXPECT_EQ(v.external_id, "501");
  EXPECT_EQ(v.title, "10% off");
  EXPECT_EQ(v.merchant, "Example Store");
  EXPECT_EQ(v.coupon_code, "TEN");
  EXPECT_EQ(v.countries, (std::vector<std::string>{"DE", "AT"}));
  EXPECT_FALSE(v.all_countries);
  EXPECT_EQ(v.valid_from, at("2024-04-09T08:48:00Z"));
  EXPECT_EQ(v.valid_until, at("2024-05-09T21:59:59Z"));
  EXPECT_EQ(v.categories,
            (std::vector<std::pair<std::string, std::string>>{{"adv-15", "Example Store"}}));
  EXPECT_EQ(v.image_url, std::nullopt);
  const auto& p = page.offers[1];
  EXPECT_EQ(p.coupon_code, std::nullopt);
  EXPECT_TRUE(p.all_countries);
  EXPECT_TRUE(p.countries.empty());
  EXPECT_EQ(p.valid_until, std::nullopt);
}

TEST(AwinParse, MalformedIsANetworkError) {
  for (const char* bad : {"", "{", R"({"data": []})", R"({"data": [], "pagination": {}})",
                          R"({"data": null, "pagination": {"total": 0}})"}) {
    EXPECT_THROW(parse_awin_promotions(bad), NetworkError) << bad;
  }
}

TEST(AwinAdapter, PostsJoinedActiveFiltersAndPages) {
  FakeHttp http;
  FakeClock clock;
  AwinAdapter a(http, clock, {"98765", placard::crypto::SecretString("awin-tok")},
                {"https://api.awin.test", 0, 2, BackoffPolicy{2, milliseconds(100)}});
  http.add(200, promotions(1, 2, 3));
  http.add(200, promotions(3, 1, 3));
  std::vector<OfferPage> pages;
  a.pull([&](const OfferPage& p) { pages.push_back(p); });
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(pages[0].pages_total, 2);
  EXPECT_EQ(pages[1].offers[0].external_id, "3");
  EXPECT_TRUE(pages[1].offers[0].all_countries);
  ASSERT_EQ(http.sent.size(), 2u);
  EXPECT_EQ(http.sent[0].method, "POST");
  EXPECT_EQ(http.sent[0].url, "https://api.awin.test/publisher/98765/promotions");
  EXPECT_EQ(header(http.sent[0], "Authorization"), "Bearer awin-tok");
  EXPECT_EQ(http.sent[0].body,
            R"({"filters":{"membership":"joined","status":"active","type":"all"},)"
            R"("pagination":{"page":1,"pageSize":2}})");
  EXPECT_NE(http.sent[1].body.find(R"("page":2)"), std::string::npos);
}

TEST(AwinAdapter, NotJoinedNeverImportedEvenIfSent) {
  FakeHttp http;
  FakeClock clock;
  AwinAdapter a(http, clock, {"1", "t"}, {"https://api.awin.test", 0, 2, {}});
  http.add(200, promotions(1, 2, 2, false));
  std::size_t offers = 0;
  a.pull([&](const OfferPage& p) { offers += p.offers.size(); });
  EXPECT_EQ(offers, 0u);
}

TEST(AwinAdapter, RefusedTokenAndRateLimit) {
  FakeHttp http;
  FakeClock clock;
  AwinAdapter a(http, clock, {"1", "t"},
                {"https://api.awin.test", 0, 2, BackoffPolicy{2, milliseconds(100)}});
  http.add(429, "");
  http.add(401, R"({"error": "unauthorized"})");
  try {
    a.pull([](const OfferPage&) {});
    ADD_FAILURE();
  } catch (const NetworkError& e) {
    EXPECT_STREQ(e.what(), "Awin refused the API token");
  }
  EXPECT_EQ(clock.slept, (std::vector<milliseconds>{milliseconds(100)}));
}

}  // namespace
