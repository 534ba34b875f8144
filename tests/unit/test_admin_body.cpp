// admin::Body: the fields of an admin write, each refusal naming its field.
#include "lib/admin/body.h"

#include <gtest/gtest.h>

#include <functional>

#include "lib/http/api_error.h"

namespace {

using placard::admin::Body;
using placard::admin::utf8_length;
using placard::http::ApiError;
using placard::http::Request;

Request json_request(std::string body, std::string content_type = "application/json") {
  Request r;
  r.method = "POST";
  r.path = "/admin/api/v1/things";
  r.headers.push_back({"content-type", std::move(content_type)});
  r.body = std::move(body);
  return r;
}

// "status code field" of the ApiError thrown by f, or "ok".
std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code() + (e.field().empty() ? "" : " " + e.field());
  }
  return "ok";
}

// Runs f on a Body of `json` that allows the fields used below.
std::string on(const std::string& json, const std::function<void(const Body&)>& f) {
  return refusal([&] {
    auto r = json_request(json);
    const Body b(r, {"name", "enabled", "priority", "validUntil", "tags", "note"});
    f(b);
  });
}

TEST(AdminBody, BodyRulesComeFirst) {
  EXPECT_EQ(refusal([] {
              auto r = json_request("{}", "text/plain");
              const Body b(r, {});
            }),
            "415 unsupported_media_type");
  EXPECT_EQ(refusal([] {
              auto r = json_request("{\"name\":");
              const Body b(r, {"name"});
            }),
            "400 invalid_json");
  EXPECT_EQ(refusal([] {
              auto r = json_request("[1]");
              const Body b(r, {});
            }),
            "400 invalid_json");
}

TEST(AdminBody, UnknownFieldIsNamed) {
  EXPECT_EQ(refusal([] {
              auto r = json_request(R"({"name":"x","colour":"red"})");
              const Body b(r, {"name"});
            }),
            "400 invalid_field colour");
  EXPECT_EQ(refusal([] {
              auto r = json_request(R"({"Name":"x"})");
              const Body b(r, {"name"});
            }),
            "400 invalid_field Name");
  EXPECT_EQ(refusal([] {
              auto r = json_request("{}");
              const Body b(r, {});
            }),
            "ok");
}

TEST(AdminBody, Strings) {
  EXPECT_EQ(
      on(R"({"name":"abc"})", [](const Body& b) { EXPECT_EQ(b.string("name", 1, 3), "abc"); }),
      "ok");
  EXPECT_EQ(on("{}", [](const Body& b) { b.string("name", 1, 3); }), "400 missing_field name");
  EXPECT_EQ(on("{}", [](const Body& b) { EXPECT_EQ(b.opt_string("name", 1, 3), std::nullopt); }),
            "ok");
  EXPECT_EQ(on(R"({"name":""})", [](const Body& b) { b.string("name", 1, 3); }),
            "400 invalid_field name");
  EXPECT_EQ(on(R"({"name":"abcd"})", [](const Body& b) { b.string("name", 1, 3); }),
            "400 invalid_field name");
  EXPECT_EQ(on(R"({"name":5})", [](const Body& b) { b.string("name", 1, 3); }),
            "400 invalid_field name");
  EXPECT_EQ(on(R"({"name":null})", [](const Body& b) { b.opt_string("name", 0, 3); }),
            "400 invalid_field name");
  EXPECT_EQ(on(R"({"name":["a"]})", [](const Body& b) { b.string("name", 1, 3); }),
            "400 invalid_field name");
  EXPECT_EQ(on(R"({"name":"a\u0000b"})", [](const Body& b) { b.string("name", 1, 10); }),
            "400 invalid_field name");
}

TEST(AdminBody, LengthsAreCharactersNotBytes) {
  // "Äpfel" is 5 characters, 6 bytes; "😀😀" 2 characters, 8 bytes.
  EXPECT_EQ(on(R"({"name":"Äpfel"})",
               [](const Body& b) { EXPECT_EQ(b.string("name", 5, 5), "\xC3\x84pfel"); }),
            "ok");
  EXPECT_EQ(on(R"({"name":"\ud83d\ude00\ud83d\ude00"})",
               [](const Body& b) { EXPECT_EQ(b.string("name", 2, 2).size(), 8u); }),
            "ok");
  EXPECT_EQ(on(R"({"name":"Äpfel"})", [](const Body& b) { b.string("name", 1, 4); }),
            "400 invalid_field name");
  EXPECT_EQ(utf8_length(""), 0u);
  EXPECT_EQ(utf8_length("abc"), 3u);
  EXPECT_EQ(utf8_length("\xC3\x84\xE2\x82\xAC\xF0\x9F\x98\x80"), 3u);  // Ä € 😀
}

