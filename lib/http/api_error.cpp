#include "lib/http/api_error.h"

#include "lib/json/rapidjson.h"

namespace placard::http {

ApiError not_found() {
  return {404, "not_found", "No such resource"};
}

ApiError missing_field(const std::string& field) {
  return {400, "missing_field", "Field " + field + " is required", field};
}

ApiError invalid_field(const std::string& field, const std::string& message) {
  return {400, "invalid_field", message, field};
}

ApiError service_unavailable(const std::string& message) {
  ApiError e{503, "service_unavailable", message};
  e.with_header("Retry-After", "5");
  return e;
}

ApiError internal_error() {
  return {500, "internal_error", "Internal error"};
}

ApiError request_timeout() {
  return {408, "request_timeout", "The request body did not arrive in time"};
}

Response render_error(const ApiError& error) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartObject();
  w.Key("error");
  w.StartObject();
  w.Key("code");
  w.String(error.code());
  w.Key("message");
  w.String(error.what());
  if (!error.field().empty()) {
    w.Key("field");
    w.String(error.field());
  }
  w.EndObject();
  w.EndObject();
  Response r = Response::json(error.status(), std::string(buf.GetString(), buf.GetSize()));
  for (const auto& h : error.headers()) {
    if (!breaks_header(h.name) && !breaks_header(h.value)) r.set_header(h.name, h.value);
  }
  // Also on the paths that never reach api::Service::handle (a handler's exception caught by
  // the worker pool): every error answer says nosniff.
  r.set_header("X-Content-Type-Options", "nosniff");
  return r;
}

}  // namespace placard::http
