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
using placard::http::Response;
using placard::json::kMaxDepth;
using placard::json::nesting_depth;
using placard::json::parse_untrusted;

// parse_untrusted into a fresh document; nullptr when the text is refused.
std::unique_ptr<rapidjson::Document> parsed(std::string_view text) {
  auto doc = std::make_unique<rapidjson::Document>();
  if (!parse_untrusted(text, *doc)) return nullptr;
  return doc;
}

bool accepted(std::string_view text) {
  return parsed(text) != nullptr;
}

// parse_object_body into a fresh document (throws ApiError like parse_object_body).
std::unique_ptr<rapidjson::Document> object_body(Request& request) {
  auto doc = std::make_unique<rapidjson::Document>();
  parse_object_body(request, *doc);
  return doc;
}

std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// {"a":{"a":...{}...}} with `depth` objects.
std::string nested_objects(std::size_t depth) {
  std::string s;
  for (std::size_t i = 1; i < depth; ++i) s += "{\"a\":";
  s += "{}";
  for (std::size_t i = 1; i < depth; ++i) s += "}";
  return s;
}

// ---- parse_untrusted ----

TEST(JsonSafeParse, ValidObject) {
  const auto doc = parsed(R"({"country":"DE","limit":6,"ok":true,"list":[1,2]})");
  ASSERT_NE(doc, nullptr);
  ASSERT_TRUE(doc->IsObject());
  EXPECT_STREQ((*doc)["country"].GetString(), "DE");
  EXPECT_EQ((*doc)["limit"].GetInt(), 6);
  EXPECT_TRUE((*doc)["ok"].GetBool());
  EXPECT_EQ((*doc)["list"].Size(), 2u);
}

TEST(JsonSafeParse, InvalidJson) {
  for (const char* text : {"", " ", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{'a':1}",
                           "{a:1}", "[1,]", "{\"a\":tru}", "{\"a\":\"unterminated}", "{\"a\":01}",
                           "{\"a\":1.}", "{\"a\":\"tab\there\"}"}) {
    EXPECT_FALSE(accepted(text)) << text;
  }
}

TEST(JsonSafeParse, InvalidUtf8BytesRejected) {
  EXPECT_FALSE(accepted("{\"a\":\"\xff\"}"));              // never valid in UTF-8
  EXPECT_FALSE(accepted("{\"a\":\"\xc0\xaf\"}"));          // overlong '/'
  EXPECT_FALSE(accepted("{\"a\":\"\xe0\x80\xaf\"}"));      // overlong, 3 bytes
  EXPECT_FALSE(accepted("{\"a\":\"\xed\xa0\x80\"}"));      // UTF-8 encoded surrogate D800
  EXPECT_FALSE(accepted("{\"a\":\"\xf4\x90\x80\x80\"}"));  // above U+10FFFF
  EXPECT_FALSE(accepted("{\"a\":\"\xc3\"}"));              // truncated sequence
  EXPECT_FALSE(accepted("{\"a\":\"\x80\"}"));              // lone continuation byte
  EXPECT_FALSE(accepted("{\"\xff\":1}"));                  // in a key
}

// Found by fuzzing (tests/fuzz/fuzz_json_body.cpp): the stream RapidJSON was given skipped a
// byte-order mark, and on a lone 0xEF it swallowed the byte unchecked: "\xEF9" parsed as 9 and
// "\xEF{}" as an empty object. The bytes before the value are JSON whitespace or nothing.
TEST(JsonSafeParse, ByteBeforeTheValueIsNotSkipped) {
  EXPECT_FALSE(
      accepted("\xef"
               "9"));
  EXPECT_FALSE(accepted("\xef{}"));
  EXPECT_FALSE(accepted("\xef\xbb{}"));
  EXPECT_FALSE(accepted("\xef\xbb\xbf{}"));  // a byte-order mark is not JSON text either
  EXPECT_FALSE(placard::json::nesting_depth("\xef[]", 16).has_value());
  EXPECT_TRUE(accepted(" \t\r\n{} "));
}

