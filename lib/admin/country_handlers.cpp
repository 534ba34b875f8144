#include "lib/admin/country_handlers.h"

#include <algorithm>
#include <set>

#include "lib/admin/body.h"
#include "lib/admin/json_out.h"
#include "lib/admin/list_params.h"
#include "lib/api/offer_query_request.h"
#include "lib/http/api_error.h"
#include "lib/json/writer.h"

namespace placard::admin {

namespace {

// Duplicates are allowed in a PUT (each counts once); this bounds the list all the same.
constexpr std::size_t kMaxListedCountries = 1000;

void write_country(json::Writer& w, const db::CountryRecord& c) {
  w.StartObject();
  w.Key("code");
  w.String(c.code);
  w.Key("name");
  w.String(c.name);
  w.Key("selected");
  w.Bool(c.selected);
  w.EndObject();
}

std::string country_json(const db::CountryRecord& c) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  write_country(w, c);
  return json::to_string(buf);
}

std::string countries_json(const std::vector<db::CountryRecord>& list) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("items");
  w.StartArray();
  for (const auto& c : list) write_country(w, c);
  w.EndArray();
  w.Key("total");
  w.Uint64(list.size());
  w.EndObject();
  return json::to_string(buf);
}

// The audit form: the selected codes, sorted.
std::string selection_json(const std::vector<db::CountryRecord>& list) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  w.StartObject();
  w.Key("countries");
  w.StartArray();
  for (const auto& c : list) {
    if (c.selected) w.String(c.code);
  }
  w.EndArray();
  w.EndObject();
  return json::to_string(buf);
}

http::Response put_countries(http::Request& req, AdminContext& ctx, const Actor& actor) {
  const Body body(req, {"countries"});
  if (!body.has("countries")) throw http::missing_field("countries");
  const auto codes = *body.opt_string_array("countries", kMaxListedCountries);
  std::vector<db::CountryRecord> list;
  ctx.stores.tx.run([&] {
    list = ctx.stores.countries.list(true);
    const std::string before_json = selection_json(list);
    std::set<std::string, std::less<>> wanted;
    for (std::size_t i = 0; i < codes.size(); ++i) {
      const auto& code = codes[i];
      const bool known =
          api::is_country_code(code) &&
          std::any_of(list.begin(), list.end(), [&](const auto& c) { return c.code == code; });
      if (!known) {
        const std::string field = "countries[" + std::to_string(i) + "]";
        throw http::invalid_field(field, field +
                                             " is not an ISO 3166-1 alpha-2 country code "
                                             "(two uppercase letters, e.g. DE)");
      }
      wanted.insert(code);
    }
    for (auto& c : list) {
      const bool selected = wanted.count(c.code) != 0;
      if (selected == c.selected) continue;
      ctx.stores.countries.set_selected(c.code, selected);
      c.selected = selected;
    }
    const std::string after_json = selection_json(list);
    ctx.stores.tx.audit(
        {actor.account.id, "countries.replace", "countries", before_json, after_json});
    if (after_json != before_json) ctx.stores.tx.bump_catalog_version();
  });
  return ok(countries_json(list));
}

}  // namespace

void add_country_routes(AdminRouter& admin) {
  AdminContext& ctx = admin.context();
  admin.read("/countries", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    return ok(countries_json(ctx.stores.countries.list(false)));
  });
  admin.read("/countries/:code", [&ctx](http::Request& req, const Actor&) {
    parse_query_params(req, {});
    const std::string code(req.param("code"));
    for (const auto& c : ctx.stores.countries.list(false)) {
      if (c.code == code) return ok(country_json(c));
    }
    throw http::not_found();
  });
  admin.write("PUT", "/countries", [&ctx](http::Request& req, const Actor& actor) {
    return put_countries(req, ctx, actor);
  });
}

}  // namespace placard::admin
