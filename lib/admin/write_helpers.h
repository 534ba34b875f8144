#pragma once
#include "lib/admin/body.h"
#include "lib/http/request.h"

namespace placard::admin {

// A write that takes no body (DELETE): a body, if one is sent, must still be a JSON object
// without fields (section 0's body rules, then 400 invalid_field for any field).
inline void reject_body_fields(http::Request& request) {
  if (request.content_length.value_or(0) > 0 || !request.body.empty()) {
    const Body body(request, {});
  }
}

}  // namespace placard::admin
