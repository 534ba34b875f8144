#include "lib/admin/network_handlers.h"

#include <array>
#include <stdexcept>

#include "lib/admin/account_handlers.h"
#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/crypto/aes_gcm.h"
#include "lib/http/api_error.h"
#include "lib/jobs/sync_job.h"

namespace placard::admin {

namespace {

constexpr std::array<std::string_view, 2> kNetworks = {"admitad", "awin"};
constexpr std::size_t kMaxCredentialChars = 512;
constexpr std::size_t kMaxExternalIdBytes = 64;

std::string require_network(std::string_view name) {
  if (!known_network(name)) throw http::not_found();
  return std::string(name);
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// A credential field, checked; the message names the field and never repeats the value.
std::string credential_field(const Body& body, std::string_view name, bool digits) {
  std::string v = body.string(name, 1, kMaxCredentialChars);
  if (!valid_credential_text(v)) {
    throw http::invalid_field(std::string(name),
                              std::string(name) + " must not contain control characters");
  }
  if (digits && !all_digits(v)) {
    throw http::invalid_field(std::string(name), std::string(name) + " must be digits");
  }
  return v;
}

std::string credentials_state_json(const std::string& network, bool set) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("network");
  w.String(network.c_str());
  w.Key("credentialsSet");
  w.Bool(set);
  w.EndObject();
  return json::to_string(buf);
}

void write_sync_run(json::Writer& w, const db::SyncRunRow& r) {
  w.StartObject();
  w.Key("id");
  write_id(w, r.id);
  w.Key("network");
  w.String(r.network.c_str());
  w.Key("status");
  w.String(r.status.c_str());
  w.Key("startedAt");
  write_time(w, r.started_at);
  w.Key("finishedAt");
  write_time(w, r.finished_at);
  w.Key("pagesDone");
  w.Uint(r.pages_done);
  w.Key("pagesTotal");
  if (r.pages_total) {
    w.Uint(*r.pages_total);
  } else {
    w.Null();
  }
  w.Key("created");
  w.Uint(r.created);
  w.Key("updated");
  w.Uint(r.updated);
  w.Key("disabled");
  w.Uint(r.disabled);
  w.Key("skipped");
  w.Uint(r.skipped);
  w.Key("error");
  write_string_or_null(w, r.error);
  w.EndObject();
}

std::string sync_run_json(const db::SyncRunRow& r) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  write_sync_run(w, r);
  return json::to_string(buf);
}

http::Response start_sync(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const Body body(req, {"network"});
  const std::string network = body.string("network", 1, 32);
  if (!known_network(network)) {
    throw http::invalid_field("network", "network must be admitad or awin");
  }
  if (ctx.config.sync == nullptr) {
    throw http::service_unavailable("Network syncs cannot be started on this server");
  }
  const auto begun = ctx.config.sync->launch(network, actor.account.id);
  if (begun.state == network::SyncStart::busy) {
    throw http::ApiError{409, "conflict", "A network sync is already running", ""};
  }
  if (begun.state == network::SyncStart::not_configured) {
    throw http::ApiError{422, "network_not_configured",
                         "The " + network + " credentials are not set", "network"};
  }
  std::optional<db::SyncRunRow> run;
  ctx.stores.tx.run([&] {
    run = ctx.stores.network.find_sync(begun.run_id);
    if (!run) throw std::runtime_error("the new sync run cannot be read back");
    ctx.stores.tx.audit(
        {actor.account.id, "network.sync.start", "network:" + network, "", sync_run_json(*run)});
  });
  http::Response r = http::Response::json(202, sync_run_json(*run));
  r.set_header("Location", std::string(kAdminPrefix) + "/network/sync/" + std::to_string(run->id));
  return r;
}

std::string networks_json(db::NetworkStore& store) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("networks");
  w.StartArray();
  for (const auto name : kNetworks) {
    const std::string network(name);
    const auto creds = store.credentials(network);
    const auto last = store.last_sync(network);
    w.StartObject();
    w.Key("network");
    w.String(network.c_str());
    w.Key("credentialsSet");
    w.Bool(creds.has_value());
    w.Key("credentialsUpdatedAt");
    write_time(w, creds ? std::optional<std::int64_t>(creds->updated_at) : std::nullopt);
    // A network takes part in syncs when it has credentials (there is no other switch).
    w.Key("enabled");
    w.Bool(creds.has_value());
    w.Key("lastSync");
    if (last) {
      write_sync_run(w, *last);
    } else {
      w.Null();
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return json::to_string(buf);
}

// The plaintext that is encrypted: the JSON object of the network's fields.
std::string credentials_plaintext(const std::string& network, const Body& body) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  if (network == "admitad") {
    const auto client_id = credential_field(body, "clientId", false);
    const auto client_secret = credential_field(body, "clientSecret", false);
    const auto website_id = credential_field(body, "websiteId", true);
    w.Key("clientId");
    w.String(client_id.c_str(), static_cast<rapidjson::SizeType>(client_id.size()));
    w.Key("clientSecret");
    w.String(client_secret.c_str(), static_cast<rapidjson::SizeType>(client_secret.size()));
    w.Key("websiteId");
    w.String(website_id.c_str(), static_cast<rapidjson::SizeType>(website_id.size()));
  } else {
    const auto publisher_id = credential_field(body, "publisherId", true);
    const auto api_token = credential_field(body, "apiToken", false);
    w.Key("publisherId");
    w.String(publisher_id.c_str(), static_cast<rapidjson::SizeType>(publisher_id.size()));
    w.Key("apiToken");
    w.String(api_token.c_str(), static_cast<rapidjson::SizeType>(api_token.size()));
  }
  w.EndObject();
  return json::to_string(buf);
}

http::Response put_credentials(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const std::string network = require_network(req.param("network"));
  const Body body(
      req, network == "admitad"
               ? std::initializer_list<std::string_view>{"clientId", "clientSecret", "websiteId"}
               : std::initializer_list<std::string_view>{"publisherId", "apiToken"});
  const std::string plaintext = credentials_plaintext(network, body);
  if (!ctx.config.credential_keys) {
    // The config file has no credentials.key: a server setup fault, logged without detail.
    throw std::runtime_error("network credentials cannot be stored: credentials.key is not set");
  }
  const crypto::Sealed sealed = ctx.config.credential_keys->seal(plaintext, network);
  ctx.stores.tx.run([&] {
    const bool had = ctx.stores.network.credentials(network).has_value();
    ctx.stores.network.put_credentials(
        network, {sealed.key_id, sealed.iv, sealed.ciphertext, sealed.tag, 0}, actor.account.id);
    ctx.stores.tx.audit({actor.account.id, "network.credentials.update", "network:" + network,
                         credentials_state_json(network, had),
                         credentials_state_json(network, true)});
  });
  return no_content();
}

http::Response delete_credentials(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const std::string network = require_network(req.param("network"));
  if (req.content_length.value_or(0) > 0 || !req.body.empty()) {
    const Body body(req, {});
  }
  ctx.stores.tx.run([&] {
    if (!ctx.stores.network.delete_credentials(network)) throw http::not_found();
    ctx.stores.tx.audit({actor.account.id, "network.credentials.delete", "network:" + network,
                         credentials_state_json(network, true),
                         credentials_state_json(network, false)});
  });
  return no_content();
}

void write_category(json::Writer& w, const db::NetworkCategory& c) {
  w.StartObject();
  w.Key("network");
  w.String(c.network.c_str());
  w.Key("externalCategoryId");
  w.String(c.external_id.c_str());
  w.Key("name");
  w.String(c.name.c_str(), static_cast<rapidjson::SizeType>(c.name.size()));
  w.Key("category");
  write_string_or_null(w, c.category_path);
  w.EndObject();
}

std::string category_json(const db::NetworkCategory& c) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  write_category(w, c);
  return json::to_string(buf);
}

