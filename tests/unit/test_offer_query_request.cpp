#include "lib/api/offer_query_request.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lib/http/api_error.h"
#include "lib/json/safe_parse.h"

namespace {

using placard::api::is_category_path;
using placard::api::is_country_code;
using placard::api::is_placement_name;
using placard::api::OfferQueryRequest;
using placard::api::parse_offer_query;
using placard::http::ApiError;
using placard::json::parse_untrusted;

constexpr const char* kFields[] = {"country", "placement", "extensionVersion", "category", "limit"};

// A body with every field valid; `overrides` replace (or, when the value is empty, remove)
// fields. Values are raw JSON text.
std::string body_with(const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"country", "\"DE\""},
      {"placement", "\"popup-main\""},
      {"extensionVersion", "\"1.4.2\""},
      {"category", "\"electronics\""},
      {"limit", "6"},
  };
  for (const auto& [name, value] : overrides) {
    bool replaced = false;
    for (auto& f : fields) {
      if (f.first == name) {
        f.second = value;
        replaced = true;
      }
    }
    if (!replaced) fields.emplace_back(name, value);
  }
  std::string out = "{";
  for (const auto& [name, value] : fields) {
    if (value.empty()) continue;
    if (out.size() > 1) out += ",";
    out += '"';
    out += name;
    out += "\":";
    out += value;
  }
  return out + "}";
}

OfferQueryRequest parse(const std::string& text) {
  rapidjson::Document doc;
  if (!parse_untrusted(text, doc)) throw std::logic_error("test body is not valid JSON: " + text);
  return parse_offer_query(doc);
}

std::optional<ApiError> error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const ApiError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text;
  return std::nullopt;
}

void expect_error(const std::string& text, const char* code, const char* field) {
  const auto e = error_of(text);
  ASSERT_TRUE(e.has_value()) << text;
  EXPECT_EQ(e->status(), 400) << text;
  EXPECT_EQ(e->code(), code) << text;
  EXPECT_EQ(e->field(), field) << text;
}

void expect_invalid(const char* field, const std::string& json_value) {
  expect_error(body_with({{field, json_value}}), "invalid_field", field);
}

void expect_valid(const char* field, const std::string& json_value) {
  const std::string text = body_with({{field, json_value}});
  EXPECT_NO_THROW(parse(text)) << text;
}

TEST(OfferQueryRequest, FullValidBody) {
  const auto q = parse(body_with({}));
  EXPECT_EQ(q.country, "DE");
  EXPECT_EQ(q.placement, "popup-main");
  EXPECT_EQ(q.extension_version.major, 1);
  EXPECT_EQ(q.extension_version.minor, 4);
  EXPECT_EQ(q.extension_version.patch, 2);
  EXPECT_EQ(q.category, std::optional<std::string>("electronics"));
  EXPECT_EQ(q.limit, std::optional<int>(6));
}

TEST(OfferQueryRequest, OptionalFieldsAbsent) {
  const auto q = parse(body_with({{"category", ""}, {"limit", ""}}));
  EXPECT_EQ(q.category, std::nullopt);
  EXPECT_EQ(q.limit, std::nullopt);
  EXPECT_EQ(q.country, "DE");
}

TEST(OfferQueryRequest, MissingRequiredFieldNamesIt) {
  for (const char* field : {"country", "placement", "extensionVersion"}) {
    const auto e = error_of(body_with({{field, ""}}));
    ASSERT_TRUE(e.has_value()) << field;
    EXPECT_EQ(e->status(), 400);
    EXPECT_EQ(e->code(), "missing_field") << field;
    EXPECT_EQ(e->field(), field);
  }
}

TEST(OfferQueryRequest, EmptyObjectReportsCountryFirst) {
  expect_error("{}", "missing_field", "country");
}

TEST(OfferQueryRequest, NullIsAWrongTypeNotAMissingField) {
  for (const char* field : kFields) expect_invalid(field, "null");
}

TEST(OfferQueryRequest, WrongTypesAreInvalidField) {
  for (const char* field : {"country", "placement", "extensionVersion", "category"}) {
    for (const char* value : {"1", "true", "[]", "{}", "[\"DE\"]", "1.5"}) {
      expect_invalid(field, value);
    }
  }
}

