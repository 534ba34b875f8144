#include "lib/api/clicks.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/db/errors.h"
#include "lib/http/deferred.h"
#include "tests/unit/event_tokens.h"

namespace {

using placard::api::is_safe_redirect_target;
using placard::api::sub_id_parameter;
using placard::api::with_query_param;

TEST(ClickRedirectTarget, HttpAndHttpsAccepted) {
  for (const char* url :
       {"https://www.example.com/", "http://example.com", "https://ad.admitad.com/g/abc123/?x=1",
        "https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&p=https%3A%2F%2Fshop.example",
        "https://example.com:8443/path#frag", "https://user@example.com/", "https://1.2.3.4/x",
        "https://[::1]/x"}) {
    EXPECT_TRUE(is_safe_redirect_target(url)) << url;
  }
}

TEST(ClickRedirectTarget, SchemeIsCaseInsensitive) {
  EXPECT_TRUE(is_safe_redirect_target("HTTPS://EXAMPLE.COM/"));
  EXPECT_TRUE(is_safe_redirect_target("Http://example.com/"));
  EXPECT_TRUE(is_safe_redirect_target("hTtPs://example.com/"));
}

TEST(ClickRedirectTarget, OtherSchemesRejected) {
  for (const char* url :
       {"javascript:alert(1)", "JavaScript://example.com/%0aalert(1)", "data:text/html,<b>x</b>",
        "ftp://example.com/", "file:///etc/passwd", "mailto:a@example.com", "vbscript:msgbox",
        "httpx://example.com", "https:example.com", "http:/example.com", "https//example.com",
        " https://example.com", "\thttps://example.com"}) {
    EXPECT_FALSE(is_safe_redirect_target(url)) << url;
  }
}

TEST(ClickRedirectTarget, RelativeAndHostlessRejected) {
  for (const char* url : {"//evil.example/", "/r/click/1", "example.com", "", "http://", "https://",
                          "http:///x", "https:///evil.example", "http://\\evil", "https://?q=1",
                          "https://#x", "https://@evil.example", "http:\\\\evil.example"}) {
    EXPECT_FALSE(is_safe_redirect_target(url)) << url;
  }
}

TEST(ClickRedirectTarget, SpacesControlAndBackslashRejected) {
  for (const std::string& url :
       {std::string("https://exa mple.com/"), std::string("https://example.com/a b"),
        std::string("https://example.com/\t"), std::string("https://example.com/\r\nX-Evil: 1"),
        std::string("https://example.com/\n"), std::string("https://example.com/\x01"),
        std::string("https://example.com/\x7f"), std::string("https://example.com\\@evil.com"),
        std::string("https://example.com/a\\b"), std::string("https://example.com/\0x", 22),
        std::string("https://ex\xc3\xa4mple.com/")}) {
    EXPECT_FALSE(is_safe_redirect_target(url)) << url;
  }
}

TEST(ClickRedirectTarget, LengthLimit2048) {
  const std::string prefix = "https://example.com/";
  const std::string at_limit = prefix + std::string(2048 - prefix.size(), 'a');
  ASSERT_EQ(at_limit.size(), 2048u);
  EXPECT_TRUE(is_safe_redirect_target(at_limit));
  EXPECT_FALSE(is_safe_redirect_target(at_limit + "a"));
  EXPECT_FALSE(is_safe_redirect_target(prefix + std::string(100000, 'a')));
}

// The header promises "absolute http(s) URLs with a host": an authority with a port but no host
// has no host.
TEST(ClickRedirectTarget, EmptyHostWithPortRejected) {
  EXPECT_FALSE(is_safe_redirect_target("http://:80/"));
  EXPECT_FALSE(is_safe_redirect_target("https://:443/path"));
}

TEST(ClickQueryParam, NoQueryAddsQuestionMark) {
  EXPECT_EQ(with_query_param("https://shop.example/p", "subid", "abc"),
            "https://shop.example/p?subid=abc");
  EXPECT_EQ(with_query_param("https://shop.example", "clickref", "0f1e"),
            "https://shop.example?clickref=0f1e");
}

TEST(ClickQueryParam, ExistingQueryAddsAmpersand) {
  EXPECT_EQ(with_query_param("https://shop.example/p?a=1", "subid", "abc"),
            "https://shop.example/p?a=1&subid=abc");
  EXPECT_EQ(with_query_param("https://shop.example/p?a=1&b=2", "subid", "abc"),
            "https://shop.example/p?a=1&b=2&subid=abc");
}

TEST(ClickQueryParam, UrlEndingInQuestionMarkOrAmpersand) {
  EXPECT_EQ(with_query_param("https://shop.example/p?", "subid", "abc"),
            "https://shop.example/p?subid=abc");
  EXPECT_EQ(with_query_param("https://shop.example/p?a=1&", "subid", "abc"),
            "https://shop.example/p?a=1&subid=abc");
}

TEST(ClickQueryParam, FragmentKeptAfterTheParameter) {
  EXPECT_EQ(with_query_param("https://shop.example/p#top", "subid", "abc"),
            "https://shop.example/p?subid=abc#top");
  EXPECT_EQ(with_query_param("https://shop.example/p?a=1#top", "subid", "abc"),
            "https://shop.example/p?a=1&subid=abc#top");
  EXPECT_EQ(with_query_param("https://shop.example/p?#top", "subid", "abc"),
            "https://shop.example/p?subid=abc#top");
  // A '?' inside the fragment is part of the fragment, not a query.
  EXPECT_EQ(with_query_param("https://shop.example/p#x?y=1", "subid", "abc"),
            "https://shop.example/p?subid=abc#x?y=1");
  EXPECT_EQ(with_query_param("https://shop.example/p#", "subid", "abc"),
            "https://shop.example/p?subid=abc#");
}

TEST(ClickSubIdParameter, PerNetwork) {
  EXPECT_EQ(sub_id_parameter("admitad"), "subid");
  EXPECT_EQ(sub_id_parameter("awin"), "clickref");
  EXPECT_EQ(sub_id_parameter("manual"), "");
  EXPECT_EQ(sub_id_parameter(""), "");
  EXPECT_EQ(sub_id_parameter("demo"), "");
  EXPECT_EQ(sub_id_parameter("Admitad"), "");
}

}  // namespace

