#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "lib/admin/context.h"
#include "lib/catalog/snapshot.h"
#include "lib/http/router.h"

namespace placard::admin {

// Registers admin handlers under /admin/api/v1 with the access rules of contract section 6
// applied before the handler runs: reads need a signed-in approved account (401); writes also
// need the service's own Origin and X-Service-Mark: admin (403 csrf_check_failed, checked first,
// so nothing changes). Sign-in and registration are writes that need no account.
class AdminRouter {
 public:
  using Handler = std::function<http::Response(http::Request&, const Actor&)>;
  using OpenHandler = std::function<http::Response(http::Request&)>;

  AdminRouter(http::Router& router, AdminContext& context) : router_(router), ctx_(context) {}

  void read(std::string_view pattern, Handler handler);
  void write(std::string method, std::string_view pattern, Handler handler);
  void open_write(std::string method, std::string_view pattern, OpenHandler handler);

  AdminContext& context() { return ctx_; }
  // The current catalog snapshot (settings), or 503 until one is loaded.
  std::shared_ptr<const catalog::Snapshot> snapshot() const;

 private:
  http::Router& router_;
  AdminContext& ctx_;
};

// Every admin route: the resources each add theirs.
void add_admin_routes(http::Router& router, AdminContext& context);

}  // namespace placard::admin
