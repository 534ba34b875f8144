// Honest counting (issue 15): which requests are not counted (HEAD, prefetch, crawlers), where
// the client address comes from behind trusted proxies, the daily client hash, and the windows
// of the per-client limits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/api/bot_agents.h"
#include "lib/api/client_hasher.h"
#include "lib/api/counting_rules.h"
#include "lib/api/rate_limits.h"
#include "lib/catalog/settings.h"
#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/http/client_address.h"
#include "lib/jobs/rate_limiter.h"

namespace {

using placard::api::is_known_bot;
using placard::db::IgnoredReason;
using placard::db::RateJudge;
using placard::http::Request;
using placard::http::TrustedProxies;

// ---- the crawler list ------------------------------------------------------------------------

TEST(BotAgents, KnownCrawlersAndLinkScannersMatch) {
  for (const char* ua : {
           "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
           "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; "
           "+http://www.google.com/bot.html) Chrome/120.0.6099.199 Safari/537.36",
           "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
           "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
           "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
           "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
           "Twitterbot/1.0",
           "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
           "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
           "TelegramBot (like TwitterBot)",
           "WhatsApp/2.23.20.0",
           "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
           "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
           "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
           "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; "
           "+https://openai.com/gptbot)",
           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "HeadlessChrome/120.0.0.0 Safari/537.36",
           "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like "
           "Gecko) Version/13.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
           "BARRACUDA-link-protection",
           "GOOGLEBOT",  // any case
       }) {
    EXPECT_TRUE(is_known_bot(ua)) << ua;
  }
}

TEST(BotAgents, BrowsersAndOurOwnClientsDoNotMatch) {
  for (const char* ua : {
           // Chrome on Windows, macOS, Android; Firefox; Safari on macOS and iOS; Edge; Opera
           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Safari/537.36",
           "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like "
           "Gecko) Chrome/131.0.0.0 Safari/537.36",
           "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Mobile Safari/537.36",
           "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
           "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
           "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like "
           "Gecko) Version/18.1 Safari/605.1.15",
           "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
           "like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Safari/537.36 OPR/114.0.0.0",
           // a phone whose maker's name contains "bot"
           "Mozilla/5.0 (Linux; Android 9; CUBOT KING KONG 5 Pro) AppleWebKit/537.36 (KHTML, "
           "like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
           // Sogou's own browser (not its spider)
           "Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/86.0.4240.198 Safari/537.36 SE 2.X MetaSr 1.0",
           // the test harness and generic libraries, and nothing at all
           "Python-urllib/3.11",
           "curl/8.5.0",
           "",
       }) {
    EXPECT_FALSE(is_known_bot(ua)) << ua;
  }
}

TEST(BotAgents, TheListIsLowerCaseAndHasNoBareWords) {
  for (const auto p : placard::api::bot_agent_patterns()) {
    EXPECT_GE(p.size(), 5U) << p;
    for (const char c : p) EXPECT_FALSE(c >= 'A' && c <= 'Z') << p;
    EXPECT_NE(p, "bot");
  }
}

TEST(BotAgents, ANameFarIntoAVeryLongAgentIsNotSearchedForever) {
  const std::string padded = std::string(600, 'x') + " Googlebot/2.1";
  EXPECT_FALSE(is_known_bot(padded));  // judged on the first 512 characters
  EXPECT_TRUE(is_known_bot("Googlebot/2.1 " + std::string(600, 'x')));
}

// ---- prefetch and the reason of a request ----------------------------------------------------

Request request(const std::string& method, std::vector<placard::http::Header> headers = {}) {
  Request r;
  r.method = method;
  r.headers = std::move(headers);
  return r;
}

TEST(CountingRules, PrefetchHeaders) {
  EXPECT_TRUE(placard::api::is_prefetch(request("GET", {{"sec-purpose", "prefetch"}})));
  EXPECT_TRUE(placard::api::is_prefetch(request("GET", {{"sec-purpose", "prefetch;prerender"}})));
  EXPECT_TRUE(
      placard::api::is_prefetch(request("GET", {{"sec-purpose", "prefetch;anonymous-client-ip"}})));
  EXPECT_TRUE(placard::api::is_prefetch(request("GET", {{"purpose", "Prefetch"}})));
  EXPECT_TRUE(placard::api::is_prefetch(request("GET", {{"x-moz", "prefetch"}})));
  EXPECT_FALSE(placard::api::is_prefetch(request("GET")));
  EXPECT_FALSE(placard::api::is_prefetch(request("GET", {{"sec-purpose", "prerender"}})));
  EXPECT_FALSE(placard::api::is_prefetch(request("GET", {{"sec-fetch-mode", "prefetch"}})));
  EXPECT_FALSE(placard::api::is_prefetch(request("GET", {{"purpose", "pref"}})));
}

TEST(CountingRules, ReasonsInOrder) {
  using placard::api::ignored_reason;
  EXPECT_EQ(ignored_reason(request("GET")), IgnoredReason::none);
  EXPECT_EQ(ignored_reason(request("POST", {{"user-agent", "Firefox/133.0"}})),
            IgnoredReason::none);
  EXPECT_EQ(ignored_reason(request("HEAD", {{"sec-purpose", "prefetch"}})), IgnoredReason::head);
  EXPECT_EQ(
      ignored_reason(request("GET", {{"sec-purpose", "prefetch"}, {"user-agent", "bingbot"}})),
      IgnoredReason::prefetch);
  EXPECT_EQ(
      ignored_reason(request("GET", {{"user-agent", "Mozilla/5.0 (compatible; bingbot/2.0)"}})),
      IgnoredReason::bot);
  EXPECT_EQ(placard::db::ignored_reason_name(IgnoredReason::rate_limited), "rate_limited");
  EXPECT_EQ(placard::db::ignored_reason_from("head"), IgnoredReason::head);
  EXPECT_EQ(placard::db::ignored_reason_from("none"), std::nullopt);
}

// ---- trusted proxies and the client address --------------------------------------------------

TEST(TrustedProxies, ParsesAddressesAndRanges) {
  const auto t = TrustedProxies::parse("127.0.0.1, ::1  10.0.0.0/8,192.168.1.128/25 fd00::/8");
  const auto has = [&](const char* a) { return t.contains(*placard::http::parse_ip(a)); };
  EXPECT_TRUE(has("127.0.0.1"));
  EXPECT_FALSE(has("127.0.0.2"));
  EXPECT_TRUE(has("::1"));
  EXPECT_TRUE(has("10.255.1.2"));
  EXPECT_FALSE(has("11.0.0.1"));
  EXPECT_TRUE(has("192.168.1.200"));
  EXPECT_FALSE(has("192.168.1.127"));
  EXPECT_TRUE(has("fd12::5"));
  EXPECT_FALSE(has("fe80::1"));
  EXPECT_TRUE(has("::ffff:10.1.2.3"));  // the IPv4-mapped form of a listed IPv4 address
  EXPECT_TRUE(TrustedProxies::parse("").empty());
  EXPECT_TRUE(TrustedProxies::parse(" , ").empty());
  EXPECT_TRUE(TrustedProxies::parse("0.0.0.0/0").contains(*placard::http::parse_ip("8.8.8.8")));
}

TEST(TrustedProxies, RefusesWhatIsNotAnAddressOrRange) {
  for (const char* bad : {"localhost", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/x",
                          "1.2.3.4:80", "[::1]", "300.1.1.1", "10.0.0.0/8/8", "*"}) {
    EXPECT_THROW(TrustedProxies::parse(bad), std::invalid_argument) << bad;
  }
}

TEST(TrustedProxies, ConfigKeyIsCheckedAtLoad) {
  const auto c = placard::config::server_config_from({{"trusted_proxies", "127.0.0.1, ::1"}});
  EXPECT_EQ(c.trusted_proxies, "127.0.0.1, ::1");
  EXPECT_TRUE(placard::config::server_config_from({}).trusted_proxies.empty());
  EXPECT_THROW(placard::config::server_config_from({{"trusted_proxies", "proxy.local"}}),
               placard::config::ConfigError);
  EXPECT_NE(placard::config::render_server_config(c).find("trusted_proxies = 127.0.0.1, ::1\n"),
            std::string::npos);
}

TEST(ClientAddress, ParsesAndPrintsAddresses) {
  using placard::http::ip_text;
  using placard::http::parse_ip;
  EXPECT_EQ(ip_text(*parse_ip("192.0.2.1")), "192.0.2.1");
  EXPECT_EQ(ip_text(*parse_ip("192.0.2.1:4711")), "192.0.2.1");
  EXPECT_EQ(ip_text(*parse_ip("::FFFF:192.0.2.1")), "192.0.2.1");
  EXPECT_EQ(ip_text(*parse_ip("2001:DB8:0:0::1")), "2001:db8::1");
  EXPECT_EQ(ip_text(*parse_ip("[2001:db8::1]:443")), "2001:db8::1");
  for (const char* bad :
       {"", "unknown", "1.2.3", "1.2.3.4:99999", "[::1", "[::1]x", "_gateway", "01.2.3.4.5"}) {
    EXPECT_FALSE(parse_ip(bad).has_value()) << bad;
  }
}

Request from(const std::string& peer, const std::string& forwarded = "") {
  Request r;
  r.remote_addr = peer;
  if (!forwarded.empty()) r.headers.push_back({"x-forwarded-for", forwarded});
  return r;
}

TEST(ClientAddress, ForwardedForOnlyFromTrustedPeers) {
  using placard::http::client_address;
  const auto trusted = TrustedProxies::parse("127.0.0.1, 10.0.0.0/8");
  // No trusted proxies, or an untrusted peer: the peer, whatever the header says.
  EXPECT_EQ(client_address(from("127.0.0.1", "203.0.113.5"), TrustedProxies{}), "127.0.0.1");
  EXPECT_EQ(client_address(from("198.51.100.1", "203.0.113.5"), trusted), "198.51.100.1");
  // A trusted peer: right to left, trusted hops skipped, the first untrusted one is the client.
  EXPECT_EQ(client_address(from("127.0.0.1", "203.0.113.5"), trusted), "203.0.113.5");
  EXPECT_EQ(client_address(from("127.0.0.1", "1.1.1.1, 203.0.113.5, 10.1.1.1"), trusted),
            "203.0.113.5");  // 1.1.1.1 is what the client claimed: not believed
  EXPECT_EQ(client_address(from("127.0.0.1", "1.1.1.1,203.0.113.5 , 10.1.1.1"), trusted),
            "203.0.113.5");
  // Every hop trusted: the leftmost.
  EXPECT_EQ(client_address(from("127.0.0.1", "10.0.0.7, 10.0.0.8"), trusted), "10.0.0.7");
  // No header: the trusted peer itself.
  EXPECT_EQ(client_address(from("127.0.0.1"), trusted), "127.0.0.1");
  // Garbage stops the walk at the trusted hop that passed it on.
  EXPECT_EQ(client_address(from("127.0.0.1", "203.0.113.5, junk"), trusted), "127.0.0.1");
  EXPECT_EQ(client_address(from("127.0.0.1", "203.0.113.5, junk, 10.2.2.2"), trusted), "10.2.2.2");
  // IPv6 clients, bracketed with a port, canonical text.
  EXPECT_EQ(client_address(from("127.0.0.1", "[2001:DB8::7]:5555"), trusted), "2001:db8::7");
  EXPECT_EQ(client_address(from("::ffff:127.0.0.1", "2001:db8::8"), trusted), "2001:db8::8");
}

// ---- the daily client hash -------------------------------------------------------------------

TEST(ClientHasher, SameAddressSameDaySameHashNewDayNewHash) {
  const TrustedProxies none;
  placard::api::ClientHasher a(none, "secret");
  placard::api::ClientHasher b(none, "secret");  // another thread or host: the same key
  placard::api::ClientHasher other(none, "another secret");
  constexpr std::int64_t kMidnight = 1'800'057'600;  // 2027-01-15T00:00:00Z
  static_assert(kMidnight % 86400 == 0);
  const auto h = a.hash_address("192.0.2.1", kMidnight - 3600);
  EXPECT_EQ(h, a.hash_address("192.0.2.1", kMidnight - 1));
  EXPECT_EQ(h, b.hash_address("192.0.2.1", kMidnight - 7200));
  EXPECT_NE(h, a.hash_address("192.0.2.2", kMidnight - 1));
  EXPECT_NE(h, other.hash_address("192.0.2.1", kMidnight - 1));
  // The key changes at midnight UTC, not before; so does every hash.
  EXPECT_EQ(a.day_key(kMidnight - 86400), a.day_key(kMidnight - 1));
  EXPECT_NE(a.day_key(kMidnight - 1), a.day_key(kMidnight));
  EXPECT_NE(h, a.hash_address("192.0.2.1", kMidnight));
  EXPECT_EQ(a.hash_address("192.0.2.1", kMidnight), b.hash_address("192.0.2.1", kMidnight + 5));
  // Back to the earlier day (a thread judged a late request): the earlier key again.
  EXPECT_EQ(h, a.hash_address("192.0.2.1", kMidnight - 10));
  // The hash holds nothing of the address as text.
  const std::string raw(reinterpret_cast<const char*>(h.data()), h.size());
  EXPECT_EQ(raw.find("192.0.2.1"), std::string::npos);
}

TEST(ClientHasher, RequestsHashTheirClientBehindTrustedProxies) {
  const auto trusted = TrustedProxies::parse("127.0.0.1");
  placard::api::ClientHasher h(trusted, "secret");
  constexpr std::int64_t kNow = 1'800'000'000;
  EXPECT_EQ(h.hash(from("127.0.0.1", "203.0.113.5"), kNow), h.hash_address("203.0.113.5", kNow));
  EXPECT_EQ(h.hash(from("198.51.100.1", "203.0.113.5"), kNow),
            h.hash_address("198.51.100.1", kNow));
}

// ---- the windows of the limits ---------------------------------------------------------------

placard::db::ClientHash client(unsigned char c) {
  placard::db::ClientHash h{};
  h.fill(c);
  return h;
}

constexpr std::int64_t kS = 1000;  // one second in the judge's milliseconds

TEST(RateJudge, ClicksOnePerMinuteThreePerTenMinutesTenPerHour) {
  placard::catalog::Settings settings;  // the defaults: 1 / 3 / 10 clicks, 5 impressions
  RateJudge judge(placard::api::rate_limits(settings).clicks);
  const RateJudge::Key k{client(1), 42};
  std::int64_t t = 1'000'000 * kS;
  EXPECT_FALSE(judge.over_limit(k, t));          // counted
  EXPECT_TRUE(judge.over_limit(k, t + 1 * kS));  // a second later: over 1 per minute
  EXPECT_TRUE(judge.over_limit(k, t + 59 * kS));
  EXPECT_FALSE(judge.over_limit(k, t + 60 * kS));  // the window is (t-60 s, t]: counted
  EXPECT_FALSE(judge.over_limit(k, t + 120 * kS));
  EXPECT_TRUE(judge.over_limit(k, t + 180 * kS));  // a 4th within 10 minutes
  EXPECT_TRUE(judge.over_limit(k, t + 599 * kS));
  EXPECT_FALSE(judge.over_limit(k, t + 600 * kS));  // the first left the 10 minutes
  // Another offer, another client: their own windows.
  EXPECT_FALSE(judge.over_limit({client(1), 43}, t + 1 * kS));
  EXPECT_FALSE(judge.over_limit({client(2), 42}, t + 1 * kS));
  // Ignored events do not fill the window: a click every 30 s counts every other one.
  RateJudge fresh(placard::api::rate_limits(settings).clicks);
  int counted = 0;
  for (int i = 0; i < 120; ++i)
    counted += fresh.over_limit(k, t + std::int64_t{i} * 30 * kS) ? 0 : 1;
  // An hour of clicks every 30 s: 3 in each 10 minutes (at 0, 60, 120 s, then 600, 660, 720 s,
  // ...) until the 10th at 1,800 s; then 10 per hour holds the rest of the hour.
  EXPECT_EQ(counted, 10);
}

TEST(RateJudge, TenPerHour) {
  RateJudge judge({{3600, 10}});
  const RateJudge::Key k{client(1), 1};
  const std::int64_t t = 5'000'000 * kS;
  for (int i = 0; i < 10; ++i)
    EXPECT_FALSE(judge.over_limit(k, t + std::int64_t{i} * 300 * kS)) << i;
  EXPECT_TRUE(judge.over_limit(k, t + 3000 * kS));
  EXPECT_TRUE(judge.over_limit(k, t + 3599 * kS));
  EXPECT_FALSE(judge.over_limit(k, t + 3600 * kS));
}

TEST(RateJudge, ImpressionsFivePerFiveMinutesWithHistory) {
  placard::catalog::Settings settings;
  RateJudge judge(placard::api::rate_limits(settings).impressions);
  EXPECT_EQ(judge.longest_ms(), 300 * kS);
  const RateJudge::Key k{client(7), 9};
  const std::int64_t t = 2'000'000 * kS;
  // Four counted in earlier passes (history may come in any order).
  for (const int s : {40, 10, 30, 20}) judge.remember(k, t + s * kS);
  EXPECT_FALSE(judge.over_limit(k, t + 50 * kS));  // the 5th
  EXPECT_TRUE(judge.over_limit(k, t + 60 * kS));   // the 6th within 5 minutes
  EXPECT_TRUE(judge.over_limit(k, t + 309 * kS));
  EXPECT_FALSE(judge.over_limit(k, t + 310 * kS));  // the one at t+10 s left the window
}

TEST(RateJudge, ZeroTurnsAWindowOff) {
  placard::catalog::Settings settings;
  settings.impression_limit_per_5_minutes = 0;
  RateJudge off(placard::api::rate_limits(settings).impressions);
  EXPECT_FALSE(off.active());
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(off.over_limit({client(1), 1}, i));
  settings.click_limit_per_minute = 0;
  settings.click_limit_per_10_minutes = 0;
  RateJudge hourly(placard::api::rate_limits(settings).clicks);  // only 10 per hour is left
  EXPECT_EQ(hourly.longest_ms(), 3600 * kS);
  int counted = 0;
  for (int i = 0; i < 20; ++i) counted += hourly.over_limit({client(1), 1}, i * kS) ? 0 : 1;
  EXPECT_EQ(counted, 10);
}

// ---- the settings ----------------------------------------------------------------------------

TEST(LimitSettings, DefaultsRangesAndBadValues) {
  std::vector<std::string> problems;
  auto s = placard::catalog::parse_settings({}, problems);
  EXPECT_EQ(s.click_limit_per_minute, 1);
  EXPECT_EQ(s.click_limit_per_10_minutes, 3);
  EXPECT_EQ(s.click_limit_per_hour, 10);
  EXPECT_EQ(s.impression_limit_per_5_minutes, 5);
  s = placard::catalog::parse_settings({{"clickLimitPerMinute", "0"},
                                        {"clickLimitPer10Minutes", "10000"},
                                        {"clickLimitPerHour", "25"},
                                        {"impressionLimitPer5Minutes", "7"}},
                                       problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(s.click_limit_per_minute, 0);
  EXPECT_EQ(s.click_limit_per_10_minutes, 10000);
  EXPECT_EQ(s.click_limit_per_hour, 25);
  EXPECT_EQ(s.impression_limit_per_5_minutes, 7);
  s = placard::catalog::parse_settings(
      {{"clickLimitPerMinute", "-1"}, {"impressionLimitPer5Minutes", "10001"}}, problems);
  EXPECT_EQ(problems.size(), 2U);
  EXPECT_EQ(s.click_limit_per_minute, 1);
  EXPECT_EQ(s.impression_limit_per_5_minutes, 5);
}

}  // namespace
