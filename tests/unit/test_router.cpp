#include "lib/http/router.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lib/http/api_error.h"
#include "lib/http/request.h"
#include "lib/http/response.h"

namespace {

using placard::http::ApiError;
using placard::http::percent_decode;
using placard::http::Request;
using placard::http::Response;
using placard::http::Router;
using placard::http::split_path;

Request make_request(std::string method, std::string path, std::string query = {}) {
  Request r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.query = std::move(query);
  return r;
}

// A handler that answers its own name in the body, so the test sees which one ran.
Router::Handler named(const std::string& name) {
  return [name](Request&) { return Response::json(200, name); };
}

Router sample_router() {
  Router r;
  r.add("GET", "/api/v1/config", named("config"));
  r.add("GET", "/api/v1/categories", named("categories"));
  r.add("POST", "/api/v1/offers/query", named("query"));
  r.add("GET", "/r/click/:offerId", named("click"));
  r.add("GET", "/admin/api/v1/placements/:name", named("placement-get"));
  r.add("PATCH", "/admin/api/v1/placements/:name", named("placement-patch"));
  r.add("DELETE", "/admin/api/v1/placements/:name", named("placement-delete"));
  r.add("POST", "/admin/api/v1/accounts/:id/approve", named("approve"));
  r.add("GET", "/admin/api/v1/categories/:a/items/:b", named("two-params"));
  return r;
}

// Runs dispatch and returns the ApiError it throws; fails the test if it does not throw one.
std::optional<ApiError> dispatch_error(const Router& router, Request& request) {
  try {
    router.dispatch(request);
  } catch (const ApiError& e) {
    return e;
  }
  ADD_FAILURE() << request.method << " " << request.path << " did not throw ApiError";
  return std::nullopt;
}

TEST(HttpRouter, StaticRoutesRunTheirOwnHandler) {
  const Router router = sample_router();
  auto config = make_request("GET", "/api/v1/config");
  EXPECT_EQ(router.dispatch(config).body, "config");
  auto categories = make_request("GET", "/api/v1/categories");
  EXPECT_EQ(router.dispatch(categories).body, "categories");
  auto query = make_request("POST", "/api/v1/offers/query");
  const Response r = router.dispatch(query);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "query");
  EXPECT_TRUE(query.params.empty());
}

TEST(HttpRouter, ParamSegmentIsCaptured) {
  const Router router = sample_router();
  auto req = make_request("GET", "/r/click/1042");
  EXPECT_EQ(router.dispatch(req).body, "click");
  ASSERT_EQ(req.params.size(), 1u);
  EXPECT_EQ(req.params[0].first, "offerId");
  EXPECT_EQ(req.params[0].second, "1042");
  EXPECT_EQ(req.param("offerId"), "1042");
  EXPECT_EQ(req.param("other"), "");
}

TEST(HttpRouter, ParamIsNotDecodedAndKeepsItsBytes) {
  const Router router = sample_router();
  auto req = make_request("GET", "/r/click/a%2Fb");
  EXPECT_EQ(router.dispatch(req).body, "click");
  EXPECT_EQ(req.param("offerId"), "a%2Fb");
}

TEST(HttpRouter, ParamInTheMiddleAndSeveralParams) {
  const Router router = sample_router();
  auto approve = make_request("POST", "/admin/api/v1/accounts/77/approve");
  EXPECT_EQ(router.dispatch(approve).body, "approve");
  EXPECT_EQ(approve.param("id"), "77");

  auto two = make_request("GET", "/admin/api/v1/categories/electronics/items/9");
  EXPECT_EQ(router.dispatch(two).body, "two-params");
  ASSERT_EQ(two.params.size(), 2u);
  EXPECT_EQ(two.param("a"), "electronics");
  EXPECT_EQ(two.param("b"), "9");
}

