#include "lib/api/impressions.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <string_view>

#include "lib/api/counting_rules.h"
#include "lib/api/token_checks.h"
#include "lib/http/api_error.h"
#include "lib/http/deferred.h"
#include "lib/http/json_body.h"

namespace placard::api {

namespace {

bool is_token_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

// The body every client sends, {"impressionToken":"<token>"} with a token of base64url
// characters and dots only (what tokens are made of), read without the JSON parser: parsing it
// was a sixth of the worker's instructions per impression (issue 24, callgrind). Such a body is
// valid JSON, an object with that one member; anything else (spaces, escapes, other members, an
// empty token) goes through the parser, which gives the same answer or the contract's error.
std::optional<std::string_view> plain_token_body(std::string_view body) {
  constexpr std::string_view kHead = R"({"impressionToken":")";
  constexpr std::string_view kTail = R"("})";
  if (body.size() <= kHead.size() + kTail.size() || !body.starts_with(kHead) ||
      !body.ends_with(kTail)) {
    return std::nullopt;
  }
  const auto token = body.substr(kHead.size(), body.size() - kHead.size() - kTail.size());
  if (!std::all_of(token.begin(), token.end(), is_token_char)) return std::nullopt;
  return token;
}

// The token of an impression body; `parsed` holds the parse when the parser was needed.
std::string_view impression_token(http::Request& request, http::BodyDocument& parsed) {
  // The checks http::parse_object_body makes before it parses, in the same order.
  if (http::is_json_content_type(request.header("content-type"))) {
    const std::size_t declared = request.content_length.value_or(request.body.size());
    if (declared <= http::kMaxBodyBytes && request.body.size() <= http::kMaxBodyBytes) {
      if (const auto token = plain_token_body(request.load_body())) return *token;
    }
  }
  http::parse_object_body(request, parsed.doc());
  const rapidjson::Document& body = parsed.doc();
  const auto it = body.FindMember("impressionToken");
  if (it == body.MemberEnd()) throw http::missing_field("impressionToken");
  if (!it->value.IsString()) {
    throw http::invalid_field("impressionToken", "impressionToken must be a string");
  }
  return {it->value.GetString(), it->value.GetStringLength()};
}

http::Response answer(bool recorded) {
  return http::Response::json(200,
                              recorded ? R"({"status":"recorded"})" : R"({"status":"duplicate"})");
}

}  // namespace

http::Response record_impression(http::Request& request, const catalog::Snapshot& snapshot,
                                 const tokens::KeyRing& keys, db::EventStore& events,
                                 ClientHasher& clients, std::int64_t now) {
  http::BodyDocument parsed;
  const auto claims =
      verified_claims(keys, impression_token(request, parsed), tokens::TokenKind::impression);
  db::EventRecord event = event_of(claims);
  bool recorded = false;
  if (is_expired(claims, snapshot.settings, now)) {
    // A retry of an impression that was counted in time is still a duplicate, at any later time.
    if (!events.impression_recorded(claims.nonce)) throw token_expired();
  } else if (event.ignored = ignored_reason(request); event.ignored == db::IgnoredReason::none) {
    event.client = clients.hash(request, now);
    // Answered once committed ("recorded" means durable), by the thread that committed it: this
    // one goes on to the next request meanwhile.
    auto later = std::make_shared<http::Deferred>();
    events.record_impression_then(event, [later](bool counted, const std::exception_ptr& error) {
      later->complete([counted, error] {
        if (error) std::rethrow_exception(error);
        return answer(counted);
      });
    });
    return http::Deferred::now_or_later(std::move(later));
  } else {
    // Not counted (prefetch, crawler), but answered as a counted one would be: "duplicate" only
    // when the token was counted before. The token stays usable by a real view.
    events.record_impression(event);
    recorded = !events.impression_recorded(claims.nonce);
  }
  return answer(recorded);
}

}  // namespace placard::api
