#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "lib/http/api_error.h"
#include "lib/http/json_body.h"
#include "lib/http/request.h"
#include "lib/http/response.h"
#include "lib/json/safe_parse.h"

namespace {

using placard::http::ApiError;
using placard::http::is_json_content_type;
using placard::http::kMaxBodyBytes;
using placard::http::parse_object_body;
using placard::http::render_error;
using placard::http::Request;

// parse_object_body into a fresh document (throws ApiError like parse_object_body).
std::unique_ptr<rapidjson::Document> object_body(Request& request) {
  auto doc = std::make_unique<rapidjson::Document>();
  parse_object_body(request, *doc);
  return doc;
}

std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// ---- parse_object_body ----

Request json_request(std::string body, std::string content_type = "application/json") {
  Request r;
  r.method = "POST";
  r.path = "/api/v1/offers/query";
  if (!content_type.empty()) r.headers.push_back({"content-type", std::move(content_type)});
  r.content_length = body.size();
  r.body = std::move(body);
  return r;
}

// Runs parse_object_body and returns the ApiError; fails the test when nothing is thrown.
std::optional<ApiError> body_error(Request& r) {
  try {
    object_body(r);
  } catch (const ApiError& e) {
    return e;
  }
  ADD_FAILURE() << "parse_object_body accepted: " << r.body.substr(0, 80);
  return std::nullopt;
}

void expect_invalid_json(std::string body) {
  Request r = json_request(std::move(body));
  const auto e = body_error(r);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 400);
  EXPECT_EQ(e->code(), "invalid_json");
  EXPECT_TRUE(e->field().empty());
}

TEST(JsonBody, ValidObjectReturned) {
  Request r = json_request(R"({"country":"DE","extra":{"x":[1,2,3]}})");
  const auto doc = object_body(r);
  ASSERT_TRUE(doc->IsObject());
  EXPECT_STREQ((*doc)["country"].GetString(), "DE");
  EXPECT_EQ((*doc)["extra"]["x"].Size(), 3u);
}

TEST(JsonBody, InvalidJsonIs400) {
  expect_invalid_json("{");
  expect_invalid_json("");
  expect_invalid_json("{\"a\":1}x");
  expect_invalid_json("{\"a\":NaN}");
}

TEST(JsonBody, ByteOrderMarkOrStrayByteIs400) {
  expect_invalid_json("\xef{\"a\":1}");
  expect_invalid_json("\xef\xbb\xbf{\"a\":1}");
}

TEST(JsonBody, InvalidUtf8Is400) {
  expect_invalid_json("{\"a\":\"\xff\"}");
  expect_invalid_json("{\"a\":\"\xc0\xaf\"}");
  expect_invalid_json(R"({"a":"\ud800"})");
}

TEST(JsonBody, TooDeepIs400) {
  expect_invalid_json("{\"a\":" + nested_arrays(16) + "}");
  Request ok = json_request("{\"a\":" + nested_arrays(15) + "}");
  EXPECT_TRUE(object_body(ok)->IsObject());
}

TEST(JsonBody, NonObjectTopLevelIs400MustBeAnObject) {
  for (const char* text : {"[]", "[{\"a\":1}]", "\"str\"", "42", "-1.5", "true", "null"}) {
    Request r = json_request(text);
    const auto e = body_error(r);
    ASSERT_TRUE(e.has_value()) << text;
    EXPECT_EQ(e->status(), 400) << text;
    EXPECT_EQ(e->code(), "invalid_json") << text;
    EXPECT_NE(std::string(e->what()).find("must be a JSON object"), std::string::npos)
        << text << ": " << e->what();
  }
}

TEST(JsonBody, ContentTypeRules) {
  for (const char* ct :
       {"application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8",
        "Application/JSON", "APPLICATION/JSON; CHARSET=UTF-8", " application/json ",
        "application/json\t; charset=utf-8"}) {
    EXPECT_TRUE(is_json_content_type(ct)) << ct;
    Request r = json_request("{}", ct);
    EXPECT_TRUE(object_body(r)->IsObject()) << ct;
  }
}

