#include "lib/http/negotiation.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace {

using placard::http::etag_matches;
using placard::http::for_each_weighted;
using placard::http::parse_qvalue;
using placard::http::prefers_html;

constexpr const char* kChromeAccept =
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,"
    "*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
constexpr const char* kFirefoxAccept =
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
constexpr const char* kSafariAccept =
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

TEST(HttpPrefersHtml, Browsers) {
  EXPECT_TRUE(prefers_html(kChromeAccept));
  EXPECT_TRUE(prefers_html(kFirefoxAccept));
  EXPECT_TRUE(prefers_html(kSafariAccept));
}

TEST(HttpPrefersHtml, ApiClientsAndAbsentHeader) {
  EXPECT_FALSE(prefers_html("*/*"));
  EXPECT_FALSE(prefers_html("application/json"));
  EXPECT_FALSE(prefers_html(""));
  EXPECT_FALSE(prefers_html("application/json, text/plain, */*"));  // axios default
  EXPECT_FALSE(prefers_html("application/*"));
}

TEST(HttpPrefersHtml, QualityValuesDecide) {
  EXPECT_FALSE(prefers_html("text/html;q=0.1, application/json"));
  EXPECT_TRUE(prefers_html("text/html, application/json;q=0.5"));
  EXPECT_TRUE(prefers_html("application/json;q=0.5, text/html"));
  EXPECT_FALSE(prefers_html("text/html;q=0.5, application/json;q=0.5"));  // tie: JSON
  EXPECT_FALSE(prefers_html("text/html, application/json"));              // tie: JSON
  EXPECT_FALSE(prefers_html("application/json, text/html"));
  EXPECT_TRUE(prefers_html("text/html;q=0.9, */*;q=0.8"));
  EXPECT_FALSE(prefers_html("text/html;q=0.8, */*;q=0.9"));
  EXPECT_TRUE(prefers_html("text/html;level=1;q=0.9, application/json;q=0.2"));
  EXPECT_TRUE(prefers_html("text/html ; q=0.7 , application/json ; q=0.6"));
  EXPECT_TRUE(prefers_html("text/html;Q=0.7, application/json;q=0.6"));
}

TEST(HttpPrefersHtml, ZeroOrBrokenQualityIsNotAcceptable) {
  EXPECT_FALSE(prefers_html("text/html;q=0"));
  EXPECT_FALSE(prefers_html("text/html;q=0, */*"));
  EXPECT_FALSE(prefers_html("text/html;q=abc"));
  EXPECT_FALSE(prefers_html("text/html;q=2"));
}

TEST(HttpPrefersHtml, HtmlAloneOrCaseInsensitive) {
  EXPECT_TRUE(prefers_html("text/html"));
  EXPECT_TRUE(prefers_html("TEXT/HTML"));
  EXPECT_TRUE(prefers_html("  text/html  "));
  EXPECT_FALSE(prefers_html("text/plain"));
  EXPECT_FALSE(prefers_html("text/htmlx"));
}

TEST(HttpEtagMatches, Exact) {
  EXPECT_TRUE(etag_matches("\"abc123\"", "\"abc123\""));
  EXPECT_FALSE(etag_matches("\"abc124\"", "\"abc123\""));
  EXPECT_FALSE(etag_matches("abc123", "\"abc123\""));
  EXPECT_FALSE(etag_matches("\"ABC123\"", "\"abc123\""));
  EXPECT_FALSE(etag_matches("\"abc12\"", "\"abc123\""));
}

TEST(HttpEtagMatches, List) {
  EXPECT_TRUE(etag_matches("\"x\", \"abc123\"", "\"abc123\""));
  EXPECT_TRUE(etag_matches("\"abc123\",\"x\"", "\"abc123\""));
  EXPECT_TRUE(etag_matches("\"x\" ,\t\"y\" , \"abc123\"  ", "\"abc123\""));
  EXPECT_FALSE(etag_matches("\"x\", \"y\"", "\"abc123\""));
}

