#include "lib/admin/account_json.h"

#include "lib/admin/json_out.h"

namespace placard::admin {

void write_account(json::Writer& w, const db::Account& a) {
  w.StartObject();
  w.Key("id");
  write_id(w, a.id);
  w.Key("email");
  w.String(a.email);
  w.Key("status");
  w.String(a.status);
  w.Key("createdAt");
  write_time(w, a.created_at);
  w.Key("approvedAt");
  write_time(w, a.approved_at);
  w.Key("lastSignInAt");
  write_time(w, a.last_sign_in_at);
  w.EndObject();
}

std::string account_json(const db::Account& a) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  write_account(w, a);
  return json::to_string(buf);
}

}  // namespace placard::admin
