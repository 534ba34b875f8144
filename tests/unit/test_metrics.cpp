#include <gtest/gtest.h>

#include <string>

#include "lib/api/metrics_endpoint.h"
#include "lib/config/config_file.h"
#include "lib/config/server_config.h"
#include "lib/http/api_error.h"
#include "lib/metrics/registry.h"
#include "lib/metrics/request_metrics.h"

namespace m = placard::metrics;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(MetricsRegistry, ACounterRendersWithHelpTypeAndLabels) {
  m::Registry r;
  auto& c = r.counter("placard_things_total", "Things seen", {{"kind", "a"}});
  c.add();
  c.add(2);
  EXPECT_EQ(r.render(),
            "# HELP placard_things_total Things seen\n"
            "# TYPE placard_things_total counter\n"
            "placard_things_total{kind=\"a\"} 3\n");
}

TEST(MetricsRegistry, SeriesOfOneFamilyShareOneHeader) {
  m::Registry r;
  r.counter("x_total", "X", {{"k", "a"}}).add(1);
  r.gauge("g", "G", {}, [] { return 1.5; });
  r.counter("x_total", "X", {{"k", "b"}}).add(4);
  EXPECT_EQ(r.render(),
            "# HELP x_total X\n# TYPE x_total counter\nx_total{k=\"a\"} 1\nx_total{k=\"b\"} 4\n"
            "# HELP g G\n# TYPE g gauge\ng 1.5\n");
}

TEST(MetricsRegistry, HistogramBucketsAreCumulativeWithInfEqualToCount) {
  m::Registry r;
  auto& h = r.histogram("lat_seconds", "Latency", {{"route", "q"}}, {1000, 10000});
  h.observe_micros(500);    // <= 1 ms
  h.observe_micros(1000);   // == bound: in le="0.001"
  h.observe_micros(5000);   // <= 10 ms
  h.observe_micros(20000);  // +Inf only
  EXPECT_EQ(r.render(),
            "# HELP lat_seconds Latency\n# TYPE lat_seconds histogram\n"
            "lat_seconds_bucket{route=\"q\",le=\"0.001\"} 2\n"
            "lat_seconds_bucket{route=\"q\",le=\"0.01\"} 3\n"
            "lat_seconds_bucket{route=\"q\",le=\"+Inf\"} 4\n"
            "lat_seconds_sum{route=\"q\"} 0.0265\n"
            "lat_seconds_count{route=\"q\"} 4\n");
}

