#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <string>
#include <thread>

#include "lib/network/http_client.h"
#include "lib/network/url_policy.h"

namespace {

using placard::network::allowed_url;
using placard::network::CurlHttpClient;
using placard::network::HttpError;
using placard::network::HttpRequest;
using placard::network::is_loopback_host;
using placard::network::url_host;

TEST(UrlPolicy, HostsAndLoopback) {
  EXPECT_EQ(url_host("https://API.Admitad.com/token/"), "api.admitad.com");
  EXPECT_EQ(url_host("http://127.0.0.1:8080/x?y"), "127.0.0.1");
  EXPECT_EQ(url_host("http://[::1]:9/"), "::1");
  EXPECT_EQ(url_host("http://user@host/"), "");
  EXPECT_EQ(url_host("ftp://host/"), "");
  for (const char* h : {"localhost", "::1", "127.0.0.1", "127.1.2.3", "127.255.255.255"}) {
    EXPECT_TRUE(is_loopback_host(h)) << h;
  }
  for (const char* h : {"128.0.0.1", "127.0.0", "127.0.0.256", "127.0.0.1.x", "localhost.x",
                        "0.0.0.0", "::2", "127.a.0.1", ""}) {
    EXPECT_FALSE(is_loopback_host(h)) << h;
  }
}

TEST(UrlPolicy, AllowedUrls) {
  for (const char* u : {"https://api.awin.com/publisher/1/promotions", "http://127.0.0.1:5/a",
                        "http://localhost/", "http://[::1]/", "HTTPS://x.example"}) {
    EXPECT_TRUE(allowed_url(u)) << u;
  }
  for (const char* u : {"http://api.awin.com/", "http://10.0.0.1/", "file:///etc/passwd",
                        "gopher://127.0.0.1/", "https://a b/", "https://x.example/\n",
                        "//x.example/", "https://user:pw@x.example/", "http://127.0.0.1@evil/"}) {
    EXPECT_FALSE(allowed_url(u)) << u;
  }
}

// One rule for manual and imported offers' tracking URLs (issue 22, item 11).
TEST(UrlPolicy, OfferUrls) {
  for (const char* u :
       {"https://shop.example/", "HTTP://shop.example:8080/a?b=c#d", "https://[2001:db8::1]/x",
        "https://ad.example/g/?ulp=https%3A%2F%2Fm%40x"}) {
    EXPECT_TRUE(placard::network::offer_url_allowed(u)) << u;
  }
  for (const char* u :
       {"https://shop.example@evil.example/", "https://u:p@shop.example/", "http://@shop.example/",
        "https://shop.example\\@evil.example/", "javascript:alert(1)", "//shop.example/",
        "https://", "https://a b/", "https://shop.example/\r\n", ""}) {
    EXPECT_FALSE(placard::network::offer_url_allowed(u)) << u;
  }
}

// One connection on 127.0.0.1: reads the request head (and a body of Content-Length), waits,
// answers `answer`, closes. The request received is kept.
class OneShotServer {
 public:
  explicit OneShotServer(std::string answer, std::chrono::milliseconds delay = {},
                         bool wait_for_request = true)
      : answer_(std::move(answer)), delay_(delay), wait_(wait_for_request) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    EXPECT_EQ(::listen(fd_, 1), 0);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~OneShotServer() {
    ::shutdown(fd_, SHUT_RDWR);
    thread_.join();
    ::close(fd_);
  }
  std::string url(const std::string& path = "/") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  int port() const { return port_; }
  const std::string& received() const { return received_; }

 private:
  void serve() {
    const int c = ::accept(fd_, nullptr, nullptr);
    if (c < 0) return;
    char buf[4096];
    std::size_t want = std::string::npos;
    while (wait_) {
      const auto n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      received_.append(buf, static_cast<std::size_t>(n));
      const auto head_end = received_.find("\r\n\r\n");
      if (head_end == std::string::npos) continue;
      if (want == std::string::npos) {
        const auto cl = received_.find("Content-Length: ");
        want =
            head_end + 4 +
            (cl == std::string::npos || cl > head_end ? 0 : std::stoul(received_.substr(cl + 16)));
      }
      if (received_.size() >= want) break;
    }
    std::this_thread::sleep_for(delay_);
    ::send(c, answer_.data(), answer_.size(), MSG_NOSIGNAL);
    ::close(c);
  }

