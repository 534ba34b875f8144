#include "lib/admin/category_handlers.h"

#include <limits>

#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/admin/write_helpers.h"
#include "lib/api/offer_query_request.h"
#include "lib/db/errors.h"
#include "lib/http/api_error.h"
#include "lib/json/flat_object.h"

namespace placard::admin {

namespace {

constexpr std::size_t kMaxNameChars = 100;
constexpr std::size_t kMaxIconChars = 64;
constexpr std::size_t kMaxPathChars = 4 * 32 + 3;
constexpr std::int64_t kMinOrder = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kMaxOrder = std::numeric_limits<std::int32_t>::max();

std::string category_json(const db::CategoryRecord& c) {
  return json::FlatObject()
      .add("path", c.path)
      .add("name", c.name)
      .add("icon", c.icon)
      .add("displayOrder", c.display_order)
      .add("enabled", c.enabled)
      .add("effectivelyEnabled", c.effectively_enabled)
      .add("offerCount", c.offer_count)
      .str();
}

http::ApiError path_conflict(const std::string& path) {
  return {409, "conflict", "A category with the path " + path + " exists", "path"};
}

// The category named by the URL, or 404 (a malformed path names no category either).
db::CategoryRecord require_category(db::CategoryStore& store, std::string_view path) {
  if (!api::is_category_path(path)) throw http::not_found();
  auto c = store.find(std::string(path));
  if (!c) throw http::not_found();
  return *c;
}

http::Response create_category(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const Body body(req, {"path", "name", "icon", "displayOrder", "enabled"});
  db::NewCategory c;
  c.path = body.string("path", 1, kMaxPathChars);
  if (!api::is_category_path(c.path)) {
    throw http::invalid_field("path",
                              "path must be a dotted path of 1 to 4 segments, each of "
                              "[a-z0-9][a-z0-9-]{0,31}, e.g. electronics.audio");
  }
  c.name = body.string("name", 1, kMaxNameChars);
  c.icon = body.opt_string("icon", 0, kMaxIconChars).value_or("");
  c.display_order =
      static_cast<int>(body.opt_integer("displayOrder", kMinOrder, kMaxOrder).value_or(0));
  c.enabled = body.opt_boolean("enabled").value_or(true);
  std::string after_json;
  try {
    ctx.stores.tx.run([&] {
      auto& store = ctx.stores.categories;
      if (store.find(c.path)) throw path_conflict(c.path);
      const auto dot = c.path.rfind('.');
      if (dot != std::string::npos) {
        const std::string parent = c.path.substr(0, dot);
        const auto p = store.find(parent);
        if (!p) {
          throw http::invalid_field(
              "path", "The parent category " + parent + " does not exist: create it first");
        }
        c.parent_id = p->id;
      }
      store.insert(c);
      const auto after = store.find(c.path);
      if (!after) throw std::runtime_error("the new category cannot be read back");
      after_json = category_json(*after);
      ctx.stores.tx.audit(
          {actor.account.id, "category.create", "category:" + c.path, "", after_json});
      ctx.stores.tx.bump_catalog_version();
    });
  } catch (const db::DuplicateKey&) {
    throw path_conflict(c.path);  // created by someone else meanwhile
  }
  return created(after_json, "/categories/" + encode_segment(c.path));
}

http::Response update_category(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const Body body(req, {"name", "icon", "displayOrder", "enabled", "path"});
  if (body.has("path")) {
    throw http::invalid_field("path", "A category's path cannot be changed: create a new one");
  }
  db::CategoryChange change;
  change.name = body.opt_string("name", 1, kMaxNameChars);
  change.icon = body.opt_string("icon", 0, kMaxIconChars);
  if (const auto order = body.opt_integer("displayOrder", kMinOrder, kMaxOrder)) {
    change.display_order = static_cast<int>(*order);
  }
  change.enabled = body.opt_boolean("enabled");
  std::string after_json;
  ctx.stores.tx.run([&] {
    auto& store = ctx.stores.categories;
    const auto before = require_category(store, req.param("path"));
    store.update(before.id, change);
    const auto after = store.find(before.path);
    if (!after) throw std::runtime_error("the category cannot be read back");
    const std::string before_json = category_json(before);
    after_json = category_json(*after);
    ctx.stores.tx.audit(
        {actor.account.id, "category.update", "category:" + before.path, before_json, after_json});
    if (after_json != before_json) ctx.stores.tx.bump_catalog_version();
  });
  return ok(after_json);
}

http::Response delete_category(http::Request& req, AdminContext& ctx, const Actor& actor) {
  reject_body_fields(req);
  ctx.stores.tx.run([&] {
    auto& store = ctx.stores.categories;
    const auto before = require_category(store, req.param("path"));
    if (before.child_count > 0) {
      throw http::ApiError{409, "conflict",
                           "The category " + before.path + " still has " +
                               std::to_string(before.child_count) +
                               " subcategories: delete or move them first"};
    }
    if (before.offer_count > 0) {
      throw http::ApiError{409, "conflict",
                           "The category " + before.path + " still holds " +
                               std::to_string(before.offer_count) +
                               " offers: move them to another category first"};
    }
    store.remove(before.id);
    ctx.stores.tx.audit({actor.account.id, "category.delete", "category:" + before.path,
                         category_json(before), ""});
    ctx.stores.tx.bump_catalog_version();
  });
  return no_content();
}

}  // namespace

void add_category_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.read("/categories", [&ctx](http::Request& req, const Actor&) {
    const auto p = parse_list_params(req, {"enabled"});
    return page_response(ctx.stores.categories.list(p.bool_filter("enabled"), p.limit, p.offset), p,
                         [](const auto& item) { return category_json(item); });
  });
  admin.read("/categories/:path", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    return ok(category_json(require_category(ctx.stores.categories, req.param("path"))));
  });
  admin.write("POST", "/categories", [&ctx](http::Request& req, const Actor& actor) {
    return create_category(req, ctx, actor);
  });
  admin.write("PATCH", "/categories/:path", [&ctx](http::Request& req, const Actor& actor) {
    return update_category(req, ctx, actor);
  });
  admin.write("DELETE", "/categories/:path", [&ctx](http::Request& req, const Actor& actor) {
    return delete_category(req, ctx, actor);
  });
}

}  // namespace placard::admin