TEST(OfferQueryRequest, Country) {
  expect_valid("country", "\"US\"");
  expect_valid("country", "\"ZZ\"");
  for (const char* bad : {"\"de\"", "\"De\"", "\"D\"", "\"DEU\"", "\"\"", "\" DE\"", "\"DE \"",
                          "\"D1\"", "\"\\u00c4E\"", "\"DE\\u0000\"", "\"D-\""}) {
    expect_invalid("country", bad);
  }
  EXPECT_TRUE(is_country_code("FR"));
  EXPECT_FALSE(is_country_code("fr"));
  EXPECT_FALSE(is_country_code("F"));
}

TEST(OfferQueryRequest, Placement) {
  expect_valid("placement", "\"sidebar\"");
  expect_valid("placement", "\"a\"");
  expect_valid("placement", "\"0\"");
  expect_valid("placement", "\"popup_main-2\"");
  expect_valid("placement", "\"" + std::string(64, 'p') + "\"");
  for (const std::string& bad :
       {std::string("\"\""), "\"" + std::string(65, 'p') + "\"", std::string("\"Popup\""),
        std::string("\"_popup\""), std::string("\"-popup\""), std::string("\"popup main\""),
        std::string("\"popup.main\""), std::string("\"popup'\""), std::string("\"p\\u00e9\"")}) {
    expect_invalid("placement", bad);
  }
  EXPECT_TRUE(is_placement_name(std::string(64, 'a')));
  EXPECT_FALSE(is_placement_name(std::string(65, 'a')));
}

TEST(OfferQueryRequest, ExtensionVersion) {
  expect_valid("extensionVersion", "\"0.0.0\"");
  expect_valid("extensionVersion", "\"99999.99999.99999\"");
  for (const char* bad :
       {"\"1.2\"", "\"1.2.3.4\"", "\"+1.2.3\"", "\"-1.2.3\"", "\" 1.2.3\"", "\"1.2.3 \"",
        "\"1.2.100000\"", "\"1..2\"", "\"a.b.c\"", "\"\"", "\"1.2.3\\u0000\"", "1.2"}) {
    expect_invalid("extensionVersion", bad);
  }
  const auto q = parse(body_with({{"extensionVersion", "\"12.0.345\""}}));
  EXPECT_EQ(q.extension_version.major, 12);
  EXPECT_EQ(q.extension_version.minor, 0);
  EXPECT_EQ(q.extension_version.patch, 345);
}

TEST(OfferQueryRequest, CategoryPaths) {
  const std::string seg32 = "a" + std::string(31, 'b');
  const std::string seg33 = "a" + std::string(32, 'b');
  const std::string four_segments = seg32 + '.' + seg32 + '.' + seg32 + '.' +
                                    seg32;  // NOLINT(performance-inefficient-string-concatenation)
  for (const std::string& good :
       {std::string("electronics"), std::string("electronics.phones"), std::string("a.b.c.d"),
        std::string("0"), std::string("a-"), std::string("9to5.mac-books"), seg32, four_segments}) {
    EXPECT_TRUE(is_category_path(good)) << good;
    const auto q = parse(body_with({{"category", "\"" + good + "\""}}));
    EXPECT_EQ(q.category, std::optional<std::string>(good));
  }
  for (const std::string& bad :
       {std::string(""), std::string("a.b.c.d.e"), seg33, "a." + seg33, std::string("Electronics"),
        std::string("electronics.Phones"), std::string("a..b"), std::string(".a"),
        std::string("a."), std::string("."), std::string("-a"), std::string("a.-b"),
        std::string("a_b"), std::string("a b"), std::string("a/b"), std::string("a\\\\b")}) {
    EXPECT_FALSE(is_category_path(bad)) << bad;
    expect_invalid("category", "\"" + bad + "\"");
  }
}

