#include "lib/http/response.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/http/api_error.h"
#include "lib/http/cgi_gateway.h"

namespace {

// Item 12: a header can never carry CR or LF into the response.
TEST(ResponseHeaders, CrLfAndNulAreImpossible) {
  placard::http::Response r = placard::http::Response::json(200, "{}");
  EXPECT_THROW(r.set_header("X-Test", "a\r\nSet-Cookie: x=1"), std::invalid_argument);
  EXPECT_THROW(r.set_header("X-Test", "a\nb"), std::invalid_argument);
  EXPECT_THROW(r.set_header("X-Test", std::string("a\0b", 3)), std::invalid_argument);
  EXPECT_THROW(r.set_header("X-Te\rst", "a"), std::invalid_argument);
  EXPECT_FALSE(r.has("X-Test"));
  // Added around set_header (the vector is public): left out of the response head.
  r.headers.push_back({"X-Evil", "a\r\nSet-Cookie: x=1"});
  r.headers.push_back({"X-Fine", "b"});
  const auto head = placard::http::render_response_head(r);
  EXPECT_EQ(head.find("Set-Cookie"), std::string::npos) << head;
  EXPECT_EQ(head.find("X-Evil"), std::string::npos) << head;
  EXPECT_NE(head.find("X-Fine: b\r\n"), std::string::npos) << head;
}

// CR, LF and NUL are found wherever they stand, in long values too; nothing else is refused.
TEST(ResponseHeaders, BreakingBytesFoundAtEveryPosition) {
  const std::string clean(300, 'v');
  EXPECT_FALSE(placard::http::breaks_header(clean));
  EXPECT_FALSE(placard::http::breaks_header(""));
  EXPECT_FALSE(placard::http::breaks_header("\t \x7f\x80\xff"));
  for (const char bad : {'\r', '\n', '\0'}) {
    for (const std::size_t at :
         {std::size_t{0}, std::size_t{1}, std::size_t{150}, std::size_t{299}}) {
      std::string value = clean;
      value[at] = bad;
      EXPECT_TRUE(placard::http::breaks_header(value)) << int{bad} << " at " << at;
    }
  }
}

TEST(ResponseHeaders, ErrorsSayNosniffAndDropBrokenHeaders) {
  placard::http::ApiError e{500, "internal_error", "Internal error"};
  e.with_header("Retry-After", "1\r\nX-Injected: 1");
  const auto r = placard::http::render_error(e);
  EXPECT_EQ(r.header("X-Content-Type-Options"), "nosniff");
  EXPECT_FALSE(r.has("Retry-After"));
}

TEST(ResponseHead, StatusHeadersAndLengthAsWritten) {
  placard::http::Response r;
  r.status = 404;
  r.body = "abc";
  r.set_header("X-A", "b");
  EXPECT_EQ(placard::http::render_response_head(r),
            "Status: 404 Not Found\r\nX-A: b\r\nContent-Length: 3\r\n\r\n");
  r.status = 304;
  EXPECT_EQ(placard::http::render_response_head(r), "Status: 304 Not Modified\r\nX-A: b\r\n\r\n");
}

}  // namespace