TEST(HttpRouter, StaleParamsAreReplacedOnDispatch) {
  const Router router = sample_router();
  auto req = make_request("GET", "/r/click/5");
  req.params.emplace_back("offerId", "stale");
  router.dispatch(req);
  ASSERT_EQ(req.params.size(), 1u);
  EXPECT_EQ(req.param("offerId"), "5");
}

TEST(HttpRouter, HeadIsAnsweredByTheGetHandler) {
  const Router router = sample_router();
  std::string seen_method;
  Router r;
  r.add("GET", "/x/:id", [&](Request& q) {
    seen_method = q.method;
    return Response::json(200, "get:" + std::string(q.param("id")));
  });
  auto head = make_request("HEAD", "/x/3");
  EXPECT_EQ(r.dispatch(head).body, "get:3");
  EXPECT_EQ(seen_method, "HEAD");  // the handler can tell it must not send a body

  auto click = make_request("HEAD", "/r/click/8");
  EXPECT_EQ(router.dispatch(click).body, "click");
  EXPECT_EQ(click.param("offerId"), "8");
}

TEST(HttpRouter, HeadOnAPostOnlyPathIs405) {
  const Router router = sample_router();
  auto req = make_request("HEAD", "/api/v1/offers/query");
  const auto e = dispatch_error(router, req);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 405);
  EXPECT_EQ(e->code(), "method_not_allowed");
  ASSERT_EQ(e->headers().size(), 1u);
  EXPECT_EQ(e->headers()[0].name, "Allow");
  EXPECT_EQ(e->headers()[0].value, "POST");
}

TEST(HttpRouter, UnknownPathIs404NotFound) {
  const Router router = sample_router();
  for (const char* path : {"/", "", "/api", "/api/v1", "/api/v1/confi", "/api/v1/config/extra",
                           "/API/v1/config", "/r/click", "/api/v2/config", "/nothing/here"}) {
    auto req = make_request("GET", path);
    const auto e = dispatch_error(router, req);
    ASSERT_TRUE(e.has_value()) << path;
    EXPECT_EQ(e->status(), 404) << path;
    EXPECT_EQ(e->code(), "not_found") << path;
    EXPECT_TRUE(e->headers().empty()) << path;
  }
}

TEST(HttpRouter, UnknownPathWithAnUnusualMethodIsStill404) {
  const Router router = sample_router();
  auto req = make_request("DELETE", "/no/such/path");
  const auto e = dispatch_error(router, req);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 404);
  EXPECT_EQ(e->code(), "not_found");
}

TEST(HttpRouter, WrongMethodIs405WithAllowListingThePathsMethods) {
  const Router router = sample_router();
  {
    auto req = make_request("POST", "/api/v1/config");
    const auto e = dispatch_error(router, req);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->status(), 405);
    EXPECT_EQ(e->code(), "method_not_allowed");
    ASSERT_EQ(e->headers().size(), 1u);
    EXPECT_EQ(e->headers()[0].name, "Allow");
    EXPECT_EQ(e->headers()[0].value, "GET, HEAD");
  }
  {
    auto req = make_request("GET", "/api/v1/offers/query");
    const auto e = dispatch_error(router, req);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->status(), 405);
    ASSERT_EQ(e->headers().size(), 1u);
    EXPECT_EQ(e->headers()[0].value, "POST");
  }
  {
    auto req = make_request("PUT", "/admin/api/v1/placements/sidebar");
    const auto e = dispatch_error(router, req);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->status(), 405);
    ASSERT_EQ(e->headers().size(), 1u);
    EXPECT_EQ(e->headers()[0].value, "GET, HEAD, PATCH, DELETE");
  }
}

TEST(HttpRouter, MethodsAreCaseSensitive) {
  const Router router = sample_router();
  auto req = make_request("get", "/api/v1/config");
  const auto e = dispatch_error(router, req);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 405);
}

