#pragma once
#include <stdexcept>
#include <string>

#include "lib/http/header.h"
#include "lib/http/response.h"

namespace placard::http {

// The one error type of the service: any layer throws it, the service renders it once
// into the contract's envelope {"error": {"code", "message"[, "field"]}}.
class ApiError : public std::runtime_error {
 public:
  ApiError(int status, std::string code, const std::string& message, std::string field = {})
      : std::runtime_error(message),
        status_(status),
        code_(std::move(code)),
        field_(std::move(field)) {}

  ApiError& with_header(std::string name, std::string value) {
    headers_.push_back({std::move(name), std::move(value)});
    return *this;
  }

  int status() const { return status_; }
  const std::string& code() const { return code_; }
  const std::string& field() const { return field_; }
  const Headers& headers() const { return headers_; }

 private:
  int status_;
  std::string code_;
  std::string field_;
  Headers headers_;
};

// Common errors of section 7, named for their cause.
ApiError not_found();
ApiError missing_field(const std::string& field);
ApiError invalid_field(const std::string& field, const std::string& message);
ApiError service_unavailable(const std::string& message);
ApiError internal_error();
// A request body that did not arrive in time (the worker's body deadline).
ApiError request_timeout();

// The contract's envelope, with the error's headers and X-Content-Type-Options: nosniff.
Response render_error(const ApiError& error);

}  // namespace placard::http
