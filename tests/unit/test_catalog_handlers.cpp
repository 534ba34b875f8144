// The ETag / 304 / gzip negotiation of GET /api/v1/config and /api/v1/categories, through the
// handlers' own entry points.
#include "lib/api/catalog_handlers.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <stdexcept>
#include <string>

#include "tests/unit/small_snapshot.h"

namespace {

using placard::catalog::Snapshot;
using placard::http::Request;
using placard::http::Response;
using placard::test::snapshot;

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
