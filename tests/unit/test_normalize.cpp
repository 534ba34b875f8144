#include "lib/network/normalize.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/util/time_format.h"

namespace {

using namespace placard::network;

std::int64_t at(const char* rfc3339) {
  return *placard::util::parse_rfc3339(rfc3339);
}

TEST(Normalize, ImagesTimesCountries) {
  EXPECT_EQ(https_image("//a.example/i.png"), "https://a.example/i.png");
  EXPECT_EQ(https_image("http://a.example/i.svg"), "https://a.example/i.svg");
  EXPECT_EQ(https_image("HTTPS://a.example/i"), "https://a.example/i");
  for (const char* bad : {"", "/rel.png", "data:image/png;base64,AA", "ftp://a/x", "///x",
                          "https://", "javascript:alert(1)", "https://a.example/ x"}) {
    EXPECT_EQ(https_image(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(parse_network_time("2024-05-31T23:59:00"), at("2024-05-31T23:59:00Z"));
  EXPECT_EQ(parse_network_time("2024-05-31T23:59:00.123"), at("2024-05-31T23:59:00Z"));
  EXPECT_EQ(parse_network_time("2024-05-31T23:59:00+03:00"), at("2024-05-31T20:59:00Z"));
  EXPECT_EQ(parse_network_time("31.05.2024"), std::nullopt);
  EXPECT_EQ(parse_network_time("2024-02-30T00:00:00"), std::nullopt);
  EXPECT_EQ(country_code("de"), "DE");
  EXPECT_EQ(country_code("DEU"), std::nullopt);
  EXPECT_EQ(country_code("D1"), std::nullopt);
}

}  // namespace
