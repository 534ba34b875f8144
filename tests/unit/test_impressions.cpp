// The impression handler against a small fake of its store: the token checks that live in the
// API layer (expiry, kind, forgery), duplicates, the plain body, and what is ignored.
#include "lib/api/impressions.h"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <vector>

#include "lib/crypto/sha256.h"
#include "tests/unit/event_tokens.h"

namespace {

using placard::catalog::Snapshot;
using placard::db::EventRecord;
using placard::db::IgnoredReason;
using placard::http::ApiError;
using placard::http::Request;
using placard::test::error_code;
using placard::test::hasher;
using placard::test::keys;
using placard::test::kNow;
using placard::test::token;
using placard::tokens::TokenKind;

// Impressions: a set of recorded nonces.
class FakeEvents : public placard::db::EventStore {
 public:
  bool record_impression(const EventRecord& e) override {
    if (e.ignored != IgnoredReason::none) {
      ignored.push_back(e);  // ignored_events: answered, not counted, the nonce stays free
      return false;
    }
    counted.push_back(e);
    return seen.insert(e.nonce).second;
  }
  bool impression_recorded(const std::array<unsigned char, 16>& n) override {
    return seen.count(n) > 0;
  }
  std::set<std::array<unsigned char, 16>> seen;
  std::vector<EventRecord> counted;
  std::vector<EventRecord> ignored;
};

Request impression_request(const std::string& t) {
  Request r;
  r.method = "POST";
  r.path = "/api/v1/events/impression";
  r.headers.push_back({"content-type", "application/json"});
  r.body = R"({"impressionToken":")" + t + "\"}";
  return r;
}

TEST(ImpressionHandler, RecordedThenDuplicate) {
  const auto k = keys();
  Snapshot s;
  FakeEvents events;
  auto r1 = impression_request(token(TokenKind::impression, 7, kNow));
  EXPECT_EQ(placard::api::record_impression(r1, s, k, events, hasher(), kNow).body,
            R"({"status":"recorded"})");
  auto r2 = impression_request(token(TokenKind::impression, 7, kNow));
  EXPECT_EQ(placard::api::record_impression(r2, s, k, events, hasher(), kNow).body,
            R"({"status":"duplicate"})");
}

TEST(ImpressionHandler, ExpiryHonoursTheTtlSettingAndEarlierRecords) {
  const auto k = keys();
  Snapshot s;
  s.settings.token_ttl_seconds = 3600;
  FakeEvents events;
  // Exactly at the TTL: still valid; one second past it: expired.
  auto at_ttl = impression_request(token(TokenKind::impression, 7, kNow - 3600, 'a'));
  EXPECT_EQ(placard::api::record_impression(at_ttl, s, k, events, hasher(), kNow).body,
            R"({"status":"recorded"})");
  auto past = impression_request(token(TokenKind::impression, 7, kNow - 3601, 'b'));
  EXPECT_EQ(
      error_code([&] { placard::api::record_impression(past, s, k, events, hasher(), kNow); }),
      "410 token_expired");
  EXPECT_EQ(events.seen.size(), 1U);
  // A retry of the one recorded in time answers duplicate even after expiry.
  auto late_retry = impression_request(token(TokenKind::impression, 7, kNow - 3600, 'a'));
  EXPECT_EQ(placard::api::record_impression(late_retry, s, k, events, hasher(), kNow + 10).body,
            R"({"status":"duplicate"})");
}

TEST(ImpressionHandler, WrongKindForgedAndMissingTokens) {
  const auto k = keys();
  Snapshot s;
  FakeEvents events;
  auto click = impression_request(token(TokenKind::click, 7, kNow));
  EXPECT_EQ(
      error_code([&] { placard::api::record_impression(click, s, k, events, hasher(), kNow); }),
      "400 invalid_token");
  std::string forged = token(TokenKind::impression, 7, kNow);
  forged[forged.size() - 2] = forged[forged.size() - 2] == 'A' ? 'B' : 'A';
  auto bad = impression_request(forged);
  EXPECT_EQ(error_code([&] { placard::api::record_impression(bad, s, k, events, hasher(), kNow); }),
            "400 invalid_token");
  Request missing = impression_request("");
  missing.body = "{}";
  EXPECT_EQ(
      error_code([&] { placard::api::record_impression(missing, s, k, events, hasher(), kNow); }),
      "400 missing_field");
  EXPECT_TRUE(events.seen.empty());
}

