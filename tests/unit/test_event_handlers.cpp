// The impression and click handlers against small fakes of their stores: the token checks that
// live in the API layer (wrong offer, expiry, kind) and the order of the click's refusals.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>

#include "lib/api/clicks.h"
#include "lib/api/impressions.h"
#include "lib/crypto/base64.h"
#include "lib/crypto/sha256.h"
#include "lib/http/api_error.h"
#include "lib/tokens/token.h"

namespace {

using placard::catalog::Snapshot;
using placard::db::ClickStore;
using placard::db::EventRecord;
using placard::db::IgnoredReason;
using placard::db::OfferTarget;
using placard::http::ApiError;
using placard::http::Request;
using placard::tokens::KeyRing;
using placard::tokens::TokenClaims;
using placard::tokens::TokenKind;

constexpr std::int64_t kNow = 1'800'000'000;

KeyRing keys() {
  return KeyRing::parse("k1:" + placard::crypto::base64url_encode(std::string(32, 'k')), "k1");
}

std::string token(TokenKind kind, std::uint64_t offer, std::int64_t issued_at, char nonce = 'n') {
  TokenClaims c;
  c.kind = kind;
  c.nonce.fill(static_cast<unsigned char>(nonce));
  c.issued_at = issued_at;
  c.offer_id = offer;
  c.placement = "popup-main";
  c.country = "DE";
  return placard::tokens::sign_token(keys(), c);
}

// The request thread's client hasher (no trusted proxies).
placard::api::ClientHasher& hasher() {
  static const placard::http::TrustedProxies none;
  static placard::api::ClientHasher h(none, "day secret");
  return h;
}

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

// Clicks: offers by id, and what the decision asked to record.
class FakeClicks : public ClickStore {
 public:
  std::optional<OfferTarget> follow(std::uint64_t id, const Decide& decide) override {
    const auto it = offers.find(id);
    ++follows;
    std::optional<OfferTarget> target;
    if (it != offers.end()) target = it->second;
    if (auto event = decide(target)) recorded.push_back(*event);
    return target;
  }
  void record_ignored(const EventRecord& e) override {
    recorded.push_back(e);
    ++ignored_writes;
  }
  std::map<std::uint64_t, OfferTarget> offers;
  std::vector<EventRecord> recorded;
  int follows = 0;         // database rounds the handler asked for (offer reads)
  int ignored_writes = 0;  // ignored clicks written without reading the offer
};

OfferTarget offer(std::uint64_t id, std::string network = "admitad") {
  OfferTarget t;
  t.id = id;
  t.enabled = true;
  t.network = std::move(network);
  t.tracking_url = "https://ad.example/go?x=1";
  return t;
}

// The snapshot's picture of the offers (ids sorted, as the builder leaves them).
void in_snapshot(Snapshot& s, std::initializer_list<OfferTarget> offers) {
  for (const auto& o : offers) {
    placard::catalog::ClickTarget t;
    t.id = o.id;
    t.enabled = o.enabled;
    t.network = o.network == "admitad" ? placard::catalog::ClickTarget::Network::admitad
                : o.network == "awin"  ? placard::catalog::ClickTarget::Network::awin
                                       : placard::catalog::ClickTarget::Network::manual;
    if (o.valid_from) t.valid_from = *o.valid_from;
    if (o.valid_until) t.valid_until = *o.valid_until;
    if (o.tracking_url) {
      t.has_url = true;
      t.url_offset = static_cast<std::uint32_t>(s.click_urls.size());
      t.url_len = static_cast<std::uint16_t>(o.tracking_url->size());
      s.click_urls += *o.tracking_url;
    }
    s.click_targets.push_back(t);
  }
}

void in_snapshot(Snapshot& s, std::initializer_list<std::uint64_t> ids) {
  for (const auto id : ids) {
    placard::catalog::ClickTarget t;
    t.id = id;
    s.click_targets.push_back(t);
  }
}

Request impression_request(const std::string& t) {
  Request r;
  r.method = "POST";
  r.path = "/api/v1/events/impression";
  r.headers.push_back({"content-type", "application/json"});
  r.body = R"({"impressionToken":")" + t + "\"}";
  return r;
}

Request click_request(std::uint64_t id, const std::string& t, const std::string& method = "GET") {
  Request r;
  r.method = method;
  r.path = "/r/click/" + std::to_string(id);
  r.query = "t=" + t;
  r.params = {{"offerId", std::to_string(id)}};
  return r;
}

std::string error_code(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code();
  }
  return "no error";
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

TEST(ClickHandler, RedirectsWithSubIdAndRecordsOnce) {
  const auto k = keys();
  Snapshot s;
  FakeClicks clicks;
  clicks.offers[42] = offer(42);
  auto r = click_request(42, token(TokenKind::click, 42, kNow));
  const auto res = placard::api::follow_click(r, s, k, clicks, hasher(), kNow);
  EXPECT_EQ(res.status, 302);
  std::string nonce_hex;
  for (int i = 0; i < 16; ++i) nonce_hex += "6e";  // the nonce bytes are 'n' (0x6e)
  EXPECT_EQ(res.header("Location"),
            "https://ad.example/go?x=1&subid=" + nonce_hex);  // 'n' = 0x6e: the nonce in hex
  ASSERT_EQ(clicks.recorded.size(), 1U);
  EXPECT_EQ(clicks.recorded[0].offer_id, 42U);
}

