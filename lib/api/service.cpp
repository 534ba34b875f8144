#include "lib/api/service.h"

#include <algorithm>

#include "lib/catalog/client_origins.h"
#include "lib/config/public_address.h"
#include "lib/db/errors.h"
#include "lib/http/api_error.h"
#include "lib/http/deferred.h"
#include "lib/http/forwarded_proto.h"

namespace placard::api {

namespace {

enum class OriginVerdict { not_applicable, listed, refused };

bool is_api_path(std::string_view path) {
  return path.rfind("/api/", 0) == 0;
}
bool is_admin_api_path(std::string_view path) {
  return path.rfind("/admin/api/", 0) == 0;
}
// The public endpoints: the API and the click redirect (contract sections 1-5).
bool is_public_path(std::string_view path) {
  return is_api_path(path) || path.rfind("/r/", 0) == 0;
}

// Section 5: for /api/ paths, a present Origin must be in allowedClientOrigins when that list
// is non-empty (an exact entry, or `moz-extension://*` for any Firefox extension). An empty list
// grants nothing and refuses nothing.
OriginVerdict judge_origin(const http::Request& request, const catalog::Snapshot* snapshot) {
  const std::string_view origin = request.header("origin");
  if (origin.empty() || !is_api_path(request.path)) return OriginVerdict::not_applicable;
  if (!snapshot) return OriginVerdict::not_applicable;
  if (snapshot->settings.allowed_client_origins_unreadable) return OriginVerdict::refused;
  const auto& allowed = snapshot->settings.allowed_client_origins;
  if (allowed.empty()) return OriginVerdict::not_applicable;
  return catalog::client_origin_allowed(allowed, origin) ? OriginVerdict::listed
                                                         : OriginVerdict::refused;
}

// With a non-empty (or unreadable) allowedClientOrigins, every /api/ answer depends on the
// request's Origin, listed or not, so caches must key on it.
bool answer_varies_by_origin(const http::Request& request, const catalog::Snapshot* snapshot) {
  if (!is_api_path(request.path)) return false;
  return snapshot != nullptr && (!snapshot->settings.allowed_client_origins.empty() ||
                                 snapshot->settings.allowed_client_origins_unreadable);
}

// Adds a token to Vary, keeping what is there (e.g. Accept-Encoding).
void add_vary(http::Response& response, std::string_view token) {
  const std::string_view current = response.header("vary");
  if (current.empty()) {
    response.set_header("Vary", std::string(token));
  } else if (current.find(token) == std::string_view::npos) {
    response.set_header("Vary", std::string(current) + ", " + std::string(token));
  }
}

}  // namespace

namespace {

// Holds one snapshot in a holder for the length of a request, and lets go of it afterwards (an
// idle handler must not keep a replaced catalog alive).
class Pin {
 public:
  Pin(catalog::SnapshotHolder& pinned, const catalog::SnapshotHolder& current) : pinned_(pinned) {
    pinned_.set(current.get());
  }
  ~Pin() { pinned_.set(nullptr); }
  Pin(const Pin&) = delete;
  Pin& operator=(const Pin&) = delete;

