// admin::parse_list_params / parse_query_params: bounds, filters and every refusal naming the
// parameter.
#include "lib/admin/list_params.h"

#include <gtest/gtest.h>

#include "lib/http/api_error.h"

namespace {

using placard::admin::ListParams;
using placard::admin::parse_list_params;
using placard::admin::parse_query_params;
using placard::http::ApiError;
using placard::http::Request;

Request with_query(std::string query) {
  Request r;
  r.method = "GET";
  r.path = "/admin/api/v1/things";
  r.query = std::move(query);
  return r;
}

ListParams list(const std::string& query) {
  return parse_list_params(with_query(query), {"status", "q", "enabled"});
}

// "status code field" of the ApiError thrown, or "ok".
std::string refusal(const std::string& query) {
  try {
    list(query);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code() + " " + e.field();
  }
  return "ok";
}

TEST(AdminListParams, Defaults) {
  const auto p = list("");
  EXPECT_EQ(p.limit, 50);
  EXPECT_EQ(p.offset, 0u);
  EXPECT_TRUE(p.filters.empty());
  EXPECT_EQ(p.filter("status"), std::nullopt);
}

TEST(AdminListParams, LimitBounds) {
  EXPECT_EQ(list("limit=1").limit, 1);
  EXPECT_EQ(list("limit=200").limit, 200);
  EXPECT_EQ(refusal("limit=0"), "400 invalid_field limit");
  EXPECT_EQ(refusal("limit=201"), "400 invalid_field limit");
  EXPECT_EQ(refusal("limit=-1"), "400 invalid_field limit");
  EXPECT_EQ(refusal("limit="), "400 invalid_field limit");
  EXPECT_EQ(refusal("limit"), "400 invalid_field limit");
  EXPECT_EQ(refusal("limit=1.5"), "400 invalid_field limit");
  EXPECT_EQ(refusal("limit=10x"), "400 invalid_field limit");
  EXPECT_EQ(refusal("limit=+5"), "400 invalid_field limit");
  EXPECT_EQ(refusal("limit=99999999999999999999"), "400 invalid_field limit");
}

TEST(AdminListParams, OffsetBounds) {
  EXPECT_EQ(list("offset=0").offset, 0u);
  EXPECT_EQ(list("offset=1000000000000").offset, 1'000'000'000'000u);
  EXPECT_EQ(refusal("offset=1000000000001"), "400 invalid_field offset");
  EXPECT_EQ(refusal("offset=-1"), "400 invalid_field offset");
  EXPECT_EQ(refusal("offset=abc"), "400 invalid_field offset");
  EXPECT_EQ(list("limit=7&offset=14").limit, 7);
  EXPECT_EQ(list("limit=7&offset=14").offset, 14u);
}

TEST(AdminListParams, FiltersAreDecoded) {
  const auto p = list("status=pending&q=caf%C3%A9+bar&enabled=true");
  EXPECT_EQ(p.filter("status"), "pending");
  EXPECT_EQ(p.filter("q"), "caf\xC3\xA9 bar");
  EXPECT_EQ(p.bool_filter("enabled"), true);
  EXPECT_EQ(list("enabled=false").bool_filter("enabled"), false);
  EXPECT_EQ(list("").bool_filter("enabled"), std::nullopt);
  EXPECT_EQ(list("q=").filter("q"), "");
  // Empty pairs are skipped.
  EXPECT_EQ(list("&&status=x&").filter("status"), "x");
}

TEST(AdminListParams, BadBooleanNamesTheFilter) {
  try {
    (void)list("enabled=yes").bool_filter("enabled");
    FAIL() << "no error";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 400);
    EXPECT_EQ(e.code(), "invalid_field");
    EXPECT_EQ(e.field(), "enabled");
  }
}

TEST(AdminListParams, UnknownParameterIsNamed) {
  EXPECT_EQ(refusal("sort=id"), "400 invalid_field sort");
  EXPECT_EQ(refusal("status=x&Status=y"), "400 invalid_field Status");
  EXPECT_EQ(refusal("sta%74us=x"), "ok");  // a name may be percent-encoded
  EXPECT_EQ(refusal("lim%69t=0"), "400 invalid_field limit");
}

TEST(AdminListParams, RepeatedParameterIsNamed) {
  EXPECT_EQ(refusal("status=a&status=b"), "400 invalid_field status");
  EXPECT_EQ(refusal("limit=5&limit=5"), "400 invalid_field limit");
  EXPECT_EQ(refusal("q=a&q%3D=b"), "400 invalid_field q=");  // "q=" is another, unknown name
}

TEST(AdminListParams, BadlyEncodedParameterIsNamed) {
  EXPECT_EQ(refusal("q=%zz"), "400 invalid_field q");
  EXPECT_EQ(refusal("q=%4"), "400 invalid_field q");
  EXPECT_EQ(refusal("status=ok&q=100%"), "400 invalid_field q");
  EXPECT_EQ(refusal("%zz=1"), "400 invalid_field query");
}

// Found by fuzzing (tests/fuzz/fuzz_cookies_query.cpp): a parameter without a name ("=x",
// "%3D" decoded is not empty) was refused with an empty field, so the answer named nothing.
TEST(AdminListParams, NamelessParameterNamesTheQuery) {
  EXPECT_EQ(refusal("=l/"), "400 invalid_field query");
  EXPECT_EQ(refusal("status=a&="), "400 invalid_field query");
  try {
    parse_query_params(with_query("=x"), {"from"});
    FAIL() << "no error";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.field(), "query");
  }
}

TEST(AdminQueryParams, OnlyTheAllowedOnes) {
  const auto p = parse_query_params(with_query("from=2026-01-01&to=2026-01-31"), {"from", "to"});
  EXPECT_EQ(p.at("from"), "2026-01-01");
  EXPECT_EQ(p.at("to"), "2026-01-31");
  EXPECT_TRUE(parse_query_params(with_query(""), {}).empty());
  try {
    parse_query_params(with_query("limit=5"), {"from"});
    FAIL() << "no error";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.field(), "limit");
  }
  try {
    parse_query_params(with_query("from=a&from=b"), {"from"});
    FAIL() << "no error";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.field(), "from");
  }
}

}  // namespace

namespace {

struct NumberPage {
  std::vector<int> items;
  std::uint64_t total = 0;
};

}  // namespace

TEST(ListParams, PageResponseWritesItemsTotalLimitAndOffset) {
  placard::admin::ListParams p;
  p.limit = 2;
  p.offset = 4;
  const NumberPage page{{7, 8}, 9};
  const auto r = placard::admin::page_response(
      page, p, [](int n) { return "{\"n\":" + std::to_string(n) + "}"; });
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"items":[{"n":7},{"n":8}],"total":9,"limit":2,"offset":4})");
}
