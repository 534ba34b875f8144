#include "lib/http/gzip.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace {

using placard::http::accepts_gzip;
using placard::http::gzip_compress;

std::string gunzip(const std::string& data) {
  z_stream s{};
  EXPECT_EQ(inflateInit2(&s, 15 + 16), Z_OK);
  std::string out(1 << 20, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  s.avail_in = static_cast<uInt>(data.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(s.total_out);
  inflateEnd(&s);
  return out;
}

TEST(Gzip, RoundTripsAndShrinksRepetitiveJson) {
  std::string json = R"({"categories":[)";
  for (int i = 0; i < 200; ++i) {
    json += R"({"path":"cat-)" + std::to_string(i) + R"(","name":"Category","children":[]},)";
  }
  json += "{}]}";
  const std::string gz = gzip_compress(json);
  ASSERT_GE(gz.size(), 2U);
  EXPECT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char>(gz[1]), 0x8b);
  EXPECT_LT(gz.size() * 5, json.size());
  EXPECT_EQ(gunzip(gz), json);
  EXPECT_EQ(gunzip(gzip_compress("")), "");
}

TEST(Gzip, AcceptEncodingNegotiation) {
  EXPECT_TRUE(accepts_gzip("gzip"));
  EXPECT_TRUE(accepts_gzip("gzip, deflate, br"));
  EXPECT_TRUE(accepts_gzip("br;q=1.0, GZIP;q=0.5"));
  EXPECT_TRUE(accepts_gzip("x-gzip"));
  EXPECT_TRUE(accepts_gzip("*"));
  EXPECT_FALSE(accepts_gzip(""));
  EXPECT_FALSE(accepts_gzip("identity"));
  EXPECT_FALSE(accepts_gzip("deflate, br"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0, *"));  // an explicit refusal wins over the wildcard
  EXPECT_FALSE(accepts_gzip("*;q=0"));
  EXPECT_FALSE(accepts_gzip("gzipped"));
  EXPECT_FALSE(accepts_gzip("gzip;q=abc"));  // a malformed weight is no acceptance
  EXPECT_FALSE(accepts_gzip("gzip;q=2"));    // out of range, the same
  EXPECT_TRUE(accepts_gzip("deflate;q=0.1, gzip;level=9;q=0.2"));
}

}  // namespace
