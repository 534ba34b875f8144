#include "lib/http/json_body.h"

#include "lib/http/api_error.h"
#include "lib/http/header.h"
#include "lib/json/safe_parse.h"
#include "lib/util/trim.h"

namespace placard::http {

bool is_json_content_type(std::string_view content_type) {
  return http::iequals(util::trim(content_type.substr(0, content_type.find(';'))),
                       "application/json");
}

void parse_object_body(http::Request& request, rapidjson::Document& doc) {
  if (!is_json_content_type(request.header("content-type"))) {
    throw http::ApiError{415, "unsupported_media_type", "Send the body as application/json"};
  }
  const std::size_t declared = request.content_length.value_or(request.body.size());
  if (declared > kMaxBodyBytes || request.body.size() > kMaxBodyBytes) {
    throw http::ApiError{413, "body_too_large", "The body is larger than 16 KiB"};
  }
  const std::string& body = request.load_body();
  if (!json::parse_untrusted(body, doc)) {
    throw http::ApiError{400, "invalid_json", "The body is not valid JSON"};
  }
  if (!doc.IsObject()) throw http::ApiError{400, "invalid_json", "The body must be a JSON object"};
}

}  // namespace placard::http
