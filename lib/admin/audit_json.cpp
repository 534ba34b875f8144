#include "lib/admin/audit_json.h"

#include "lib/admin/json_out.h"

namespace placard::admin {

namespace {
void write_stored_json(json::Writer& w, const std::optional<std::string>& text) {
  if (!text) {
    w.Null();
    return;
  }
  rapidjson::Document doc;
  doc.Parse(text->data(), text->size());
  if (doc.HasParseError()) {
    w.String(*text);
  } else {
    doc.Accept(w);
  }
}
}  // namespace

void write_audit_entry(json::Writer& w, const db::AuditEntry& e) {
  w.StartObject();
  w.Key("id");
  write_id(w, e.id);
  w.Key("at");
  write_time(w, e.at);
  w.Key("account");
  if (e.account_id) {
    w.StartObject();
    w.Key("id");
    write_id(w, *e.account_id);
    w.Key("email");
    write_string_or_null(w, e.account_email);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("action");
  w.String(e.action);
  w.Key("resource");
  w.String(e.resource);
  w.Key("before");
  write_stored_json(w, e.before_json);
  w.Key("after");
  write_stored_json(w, e.after_json);
  w.EndObject();
}

std::string audit_entry_json(const db::AuditEntry& e) {
  rapidjson::StringBuffer buf;
  json::Writer w(buf);
  write_audit_entry(w, e);
  return json::to_string(buf);
}

}  // namespace placard::admin
