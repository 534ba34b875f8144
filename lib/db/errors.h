#pragma once
#include <stdexcept>

namespace placard::db {

// The database cannot be reached (down, connection lost and not safely retried).
// The API answers 503 service_unavailable with Retry-After.
class DatabaseUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Any other database failure: a bug or a broken schema. The API answers 500.
class DatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace placard::db

namespace placard::db {

// A write broke a unique key (MySQL error 1062): the admin API answers 409 conflict.
class DuplicateKey : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A write broke a foreign key (MySQL errors 1451/1452): 409 conflict.
class ForeignKeyViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace placard::db
