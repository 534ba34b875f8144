#include "lib/api/clicks.h"

#include <exception>
#include <memory>

#include "lib/api/counting_rules.h"
#include "lib/api/token_checks.h"
#include "lib/db/errors.h"
#include "lib/http/api_error.h"
#include "lib/http/deferred.h"
#include "lib/http/header.h"
#include "lib/http/negotiation.h"
#include "lib/util/parse_int.h"

namespace placard::api {

namespace {

std::uint64_t parse_offer_id(std::string_view text) {
  // At most 19 digits, the way an id is written.
  const auto id = util::parse_canonical_in<std::uint64_t>(text, 1, 9'999'999'999'999'999'999ULL);
  if (!id) throw http::not_found();
  return *id;
}

http::ApiError offer_unavailable() {
  return {410, "offer_unavailable", "This offer is no longer available"};
}

http::Response html_refusal(const http::ApiError& error) {
  http::Response r;
  r.status = error.status();
  for (const auto& h : error.headers()) r.set_header(h.name, h.value);
  r.set_header("Content-Type", "text/html; charset=utf-8");
  // A page with no script, style or frame of its own: nothing may be loaded into it, and it may
  // not be framed by another site.
  r.set_header("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  r.set_header("X-Frame-Options", "DENY");
  r.body =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width\"><title>Offer unavailable</title>"
      "</head><body><h1>This offer is no longer available</h1>"
      "<p>The link may have expired or the offer has ended. You can close this page.</p>"
      "</body></html>\n";
  return r;
}

// The contract's order once the offer is known: unknown or demo 404, then the token's verdict
// (400/410), then the offer's state at this moment (410).
std::optional<http::ApiError> click_refusal(const std::optional<db::OfferTarget>& offer,
                                            const std::optional<http::ApiError>& token_error,
                                            std::int64_t now) {
  if (!offer || offer->is_demo) return http::not_found();
  if (token_error) return token_error;
  const bool in_window = (!offer->valid_from || *offer->valid_from <= now) &&
                         (!offer->valid_until || now < *offer->valid_until);
  if (!offer->enabled || !in_window) return offer_unavailable();
  if (!offer->tracking_url || !is_safe_redirect_target(*offer->tracking_url)) {
    return offer_unavailable();
  }
  return std::nullopt;
}

// The offer as the snapshot has it (an ignored click is judged without a database read).
std::optional<db::OfferTarget> snapshot_target(const catalog::Snapshot& snapshot,
                                               std::uint64_t offer_id) {
  const catalog::ClickTarget* t = snapshot.click_target(offer_id);
  if (t == nullptr) return std::nullopt;
  db::OfferTarget o;
  o.id = t->id;
  o.enabled = t->enabled;
  o.network = std::string(catalog::network_name(t->network));
  if (t->has_url) o.tracking_url = std::string(snapshot.click_url(*t));
  if (t->valid_from != catalog::kOpenStart) o.valid_from = t->valid_from;
  if (t->valid_until != catalog::kOpenEnd) o.valid_until = t->valid_until;
  return o;
}

http::Response redirect_to(const db::OfferTarget& offer, const tokens::TokenClaims& claims) {
  const auto param = sub_id_parameter(offer.network);
  http::Response r = http::Response::empty(302);
  r.set_header("Location", param.empty() ? *offer.tracking_url
                                         : with_query_param(*offer.tracking_url, param,
                                                            tokens::nonce_hex(claims.nonce)));
  r.set_header("Cache-Control", "no-store");
  r.set_header("Referrer-Policy", "no-referrer");
  return r;
}

// A click sent to the event writer, and what its thread decided.
struct Click {
  db::EventRecord event;
  tokens::TokenClaims claims;
  std::optional<db::OfferTarget> in_snapshot;  // judges the click if the database is unreachable
  std::int64_t now;
  bool html;                              // the client prefers an HTML page to a JSON refusal
  std::optional<http::ApiError> refusal;  // set by the writer's thread
};

// The click's answer once the writer has been: the redirect, or why not (thrown).
http::Response clicked(const Click& c, std::optional<db::OfferTarget> offer,
                       const std::exception_ptr& error, db::ClickStore& clicks) {
  std::optional<http::ApiError> refusal = c.refusal;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const db::DatabaseUnavailable&) {
      // The database is unreachable: the snapshot judges the offer (a refusal as the contract
      // orders it), and a valid click goes to the host's click journal and redirects as usual
      // (written once when the database returns); no journal, or a full one: 503 as before.
      offer = c.in_snapshot;
      refusal = click_refusal(offer, std::nullopt, c.now);
      if (!refusal && !clicks.keep_for_later(c.event)) throw;
    }
  }
  if (refusal) throw *refusal;
  return redirect_to(*offer, c.claims);
}

// A refusal must not be cached either (the same link may work after a fix, or not at all), and
// a browser that prefers HTML gets a page.
template <typename Answer>
http::Response refusal_as_answer(bool html, const Answer& answer) {
  try {
    return answer();
  } catch (http::ApiError& e) {
    e.with_header("Cache-Control", "no-store");
    if (html) return html_refusal(e);
    throw;
  }
}

http::Response redirect(const http::Request& request, const catalog::Snapshot& snapshot,
                        const tokens::KeyRing& keys, db::ClickStore& clicks, ClientHasher& clients,
                        std::int64_t now) {
  const auto offer_id = parse_offer_id(request.param("offerId"));
  // The token is judged here, its verdict applied after the offer's existence (404 comes first).
  std::optional<http::ApiError> token_error;
  tokens::TokenClaims claims;
  try {
    const auto token = request.query_param("t");
    if (!token || token->empty()) throw invalid_token("The link has no token");
    claims = verified_claims(keys, *token, tokens::TokenKind::click);
    if (claims.offer_id != offer_id) throw invalid_token("The token belongs to another offer");
    if (is_expired(claims, snapshot.settings, now)) throw token_expired();
  } catch (const http::ApiError& e) {
    token_error = e;
  }

  // A bad token never reaches the database: the snapshot knows whether the offer exists (404
  // first, as the contract orders it) or not (the token's 400/410).
  if (token_error) {
    if (!snapshot.is_clickable_offer(offer_id)) throw http::not_found();
    throw *token_error;
  }

  // HEAD, a prefetch or a crawler answers the same; its click goes to ignored_events (once per
  // token and reason), not to clicks (the token stays usable by the real click). It is judged
  // against the snapshot: no read of the offer on the single event writer.
  db::EventRecord event = event_of(claims);
  event.ignored = ignored_reason(request);
  if (event.ignored != db::IgnoredReason::none) {
    const auto offer = snapshot_target(snapshot, offer_id);
    if (const auto refusal = click_refusal(offer, std::nullopt, now)) throw *refusal;
    try {
      clicks.record_ignored(event);
    } catch (const db::DatabaseUnavailable&) {
      if (!clicks.keep_for_later(event)) throw;  // the click journal, or 503
    }
    return redirect_to(*offer, claims);
  }
  event.client = clients.hash(request, now);
  // Answered once the writer has read the offer, judged it and committed the click, by the
  // thread that did: this one goes on to the next request meanwhile. `clicks` is this handler's,
  // which stays lent to the request until its answer is sent.
  auto click =
      std::make_shared<Click>(Click{event, claims, snapshot_target(snapshot, offer_id), now,
                                    http::prefers_html(request.header("accept")), std::nullopt});
  auto later = std::make_shared<http::Deferred>();
  clicks.follow_then(
      offer_id,
      [click](const std::optional<db::OfferTarget>& o) -> std::optional<db::EventRecord> {
        click->refusal = click_refusal(o, std::nullopt, click->now);
        if (click->refusal) return std::nullopt;
        return click->event;
      },
      [later, click, &clicks](std::optional<db::OfferTarget> offer,
                              const std::exception_ptr& error) {
        later->complete([click, offer = std::move(offer), error, &clicks] {
          return refusal_as_answer(click->html,
                                   [&] { return clicked(*click, offer, error, clicks); });
        });
      });
  return http::Deferred::now_or_later(std::move(later));
}

}  // namespace

