// The admin API's request bodies (issue 22): each input is the JSON body of a registration
// (POST /accounts), an offer create (POST /offers), an offer update (PATCH /offers/{id}) and a
// settings change (PATCH /settings), parsed as each handler parses it before any database work.
// Invariants: a refusal is 400 (or 413) and names its field unless the JSON itself is refused;
// what is accepted keeps every rule the handlers rely on (ranges, URL policy, lengths).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "lib/admin/account_handlers.h"
#include "lib/admin/body.h"
#include "lib/admin/offer_input.h"
#include "lib/admin/settings_handlers.h"
#include "lib/admin/web_url.h"
#include "lib/http/api_error.h"
#include "lib/network/url_policy.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using placard::fuzz::fuzz_check;

placard::http::Request request_of(std::string_view text, const char* method) {
  placard::http::Request r;
  r.method = method;
  r.headers.push_back({"content-type", "application/json"});
  r.content_length = text.size();
  r.body = std::string(text);
  return r;
}

// Runs one parse; a refusal must be the contract's.
void refused_properly(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const placard::http::ApiError& e) {
    fuzz_check(e.status() == 400 || e.status() == 413, "a body was refused with neither 400/413");
    if (e.status() == 400) {
      fuzz_check(
          e.code() == "invalid_json" || e.code() == "invalid_field" || e.code() == "missing_field",
          "a 400 of another code");
      // An unknown field is named as sent, which may be "" ({"": 1}); a missing one never is.
      if (e.code() == "missing_field") fuzz_check(!e.field().empty(), "missing_field unnamed");
    }
  }
}

void check_url(const std::optional<std::string>& url) {
  if (!url) return;
  fuzz_check(placard::admin::is_web_url(*url), "an accepted URL is not a web URL");
  fuzz_check(placard::network::offer_url_allowed(*url), "an accepted URL breaks the URL policy");
}

void registration(std::string_view text) {
  auto r = request_of(text, "POST");
  // As register_account reads it, before the password is hashed.
  const placard::admin::Body body(r, {"email", "password"});
  const std::string email = body.string("email", 3, 254);
  if (!placard::admin::plausible_email(email)) {
    throw placard::http::invalid_field("email", "email is not an email address");
  }
  const std::string password = body.string("password", 0, placard::admin::kMaxPasswordBytes);
  if (placard::admin::utf8_length(password) < placard::admin::kMinPasswordChars) {
    throw placard::http::invalid_field("password", "short");
  }
  fuzz_check(email.size() >= 3 && email.size() <= 254 && email.find('@') != std::string::npos,
             "an accepted email out of its rules");
  fuzz_check(password.size() <= placard::admin::kMaxPasswordBytes, "a password over its cap");
}

void offer_create(std::string_view text) {
  auto r = request_of(text, "POST");
  const auto in = placard::admin::parse_offer_create(r);
  const auto& o = in.offer;
  fuzz_check(!o.title.empty(), "an offer without a title");
  fuzz_check(
      o.priority >= placard::admin::kMinPriority && o.priority <= placard::admin::kMaxPriority,
      "a priority out of range");
  fuzz_check(in.countries.size() <= placard::admin::kMaxOfferCountries, "too many countries");
  for (const auto& c : in.countries) {
    fuzz_check(c.size() == 2 && c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z',
               "a country code of another form");
  }
  fuzz_check(o.is_demo != o.tracking_url.has_value(),
             "a demonstration with a tracking URL, or a manual offer without one");
  check_url(o.tracking_url);
  check_url(o.image_url);
  if (o.valid_from && o.valid_until) {
    fuzz_check(*o.valid_from < *o.valid_until, "a validity window that ends before it starts");
  }
}

void offer_patch(std::string_view text) {
  auto r = request_of(text, "PATCH");
  const auto p = placard::admin::parse_offer_patch(r);
  if (p.priority) {
    fuzz_check(
        *p.priority >= placard::admin::kMinPriority && *p.priority <= placard::admin::kMaxPriority,
        "a patched priority out of range");
  }
  if (p.countries) {
    fuzz_check(p.countries->size() <= placard::admin::kMaxOfferCountries, "too many countries");
  }
}

void settings(std::string_view text) {
  auto r = request_of(text, "PATCH");
  const placard::admin::Body body(
      r, {"available", "refreshIntervalSeconds", "minExtensionVersion", "allowedClientOrigins",
          "tokenTtlSeconds", "sessionIdleMinutes", "rawEventRetentionDays",
          "networkSyncIntervalMinutes", "publicOrigin", "clickLimitPerMinute",
          "clickLimitPer10Minutes", "clickLimitPerHour", "impressionLimitPer5Minutes"});
  static const std::set<std::string> kWritable{"available",
                                               "refreshIntervalSeconds",
                                               "minExtensionVersion",
                                               "allowedClientOrigins",
                                               "tokenTtlSeconds",
                                               "sessionIdleMinutes",
                                               "rawEventRetentionDays",
                                               "networkSyncIntervalMinutes",
                                               "clickLimitPerMinute",
                                               "clickLimitPer10Minutes",
                                               "clickLimitPerHour",
                                               "impressionLimitPer5Minutes"};
  for (const auto& [name, value] : placard::admin::settings_changes(body)) {
    fuzz_check(kWritable.count(name) == 1, "a setting written that the API may not write");
    fuzz_check(!value.empty() && value.size() <= 20000, "a stored value empty or huge");
    if (name == "refreshIntervalSeconds") {
      const long v = std::stol(value);
      fuzz_check(v >= 60 && v <= 86400, "refreshIntervalSeconds out of range");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = placard::fuzz::as_text(data, size);
  refused_properly([&] { registration(text); });
  refused_properly([&] { offer_create(text); });
  refused_properly([&] { offer_patch(text); });
  refused_properly([&] { settings(text); });
  return 0;
}