TEST(AdminBody, Booleans) {
  EXPECT_EQ(on(R"({"enabled":false})", [](const Body& b) { EXPECT_FALSE(b.boolean("enabled")); }),
            "ok");
  EXPECT_EQ(on("{}", [](const Body& b) { b.boolean("enabled"); }), "400 missing_field enabled");
  EXPECT_EQ(on("{}", [](const Body& b) { EXPECT_EQ(b.opt_boolean("enabled"), std::nullopt); }),
            "ok");
  for (const char* bad : {R"({"enabled":"true"})", R"({"enabled":1})", R"({"enabled":null})"}) {
    EXPECT_EQ(on(bad, [](const Body& b) { b.opt_boolean("enabled"); }), "400 invalid_field enabled")
        << bad;
  }
}

TEST(AdminBody, Integers) {
  EXPECT_EQ(on(R"({"priority":-5})",
               [](const Body& b) { EXPECT_EQ(b.integer("priority", -10, 10), -5); }),
            "ok");
  EXPECT_EQ(on(R"({"priority":10})",
               [](const Body& b) { EXPECT_EQ(b.integer("priority", -10, 10), 10); }),
            "ok");
  EXPECT_EQ(on("{}", [](const Body& b) { b.integer("priority", 0, 1); }),
            "400 missing_field priority");
  for (const char* bad : {R"({"priority":11})", R"({"priority":-11})", R"({"priority":1.5})",
                          R"({"priority":1.0})", R"({"priority":"1"})", R"({"priority":null})",
                          R"({"priority":18446744073709551615})", R"({"priority":true})"}) {
    EXPECT_EQ(on(bad, [](const Body& b) { b.opt_integer("priority", -10, 10); }),
              "400 invalid_field priority")
        << bad;
  }
}

TEST(AdminBody, NullHandling) {
  EXPECT_EQ(on(R"({"note":null})",
               [](const Body& b) {
                 EXPECT_TRUE(b.has("note"));
                 EXPECT_TRUE(b.is_null("note"));
                 EXPECT_FALSE(b.is_null("name"));
                 EXPECT_FALSE(b.has("name"));
               }),
            "ok");
  EXPECT_EQ(on("{}", [](const Body& b) { b.value("note"); }), "400 missing_field note");
}

TEST(AdminBody, NullableTimes) {
  EXPECT_EQ(
      on("{}", [](const Body& b) { EXPECT_EQ(b.opt_nullable_time("validUntil"), std::nullopt); }),
      "ok");
  EXPECT_EQ(on(R"({"validUntil":null})",
               [](const Body& b) {
                 const auto t = b.opt_nullable_time("validUntil");
                 ASSERT_TRUE(t.has_value());
                 EXPECT_EQ(*t, std::nullopt);
               }),
            "ok");
  EXPECT_EQ(on(R"({"validUntil":"2026-12-31T23:59:59Z"})",
               [](const Body& b) {
                 EXPECT_EQ(b.opt_nullable_time("validUntil"),
                           std::optional<std::int64_t>{1'798'761'599});
               }),
            "ok");
  EXPECT_EQ(on(R"({"validUntil":"2027-01-01T01:00:00+02:00"})",
               [](const Body& b) {
                 EXPECT_EQ(b.opt_nullable_time("validUntil"),
                           std::optional<std::int64_t>{1'798'758'000});
               }),
            "ok");
  for (const char* bad : {R"({"validUntil":"2026-12-31"})", R"({"validUntil":"tomorrow"})",
                          R"({"validUntil":1798761599})",
                          R"({"validUntil":"2026-02-30T00:00:00Z"})", R"({"validUntil":""})"}) {
    EXPECT_EQ(on(bad, [](const Body& b) { b.opt_nullable_time("validUntil"); }),
              "400 invalid_field validUntil")
        << bad;
  }
}

TEST(AdminBody, StringArrays) {
  EXPECT_EQ(on(R"({"tags":["a","b"]})",
               [](const Body& b) {
                 EXPECT_EQ(b.opt_string_array("tags", 2), (std::vector<std::string>{"a", "b"}));
               }),
            "ok");
  EXPECT_EQ(on(R"({"tags":[]})",
               [](const Body& b) { EXPECT_EQ(b.opt_string_array("tags", 2)->size(), 0u); }),
            "ok");
  EXPECT_EQ(on("{}", [](const Body& b) { EXPECT_EQ(b.opt_string_array("tags", 2), std::nullopt); }),
            "ok");
  EXPECT_EQ(on(R"({"tags":["a","b","c"]})", [](const Body& b) { b.opt_string_array("tags", 2); }),
            "400 invalid_field tags");
  EXPECT_EQ(on(R"({"tags":"a"})", [](const Body& b) { b.opt_string_array("tags", 2); }),
            "400 invalid_field tags");
  EXPECT_EQ(on(R"({"tags":null})", [](const Body& b) { b.opt_string_array("tags", 2); }),
            "400 invalid_field tags");
  EXPECT_EQ(on(R"({"tags":["a",1]})", [](const Body& b) { b.opt_string_array("tags", 2); }),
            "400 invalid_field tags[1]");
}

}  // namespace
