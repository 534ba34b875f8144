// The pure rules behind PATCH /admin/api/v1/settings: client origins, the token lifetime in days,
// and the settings answer.
#include <gtest/gtest.h>

#include "lib/admin/settings_rules.h"

namespace {

using placard::admin::normalize_client_origin;

TEST(ClientOrigin, AcceptsSchemeHostAndPort) {
  EXPECT_EQ(normalize_client_origin("https://example.com"), "https://example.com");
  EXPECT_EQ(normalize_client_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  EXPECT_EQ(normalize_client_origin("chrome-extension://abcdefghijklmnopabcdefghijklmnop"),
            "chrome-extension://abcdefghijklmnopabcdefghijklmnop");
  EXPECT_EQ(normalize_client_origin("moz-extension://0b7b7a1e-1a2b-4c3d-8e9f-0123456789ab"),
            "moz-extension://0b7b7a1e-1a2b-4c3d-8e9f-0123456789ab");
  EXPECT_EQ(normalize_client_origin("http://[::1]:9000"), "http://[::1]:9000");
}

TEST(ClientOrigin, LowerCasesAndDropsDefaultPorts) {
  EXPECT_EQ(normalize_client_origin("HTTPS://Example.COM"), "https://example.com");
  EXPECT_EQ(normalize_client_origin("https://example.com:443"), "https://example.com");
  EXPECT_EQ(normalize_client_origin("http://example.com:80"), "http://example.com");
  EXPECT_EQ(normalize_client_origin("https://example.com:80"), "https://example.com:80");
}

TEST(ClientOrigin, RefusesAnythingElse) {
  for (const char* bad : {"",
                          "null",
                          "example.com",
                          "https://",
                          "https://example.com/",
                          "https://example.com/x",
                          "https://example.com?q",
                          "https://example.com#f",
                          "https://user@example.com",
                          "https://example.com:",
                          "https://example.com:0",
                          "https://example.com:65536",
                          "https://example.com:08",
                          "https://example.com:abc",
                          "https://exa mple.com",
                          "https://-example.com",
                          "https://example..com",
                          "1http://example.com",
                          "://example.com",
                          "https://[::1",
                          "https://[zz]",
                          "https://example.com:80:80"}) {
    EXPECT_EQ(normalize_client_origin(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(normalize_client_origin("https://" + std::string(300, 'a')), std::nullopt);
}

TEST(ClientOrigin, AcceptsTheFirefoxWildcardOnly) {
  EXPECT_EQ(normalize_client_origin("moz-extension://*"), "moz-extension://*");
  EXPECT_EQ(normalize_client_origin("MOZ-Extension://*"), "moz-extension://*");
  for (const char* bad : {"chrome-extension://*", "https://*", "http://*", "moz-extension://*.x",
                          "moz-extension://*:80", "moz-extension://*/", "moz-extension://a*",
                          "moz-extension://**", "*", "moz-extension:*"}) {
    EXPECT_EQ(normalize_client_origin(bad), std::nullopt) << bad;
  }
}

TEST(TokenTtlDays, RoundsUp) {
  EXPECT_EQ(placard::admin::token_ttl_days(1), 1);
  EXPECT_EQ(placard::admin::token_ttl_days(86400), 1);
  EXPECT_EQ(placard::admin::token_ttl_days(86401), 2);
  EXPECT_EQ(placard::admin::token_ttl_days(30LL * 86400), 30);
}

TEST(SettingsJson, EveryKeyInOrder) {
  placard::catalog::Settings s;
  s.allowed_client_origins = {"https://a.example"};
  EXPECT_EQ(placard::admin::settings_json(s),
            R"({"available":true,"refreshIntervalSeconds":900,"minExtensionVersion":"1.0.0",)"
            R"("allowedClientOrigins":["https://a.example"],"tokenTtlSeconds":86400,)"
            R"("sessionIdleMinutes":30,"rawEventRetentionDays":90,)"
            R"("networkSyncIntervalMinutes":0,"clickLimitPerMinute":1,"clickLimitPer10Minutes":3,)"
            R"("clickLimitPerHour":10,"impressionLimitPer5Minutes":5,"publicOrigin":null})");
  s.public_origin = "https://offers.example.com";
  s.available = false;
  const auto j = placard::admin::settings_json(s);
  EXPECT_NE(j.find(R"("available":false)"), std::string::npos);
  EXPECT_NE(j.find(R"("publicOrigin":"https://offers.example.com")"), std::string::npos);
}

}  // namespace