bool is_safe_redirect_target(std::string_view url) {
  std::size_t scheme_end = 0;
  if (url.size() > 8 && http::iequals(url.substr(0, 8), "https://")) {
    scheme_end = 8;
  } else if (url.size() > 7 && http::iequals(url.substr(0, 7), "http://")) {
    scheme_end = 7;
  } else {
    return false;
  }
  if (url.size() > 2048) return false;
  const char host_start = url[scheme_end];
  if (host_start == '/' || host_start == '\\' || host_start == '?' || host_start == '#' ||
      host_start == '@' || host_start == ':') {
    return false;
  }
  for (const char ch : url) {
    const auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c >= 0x7f || c == '\\') return false;
  }
  return true;
}

std::string with_query_param(std::string_view url, std::string_view name, std::string_view value) {
  const auto hash = url.find('#');
  const std::string_view base = url.substr(0, hash);
  const std::string_view fragment =
      hash == std::string_view::npos ? std::string_view{} : url.substr(hash);
  std::string out(base);
  if (base.find('?') == std::string_view::npos) {
    out += '?';
  } else if (out.back() != '?' && out.back() != '&') {
    out += '&';
  }
  out += name;
  out += '=';
  out += value;
  out += fragment;
  return out;
}

std::string_view sub_id_parameter(std::string_view network) {
  if (network == "admitad") return "subid";
  if (network == "awin") return "clickref";
  return {};
}

http::Response follow_click(http::Request& request, const catalog::Snapshot& snapshot,
                            const tokens::KeyRing& keys, db::ClickStore& clicks,
                            ClientHasher& clients, std::int64_t now) {
  return refusal_as_answer(http::prefers_html(request.header("accept")),
                           [&] { return redirect(request, snapshot, keys, clicks, clients, now); });
}

}  // namespace placard::api