TEST(ClickHandler, TokenOfAnotherOfferExpiredOrWrongKindIsRefusedAndNotRecorded) {
  const auto k = keys();
  Snapshot s;
  s.settings.token_ttl_seconds = 60;
  in_snapshot(s, {42U, 43U});
  FakeClicks clicks;
  clicks.offers[42] = offer(42);
  clicks.offers[43] = offer(43);
  const auto refusal = [&](Request r) {
    return error_code([&] { placard::api::follow_click(r, s, k, clicks, hasher(), kNow); });
  };
  EXPECT_EQ(refusal(click_request(42, token(TokenKind::click, 43, kNow))), "400 invalid_token");
  EXPECT_EQ(refusal(click_request(42, token(TokenKind::click, 42, kNow - 61))),
            "410 token_expired");
  EXPECT_EQ(refusal(click_request(42, token(TokenKind::impression, 42, kNow))),
            "400 invalid_token");
  EXPECT_EQ(refusal(click_request(42, "")), "400 invalid_token");
  EXPECT_TRUE(clicks.recorded.empty());
  EXPECT_EQ(clicks.follows, 0);  // a bad token never costs a database round
}

// Issue 15, finding 12: a missing or forged token is judged before anything reaches the event
// writer; the snapshot's list of offer ids keeps the contract's order (unknown 404, then 400).
TEST(ClickHandler, BadTokensNeverReachTheStore) {
  const auto k = keys();
  Snapshot s;
  in_snapshot(s, {7U, 42U});
  FakeClicks clicks;
  clicks.offers[42] = offer(42);
  const auto refusal = [&](Request r) {
    return error_code([&] { placard::api::follow_click(r, s, k, clicks, hasher(), kNow); });
  };
  auto forged = token(TokenKind::click, 42, kNow);
  forged.back() = forged.back() == 'A' ? 'B' : 'A';
  EXPECT_EQ(refusal(click_request(42, forged)), "400 invalid_token");
  EXPECT_EQ(refusal(click_request(42, "")), "400 invalid_token");
  EXPECT_EQ(refusal(click_request(99, forged)), "404 not_found");
  EXPECT_EQ(refusal(click_request(99, "")), "404 not_found");
  EXPECT_EQ(refusal(click_request(7, "x.y", "HEAD")), "400 invalid_token");
  EXPECT_EQ(clicks.follows, 0);
  // A good token still reads the offer at click time.
  auto good = click_request(42, token(TokenKind::click, 42, kNow));
  EXPECT_EQ(placard::api::follow_click(good, s, k, clicks, hasher(), kNow).status, 302);
  EXPECT_EQ(clicks.follows, 1);
}

TEST(ClickHandler, RefusalOrderUnknownThenTokenThenOfferState) {
  const auto k = keys();
  Snapshot s;
  in_snapshot(s, {42U, 45U});
  FakeClicks clicks;
  auto disabled = offer(42);
  disabled.enabled = false;
  clicks.offers[42] = disabled;
  auto demo = offer(44, "manual");
  demo.is_demo = true;
  demo.tracking_url.reset();
  clicks.offers[44] = demo;
  const auto refusal = [&](Request r) {
    return error_code([&] { placard::api::follow_click(r, s, k, clicks, hasher(), kNow); });
  };
  // Unknown offer: 404 even with a broken token; demo: 404.
  EXPECT_EQ(refusal(click_request(99, "garbage")), "404 not_found");
  EXPECT_EQ(refusal(click_request(44, token(TokenKind::click, 44, kNow))), "404 not_found");
  // Disabled offer: the token is judged first, then the state.
  EXPECT_EQ(refusal(click_request(42, "garbage")), "400 invalid_token");
  EXPECT_EQ(refusal(click_request(42, token(TokenKind::click, 42, kNow))), "410 offer_unavailable");
  // Outside the validity window (checked against the click's time).
  auto ended = offer(45);
  ended.valid_until = kNow;
  clicks.offers[45] = ended;
  EXPECT_EQ(refusal(click_request(45, token(TokenKind::click, 45, kNow))), "410 offer_unavailable");
  EXPECT_TRUE(clicks.recorded.empty());
}

// Issue 27: an offer whose window has not started yet (validFrom in the future at the click's
// time) answers 410 and records nothing; from validFrom on, the click counts.
TEST(ClickHandler, OfferNotStartedYetIs410AndNotRecorded) {
  const auto k = keys();
  Snapshot s;
  in_snapshot(s, {46U});
  FakeClicks clicks;
  auto future = offer(46);
  future.valid_from = kNow + 1;
  future.valid_until = kNow + 3600;
  clicks.offers[46] = future;
  auto r = click_request(46, token(TokenKind::click, 46, kNow));
  EXPECT_EQ(error_code([&] { placard::api::follow_click(r, s, k, clicks, hasher(), kNow); }),
            "410 offer_unavailable");
  EXPECT_TRUE(clicks.recorded.empty());
  // The same token a second later, at validFrom: counted.
  clicks.offers[46].valid_from = kNow;
  EXPECT_EQ(placard::api::follow_click(r, s, k, clicks, hasher(), kNow).status, 302);
  EXPECT_EQ(clicks.recorded.size(), 1U);
}

