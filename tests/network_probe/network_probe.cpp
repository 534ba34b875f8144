// A test driver for the network adapters (not shipped): pulls every offer of one network from
// an API base (the stand-in under tests/network_standin) and prints JSON lines. Credentials come
// on standard input as the JSON object the admin API stores ({"clientId", "clientSecret",
// "websiteId"} or {"publisherId", "apiToken"}).
//
//   network_probe admitad|awin --api-base URL [--page-size N] [--timeout S] [--backoff-ms M]
//                 [--retries R] [--per-minute N] [--pulls K]
//
// Lines: {"pull": k} at the start of each pull, {"page", "pagesTotal", "offers"} per page, one
// {"offer": {...}} per offer, {"tokenRequests": n} never (the stand-in counts those); on failure
// {"error": "<sentence>"} and exit status 3.
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <string>

#include "lib/json/safe_parse.h"
#include "lib/json/writer.h"
#include "lib/network/admitad.h"
#include "lib/network/awin.h"
#include "lib/network/http_client.h"
#include "lib/network/normalize.h"
#include "lib/network/url_policy.h"

namespace {

using namespace placard::network;

void write_offer(placard::json::Writer& w, const NetworkOffer& o) {
  auto opt = [&](const std::optional<std::string>& s) {
    if (s) {
      w.String(s->c_str(), static_cast<rapidjson::SizeType>(s->size()));
    } else {
      w.Null();
    }
  };
  auto opt_time = [&](const std::optional<std::int64_t>& t) {
    if (t) {
      w.Int64(*t);
    } else {
      w.Null();
    }
  };
  w.StartObject();
  w.Key("externalId");
  w.String(o.external_id);
  w.Key("title");
  w.String(o.title);
  w.Key("description");
  w.String(o.description);
  w.Key("merchant");
  w.String(o.merchant);
  w.Key("imageUrl");
  opt(o.image_url);
  w.Key("couponCode");
  opt(o.coupon_code);
  w.Key("categories");
  w.StartArray();
  for (const auto& [id, name] : o.categories) {
    w.StartArray();
    w.String(id);
    w.String(name);
    w.EndArray();
  }
  w.EndArray();
  w.Key("allCountries");
  w.Bool(o.all_countries);
  w.Key("countries");
  w.StartArray();
  for (const auto& c : o.countries) w.String(c);
  w.EndArray();
  w.Key("validFrom");
  opt_time(o.valid_from);
  w.Key("validUntil");
  opt_time(o.valid_until);
  w.Key("trackingUrl");
  w.String(o.tracking_url);
  w.EndObject();
}

void line(const std::string& text) {
  std::cout << text << "\n" << std::flush;
}

std::string error_line(const std::string& message) {
  rapidjson::StringBuffer buf;
  placard::json::Writer w(buf);
  w.StartObject();
  w.Key("error");
  w.String(message);
  w.EndObject();
  return placard::json::to_string(buf);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: network_probe admitad|awin --api-base URL [options] < credentials.json\n";
    return 2;
  }
  const std::string network = argv[1];
  std::map<std::string, std::string> opt{{"page-size", "0"},    {"timeout", "5"},
                                         {"backoff-ms", "200"}, {"retries", "3"},
                                         {"per-minute", "0"},   {"pulls", "1"}};
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    if (k.rfind("--", 0) != 0) return 2;
    opt[k.substr(2)] = argv[i + 1];
  }
  if (!valid_api_base(opt["api-base"])) {
    std::cerr << "network_probe: --api-base must be https, or http to a loopback host\n";
    return 2;
  }
  const std::string creds_text{std::istreambuf_iterator<char>(std::cin),
                               std::istreambuf_iterator<char>()};
  rapidjson::Document creds;
  if (!placard::json::parse_untrusted(creds_text, creds) || !creds.IsObject()) {
    std::cerr << "network_probe: credentials on standard input must be a JSON object\n";
    return 2;
  }
  CurlHttpClient http({std::stoi(opt["timeout"]), "", kDefaultMaxAnswerBytes});
  SystemClock clock;
  AdapterOptions options{normalize_api_base(opt["api-base"]), std::stoi(opt["per-minute"]),
                         std::stoi(opt["page-size"]),
                         BackoffPolicy{std::stoi(opt["retries"]),
                                       std::chrono::milliseconds(std::stoi(opt["backoff-ms"])),
                                       std::chrono::milliseconds(60000)}};
  AdmitadTokenCache tokens;  // kept across the pulls of this process
  const int pulls = std::stoi(opt["pulls"]);
  for (int k = 1; k <= pulls; ++k) {
    std::unique_ptr<NetworkAdapter> adapter;
    if (network == "admitad") {
      adapter = std::make_unique<AdmitadAdapter>(
          http, clock,
          AdmitadCredentials{str(creds, "clientId"),
                             placard::crypto::SecretString(str(creds, "clientSecret")),
                             str(creds, "websiteId")},
          tokens, options);
    } else if (network == "awin") {
      adapter = std::make_unique<AwinAdapter>(
          http, clock,
          AwinCredentials{str(creds, "publisherId"),
                          placard::crypto::SecretString(str(creds, "apiToken"))},
          options);
    } else {
      std::cerr << "network_probe: unknown network\n";
      return 2;
    }
    line("{\"pull\":" + std::to_string(k) + "}");
    try {
      adapter->pull([](const OfferPage& page) {
        line("{\"page\":" + std::to_string(page.pages_done) +
             ",\"pagesTotal\":" + std::to_string(page.pages_total) +
             ",\"offers\":" + std::to_string(page.offers.size()) + "}");
        for (const auto& o : page.offers) {
          rapidjson::StringBuffer buf;
          placard::json::Writer w(buf);
          w.StartObject();
          w.Key("offer");
          write_offer(w, o);
          w.EndObject();
          line(placard::json::to_string(buf));
        }
      });
    } catch (const NetworkError& e) {
      line(error_line(e.what()));
      return 3;
    }
  }
  return 0;
}
