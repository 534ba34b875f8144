#include "lib/api/bot_agents.h"

#include <algorithm>
#include <array>
#include <bitset>

namespace placard::api {

namespace {

// Lower-case substrings. Keep each specific enough never to match a browser's User-Agent
// (tests/unit/test_bot_agents.cpp checks current Chrome, Firefox, Safari, Edge and mobile
// ones). Add new entries here only.
constexpr std::array<std::string_view, 66> kPatterns = {
    // search and AI crawlers
    "googlebot", "google-inspectiontool", "adsbot-google", "mediapartners-google", "google-safety",
    "googleother", "feedfetcher-google", "storebot-google", "bingbot", "bingpreview", "msnbot",
    "adidxbot", "slurp", "duckduckbot", "duckassistbot", "baiduspider", "yandexbot",
    "yandex.com/bots", "sogou web spider", "exabot", "seznambot", "naver.me/spd", "yeti/",
    "applebot", "petalbot", "bytespider", "gptbot", "chatgpt-user", "oai-searchbot", "claudebot",
    "claude-web", "anthropic-ai", "perplexitybot", "ccbot", "amazonbot", "facebookbot",
    "meta-externalagent", "ia_archiver", "archive.org_bot",
    // SEO crawlers
    "ahrefsbot", "semrushbot", "mj12bot", "dotbot", "blexbot", "dataforseobot", "serpstatbot",
    // link previews in social networks and messengers
    "facebookexternalhit", "facebookcatalog", "twitterbot", "linkedinbot", "slackbot",
    "slack-imgproxy", "discordbot", "telegrambot", "whatsapp", "skypeuripreview", "pinterestbot",
    "redditbot", "embedly", "iframely", "vkshare",
    // mail and link security scanners, monitors, headless tools
    "barracuda", "proofpoint", "mimecast", "headlesschrome", "phantomjs"};

std::size_t bigram(char a, char b) {
  return static_cast<std::size_t>(static_cast<unsigned char>(a)) << 8 |
         static_cast<unsigned char>(b);
}

// Which two-character sequences begin a pattern: built once, read-only afterwards.
const std::bitset<65536>& pattern_starts() {
  static const std::bitset<65536> starts = [] {
    std::bitset<65536> b;
    for (const auto p : kPatterns) b.set(bigram(p[0], p[1]));
    return b;
  }();
  return starts;
}

}  // namespace

std::span<const std::string_view> bot_agent_patterns() {
  return kPatterns;
}

bool is_known_bot(std::string_view user_agent) {
  if (user_agent.size() < 2) return false;
  // Lower-cased once into a buffer on the stack; the crawler's name is near the start of every
  // User-Agent in the list, so a longer one is judged on its first kMax characters.
  constexpr std::size_t kMax = 512;
  std::array<char, kMax> buf{};
  const std::size_t n = std::min(user_agent.size(), kMax);
  std::transform(
      user_agent.begin(), user_agent.begin() + static_cast<std::ptrdiff_t>(n), buf.begin(),
      [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  const std::string_view ua(buf.data(), n);
  // One pass over the agent: only where two characters begin some pattern are the patterns
  // compared (a browser's agent has few such places), instead of one search per pattern.
  const auto& starts = pattern_starts();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (!starts[bigram(ua[i], ua[i + 1])]) continue;
    const auto rest = ua.substr(i);
    if (std::any_of(kPatterns.begin(), kPatterns.end(),
                    [&](std::string_view p) { return rest.starts_with(p); })) {
      return true;
    }
  }
  return false;
}

}  // namespace placard::api
