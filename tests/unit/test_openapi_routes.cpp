// docs/openapi.yaml against the routes the service really registers (lib/api/routes.cpp and every
// admin handler through add_admin_routes): the same (method, path) pairs, the same path parameter
// names, OPTIONS exactly on the public paths (the service's preflight) — so the two cannot drift.
// Reads the spec relative to the working directory (the repository root: `make unit`), or from
// PLACARD_OPENAPI when set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include "lib/api/routes.h"
#include "tests/unit/admin_fakes.h"

namespace {

using Operation = std::string;  // "GET /admin/api/v1/accounts/{id}"

Operation operation(std::string method, const std::string& path) {
  method += ' ';
  method += path;
  return method;
}

std::string spec_path() {
  const char* env = std::getenv("PLACARD_OPENAPI");
  return env != nullptr ? env : "docs/openapi.yaml";
}

// A YAML key line of the file's layout: exactly `indent` spaces, the key, a colon, nothing but
// spaces after it. The key, or empty.
std::string key_at(const std::string& line, std::size_t indent) {
  if (line.size() <= indent || line.find_first_not_of(' ') != indent) return {};
  const auto colon = line.find(':', indent);
  if (colon == std::string::npos) return {};
  if (line.find_first_not_of(" \t", colon + 1) != std::string::npos) return {};
  std::string key = line.substr(indent, colon - indent);
  if (key.find_first_of(" \t") != std::string::npos) return {};
  return key;
}

// The operations under `paths:`: a path is a key indented by two spaces, an operation a method
// key indented by four (the file's layout, checked by the linter). No std::regex: GCC 12's
// <regex> does not build with -fsanitize=address at -O2 -Werror (maybe-uninitialized).
std::set<Operation> spec_operations() {
  std::ifstream in(spec_path());
  EXPECT_TRUE(in.good()) << "cannot read " << spec_path() << " (run from the repository root)";
  const std::set<std::string> methods = {"get",    "put",     "post", "patch",
                                         "delete", "options", "head"};
  std::set<Operation> ops;
  std::string line;
  std::string path;
  bool in_paths = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != ' ' && line[0] != '#') {
      in_paths = line.rfind("paths:", 0) == 0;
      path.clear();
      continue;
    }
    if (!in_paths) continue;
    if (const auto p = key_at(line, 2); !p.empty() && p[0] == '/') {
      path = p;
    } else if (const auto m = key_at(line, 4); !path.empty() && methods.count(m) == 1) {
      std::string method = m;
      std::transform(method.begin(), method.end(), method.begin(), ::toupper);
      ops.insert(operation(method, path));
    }
  }
  return ops;
}

// ":name" segments as OpenAPI writes them: "{name}".
std::string openapi_pattern(const std::string& pattern) {
  std::string out;
  std::size_t at = 0;
  while (at < pattern.size()) {
    const auto next = pattern.find('/', at + 1);
    const std::string segment = pattern.substr(at, next - at);  // with its leading '/'
    if (segment.size() > 2 && segment[1] == ':') {
      out += "/{" + segment.substr(2) + "}";
    } else {
      out += segment;
    }
    if (next == std::string::npos) break;
    at = next;
  }
  return out;
}

class NoEvents : public placard::db::EventStore {
 public:
  bool record_impression(const placard::db::EventRecord&) override { return false; }
  bool impression_recorded(const std::array<unsigned char, 16>&) override { return false; }
};

class NoClicks : public placard::db::ClickStore {
 public:
  std::optional<placard::db::OfferTarget> follow(std::uint64_t, const Decide&) override {
    return std::nullopt;
  }
  void record_ignored(const placard::db::EventRecord&) override {}
};

// Every route the worker registers, as the worker wires them (fcgi-app/api_thread.cpp).
std::set<Operation> served_operations() {
  placard::testing::AccountsAdmin admin;  // builds its own router with the admin routes
  NoEvents events;
  NoClicks clicks;
  placard::util::FastRng rng(1);
  placard::crypto::RandomPool nonces;
  placard::tokens::MacWorkspace macs;
  const placard::http::TrustedProxies none;
  placard::api::ClientHasher clients(none, "day secret");
  placard::api::ThreadServices thread{events, clicks, rng, nonces, macs, clients};
  placard::http::Router router = placard::api::make_router(admin.shared, thread);
  placard::admin::add_admin_routes(router, admin.context);
  std::set<Operation> ops;
  for (const auto& [method, pattern] : router.routes()) {
    const std::string path = openapi_pattern(pattern);
    ops.insert(operation(method, path));
    // The service answers the preflight on every public path (lib/api/service.cpp).
    if (path.rfind("/api/", 0) == 0 || path.rfind("/r/", 0) == 0)
      ops.insert(operation("OPTIONS", path));
  }
  return ops;
}

std::string listed(const std::set<Operation>& ops) {
  std::string out;
  for (const auto& op : ops) out += "\n  " + op;
  return out.empty() ? " (none)" : out;
}

TEST(OpenApiRoutes, TheSpecDescribesExactlyTheServedRoutes) {
  const auto spec = spec_operations();
  ASSERT_FALSE(spec.empty());
  auto served = served_operations();
  // HEAD is answered by every GET handler; the spec may list it where it says so.
  for (const auto& op : spec) {
    if (op.rfind("HEAD ", 0) == 0) {
      EXPECT_TRUE(served.count("GET " + op.substr(5)) > 0) << op << " without a GET route";
      served.insert(op);
    }
  }
  std::set<Operation> undocumented;
  std::set_difference(served.begin(), served.end(), spec.begin(), spec.end(),
                      std::inserter(undocumented, undocumented.end()));
  std::set<Operation> unserved;
  std::set_difference(spec.begin(), spec.end(), served.begin(), served.end(),
                      std::inserter(unserved, unserved.end()));
  EXPECT_TRUE(undocumented.empty())
      << "served but not in " << spec_path() << ":" << listed(undocumented);
  EXPECT_TRUE(unserved.empty()) << "in " << spec_path() << " but not served:" << listed(unserved);
}

TEST(OpenApiRoutes, TheReaderFindsTheSpecsShape) {
  // A guard for the reader itself: a few operations that must be there.
  const auto spec = spec_operations();
  EXPECT_EQ(spec.count("GET /api/v1/config"), 1U);
  EXPECT_EQ(spec.count("OPTIONS /r/click/{offerId}"), 1U);
  EXPECT_EQ(spec.count("POST /admin/api/v1/accounts/{id}/revoke"), 1U);
  EXPECT_GT(spec.size(), 40U);
}

}  // namespace
