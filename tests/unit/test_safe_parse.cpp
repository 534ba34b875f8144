#include "lib/json/safe_parse.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace {

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

// A text the parser refuses (depth, syntax, encoding) leaves the document as it was: no
// half-built tree from the one pass.
TEST(JsonSafeParse, ParserRefusalLeavesTheDocumentAsItWas) {
  rapidjson::Document doc;
  ASSERT_TRUE(parse_untrusted(R"({"kept":1})", doc));
  for (const std::string& bad :
       {nested_arrays(17), std::string(R"({"a":[1,2,{"b":)"), std::string("{\"a\":\"\xff\"}")}) {
    EXPECT_FALSE(parse_untrusted(bad, doc)) << bad;
  }
  ASSERT_TRUE(doc.IsObject());
  EXPECT_EQ(doc["kept"].GetInt(), 1);
  // Depth 16 reached twice in one text: counted down again after each.
  EXPECT_TRUE(accepted("[" + nested_arrays(15) + "," + nested_arrays(15) + "]"));
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

}  // namespace