TEST(JsonSafeParse, ValidUtf8Accepted) {
  const auto doc = parsed("{\"a\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}");
  ASSERT_NE(doc, nullptr);
  EXPECT_EQ(std::string((*doc)["a"].GetString()), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}

TEST(JsonSafeParse, SurrogatePairEscapeDecodesToUtf8) {
  const auto doc = parsed(R"({"a":"\ud83d\ude00"})");
  ASSERT_NE(doc, nullptr);
  EXPECT_EQ(std::string((*doc)["a"].GetString()), "\xf0\x9f\x98\x80");
}

TEST(JsonSafeParse, LoneHighSurrogateEscapeRejected) {
  EXPECT_FALSE(accepted(R"({"a":"\ud800"})"));
  EXPECT_FALSE(accepted(R"({"a":"\ud800x"})"));
  EXPECT_FALSE(accepted(R"({"a":"\ud800\u0041"})"));
}

// A lone low surrogate escape cannot be represented in UTF-8. Accepting it puts the bytes
// ED B0 80 (invalid UTF-8) into the document, i.e. "invalid UTF-8" gets past the body check.
TEST(JsonSafeParse, LoneLowSurrogateEscapeRejected) {
  const auto doc = parsed(R"({"a":"\udc00"})");
  EXPECT_TRUE(doc == nullptr) << "accepted; the string became bytes ED B0 80 (invalid UTF-8)";
  EXPECT_FALSE(accepted(R"({"a":"x\udfffy"})"));
}

TEST(JsonSafeParse, DepthSixteenAcceptedSeventeenRejected) {
  ASSERT_EQ(kMaxDepth, 16u);
  EXPECT_TRUE(accepted(nested_arrays(16)));
  EXPECT_FALSE(accepted(nested_arrays(17)));
  EXPECT_TRUE(accepted(nested_objects(16)));
  EXPECT_FALSE(accepted(nested_objects(17)));
  // Mixed: an object holding 15 arrays is 16 deep; 16 arrays make it 17.
  EXPECT_TRUE(accepted("{\"a\":" + nested_arrays(15) + "}"));
  EXPECT_FALSE(accepted("{\"a\":" + nested_arrays(16) + "}"));
  // Very deep input is refused, not a stack overflow.
  EXPECT_FALSE(accepted(nested_arrays(100000)));
  EXPECT_FALSE(accepted(std::string(100000, '[')));
}

TEST(JsonSafeParse, DepthCountsNestingNotSize) {
  // Many siblings at depth 2 are fine.
  std::string wide = "{\"a\":[";
  for (int i = 0; i < 1000; ++i) wide += (i ? ",[]" : "[]");
  wide += "]}";
  EXPECT_TRUE(accepted(wide));
}

TEST(JsonSafeParse, NestingDepth) {
  EXPECT_EQ(nesting_depth("1", 16), std::optional<std::size_t>(0));
  EXPECT_EQ(nesting_depth("\"x\"", 16), std::optional<std::size_t>(0));
  EXPECT_EQ(nesting_depth("{}", 16), std::optional<std::size_t>(1));
  EXPECT_EQ(nesting_depth("[[]]", 16), std::optional<std::size_t>(2));
  EXPECT_EQ(nesting_depth("[[],[[{}]]]", 16), std::optional<std::size_t>(4));
  EXPECT_EQ(nesting_depth(nested_arrays(16), 16), std::optional<std::size_t>(16));
  // Past the limit it stops counting: the answer is limit + 1, whatever the real depth.
  EXPECT_EQ(nesting_depth(nested_arrays(50), 16), std::optional<std::size_t>(17));
  EXPECT_EQ(nesting_depth("[", 16), std::nullopt);
  EXPECT_EQ(nesting_depth("{\"a\":}", 16), std::nullopt);
}

TEST(JsonSafeParse, TrailingGarbageRejected) {
  for (const char* text : {"{}x", "{} {}", "{}]", "{},", "{}}", "{\"a\":1} 2", "{}//", "{}/**/"}) {
    EXPECT_FALSE(accepted(text)) << text;
  }
}

// "Nothing but whitespace after the value": a NUL byte is not whitespace, and whatever follows
// it is garbage.
TEST(JsonSafeParse, TrailingNulAndGarbageRejected) {
  EXPECT_FALSE(accepted(std::string("{}\0garbage", 10)));
  EXPECT_FALSE(accepted(std::string("{\"a\":1}\0", 8)));
}

TEST(JsonSafeParse, NulInsideStringNeedsEscape) {
  EXPECT_FALSE(accepted(std::string("{\"a\":\"x\0y\"}", 11)));
  const auto doc = parsed(R"({"a":"x\u0000y"})");
  ASSERT_NE(doc, nullptr);
  EXPECT_EQ(std::string((*doc)["a"].GetString(), (*doc)["a"].GetStringLength()),
            std::string("x\0y", 3));
}

TEST(JsonSafeParse, WhitespaceAroundAccepted) {
  EXPECT_TRUE(accepted(" \t\r\n{} \t\r\n"));
  EXPECT_TRUE(accepted("{}\n"));
  EXPECT_TRUE(accepted("{ \"a\" : [ 1 , 2 ] }"));
}

TEST(JsonSafeParse, NanInfinityCommentsRejected) {
  for (const char* text :
       {"{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":nan}", "{/* c */}",
        "{\"a\":1 /* c */}", "{\"a\":1} // c", "// c\n{}", "{\"a\":1e400}", "{\"a\":-1e400}"}) {
    EXPECT_FALSE(accepted(text)) << text;
  }
}

TEST(JsonSafeParse, TopLevelScalarsAndArraysParse) {
  // parse_untrusted itself accepts any JSON value; parse_object_body insists on an object.
  EXPECT_TRUE(accepted("[]"));
  EXPECT_TRUE(accepted("\"s\""));
  EXPECT_TRUE(accepted("3"));
  EXPECT_TRUE(accepted("null"));
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

// ---- render_error ----

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

TEST(HttpRenderError, BodyErrorsRenderTheirCodes) {
  Request big = json_request(object_of_size(16385));
  const auto e413 = body_error(big);
  ASSERT_TRUE(e413.has_value());
  EXPECT_EQ(render_error(*e413).body,
            R"({"error":{"code":"body_too_large","message":"The body is larger than 16 KiB"}})");
}

}  // namespace