TEST(HttpRouter, TrailingSlashDoesNotMatchParam) {
  const Router router = sample_router();
  for (const char* path : {"/r/click/", "/admin/api/v1/placements/"}) {
    auto req = make_request("GET", path);
    const auto e = dispatch_error(router, req);
    ASSERT_TRUE(e.has_value()) << path;
    EXPECT_EQ(e->status(), 404) << path;
    EXPECT_EQ(e->code(), "not_found") << path;
  }
}

TEST(HttpRouter, TrailingSlashDoesNotMatchStaticRoute) {
  const Router router = sample_router();
  auto req = make_request("GET", "/api/v1/config/");
  const auto e = dispatch_error(router, req);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status(), 404);
}

TEST(HttpRouter, EmptySegmentsDoNotMatchParam) {
  const Router router = sample_router();
  for (const char* path :
       {"/admin/api/v1/accounts//approve", "/admin/api/v1/categories//items/9",
        "/admin/api/v1/categories/x/items/", "/r/click//", "/r//click/5", "//r/click/5"}) {
    auto req = make_request("GET", path);
    const auto e = dispatch_error(router, req);
    ASSERT_TRUE(e.has_value()) << path;
    EXPECT_EQ(e->status(), 404) << path;
    EXPECT_TRUE(req.params.empty()) << path;
  }
}

TEST(HttpRouter, AllowedMethods) {
  const Router router = sample_router();
  EXPECT_EQ(router.allowed_methods("/api/v1/config"), (std::vector<std::string>{"GET", "HEAD"}));
  EXPECT_EQ(router.allowed_methods("/api/v1/offers/query"), (std::vector<std::string>{"POST"}));
  EXPECT_EQ(router.allowed_methods("/admin/api/v1/placements/x"),
            (std::vector<std::string>{"GET", "HEAD", "PATCH", "DELETE"}));
  EXPECT_EQ(router.allowed_methods("/r/click/1"), (std::vector<std::string>{"GET", "HEAD"}));
  EXPECT_TRUE(router.allowed_methods("/r/click/").empty());
  EXPECT_TRUE(router.allowed_methods("/unknown").empty());
}

TEST(HttpRouter, AllowedMethodsAreNotRepeatedAcrossPatterns) {
  Router r;
  r.add("POST", "/items/:id", named("post-param"));
  r.add("GET", "/items/:id", named("get-param"));
  r.add("GET", "/items/special", named("get-static"));
  r.add("DELETE", "/items/special", named("delete-static"));
  EXPECT_EQ(r.allowed_methods("/items/special"),
            (std::vector<std::string>{"POST", "GET", "HEAD", "DELETE"}));
  EXPECT_EQ(r.allowed_methods("/items/7"), (std::vector<std::string>{"POST", "GET", "HEAD"}));
  // The first registered matching route with the right method wins.
  auto req = make_request("GET", "/items/special");
  EXPECT_EQ(r.dispatch(req).body, "get-param");
  auto del = make_request("DELETE", "/items/special");
  EXPECT_EQ(r.dispatch(del).body, "delete-static");
  auto del7 = make_request("DELETE", "/items/7");
  try {
    r.dispatch(del7);
    ADD_FAILURE() << "expected 405";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 405);
    ASSERT_EQ(e.headers().size(), 1u);
    EXPECT_EQ(e.headers()[0].value, "POST, GET, HEAD");
  }
}

TEST(HttpRouter, HandlerErrorsPropagate) {
  Router r;
  r.add("GET", "/boom", [](Request&) -> Response { throw ApiError(409, "conflict", "no"); });
  auto req = make_request("GET", "/boom");
  try {
    r.dispatch(req);
    ADD_FAILURE() << "expected the handler's error";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status(), 409);
    EXPECT_EQ(e.code(), "conflict");
  }
}