TEST(OfferQueryRequest, CategorySqlMetacharactersRejected) {
  for (const char* bad : {"a'", "a' OR '1'='1", "a;DROP TABLE offers", "a%", "a_", "a--", "a/*",
                          "a\\\"", "a`b", "a)", "a*", "a=1"}) {
    const std::string value = std::string("\"") + bad + "\"";
    const std::string text = body_with({{"category", value}});
    rapidjson::Document doc;
    ASSERT_TRUE(parse_untrusted(text, doc)) << text;
    if (std::string(bad) == "a--") {
      // '-' is allowed inside a segment; "a--" is a valid path and harmless as a bound value.
      EXPECT_NO_THROW(parse(text));
      continue;
    }
    expect_error(text, "invalid_field", "category");
  }
}

TEST(OfferQueryRequest, Limit) {
  for (int ok : {1, 2, 6, 19, 20}) {
    const auto q = parse(body_with({{"limit", std::to_string(ok)}}));
    EXPECT_EQ(q.limit, std::optional<int>(ok));
  }
  for (const char* bad :
       {"0", "21", "-1", "3.5", "\"6\"", "true", "false", "null", "[6]", "{\"n\":6}", "1e1", "6.0",
        "4294967297", "-2147483649", "9223372036854775808", "100"}) {
    expect_invalid("limit", bad);
  }
}

TEST(OfferQueryRequest, UnknownExtraFieldsIgnored) {
  const auto q = parse(body_with(
      {{"newField", "{\"deep\":[1,2,3]}"}, {"another", "\"x\""}, {"COUNTRY", "\"bogus\""}}));
  EXPECT_EQ(q.country, "DE");
  EXPECT_EQ(q.limit, std::optional<int>(6));
}

// The contract's order: country, placement, extensionVersion, category, limit.
TEST(OfferQueryRequest, FirstBrokenFieldInContractOrderAnswers) {
  expect_error(body_with({{"country", "\"xx\""}, {"limit", "0"}}), "invalid_field", "country");
  expect_error(body_with({{"country", ""}, {"limit", "0"}}), "missing_field", "country");
  expect_error(body_with({{"placement", "1"}, {"extensionVersion", ""}}), "invalid_field",
               "placement");
  expect_error(body_with({{"placement", ""}, {"country", "1"}}), "invalid_field", "country");
  expect_error(body_with({{"extensionVersion", "\"1\""}, {"category", "\"A\""}}), "invalid_field",
               "extensionVersion");
  expect_error(body_with({{"extensionVersion", ""}, {"category", "\"A\""}, {"limit", "99"}}),
               "missing_field", "extensionVersion");
  expect_error(body_with({{"category", "\"A\""}, {"limit", "99"}}), "invalid_field", "category");
  expect_error(body_with({{"limit", "99"}}), "invalid_field", "limit");
  // Every field broken: country answers.
  expect_error(body_with({{"country", "7"},
                          {"placement", "7"},
                          {"extensionVersion", "7"},
                          {"category", "7"},
                          {"limit", "7.5"}}),
               "invalid_field", "country");
}

TEST(OfferQueryRequest, EachFieldInTurnAfterTheOthersAreValid) {
  // Walk the contract order: everything before `i` valid, everything from `i` on broken.
  const std::vector<std::pair<std::string, std::string>> broken = {
      {"country", "\"d\""},  {"placement", "\"P\""}, {"extensionVersion", "\"1.2\""},
      {"category", "\"A\""}, {"limit", "0"},
  };
  for (std::size_t i = 0; i < broken.size(); ++i) {
    std::vector<std::pair<std::string, std::string>> overrides(
        broken.begin() + static_cast<std::ptrdiff_t>(i), broken.end());
    expect_error(body_with(overrides), "invalid_field", broken[i].first.c_str());
  }
}

TEST(OfferQueryRequest, InvalidFieldMessagesAreForPeople) {
  const auto e = error_of(body_with({{"limit", "21"}}));
  ASSERT_TRUE(e.has_value());
  EXPECT_FALSE(std::string(e->what()).empty());
  const auto m = error_of(body_with({{"placement", ""}}));
  ASSERT_TRUE(m.has_value());
  EXPECT_NE(std::string(m->what()).find("placement"), std::string::npos) << m->what();
}

}  // namespace
