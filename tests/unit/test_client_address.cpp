#include "lib/http/client_address.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "tests/unit/request_builders.h"

namespace {

using placard::http::client_address;
using placard::http::TrustedProxies;
using placard::test::from;

TEST(ClientKeyText, Ipv6IsReducedToItsSlash64) {
  using placard::http::client_key_text;
  EXPECT_EQ(client_key_text("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_key_text("2001:db8:1:2::1"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_key_text("[2001:db8:1:2::1]:443"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_key_text("2001:db8:1:3::1"), "2001:db8:1:3::/64");
  EXPECT_EQ(client_key_text("::1"), "::/64");
  // IPv4, also IPv4-mapped, stays a whole address.
  EXPECT_EQ(client_key_text("192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(client_key_text("::ffff:192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(client_key_text("not an address"), "not an address");
}

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

}  // namespace
