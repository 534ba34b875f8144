#include "lib/util/version.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace {

using placard::util::parse_version;
using placard::util::Version;

void expect_version(const char* text, int major, int minor, int patch) {
  const auto v = parse_version(text);
  ASSERT_TRUE(v.has_value()) << text;
  EXPECT_EQ(v->major, major) << text;
  EXPECT_EQ(v->minor, minor) << text;
  EXPECT_EQ(v->patch, patch) << text;
}

Version v(const char* text) {
  const auto parsed = parse_version(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  return parsed.value_or(Version{-1, -1, -1});
}

TEST(UtilVersion, AcceptsWellFormed) {
  expect_version("1.4.2", 1, 4, 2);
  expect_version("0.0.0", 0, 0, 0);
  expect_version("99999.99999.99999", 99999, 99999, 99999);
  expect_version("10.20.30", 10, 20, 30);
  expect_version("1.0.12345", 1, 0, 12345);
}

TEST(UtilVersion, RejectsMalformed) {
  for (const char* text :
       {"1.2",        "1.2.3.4", "+1.2.3",  "-1.2.3",     " 1.2.3",     "1.2.3 ",
        "1.2.100000", "1..2",    "a.b.c",   "",           "1",          "1.",
        "1.2.",       ".1.2",    "1.2.3.",  "100000.0.0", "0.100000.0", "1.-2.3",
        "1.+2.3",     "1. 2.3",  "1.2.3\n", "v1.2.3",     "1.2.3-beta", "1.2.3+build",
        "1,2,3",      "1.2.x",   "\t1.2.3", "1.2.3a",     "１.2.3",     "1.2.999999999999"}) {
    EXPECT_FALSE(parse_version(text).has_value()) << '"' << text << '"';
  }
}

TEST(UtilVersion, RejectsEmbeddedNul) {
  EXPECT_FALSE(parse_version(std::string_view("1.2.3\0", 6)).has_value());
  EXPECT_FALSE(parse_version(std::string_view("1.2\0.3", 6)).has_value());
}

TEST(UtilVersion, ToString) {
  EXPECT_EQ(v("1.4.2").to_string(), "1.4.2");
  EXPECT_EQ(v("0.0.0").to_string(), "0.0.0");
  EXPECT_EQ(v("99999.99999.99999").to_string(), "99999.99999.99999");
  EXPECT_EQ((Version{1, 0, 0}).to_string(), "1.0.0");
}

TEST(UtilVersion, OrderingIsNumericPerComponent) {
  EXPECT_GT(v("1.10.0"), v("1.9.9"));
  EXPECT_LT(v("1.9.9"), v("1.10.0"));
  EXPECT_GT(v("2.0.0"), v("1.99999.99999"));
  EXPECT_GT(v("1.0.10"), v("1.0.9"));
  EXPECT_LT(v("0.0.0"), v("0.0.1"));
  EXPECT_EQ(v("1.4.2"), (Version{1, 4, 2}));
  EXPECT_NE(v("1.4.2"), v("1.4.3"));
  EXPECT_LE(v("1.4.2"), v("1.4.2"));
  EXPECT_GE(v("1.4.2"), v("1.4.2"));
  EXPECT_FALSE(v("1.4.2") < v("1.4.2"));
  EXPECT_LT(v("1.99999.99999"), v("2.0.0"));
  EXPECT_LT(v("1.2.3"), v("1.3.0"));
}

}  // namespace