TEST(HttpEtagMatches, WeakComparison) {
  EXPECT_TRUE(etag_matches("W/\"abc123\"", "\"abc123\""));
  EXPECT_TRUE(etag_matches("\"abc123\"", "W/\"abc123\""));
  EXPECT_TRUE(etag_matches("W/\"abc123\"", "W/\"abc123\""));
  EXPECT_TRUE(etag_matches("\"x\", W/\"abc123\"", "\"abc123\""));
  EXPECT_FALSE(etag_matches("W/\"abc124\"", "\"abc123\""));
}

TEST(HttpEtagMatches, Star) {
  EXPECT_TRUE(etag_matches("*", "\"abc123\""));
  EXPECT_TRUE(etag_matches(" * ", "\"abc123\""));
}

TEST(HttpEtagMatches, NoMatch) {
  EXPECT_FALSE(etag_matches("", "\"abc123\""));
  EXPECT_FALSE(etag_matches("\"\"", "\"abc123\""));
  EXPECT_FALSE(etag_matches("W/", "\"abc123\""));
  EXPECT_FALSE(etag_matches("**", "\"abc123\""));
}

TEST(HttpQvalue, TheFormsRfc9110Allows) {
  EXPECT_EQ(parse_qvalue("0"), 0.0);
  EXPECT_EQ(parse_qvalue("1"), 1.0);
  EXPECT_EQ(parse_qvalue("0.5"), 0.5);
  EXPECT_EQ(parse_qvalue("0.001"), 0.001);
  EXPECT_EQ(parse_qvalue("0.999"), 0.999);
  EXPECT_EQ(parse_qvalue("1.000"), 1.0);
  EXPECT_EQ(parse_qvalue("0."), 0.0);
  EXPECT_EQ(parse_qvalue("0.10"), parse_qvalue("0.1"));  // the same weight however written
}

TEST(HttpQvalue, MalformedOrOutOfRange) {
  for (const char* bad : {"", " ", ".5", "2", "1.5", "1.001", "-0.5", "+1", "0.1234", "0,5", "0.5x",
                          "abc", "00.5", "1e0", "0x1"}) {
    EXPECT_FALSE(parse_qvalue(bad).has_value()) << bad;
  }
}

std::vector<std::pair<std::string, double>> weighted(std::string_view header) {
  std::vector<std::pair<std::string, double>> out;
  for_each_weighted(header, [&](std::string_view name, double q) { out.emplace_back(name, q); });
  return out;
}

TEST(HttpWeightedList, MissingQIsOneZeroIsZeroMalformedIsZero) {
  using W = std::vector<std::pair<std::string, double>>;
  EXPECT_EQ(weighted("gzip"), (W{{"gzip", 1.0}}));
  EXPECT_EQ(weighted("gzip;q=0"), (W{{"gzip", 0.0}}));
  EXPECT_EQ(weighted("gzip;q=0.5, br ; Q=0.25 ,*;q=0"),
            (W{{"gzip", 0.5}, {"br", 0.25}, {"*", 0.0}}));
  EXPECT_EQ(weighted("gzip;q="), (W{{"gzip", 0.0}}));
  EXPECT_EQ(weighted("gzip;q=high"), (W{{"gzip", 0.0}}));
  EXPECT_EQ(weighted("gzip;q=2"), (W{{"gzip", 0.0}}));
  EXPECT_EQ(weighted("text/html;level=1;q=0.7"), (W{{"text/html", 0.7}}));
  EXPECT_EQ(weighted("text/html;level=1"), (W{{"text/html", 1.0}}));
  EXPECT_EQ(weighted("a;q=0.2;q=0.9"), (W{{"a", 0.2}}));  // the first q decides
  EXPECT_EQ(weighted(""), W{});
  EXPECT_EQ(weighted(" , ,gzip,"), (W{{"gzip", 1.0}}));  // empty entries are skipped
}

}  // namespace