// The click handler against a small fake of its store: the token checks that live in the API
// layer (wrong offer, expiry, kind) and the order of the click's refusals.
namespace {

using placard::catalog::Snapshot;
using placard::db::ClickStore;
using placard::db::EventRecord;
using placard::db::IgnoredReason;
using placard::db::OfferTarget;
using placard::http::ApiError;
using placard::http::Request;
using placard::test::error_code;
using placard::test::hasher;
using placard::test::keys;
using placard::test::kNow;
using placard::test::token;
using placard::tokens::TokenKind;

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

Request click_request(std::uint64_t id, const std::string& t, const std::string& method = "GET") {
  Request r;
  r.method = method;
  r.path = "/r/click/" + std::to_string(id);
  r.query = "t=" + t;
  r.params = {{"offerId", std::to_string(id)}};
  return r;
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

// Clicks answered later, as the event writer answers them (issue 24): follow_then keeps the
// decision and whom to tell until the test plays the writer.
class LaterClicks : public ClickStore {
 public:
  std::optional<OfferTarget> follow(std::uint64_t, const Decide&) override {
    ADD_FAILURE() << "the handler waited for the writer";
    return std::nullopt;
  }
  void follow_then(std::uint64_t id, const Decide& decide, const Followed& done) override {
    asked = id;
    decide_ = decide;
    done_ = done;
  }
  void record_ignored(const EventRecord&) override { ADD_FAILURE() << "not an ignored click"; }
  bool keep_for_later(const EventRecord& e) override {
    if (!journal_has_room) return false;
    kept.push_back(e);
    return true;
  }
  // The writer: reads the offer, lets the handler's decision run, commits what it says.
  void writer_commits(const std::optional<OfferTarget>& o) {
    if (auto e = decide_(o)) recorded.push_back(*e);
    done_(o, nullptr);
  }
  void writer_lost_the_database() {
    done_(std::nullopt, std::make_exception_ptr(placard::db::DatabaseUnavailable("socket gone")));
  }
  std::uint64_t asked = 0;
  bool journal_has_room = true;
  std::vector<EventRecord> recorded;
  std::vector<EventRecord> kept;

 private:
  Decide decide_;
  Followed done_;
};

// The answer a deferred click ends with, as "status Location" or "status code" for a refusal
// (what the Service's layer makes of it).
std::string sent_when_done(const placard::http::Response& returned,
                           const std::function<void()>& writer) {
  if (!returned.later) return "answered before the writer: " + std::to_string(returned.status);
  returned.later->wrap([](const placard::http::Deferred::Produce& inner) {
    try {
      return inner();
    } catch (const ApiError& e) {
      return placard::http::render_error(e);
    } catch (const placard::db::DatabaseUnavailable&) {
      return placard::http::Response::empty(503);
    }
  });
  std::string sent = "not sent";
  returned.later->then([&sent](const placard::http::Response& r) {
    sent = std::to_string(r.status) + " " + std::string(r.header("Location")) +
           std::string(r.header("Content-Type"));
  });
  if (sent != "not sent") return "sent before the writer committed";
  writer();
  return sent;
}

TEST(ClickHandler, AnsweredOnceTheWriterHasCommittedTheClick) {
  const auto k = keys();
  Snapshot s;
  in_snapshot(s, {offer(42)});
  LaterClicks clicks;
  auto r = click_request(42, token(TokenKind::click, 42, kNow));
  const auto returned = placard::api::follow_click(r, s, k, clicks, hasher(), kNow);
  EXPECT_EQ(clicks.asked, 42U);
  EXPECT_TRUE(clicks.recorded.empty());
  std::string nonce_hex;
  for (int i = 0; i < 16; ++i) nonce_hex += "6e";
  EXPECT_EQ(sent_when_done(returned, [&] { clicks.writer_commits(offer(42)); }),
            "302 https://ad.example/go?x=1&subid=" + nonce_hex);
  ASSERT_EQ(clicks.recorded.size(), 1U);
  EXPECT_EQ(clicks.recorded[0].offer_id, 42U);
}

TEST(ClickHandler, TheWritersVerdictOnTheOfferIsTheAnswerAPageForABrowser) {
  const auto k = keys();
  Snapshot s;
  in_snapshot(s, {offer(42)});  // the snapshot's picture is older than the database's
  auto disabled = offer(42);
  disabled.enabled = false;
  LaterClicks clicks;
  auto json = click_request(42, token(TokenKind::click, 42, kNow));
  EXPECT_EQ(sent_when_done(placard::api::follow_click(json, s, k, clicks, hasher(), kNow),
                           [&] { clicks.writer_commits(disabled); }),
            "410 application/json; charset=utf-8");
  auto page = click_request(42, token(TokenKind::click, 42, kNow));
  page.headers.push_back({"accept", "text/html,application/xhtml+xml"});
  EXPECT_EQ(sent_when_done(placard::api::follow_click(page, s, k, clicks, hasher(), kNow),
                           [&] { clicks.writer_commits(disabled); }),
            "410 text/html; charset=utf-8");
  EXPECT_TRUE(clicks.recorded.empty());
}

TEST(ClickHandler, AWriterWithoutTheDatabaseLeavesAValidClickToTheJournal) {
  const auto k = keys();
  Snapshot s;
  auto disabled = offer(43);
  disabled.enabled = false;
  in_snapshot(s, {offer(42), disabled});
  LaterClicks clicks;
  const auto lost = [&](std::uint64_t id) {
    auto r = click_request(id, token(TokenKind::click, id, kNow));
    return sent_when_done(placard::api::follow_click(r, s, k, clicks, hasher(), kNow),
                          [&] { clicks.writer_lost_the_database(); });
  };
  EXPECT_EQ(lost(42).substr(0, 34), "302 https://ad.example/go?x=1&subi");
  ASSERT_EQ(clicks.kept.size(), 1U);
  EXPECT_EQ(clicks.kept[0].offer_id, 42U);
  EXPECT_EQ(lost(43), "410 application/json; charset=utf-8");  // the snapshot's refusal stands
  EXPECT_EQ(clicks.kept.size(), 1U);
  clicks.journal_has_room = false;
  EXPECT_EQ(lost(42), "503 ");
  EXPECT_EQ(clicks.kept.size(), 1U);
}

}  // namespace