bool plausible_external_id(std::string_view id) {
  if (id.empty() || id.size() > kMaxExternalIdBytes) return false;
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

http::Response put_category_map(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const std::string network = require_network(req.param("network"));
  const std::string external_id(req.param("externalCategoryId"));
  if (!plausible_external_id(external_id)) throw http::not_found();
  const Body body(req, {"category"});
  if (!body.has("category")) throw http::missing_field("category");
  std::optional<std::string> path;
  if (!body.is_null("category")) {
    const auto& v = body.value("category");
    if (!v.IsString()) throw http::invalid_field("category", "category must be a path or null");
    path = std::string(v.GetString(), v.GetStringLength());
  }
  std::optional<db::NetworkCategory> after;
  ctx.stores.tx.run([&] {
    const auto before = ctx.stores.network.find_category(network, external_id);
    if (!before) throw http::not_found();
    std::optional<std::uint32_t> category_id;
    if (path) {
      category_id = ctx.stores.network.category_id(*path);
      if (!category_id) throw http::invalid_field("category", "No such category");
    }
    ctx.stores.network.map_category(network, external_id, category_id);
    after = ctx.stores.network.find_category(network, external_id);
    if (!after) throw std::runtime_error("the network category cannot be read back");
    ctx.stores.tx.audit({actor.account.id, "network.category_map.update",
                         "network-category:" + network + "/" + external_id, category_json(*before),
                         category_json(*after)});
    // Mapped offers become servable (or stop being): the catalog changes.
    ctx.stores.tx.bump_catalog_version();
  });
  return ok(category_json(*after));
}

}  // namespace

