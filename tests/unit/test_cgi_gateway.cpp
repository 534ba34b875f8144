#include "lib/http/cgi_gateway.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using placard::http::Request;
using placard::http::Response;

// Builds a NULL-terminated envp from "NAME=value" strings (kept alive by the fixture).
struct Envp {
  explicit Envp(std::vector<std::string> entries) : strings(std::move(entries)) {
    for (auto& s : strings) pointers.push_back(s.data());
    pointers.push_back(nullptr);
  }
  char** get() { return pointers.data(); }
  std::vector<std::string> strings;
  std::vector<char*> pointers;
};

TEST(CgiGateway, RequestFromFastCgiParams) {
  Envp env({"REQUEST_METHOD=POST", "REQUEST_URI=/api/v1/offers/query?x=1&t=a%2Bb",
            "SCRIPT_NAME=/api", "PATH_INFO=/v1/offers/query", "QUERY_STRING=ignored",
            "CONTENT_TYPE=application/json; charset=utf-8", "CONTENT_LENGTH=42",
            "HTTP_ORIGIN=chrome-extension://abc", "HTTP_IF_NONE_MATCH=\"e1\"",
            "HTTP_X_REQUEST_ID=client-id-1", "REMOTE_ADDR=127.0.0.1", "HTTPS=on", "NOT_A_PAIR"});
  const Request r = placard::http::request_from_envp(env.get());
  EXPECT_EQ(r.method, "POST");
  EXPECT_EQ(r.path, "/api/v1/offers/query");  // from REQUEST_URI, never SCRIPT_NAME/PATH_INFO
  EXPECT_EQ(r.query, "x=1&t=a%2Bb");
  EXPECT_EQ(r.header("content-type"), "application/json; charset=utf-8");
  ASSERT_TRUE(r.content_length.has_value());
  EXPECT_EQ(*r.content_length, 42U);
  EXPECT_EQ(r.header("origin"), "chrome-extension://abc");
  EXPECT_EQ(r.header("if-none-match"), "\"e1\"");
  EXPECT_EQ(r.header("x-request-id"), "client-id-1");
  EXPECT_EQ(r.remote_addr, "127.0.0.1");
  EXPECT_TRUE(r.https);
  EXPECT_EQ(r.query_param("t"), "a+b");
}

// The header prefix is matched byte by byte against the entry: entries shorter than it, or that
// only begin like it, are not headers; every header entry arrives, in order, however many.
TEST(CgiGateway, HeaderEntriesByTheirPrefixOnly) {
  std::vector<std::string> entries{
      "H",        "HTTP",         "HTTP=x",           "HTTPS=on",
      "HTTX_A=1", "http_lower=1", "HTTP_=empty-name", "CONTENT_TYPE=text/plain"};
  for (int i = 0; i < 40; ++i)
    entries.push_back("HTTP_X_H" + std::to_string(i) + "=v" + std::to_string(i));
  Envp env(entries);
  const Request r = placard::http::request_from_envp(env.get());
  ASSERT_EQ(r.headers.size(), 42U);
  EXPECT_EQ(r.headers[0].name, "");
  EXPECT_EQ(r.headers[0].value, "empty-name");
  EXPECT_EQ(r.headers[1].name, "content-type");
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(r.headers[static_cast<std::size_t>(i) + 2].name, "x-h" + std::to_string(i));
    EXPECT_EQ(r.header("x-h" + std::to_string(i)), "v" + std::to_string(i));
  }
  EXPECT_TRUE(r.https);
}

TEST(CgiGateway, PlainCgiWithoutRequestUriUsesScriptNameAndPathInfo) {
  Envp env({"REQUEST_METHOD=GET", "SCRIPT_NAME=/cgi/placard", "PATH_INFO=/api/v1/config",
            "QUERY_STRING=a=b"});
  const Request r = placard::http::request_from_envp(env.get());
  EXPECT_EQ(r.path, "/cgi/placard/api/v1/config");
  EXPECT_EQ(r.query, "a=b");
  EXPECT_FALSE(r.content_length.has_value());
  EXPECT_FALSE(r.https);
}

TEST(CgiGateway, MalformedContentLengthIsIgnored) {
  for (const char* bad : {"CONTENT_LENGTH=12abc", "CONTENT_LENGTH=-1", "CONTENT_LENGTH="}) {
    Envp env({"REQUEST_METHOD=POST", bad});
    EXPECT_FALSE(placard::http::request_from_envp(env.get()).content_length.has_value()) << bad;
  }
}

TEST(CgiGateway, RenderResponseHasStatusHeadersLengthAndBody) {
  Response r = Response::json(422, R"({"error":{}})");
  r.set_header("X-Request-Id", "abc");
  EXPECT_EQ(placard::http::render_response(r, false),
            "Status: 422 Unprocessable Entity\r\n"
            "Content-Type: application/json; charset=utf-8\r\n"
            "X-Request-Id: abc\r\n"
            "Content-Length: 12\r\n"
            "\r\n"
            R"({"error":{}})");
}

TEST(CgiGateway, HeadKeepsLengthButDropsBody) {
  const Response r = Response::json(200, "{\"a\":1}");
  const std::string out = placard::http::render_response(r, true);
  EXPECT_NE(out.find("Content-Length: 7\r\n"), std::string::npos);
  EXPECT_EQ(out.substr(out.size() - 4), "\r\n\r\n");
}

TEST(CgiGateway, NoContentAndNotModifiedHaveNoBodyOrLength) {
  for (int status : {204, 304}) {
    Response r = Response::empty(status);
    r.body = "ignored";
    const std::string out = placard::http::render_response(r, false);
    EXPECT_EQ(out.find("Content-Length"), std::string::npos) << status;
    EXPECT_EQ(out.substr(out.size() - 4), "\r\n\r\n") << status;
  }
}

TEST(CgiGateway, RequestIdKeepsSaneCallerIdAndReplacesOthers) {
  placard::util::FastRng rng(7);
  Request r;
  r.headers.push_back({"x-request-id", "trace-42.a_b"});
  EXPECT_EQ(placard::http::choose_request_id(r, rng), "trace-42.a_b");
  for (const std::string& bad :
       std::vector<std::string>{"", "has space", "quote\"", std::string(65, 'a'), "new\nline"}) {
    Request b;
    b.headers.push_back({"x-request-id", bad});
    const std::string id = placard::http::choose_request_id(b, rng);
    EXPECT_NE(id, bad);
    EXPECT_EQ(id.size(), 16U);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
  }
  Request none;
  EXPECT_NE(placard::http::choose_request_id(none, rng),
            placard::http::choose_request_id(none, rng));
  // The random id is the generator's next number in 16 hex digits, leading zeros kept.
  placard::util::FastRng a(11);
  placard::util::FastRng b(11);
  for (int i = 0; i < 100; ++i) {
    char want[17];
    std::snprintf(want, sizeof want, "%016llx", static_cast<unsigned long long>(a.next()));
    EXPECT_EQ(placard::http::choose_request_id(none, b), want);
  }
}

}  // namespace
