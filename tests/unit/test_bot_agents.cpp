#include "lib/api/bot_agents.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using placard::api::is_known_bot;

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

}  // namespace
