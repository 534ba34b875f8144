#include "lib/http/api_error.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/http/response.h"

namespace {

using placard::http::ApiError;
using placard::http::render_error;
using placard::http::Response;

TEST(HttpRenderError, EnvelopeWithField) {
  const Response r = render_error(placard::http::missing_field("country"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(
      r.body,
      R"({"error":{"code":"missing_field","message":"Field country is required","field":"country"}})");
  EXPECT_EQ(r.header("Content-Type"), "application/json; charset=utf-8");
  EXPECT_EQ(r.header("content-type"), "application/json; charset=utf-8");
}

TEST(HttpRenderError, FieldOmittedWhenEmpty) {
  const Response r = render_error(placard::http::not_found());
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body, R"({"error":{"code":"not_found","message":"No such resource"}})");
  ASSERT_EQ(r.headers.size(), 2u);
  EXPECT_EQ(r.headers[0].name, "Content-Type");
  EXPECT_EQ(r.headers[0].value, "application/json; charset=utf-8");
  EXPECT_EQ(r.headers[1].name, "X-Content-Type-Options");  // every error answer (issue 22)
  EXPECT_EQ(r.headers[1].value, "nosniff");
}

TEST(HttpRenderError, InvalidFieldKeepsMessage) {
  const Response r =
      render_error(placard::http::invalid_field("limit", "limit must be an integer from 1 to 20"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(
      r.body,
      R"({"error":{"code":"invalid_field","message":"limit must be an integer from 1 to 20","field":"limit"}})");
}

TEST(HttpRenderError, MessageIsJsonEscaped) {
  const Response r = render_error(ApiError(409, "conflict", "Name \"a\\b\"\n exists", "name"));
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(r.body,
            R"({"error":{"code":"conflict","message":"Name \"a\\b\"\n exists","field":"name"}})");
}

TEST(HttpRenderError, HeadersAreCopied) {
  const Response r = render_error(placard::http::service_unavailable("Switched off"));
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.body, R"({"error":{"code":"service_unavailable","message":"Switched off"}})");
  EXPECT_EQ(r.header("Retry-After"), "5");
  EXPECT_EQ(r.header("Content-Type"), "application/json; charset=utf-8");

  ApiError limited(429, "too_many_attempts", "Too many attempts");
  limited.with_header("Retry-After", "900").with_header("X-Extra", "1");
  const Response t = render_error(limited);
  EXPECT_EQ(t.status, 429);
  EXPECT_EQ(t.header("Retry-After"), "900");
  EXPECT_EQ(t.header("X-Extra"), "1");
  EXPECT_EQ(t.headers.size(), 4u);  // and X-Content-Type-Options
}

TEST(HttpRenderError, AllowHeaderOf405) {
  ApiError e(405, "method_not_allowed", "Method PUT is not allowed here");
  e.with_header("Allow", "GET, HEAD");
  const Response r = render_error(e);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.header("Allow"), "GET, HEAD");
  EXPECT_EQ(
      r.body,
      R"({"error":{"code":"method_not_allowed","message":"Method PUT is not allowed here"}})");
}

TEST(HttpRenderError, InternalErrorSaysNothingMore) {
  const Response r = render_error(placard::http::internal_error());
  EXPECT_EQ(r.status, 500);
  EXPECT_EQ(r.body, R"({"error":{"code":"internal_error","message":"Internal error"}})");
}

}  // namespace
