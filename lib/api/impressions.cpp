#include "lib/api/impressions.h"

#include "lib/api/counting_rules.h"
#include "lib/api/token_checks.h"
#include "lib/http/api_error.h"
#include "lib/http/json_body.h"

namespace placard::api {

http::Response record_impression(http::Request& request, const catalog::Snapshot& snapshot,
                                 const tokens::KeyRing& keys, db::EventStore& events,
                                 ClientHasher& clients, std::int64_t now) {
  http::BodyDocument parsed;
  http::parse_object_body(request, parsed.doc());
  const rapidjson::Document& body = parsed.doc();
  const auto it = body.FindMember("impressionToken");
  if (it == body.MemberEnd()) throw http::missing_field("impressionToken");
  if (!it->value.IsString()) {
    throw http::invalid_field("impressionToken", "impressionToken must be a string");
  }
  const auto claims =
      verified_claims(keys, std::string_view(it->value.GetString(), it->value.GetStringLength()),
                      tokens::TokenKind::impression);
  db::EventRecord event = event_of(claims);
  bool recorded = false;
  if (is_expired(claims, snapshot.settings, now)) {
    // A retry of an impression that was counted in time is still a duplicate, at any later time.
    if (!events.impression_recorded(claims.nonce)) throw token_expired();
  } else if (event.ignored = ignored_reason(request); event.ignored == db::IgnoredReason::none) {
    event.client = clients.hash(request, now);
    recorded = events.record_impression(event);
  } else {
    // Not counted (prefetch, crawler), but answered as a counted one would be: "duplicate" only
    // when the token was counted before. The token stays usable by a real view.
    events.record_impression(event);
    recorded = !events.impression_recorded(claims.nonce);
  }
  return http::Response::json(200,
                              recorded ? R"({"status":"recorded"})" : R"({"status":"duplicate"})");
}

}  // namespace placard::api