TEST(HttpRouter, SplitPath) {
  EXPECT_EQ(split_path("/a/b"), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(split_path("/a/b/"), (std::vector<std::string_view>{"a", "b", ""}));
  EXPECT_EQ(split_path("/a//b"), (std::vector<std::string_view>{"a", "", "b"}));
  EXPECT_EQ(split_path("/"), (std::vector<std::string_view>{""}));
}

// ---- Request::query_param and percent_decode ----

TEST(HttpRequestQuery, PlainValue) {
  const auto r = make_request("GET", "/r/click/1", "t=abc123");
  EXPECT_EQ(r.query_param("t"), std::optional<std::string>("abc123"));
}

TEST(HttpRequestQuery, PercentDecoding) {
  const auto r = make_request("GET", "/", "q=a%20b%2Fc%3d%3D%25&u=%C3%A9");
  EXPECT_EQ(r.query_param("q"), std::optional<std::string>("a b/c==%"));
  EXPECT_EQ(r.query_param("u"), std::optional<std::string>("\xC3\xA9"));
}

TEST(HttpRequestQuery, PlusIsSpace) {
  const auto r = make_request("GET", "/", "q=a+b++c&p=%2B");
  EXPECT_EQ(r.query_param("q"), std::optional<std::string>("a b  c"));
  EXPECT_EQ(r.query_param("p"), std::optional<std::string>("+"));
}

TEST(HttpRequestQuery, KeyIsDecodedToo) {
  const auto r = make_request("GET", "/", "gr%6fupBy=day&a+b=2");
  EXPECT_EQ(r.query_param("groupBy"), std::optional<std::string>("day"));
  EXPECT_EQ(r.query_param("a b"), std::optional<std::string>("2"));
}

TEST(HttpRequestQuery, MissingIsNullopt) {
  const auto r = make_request("GET", "/", "a=1&bb=2&tt=3");
  EXPECT_EQ(r.query_param("b"), std::nullopt);
  EXPECT_EQ(r.query_param("t"), std::nullopt);
  EXPECT_EQ(r.query_param("a=1"), std::nullopt);
  const auto empty = make_request("GET", "/", "");
  EXPECT_EQ(empty.query_param("t"), std::nullopt);
  EXPECT_EQ(empty.query_param(""), std::nullopt);
}

TEST(HttpRequestQuery, PresentWithoutValueIsEmptyString) {
  const auto r = make_request("GET", "/", "a&b=&c=3");
  EXPECT_EQ(r.query_param("a"), std::optional<std::string>(""));
  EXPECT_EQ(r.query_param("b"), std::optional<std::string>(""));
  EXPECT_EQ(r.query_param("c"), std::optional<std::string>("3"));
}

TEST(HttpRequestQuery, ValueMayContainEquals) {
  const auto r = make_request("GET", "/", "t=ab==&x=1");
  EXPECT_EQ(r.query_param("t"), std::optional<std::string>("ab=="));
}

TEST(HttpRequestQuery, EmptyPairsAreSkipped) {
  const auto r = make_request("GET", "/", "&&t=1&&");
  EXPECT_EQ(r.query_param("t"), std::optional<std::string>("1"));
}

TEST(HttpRequestQuery, BrokenEscapesAreNullopt) {
  for (const char* q : {"t=%", "t=%4", "t=%zz", "t=%4g", "t=a%", "t=a%2", "t=%%41", "t=%G1"}) {
    const auto r = make_request("GET", "/", q);
    EXPECT_EQ(r.query_param("t"), std::nullopt) << q;
  }
}

TEST(HttpRequestQuery, BrokenEscapeElsewhereDoesNotHideAGoodParam) {
  const auto r = make_request("GET", "/", "x=%zz&%q=1&t=ok");
  EXPECT_EQ(r.query_param("t"), std::optional<std::string>("ok"));
  EXPECT_EQ(r.query_param("x"), std::nullopt);
}

TEST(HttpRequestQuery, FirstValueWins) {
  const auto r = make_request("GET", "/", "t=first&t=second&t=third");
  EXPECT_EQ(r.query_param("t"), std::optional<std::string>("first"));
  const auto encoded_key = make_request("GET", "/", "%74=one&t=two");
  EXPECT_EQ(encoded_key.query_param("t"), std::optional<std::string>("one"));
}

TEST(HttpRequestQuery, FirstValueWinsEvenWhenItIsBroken) {
  const auto r = make_request("GET", "/", "t=%zz&t=ok");
  EXPECT_EQ(r.query_param("t"), std::nullopt);
}

TEST(HttpPercentDecode, PlusHandlingDependsOnFlag) {
  EXPECT_EQ(percent_decode("a+b", true), std::optional<std::string>("a b"));
  EXPECT_EQ(percent_decode("a+b", false), std::optional<std::string>("a+b"));
  EXPECT_EQ(percent_decode("", true), std::optional<std::string>(""));
  EXPECT_EQ(percent_decode("%00", true), std::optional<std::string>(std::string(1, '\0')));
  EXPECT_EQ(percent_decode("%fF%Ff", false), std::optional<std::string>("\xff\xff"));
  EXPECT_EQ(percent_decode("%41", false), std::optional<std::string>("A"));
  EXPECT_EQ(percent_decode("%4", false), std::nullopt);
}

// ---- Request::load_body ----

TEST(HttpRequestBody, LoadBodyCallsReaderOnceWithContentLength) {
  Request r = make_request("POST", "/api/v1/offers/query");
  int calls = 0;
  std::size_t asked = 0;
  r.content_length = 11;
  r.body_reader = [&](std::size_t n) {
    ++calls;
    asked = n;
    return std::string("{\"a\":12345}").substr(0, n);
  };
  EXPECT_EQ(r.load_body(), "{\"a\":12345}");
  EXPECT_EQ(r.load_body(), "{\"a\":12345}");
  EXPECT_EQ(r.body, "{\"a\":12345}");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(asked, 11u);
}

TEST(HttpRequestBody, ShortReadIsKeptAsIs) {
  Request r = make_request("POST", "/");
  r.content_length = 100;
  r.body_reader = [](std::size_t) { return std::string("{}"); };
  EXPECT_EQ(r.load_body(), "{}");
}

TEST(HttpRequestBody, ZeroOrMissingContentLengthDoesNotRead) {
  int calls = 0;
  Request zero = make_request("POST", "/");
  zero.content_length = 0;
  zero.body_reader = [&](std::size_t) {
    ++calls;
    return std::string("x");
  };
  EXPECT_EQ(zero.load_body(), "");

  Request missing = make_request("POST", "/");
  missing.body_reader = [&](std::size_t) {
    ++calls;
    return std::string("x");
  };
  EXPECT_EQ(missing.load_body(), "");
  EXPECT_EQ(calls, 0);
}

TEST(HttpRequestBody, NoReaderKeepsBodySetByTest) {
  Request r = make_request("POST", "/");
  r.body = "{\"preset\":true}";
  r.content_length = 15;
  EXPECT_EQ(r.load_body(), "{\"preset\":true}");
}

TEST(HttpRequestHeaders, LowerCaseLookup) {
  Request r = make_request("GET", "/");
  r.headers.push_back({"content-type", "application/json"});
  r.headers.push_back({"accept", "text/html"});
  r.headers.push_back({"accept", "second"});
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(r.header("accept"), "text/html");
  EXPECT_TRUE(r.has("accept"));
  EXPECT_FALSE(r.has("origin"));
  EXPECT_EQ(r.header("origin"), "");
}

}  // namespace

namespace {

TEST(Router, RoutesListsEveryMethodAndPatternInOrder) {
  Router r;
  r.add("GET", "/api/v1/config", named("config"));
  r.add("POST", "/admin/api/v1/accounts/:id/revoke", named("revoke"));
  r.add("GET", "/", named("root"));
  using Pair = std::pair<std::string, std::string>;
  EXPECT_EQ(r.routes(), (std::vector<Pair>{{"GET", "/api/v1/config"},
                                           {"POST", "/admin/api/v1/accounts/:id/revoke"},
                                           {"GET", "/"}}));
}

}  // namespace