TEST(ClickHandler, HeadAnswersTheSameAndIsNotCounted) {
  const auto k = keys();
  Snapshot s;
  FakeClicks clicks;
  clicks.offers[42] = offer(42, "awin");
  in_snapshot(s, {offer(42, "awin")});
  auto r = click_request(42, token(TokenKind::click, 42, kNow), "HEAD");
  const auto res = placard::api::follow_click(r, s, k, clicks, hasher(), kNow);
  EXPECT_EQ(res.status, 302);
  EXPECT_EQ(res.header("Location").find("https://ad.example/go?x=1&clickref="), 0U);
  // Only an ignored event (to ignored_events, not clicks), without the client.
  ASSERT_EQ(clicks.recorded.size(), 1U);
  EXPECT_EQ(clicks.recorded[0].ignored, IgnoredReason::head);
  EXPECT_EQ(clicks.recorded[0].client, placard::db::ClientHash{});
  // Issue 22, item 2: answered from the snapshot, the offer not read on the event writer.
  EXPECT_EQ(clicks.follows, 0);
  EXPECT_EQ(clicks.ignored_writes, 1);
}

// Issue 22, item 2: an ignored click is judged against the snapshot in the contract's order
// (unknown 404, then the offer's state 410), and a refused one writes nothing.
TEST(ClickHandler, IgnoredClicksAreJudgedFromTheSnapshot) {
  const auto k = keys();
  Snapshot s;
  auto disabled = offer(42);
  disabled.enabled = false;
  auto ended = offer(45, "manual");
  ended.valid_until = kNow;
  auto later = offer(46, "manual");
  later.valid_from = kNow + 1;
  auto no_url = offer(47, "manual");
  no_url.tracking_url.reset();
  in_snapshot(s, {disabled, ended, later, no_url, offer(48, "manual")});
  FakeClicks clicks;  // the database would say otherwise: it is not asked
  const auto answer = [&](std::uint64_t id) {
    auto r = click_request(id, token(TokenKind::click, id, kNow), "HEAD");
    try {
      const auto res = placard::api::follow_click(r, s, k, clicks, hasher(), kNow);
      return std::to_string(res.status) + " " + std::string(res.header("Location"));
    } catch (const ApiError& e) {
      return std::to_string(e.status()) + " " + e.code();
    }
  };
  EXPECT_EQ(answer(99), "404 not_found");
  EXPECT_EQ(answer(42), "410 offer_unavailable");
  EXPECT_EQ(answer(45), "410 offer_unavailable");
  EXPECT_EQ(answer(46), "410 offer_unavailable");
  EXPECT_EQ(answer(47), "410 offer_unavailable");
  EXPECT_EQ(answer(48), "302 https://ad.example/go?x=1");  // manual: no sub-id parameter
  EXPECT_EQ(clicks.follows, 0);
  ASSERT_EQ(clicks.recorded.size(), 1U);
  EXPECT_EQ(clicks.recorded[0].offer_id, 48U);
}

TEST(ClickHandler, PrefetchAndCrawlersRedirectTheSameAndAreNotCounted) {
  const auto k = keys();
  Snapshot s;
  FakeClicks clicks;
  clicks.offers[42] = offer(42, "awin");
  in_snapshot(s, {offer(42, "awin")});
  auto plain = click_request(42, token(TokenKind::click, 42, kNow, 'a'));
  plain.remote_addr = "198.51.100.7";
  const auto counted = placard::api::follow_click(plain, s, k, clicks, hasher(), kNow);
  auto prefetch = click_request(42, token(TokenKind::click, 42, kNow, 'b'));
  prefetch.headers.push_back({"sec-purpose", "prefetch;prerender"});
  auto bot = click_request(42, token(TokenKind::click, 42, kNow, 'c'));
  bot.headers.push_back({"user-agent", "Mozilla/5.0 (compatible; bingbot/2.0)"});
  for (auto* r : {&prefetch, &bot}) {
    const auto res = placard::api::follow_click(*r, s, k, clicks, hasher(), kNow);
    EXPECT_EQ(res.status, counted.status);
    EXPECT_EQ(res.header("Cache-Control"), counted.header("Cache-Control"));
    EXPECT_EQ(res.header("Location").find("https://ad.example/go?x=1&clickref="), 0U);
  }
  ASSERT_EQ(clicks.recorded.size(), 3U);
  EXPECT_EQ(clicks.recorded[0].ignored, IgnoredReason::none);
  EXPECT_EQ(clicks.recorded[0].client, hasher().hash_address("198.51.100.7", kNow));
  EXPECT_EQ(clicks.recorded[1].ignored, IgnoredReason::prefetch);
  EXPECT_EQ(clicks.recorded[2].ignored, IgnoredReason::bot);
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