// The plain body {"impressionToken":"<token>"} is read without the JSON parser (issue 24): it
// must answer exactly as the parser would, and every other spelling still goes through it.
TEST(ImpressionHandler, PlainBodyAndOtherSpellingsAnswerAlike) {
  const auto k = keys();
  Snapshot s;
  FakeEvents events;
  const std::string t = token(TokenKind::impression, 7, kNow, 'p');
  const auto answer = [&](const std::string& body, const std::string& type = "application/json") {
    Request r = impression_request(t);
    r.headers = {{"content-type", type}};
    r.body = body;
    try {
      return placard::api::record_impression(r, s, k, events, hasher(), kNow).body;
    } catch (const ApiError& e) {
      return std::to_string(e.status()) + " " + e.code();
    }
  };
  // Spaces and an escaped first character: the parser's path, the same token.
  std::string escaped = t;
  escaped.replace(0, 1, "\\u00" + placard::crypto::to_hex(t.substr(0, 1)));
  EXPECT_EQ(answer(R"( { "impressionToken" : ")" + t + "\" } "), R"({"status":"recorded"})");
  EXPECT_EQ(answer(R"({"impressionToken":")" + t + "\"}"), R"({"status":"duplicate"})");
  EXPECT_EQ(answer(R"({"impressionToken":")" + escaped + "\"}"), R"({"status":"duplicate"})");
  // Another member after it: the plain reading must not take `<token>","x":"y` for the token.
  EXPECT_EQ(answer(R"({"impressionToken":")" + t + R"(","x":"y"})"), R"({"status":"duplicate"})");
  // What the parser refuses is still refused, before any token check.
  EXPECT_EQ(answer(R"({"impressionToken":")" + t + R"("}{"impressionToken":")" + t + "\"}"),
            "400 invalid_json");
  EXPECT_EQ(answer(R"({"impressionToken":")" + t + "\"}x"), "400 invalid_json");
  EXPECT_EQ(answer(R"({"impressionToken":")" + t + "\"}", "text/plain"),
            "415 unsupported_media_type");
  EXPECT_EQ(answer(R"({"impressionToken":""})"), "400 invalid_token");
  EXPECT_EQ(answer(R"({"impressionToken":")" + std::string(std::size_t{17} * 1024, 'A') + "\"}"),
            "413 body_too_large");
  EXPECT_EQ(events.seen.size(), 1U);
}

TEST(ImpressionHandler, PrefetchAndCrawlersAnswerAsACountedOneWould) {
  const auto k = keys();
  Snapshot s;
  FakeEvents events;
  auto prefetch = impression_request(token(TokenKind::impression, 7, kNow, 'p'));
  prefetch.headers.push_back({"purpose", "prefetch"});
  EXPECT_EQ(placard::api::record_impression(prefetch, s, k, events, hasher(), kNow).body,
            R"({"status":"recorded"})");
  ASSERT_EQ(events.ignored.size(), 1U);
  EXPECT_EQ(events.ignored[0].ignored, IgnoredReason::prefetch);
  EXPECT_TRUE(events.counted.empty());
  // The token stays usable: the real view counts.
  auto real = impression_request(token(TokenKind::impression, 7, kNow, 'p'));
  real.remote_addr = "203.0.113.9";
  EXPECT_EQ(placard::api::record_impression(real, s, k, events, hasher(), kNow).body,
            R"({"status":"recorded"})");
  ASSERT_EQ(events.counted.size(), 1U);
  EXPECT_EQ(events.counted[0].client, hasher().hash_address("203.0.113.9", kNow));
  // A crawler replaying a counted token hears "duplicate", as anyone would.
  auto bot = impression_request(token(TokenKind::impression, 7, kNow, 'p'));
  bot.headers.push_back({"user-agent", "Googlebot/2.1 (+http://www.google.com/bot.html)"});
  EXPECT_EQ(placard::api::record_impression(bot, s, k, events, hasher(), kNow).body,
            R"({"status":"duplicate"})");
  ASSERT_EQ(events.ignored.size(), 2U);
  EXPECT_EQ(events.ignored[1].ignored, IgnoredReason::bot);
  EXPECT_EQ(events.counted.size(), 1U);
}

}  // namespace
