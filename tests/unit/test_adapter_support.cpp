// network::parse_offer_page: the page shape both adapters read (items, the network's total),
// unusable items left out but counted, and the two errors named after the network.
#include "lib/network/adapter_support.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace {

using placard::network::NetworkError;
using placard::network::NetworkOffer;
using placard::network::PageShape;
using placard::network::parse_offer_page;

const PageShape kShape{"items", "meta", "count", "Net sent offers"};

std::optional<NetworkOffer> read_one(const rapidjson::Value& v) {
  if (!v.IsString()) return std::nullopt;
  NetworkOffer o;
  o.external_id = v.GetString();
  return o;
}

std::string error_of(const std::string& body) {
  try {
    parse_offer_page(body, kShape, read_one);
  } catch (const NetworkError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ParseOfferPage, ItemsAndTheNetworksTotal) {
  const auto page = parse_offer_page(R"({"items":["a",7,"b"],"meta":{"count":40,"next":null}})",
                                     kShape, read_one);
  ASSERT_EQ(page.offers.size(), 2u);
  EXPECT_EQ(page.offers[0].external_id, "a");
  EXPECT_EQ(page.offers[1].external_id, "b");
  EXPECT_EQ(page.results, 3u);  // the unusable one counts as seen
  EXPECT_EQ(page.total, 40u);
  EXPECT_TRUE(
      parse_offer_page(R"({"items":[],"meta":{"count":0}})", kShape, read_one).offers.empty());
}

TEST(ParseOfferPage, ErrorsNameTheNetwork) {
  EXPECT_EQ(error_of("nope"), "Net sent offers that could not be read (not JSON)");
  EXPECT_EQ(error_of("[]"), "Net sent offers that could not be read (not JSON)");
  for (const char* bad :
       {R"({"meta":{"count":1}})", R"({"items":{},"meta":{"count":1}})", R"({"items":[]})",
        R"({"items":[],"meta":{}})", R"({"items":[],"meta":{"count":-1}})",
        R"({"items":[],"meta":{"count":"1"}})"}) {
    EXPECT_EQ(error_of(bad), "Net sent offers that could not be read (unexpected shape)") << bad;
  }
}

}  // namespace