  std::string answer_;
  std::chrono::milliseconds delay_;
  bool wait_;
  int fd_ = -1;
  int port_ = 0;
  std::string received_;
  std::thread thread_;
};

std::string answer(int status, const std::string& body, const std::string& extra = "") {
  return "HTTP/1.1 " + std::to_string(status) +
         " X\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n" +
         extra + "\r\n" + body;
}

std::string gzip(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(text.size() + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(CurlHttpClient, GetSendsHeadersAndUserAgent) {
  OneShotServer server(answer(200, "{\"ok\":true}"));
  CurlHttpClient client({5, "", 1024});
  HttpRequest r;
  r.url = server.url("/coupons/website/1/?limit=2&offset=0");
  r.headers = {{"Authorization", "Bearer abc"}};
  const auto resp = client.send(r);
  EXPECT_EQ(resp.status, 200);
  EXPECT_EQ(resp.body, "{\"ok\":true}");
  EXPECT_EQ(server.received().rfind("GET /coupons/website/1/?limit=2&offset=0 HTTP/1.1\r\n", 0), 0u)
      << server.received();
  EXPECT_NE(server.received().find("Authorization: Bearer abc\r\n"), std::string::npos);
  EXPECT_NE(server.received().find("User-Agent: Placard/"), std::string::npos);
  EXPECT_NE(server.received().find("Accept-Encoding: "), std::string::npos);
}

TEST(CurlHttpClient, PostBodyAndGzipAnswer) {
  const std::string body(5000, 'z');
  OneShotServer server(answer(201, gzip(body), "Content-Encoding: gzip\r\n"));
  CurlHttpClient client({5, "", 8000});
  HttpRequest r;
  r.method = "POST";
  r.url = server.url("/publisher/1/promotions");
  r.headers = {{"Content-Type", "application/json"}};
  r.body = "{\"filters\":{}}";
  const auto resp = client.send(r);
  EXPECT_EQ(resp.status, 201);
  EXPECT_EQ(resp.body, body);
  EXPECT_NE(server.received().find("\r\n\r\n{\"filters\":{}}"), std::string::npos);
}

TEST(CurlHttpClient, ErrorStatusIsAnAnswerWithRetryAfter) {
  OneShotServer server(answer(429, "{}", "Retry-After: 7\r\n"));
  CurlHttpClient client({5, "", 1024});
  const auto resp = client.send({"GET", server.url(), {}, ""});
  EXPECT_EQ(resp.status, 429);
  EXPECT_EQ(resp.retry_after_seconds, 7);
}

TEST(CurlHttpClient, RedirectsAreNotFollowed) {
  OneShotServer server(answer(302, "", "Location: http://127.0.0.1:1/elsewhere\r\n"));
  CurlHttpClient client({5, "", 1024});
  EXPECT_EQ(client.send({"GET", server.url(), {}, ""}).status, 302);
}

TEST(CurlHttpClient, AnswerOverTheCapIsAnError) {
  OneShotServer server(answer(200, std::string(5000, 'x')));
  CurlHttpClient client({5, "", 4096});
  try {
    client.send({"GET", server.url(), {}, ""});
    ADD_FAILURE() << "accepted";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.kind(), HttpError::Kind::too_large);
  }
}

TEST(CurlHttpClient, GzipBombIsCappedAfterDecoding) {
  OneShotServer server(answer(200, gzip(std::string(100000, 'x')), "Content-Encoding: gzip\r\n"));
  CurlHttpClient client({5, "", 4096});
  try {
    client.send({"GET", server.url(), {}, ""});
    ADD_FAILURE() << "accepted";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.kind(), HttpError::Kind::too_large);
  }
}

TEST(CurlHttpClient, SlowAnswerTimesOut) {
  OneShotServer server(answer(200, "late"), std::chrono::milliseconds(2500));
  CurlHttpClient client({1, "", 1024});
  const auto start = std::chrono::steady_clock::now();
  try {
    client.send({"GET", server.url(), {}, ""});
    ADD_FAILURE() << "accepted";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.kind(), HttpError::Kind::timeout);
    EXPECT_NE(std::string(e.what()).find("127.0.0.1"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(2400));
}

TEST(CurlHttpClient, PlainHttpToAnotherHostIsRefusedBeforeConnecting) {
  CurlHttpClient client({1, "", 1024});
  for (const char* url : {"http://api.admitad.com/token/", "http://10.1.2.3/", "file:///etc/hosts",
                          "http://localhost.example/"}) {
    try {
      client.send({"GET", url, {}, ""});
      ADD_FAILURE() << "accepted " << url;
    } catch (const HttpError& e) {
      EXPECT_EQ(e.kind(), HttpError::Kind::refused) << url;
    }
  }
}

TEST(CurlHttpClient, HttpsCertificateIsVerified) {
  // A plain-text server on loopback: TLS cannot be set up, and nothing is accepted unverified.
  OneShotServer server(answer(200, "not tls"), {}, false);
  CurlHttpClient client({3, "", 1024});
  try {
    client.send({"GET", "https://127.0.0.1:" + std::to_string(server.port()) + "/", {}, ""});
    ADD_FAILURE() << "accepted";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.kind(), HttpError::Kind::tls) << e.what();
  }
}

TEST(CurlHttpClient, ConnectionRefused) {
  int port = 0;
  {
    OneShotServer server(answer(200, ""));
    port = server.port();
    CurlHttpClient warm({1, "", 1024});
    warm.send({"GET", server.url(), {}, ""});
  }
  CurlHttpClient client({1, "", 1024});
  try {
    client.send({"GET", "http://127.0.0.1:" + std::to_string(port) + "/", {}, ""});
    ADD_FAILURE() << "accepted";
  } catch (const HttpError& e) {
    EXPECT_EQ(e.kind(), HttpError::Kind::connection) << e.what();
  }
}

}  // namespace