 private:
  catalog::SnapshotHolder& pinned_;
};

}  // namespace

Service::Service(const SharedServices& shared, http::Router router, Frontage frontage,
                 const catalog::SnapshotHolder* catalog)
    : shared_(shared),
      router_(std::move(router)),
      catalog_(catalog),
      frontage_(std::move(frontage)) {}

http::Response Service::preflight(const http::Request& request) const {
  auto methods = router_.allowed_methods(request.path);
  if (methods.empty()) throw http::not_found();
  methods.emplace_back("OPTIONS");
  auto response = http::Response::empty(204);
  response.set_header("Allow", http::join_methods(methods));
  response.set_header("Access-Control-Allow-Methods", http::join_methods(methods));
  response.set_header("Access-Control-Allow-Headers", "Content-Type");
  response.set_header("Access-Control-Max-Age", "600");
  return response;
}

namespace {

// The contract's error envelope for the exception being handled (call only inside a catch):
// detail to the log, never to the client.
http::Response failure_answer(util::Logger& log, std::string_view request_id,
                              std::string_view path) {
  try {
    throw;
  } catch (const http::ApiError& e) {
    auto response = http::render_error(e);
    if (e.status() == 405 && is_public_path(path)) {
      // Public paths also answer OPTIONS (the preflight): say so.
      response.set_header("Allow", std::string(response.header("Allow")) + ", OPTIONS");
    }
    return response;
  } catch (const db::DuplicateKey& e) {
    log.error(request_id, e.what());
    return http::render_error({409, "conflict", "This conflicts with existing data"});
  } catch (const db::ForeignKeyViolation& e) {
    log.error(request_id, e.what());
    return http::render_error({409, "conflict", "Other data still refers to this"});
  } catch (const db::DatabaseUnavailable& e) {
    log.error(request_id, e.what());
    return http::render_error(http::service_unavailable("The database is unreachable"));
  } catch (const std::exception& e) {
    log.error(request_id, e.what());
    return http::render_error(http::internal_error());
  }
}

}  // namespace

http::Response Service::guarded(http::Request& request) {
  try {
    if (request.method == "OPTIONS" && is_public_path(request.path)) return preflight(request);
    return router_.dispatch(request);
  } catch (...) {
    return failure_answer(shared_.log, request.request_id, request.path);
  }
}

http::Response Service::handle(http::Request& request) {
  request.https = http::reached_over_https(request, frontage_.trusted_proxies);
  std::string_view rest;
  if (!config::strip_base_path(frontage_.base_path, request.path, rest)) {
    return outward(request).apply(http::render_error(http::not_found()));  // outside the base
  }
  if (!frontage_.base_path.empty()) request.path = std::string(rest);
  if (catalog_ == nullptr || catalog_ == &shared_.snapshots) return answer(request);
  const Pin pin(shared_.snapshots, *catalog_);
  return answer(request);
}

http::Response Service::answer(http::Request& request) {
  const auto snapshot = shared_.snapshots.get();  // the one catalog of this request
  const auto verdict = judge_origin(request, snapshot.get());
  Outward out = outward(request);
  if (verdict == OriginVerdict::listed) out.allow_origin = request.header("origin");
  out.vary_origin = answer_varies_by_origin(request, snapshot.get());
  http::Response response =
      verdict == OriginVerdict::refused
          ? http::render_error({403, "origin_not_allowed", "This origin may not use the API"})
          : guarded(request);
  if (response.later) {
    // Completed on another thread (lib/http/deferred.h), after this handler has moved on: the
    // same envelope and headers, from copies of what they need.
    response.later->wrap([out = std::move(out), &log = shared_.log,
                          path = request.path](const http::Deferred::Produce& inner) {
      http::Response r;
      try {
        r = inner();
      } catch (...) {
        r = failure_answer(log, out.request_id, path);
      }
      return out.apply(std::move(r));
    });
    return response;
  }
  return out.apply(std::move(response));
}

Service::Outward Service::outward(const http::Request& request) {
  Outward out;
  out.admin_api = is_admin_api_path(request.path);
  out.https = request.https;
  out.request_id = request.request_id;
  return out;
}

// What every answer gets, inside the base or not.
http::Response Service::Outward::apply(http::Response response) const {
  if (!allow_origin.empty()) response.set_header("Access-Control-Allow-Origin", allow_origin);
  if (vary_origin) add_vary(response, "Origin");
  if (admin_api || (response.status >= 400 && !response.has("cache-control"))) {
    response.set_header("Cache-Control", "no-store");
  }
  response.set_header("X-Content-Type-Options", "nosniff");
  // HSTS only where it means something: browsers ignore it over plain HTTP (RFC 6797 8.1), and a
  // worker behind plain HTTP must not decide for a host it cannot see is served over TLS.
  if (https) response.set_header("Strict-Transport-Security", "max-age=31536000");
  response.set_header("X-Request-Id", request_id);
  return response;
}

}  // namespace placard::api