bool known_network(std::string_view name) {
  for (const auto n : kNetworks) {
    if (n == name) return true;
  }
  return false;
}

bool valid_credential_text(std::string_view text) {
  if (text.empty() || utf8_length(text) > kMaxCredentialChars) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x20 || u == 0x7F) return false;
    // C1 controls U+0080..U+009F are 0xC2 0x80..0x9F in UTF-8.
    if (u == 0xC2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9F) return false;
    }
  }
  return true;
}

void add_network_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();

  admin.read("/network", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    return ok(networks_json(ctx.stores.network));
  });

  admin.write(
      "PUT", "/network/credentials/:network",
      [&ctx](http::Request& req, const Actor& actor) { return put_credentials(req, ctx, actor); });
  admin.write("DELETE", "/network/credentials/:network",
              [&ctx](http::Request& req, const Actor& actor) {
                return delete_credentials(req, ctx, actor);
              });

  admin.write("POST", "/network/sync", [&ctx](http::Request& req, const Actor& actor) {
    return start_sync(req, ctx, actor);
  });
  admin.read("/network/sync/:id", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    const auto id = parse_id(req.param("id"));
    if (!id) throw http::not_found();
    const auto run = ctx.stores.network.find_sync(*id);
    if (!run) throw http::not_found();
    return ok(sync_run_json(*run));
  });
  admin.read("/network/syncs", [&ctx](http::Request& req, const Actor&) {
    const auto p = parse_list_params(req, {"network"});
    const auto network = p.filter("network");
    if (network && !known_network(*network)) {
      throw http::invalid_field("network", "network must be admitad or awin");
    }
    return page_response(ctx.stores.network.list_syncs(network, p.limit, p.offset), p,
                         [](const auto& item) { return sync_run_json(item); });
  });

  admin.read("/network/category-map", [&ctx](http::Request& req, const Actor&) {
    const auto p = parse_list_params(req, {"network"});
    const auto network = p.filter("network");
    if (network && !known_network(*network)) {
      throw http::invalid_field("network", "network must be admitad or awin");
    }
    return page_response(ctx.stores.network.list_categories(network, p.limit, p.offset), p,
                         [](const auto& item) { return category_json(item); });
  });

  admin.write(
      "PUT", "/network/category-map/:network/:externalCategoryId",
      [&ctx](http::Request& req, const Actor& actor) { return put_category_map(req, ctx, actor); });
}

}  // namespace placard::admin