TEST(JsonBody, OtherContentTypeIs415) {
  for (const char* ct :
       {"text/plain", "text/json", "application/jsonx", "application/json-patch+json",
        "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application",
        "json", "application/ json", ";application/json"}) {
    EXPECT_FALSE(is_json_content_type(ct)) << ct;
    Request r = json_request("{}", ct);
    const auto e = body_error(r);
    ASSERT_TRUE(e.has_value()) << ct;
    EXPECT_EQ(e->status(), 415) << ct;
    EXPECT_EQ(e->code(), "unsupported_media_type") << ct;
  }
}

TEST(JsonBody, MissingContentTypeIs415) {
  EXPECT_FALSE(is_json_content_type(""));
  Request r = json_request("{}", "");
  ASSERT_FALSE(r.has("content-type"));
  const auto e = body_error(r);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 415);
  EXPECT_EQ(e->code(), "unsupported_media_type");
}

TEST(JsonBody, ContentTypeCheckedBeforeSize) {
  Request r = json_request(std::string(kMaxBodyBytes + 1, ' '), "text/plain");
  const auto e = body_error(r);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 415);
}

// An object of exactly n bytes: {"a":"xxx...x"}
std::string object_of_size(std::size_t n) {
  const std::string frame = "{\"a\":\"\"}";
  return "{\"a\":\"" + std::string(n - frame.size(), 'x') + "\"}";
}

TEST(JsonBody, ExactlyMaxBytesAcceptedThroughReader) {
  ASSERT_EQ(kMaxBodyBytes, 16384u);
  const std::string body = object_of_size(16384);
  ASSERT_EQ(body.size(), 16384u);
  Request r;
  r.method = "POST";
  r.headers.push_back({"content-type", "application/json"});
  r.content_length = body.size();
  int calls = 0;
  std::size_t asked = 0;
  r.body_reader = [&](std::size_t n) {
    ++calls;
    asked = n;
    return body.substr(0, n);
  };
  const auto doc = object_body(r);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(asked, 16384u);
  ASSERT_TRUE(doc->IsObject());
  EXPECT_EQ((*doc)["a"].GetStringLength(), 16384u - 8u);
}

TEST(JsonBody, OverMaxBytesIs413WithoutReading) {
  Request r;
  r.method = "POST";
  r.headers.push_back({"content-type", "application/json"});
  r.content_length = 16385;
  int calls = 0;
  r.body_reader = [&](std::size_t n) {
    ++calls;
    return object_of_size(n);
  };
  const auto e = body_error(r);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 413);
  EXPECT_EQ(e->code(), "body_too_large");
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(r.body.empty());
}

TEST(JsonBody, HugeContentLengthIs413WithoutReading) {
  Request r;
  r.method = "POST";
  r.headers.push_back({"content-type", "application/json; charset=utf-8"});
  r.content_length = std::size_t{1} << 40;
  int calls = 0;
  r.body_reader = [&](std::size_t) {
    ++calls;
    return std::string("{}");
  };
  const auto e = body_error(r);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 413);
  EXPECT_EQ(calls, 0);
}

TEST(JsonBody, OverMaxBytesSetDirectlyIs413) {
  Request r = json_request(object_of_size(16385));
  r.content_length.reset();
  const auto e = body_error(r);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 413);
  EXPECT_EQ(e->code(), "body_too_large");

  Request ok = json_request(object_of_size(16384));
  ok.content_length.reset();
  EXPECT_TRUE(object_body(ok)->IsObject());
}

TEST(HttpRenderError, BodyErrorsRenderTheirCodes) {
  Request big = json_request(object_of_size(16385));
  const auto e413 = body_error(big);
  ASSERT_TRUE(e413.has_value());
  EXPECT_EQ(render_error(*e413).body,
            R"({"error":{"code":"body_too_large","message":"The body is larger than 16 KiB"}})");
}

}  // namespace