TEST(MetricsRegistry, LabelValuesAndHelpAreEscaped) {
  EXPECT_EQ(m::escape_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(m::escape_help("line\\one\ntwo \"q\""), "line\\\\one\\ntwo \"q\"");
  m::Registry r;
  r.counter("c_total", "Help with \\ and\nnewline", {{"path", "x\"y\\z\n"}}).add();
  const auto text = r.render();
  EXPECT_TRUE(contains(text, "# HELP c_total Help with \\\\ and\\nnewline\n")) << text;
  EXPECT_TRUE(contains(text, "c_total{path=\"x\\\"y\\\\z\\n\"} 1\n")) << text;
}

TEST(MetricsRegistry, GaugesAreReadWhenRenderedAndMayBeAbsent) {
  m::Registry r;
  double value = 1;
  bool present = true;
  r.gauge("depth", "D", {}, [&]() -> std::optional<double> {
    if (!present) return std::nullopt;
    return value;
  });
  value = 7;
  EXPECT_TRUE(contains(r.render(), "\ndepth 7\n"));
  present = false;
  EXPECT_EQ(r.render(), "# HELP depth D\n# TYPE depth gauge\n");
}

TEST(MetricsRegistry, AScopedGaugeGoesWithItsHandle) {
  m::Registry r;
  {
    const auto handle = r.scoped_gauge("pool", "P", {}, [] { return 2.0; });
    EXPECT_TRUE(contains(r.render(), "\npool 2\n"));
  }
  EXPECT_FALSE(contains(r.render(), "\npool 2\n"));
}

TEST(MetricsRegistry, RefusesBadNamesAndConflictingRegistrations) {
  m::Registry r;
  EXPECT_THROW(r.counter("1bad", "x"), std::invalid_argument);
  EXPECT_THROW(r.counter("ok_total", "x", {{"le", "1"}}), std::invalid_argument);
  EXPECT_THROW(r.counter("ok_total", "x", {{"bad-name", "1"}}), std::invalid_argument);
  r.counter("dup_total", "x", {{"k", "a"}});
  EXPECT_THROW(r.counter("dup_total", "x", {{"k", "a"}}), std::logic_error);
  EXPECT_THROW(r.gauge("dup_total", "x", {{"k", "b"}}, [] { return 1.0; }), std::logic_error);
}

TEST(MetricsRegistry, ValuesUseGoFloatSpelling) {
  EXPECT_EQ(m::format_value(0.25), "0.25");
  EXPECT_EQ(m::format_value(3), "3");
  EXPECT_EQ(m::format_value(0.0005), "0.0005");
  EXPECT_EQ(m::format_value(1e20), "1e+20");
  EXPECT_EQ(m::format_value(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(m::format_value(std::numeric_limits<double>::quiet_NaN()), "NaN");
}

TEST(RequestMetrics, PathsFallIntoFixedRouteFamilies) {
  EXPECT_EQ(m::route_of("/api/v1/offers/query"), m::Route::offers_query);
  EXPECT_EQ(m::route_of("/api/v1/events/impression"), m::Route::impression);
  EXPECT_EQ(m::route_of("/r/click/123"), m::Route::click);
  EXPECT_EQ(m::route_of("/api/v1/config"), m::Route::config);
  EXPECT_EQ(m::route_of("/api/v1/categories"), m::Route::categories);
  EXPECT_EQ(m::route_of("/healthz"), m::Route::healthz);
  EXPECT_EQ(m::route_of("/admin/api/v1/offers"), m::Route::admin);
  EXPECT_EQ(m::route_of("/metrics"), m::Route::metrics);
  EXPECT_EQ(m::route_of("/api/v1/offers/query/x"), m::Route::other);
  EXPECT_EQ(m::route_of("/anything"), m::Route::other);
}

TEST(RequestMetrics, CountsByRouteAndStatusClassAndTimesEachRequest) {
  m::Registry r;
  const m::RequestMetrics requests(r);
  requests.observe("/api/v1/offers/query", 200, 300);
  requests.observe("/api/v1/offers/query", 400, 100);
  requests.observe("/r/click/9", 302, 2000);
  const auto text = r.render();
  EXPECT_TRUE(
      contains(text, "placard_http_requests_total{route=\"offers_query\",code=\"2xx\"} 1\n"));
  EXPECT_TRUE(
      contains(text, "placard_http_requests_total{route=\"offers_query\",code=\"4xx\"} 1\n"));
  EXPECT_TRUE(contains(text, "placard_http_requests_total{route=\"click\",code=\"3xx\"} 1\n"));
  EXPECT_TRUE(contains(text, "placard_http_requests_total{route=\"impression\",code=\"2xx\"} 0\n"));
  EXPECT_TRUE(contains(
      text,
      "placard_http_request_duration_seconds_bucket{route=\"offers_query\",le=\"0.00025\"} 1\n"));
  EXPECT_TRUE(contains(
      text,
      "placard_http_request_duration_seconds_bucket{route=\"offers_query\",le=\"0.0005\"} 2\n"));
  EXPECT_TRUE(
      contains(text, "placard_http_request_duration_seconds_count{route=\"offers_query\"} 2\n"));
  EXPECT_TRUE(contains(text, "placard_http_request_duration_seconds_sum{route=\"click\"} 0.002\n"));
}

namespace {

placard::http::Request metrics_request(const std::string& peer, const std::string& auth = {}) {
  placard::http::Request req;
  req.method = "GET";
  req.path = "/metrics";
  req.remote_addr = peer;
  if (!auth.empty()) req.headers.push_back({"authorization", auth});
  return req;
}

int status_of(const placard::api::MetricsEndpoint& e, const placard::http::Request& req) {
  try {
    return e.answer(req).status;
  } catch (const placard::http::ApiError& err) {
    return err.status();
  }
}

}  // namespace

TEST(MetricsEndpoint, OffByDefaultAnd404ForEveryone) {
  m::Registry r;
  const placard::config::MetricsConfig cfg;
  const placard::api::MetricsEndpoint e(r, cfg, {});
  EXPECT_EQ(status_of(e, metrics_request("127.0.0.1")), 404);
  EXPECT_THROW(placard::api::get_metrics(metrics_request("127.0.0.1"), nullptr),
               placard::http::ApiError);
}

TEST(MetricsEndpoint, OnlyAllowedNetworksAndTheTokenWhenSet) {
  m::Registry r;
  r.counter("c_total", "C").add(5);
  placard::config::MetricsConfig cfg;
  cfg.enabled = true;
  cfg.allow = "10.0.0.0/8, ::1";
  {
    const placard::api::MetricsEndpoint e(r, cfg, {});
    const auto ok = e.answer(metrics_request("10.1.2.3"));
    EXPECT_EQ(ok.status, 200);
    EXPECT_EQ(ok.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_EQ(ok.header("cache-control"), "no-store");
    EXPECT_TRUE(contains(ok.body, "c_total 5\n"));
    EXPECT_EQ(status_of(e, metrics_request("::1")), 200);
    EXPECT_EQ(status_of(e, metrics_request("192.0.2.1")), 404);
    EXPECT_EQ(status_of(e, metrics_request("garbage")), 404);
  }
  cfg.token = "0123456789abcdef-token";
  const placard::api::MetricsEndpoint e(r, cfg, {});
  EXPECT_EQ(status_of(e, metrics_request("10.1.2.3")), 404);
  EXPECT_EQ(status_of(e, metrics_request("10.1.2.3", "Bearer wrong-token-0123456")), 404);
  EXPECT_EQ(status_of(e, metrics_request("10.1.2.3", "Bearer 0123456789abcdef-token")), 200);
  EXPECT_EQ(status_of(e, metrics_request("10.1.2.3", "bearer 0123456789abcdef-token")), 200);
  EXPECT_EQ(status_of(e, metrics_request("192.0.2.1", "Bearer 0123456789abcdef-token")), 404);
}

TEST(MetricsEndpoint, ForwardedClientsCountOnlyThroughTrustedProxies) {
  m::Registry r;
  placard::config::MetricsConfig cfg;
  cfg.enabled = true;
  cfg.allow = "10.0.0.5";
  const placard::api::MetricsEndpoint e(r, cfg, placard::http::TrustedProxies::parse("127.0.0.1"));
  auto via_proxy = metrics_request("127.0.0.1");
  via_proxy.headers.push_back({"x-forwarded-for", "10.0.0.5"});
  EXPECT_EQ(status_of(e, via_proxy), 200);
  auto forged = metrics_request("192.0.2.7");
  forged.headers.push_back({"x-forwarded-for", "10.0.0.5"});
  EXPECT_EQ(status_of(e, forged), 404);
  EXPECT_EQ(status_of(e, metrics_request("127.0.0.1")), 404);  // the proxy itself is not listed
}

TEST(MetricsConfig, KeysAreCheckedAndEnabledNeedsANetworkOrAToken) {
  using placard::config::server_config_from;
  const auto c = server_config_from(
      {{"metrics.enabled", "true"}, {"metrics.allow", "10.0.0.0/8"}, {"metrics.token", ""}});
  EXPECT_TRUE(c.metrics.enabled);
  EXPECT_EQ(c.metrics.allow, "10.0.0.0/8");
  EXPECT_FALSE(server_config_from({}).metrics.enabled);
  EXPECT_THROW(server_config_from({{"metrics.enabled", "yes"}}), placard::config::ConfigError);
  EXPECT_THROW(server_config_from({{"metrics.allow", "not-a-net"}}), placard::config::ConfigError);
  EXPECT_THROW(server_config_from({{"metrics.token", "short"}}), placard::config::ConfigError);
  EXPECT_THROW(server_config_from({{"metrics.enabled", "true"}, {"metrics.allow", ""}}),
               placard::config::ConfigError);
  EXPECT_NO_THROW(server_config_from(
      {{"metrics.enabled", "true"}, {"metrics.allow", ""}, {"metrics.token", "0123456789abcdef"}}));
}
