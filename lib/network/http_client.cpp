#include "lib/network/http_client.h"

#include <curl/curl.h>

#include <memory>

#include "lib/network/url_policy.h"

namespace placard::network {

HttpRequest::~HttpRequest() {
  for (auto& h : headers) crypto::wipe(h.second);
  crypto::wipe(body);
}

void bearer_header(HttpRequest& request, const crypto::SecretString& token) {
  std::string value;
  value.reserve(7 + token.size());
  value.append("Bearer ").append(token.view());
  request.headers.emplace_back("Authorization", std::move(value));
  crypto::wipe(value);  // NOLINT(bugprone-use-after-move): what a short string left behind
}

namespace {

struct SlistDeleter {
  void operator()(curl_slist* l) const noexcept { curl_slist_free_all(l); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

struct Sink {
  std::string* body;
  std::size_t cap;
  bool overflow = false;
};

extern "C" std::size_t write_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const std::size_t bytes = size * n;
  if (sink->body->size() + bytes > sink->cap) {
    sink->overflow = true;
    return 0;  // aborts the transfer with CURLE_WRITE_ERROR
  }
  sink->body->append(data, bytes);
  return bytes;
}

HttpError transport_error(CURLcode code, const std::string& host, const Sink& sink) {
  using K = HttpError::Kind;
  if (sink.overflow || code == CURLE_FILESIZE_EXCEEDED) {
    return {K::too_large, "The answer of " + host + " was larger than allowed"};
  }
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return {K::timeout, host + " did not answer in time"};
    case CURLE_COULDNT_RESOLVE_HOST:
      return {K::connection, host + " could not be found (DNS)"};
    case CURLE_COULDNT_CONNECT:
      return {K::connection, host + " refused the connection"};
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
      return {K::tls, "The TLS connection to " + host + " failed (certificate not trusted?)"};
    case CURLE_UNSUPPORTED_PROTOCOL:
      return {K::refused, "The address of " + host + " uses a protocol that is not allowed"};
    default:
      return {K::other,
              std::string("The request to ") + host + " failed: " + curl_easy_strerror(code)};
  }
}

}  // namespace

CurlHttpClient::CurlHttpClient(HttpClientOptions options)
    : options_(std::move(options)), handle_(curl_easy_init()) {
  if (handle_ == nullptr) throw std::runtime_error("libcurl cannot make a handle");
}

CurlHttpClient::~CurlHttpClient() {
  curl_easy_cleanup(static_cast<CURL*>(handle_));
}

HttpResponse CurlHttpClient::send(const HttpRequest& request) {
  const std::string host = url_host(request.url);
  if (!allowed_url(request.url)) {
    throw HttpError(HttpError::Kind::refused,
                    "Refused to contact " + (host.empty() ? std::string("that address") : host) +
                        ": only https, or http to this machine, is allowed");
  }
  if (request.method != "GET" && request.method != "POST") {
    throw std::invalid_argument("CurlHttpClient: GET or POST only");
  }
  CURL* c = static_cast<CURL*>(handle_);
  curl_easy_reset(c);
  HttpResponse response;
  Sink sink{&response.body, options_.max_answer_bytes};
  Slist headers;
  for (const auto& [name, value] : request.headers) {
    std::string line = name;
    line.append(": ").append(value);
    curl_slist* next = curl_slist_append(headers.get(), line.c_str());
    if (next == nullptr) throw std::runtime_error("libcurl: out of memory");
    (void)headers.release();
    headers.reset(next);
  }
  const std::string agent = std::string("Placard/") + kProductVersion;
  const long timeout = options_.timeout_seconds;
  bool ok = curl_easy_setopt(c, CURLOPT_URL, request.url.c_str()) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, timeout) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "") == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_USERAGENT, agent.c_str()) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get()) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
                             static_cast<curl_off_t>(options_.max_answer_bytes)) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, write_body) == CURLE_OK &&
            curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink) == CURLE_OK;
  if (ok && !options_.ca_file.empty()) {
    ok = curl_easy_setopt(c, CURLOPT_CAINFO, options_.ca_file.c_str()) == CURLE_OK;
  }
  if (ok && request.method == "POST") {
    ok = curl_easy_setopt(c, CURLOPT_POST, 1L) == CURLE_OK &&
         curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                          static_cast<curl_off_t>(request.body.size())) == CURLE_OK &&
         curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.c_str()) == CURLE_OK;
  }
  if (!ok) throw std::runtime_error("libcurl refused an option");
  const CURLcode code = curl_easy_perform(c);
  if (code != CURLE_OK) throw transport_error(code, host, sink);
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  curl_off_t retry = -1;
  if (curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &retry) == CURLE_OK && retry > 0) {
    response.retry_after_seconds = static_cast<long>(retry);
  }
  return response;
}

}  // namespace placard::network
