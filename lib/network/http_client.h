#pragma once
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lib/crypto/secret_string.h"

namespace placard::network {

inline constexpr const char* kProductVersion = "1.0.0";
inline constexpr std::size_t kDefaultMaxAnswerBytes = std::size_t{8} * 1024 * 1024;

// Its header values and body carry credentials and tokens: wiped (OPENSSL_cleanse) when it is
// destroyed.
struct HttpRequest {
  std::string method = "GET";  // GET or POST
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // name, value
  std::string body;                                          // POST only

  HttpRequest() = default;
  HttpRequest(std::string m, std::string u, std::vector<std::pair<std::string, std::string>> h,
              std::string b)
      : method(std::move(m)), url(std::move(u)), headers(std::move(h)), body(std::move(b)) {}
  HttpRequest(const HttpRequest&) = default;
  HttpRequest(HttpRequest&&) = default;
  HttpRequest& operator=(const HttpRequest&) = default;
  HttpRequest& operator=(HttpRequest&&) = default;
  ~HttpRequest();
};

// Adds `Authorization: Bearer <token>` without leaving a copy of the token behind.
void bearer_header(HttpRequest& request, const crypto::SecretString& token);

struct HttpResponse {
  int status = 0;
  std::string body;
  std::optional<long> retry_after_seconds;  // the Retry-After header, when given in seconds
};

// The request did not get an answer: refused by policy, timeout, TLS, connection, or an answer
// over the size cap. `what()` is a sentence for a person: no secret, no raw body.
class HttpError : public std::runtime_error {
 public:
  enum class Kind { refused, timeout, connection, tls, too_large, other };
  HttpError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// Outgoing HTTP for the network adapters, behind an interface so adapters are tested with a fake.
class HttpClient {
 public:
  virtual ~HttpClient() = default;
  // Any HTTP status is an answer (the caller judges it); no answer throws HttpError.
  virtual HttpResponse send(const HttpRequest& request) = 0;
};

struct HttpClientOptions {
  int timeout_seconds = 30;  // the whole exchange; connecting takes at most this too
  std::string ca_file;       // an extra CA bundle (PEM), besides the system's; empty: none
  std::size_t max_answer_bytes = kDefaultMaxAnswerBytes;
};

// libcurl: certificates always verified, only http/https (http only to loopback hosts), no
// redirects followed, gzip accepted, User-Agent Placard/<version>, answers capped in size.
// One per thread (a curl easy handle is not shared).
class CurlHttpClient : public HttpClient {
 public:
  explicit CurlHttpClient(HttpClientOptions options);
  ~CurlHttpClient() override;
  CurlHttpClient(const CurlHttpClient&) = delete;
  CurlHttpClient& operator=(const CurlHttpClient&) = delete;

  HttpResponse send(const HttpRequest& request) override;

 private:
  HttpClientOptions options_;
  void* handle_;  // CURL*, kept out of this header
};

}  // namespace placard::network
