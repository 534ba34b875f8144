#pragma once
// Test doubles for the network adapters, shared by the unit tests
// (tests/unit/test_network_adapters.cpp) and the fuzz target
// (tests/fuzz/fuzz_network_adapters.cpp).
#include <chrono>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/network/http_client.h"
#include "lib/network/pacing.h"

namespace placard::network::fakes {

// Time that moves only when the adapter sleeps; sleeps are recorded.
class FakeClock : public Clock {
 public:
  std::chrono::steady_clock::time_point now() override { return t; }
  void sleep_for(std::chrono::milliseconds d) override {
    slept.push_back(d);
    t += d;
  }
  std::chrono::steady_clock::time_point t{std::chrono::hours(1)};
  std::vector<std::chrono::milliseconds> slept;
};

// Answers from a script, in order; a negative status is a timeout, an empty script a refused
// connection. Every request sent is recorded.
class ScriptedHttp : public HttpClient {
 public:
  HttpResponse send(const HttpRequest& r) override {
    sent.push_back(r);
    if (answers.empty()) throw HttpError(HttpError::Kind::connection, "nothing scripted");
    auto a = answers.front();
    answers.pop_front();
    if (a.status < 0) throw HttpError(HttpError::Kind::timeout, "127.0.0.1 did not answer in time");
    return a;
  }
  void add(int status, std::string body, std::optional<long> retry = std::nullopt) {
    answers.push_back({status, std::move(body), retry});
  }
  std::deque<HttpResponse> answers;
  std::vector<HttpRequest> sent;
};

// The value of a header of a request the adapter made (empty when it has none).
inline std::string header(const HttpRequest& r, const std::string& name) {
  for (const auto& [n, v] : r.headers) {
    if (n == name) return v;
  }
  return {};
}

}  // namespace placard::network::fakes
