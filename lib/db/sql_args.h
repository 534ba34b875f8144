#pragma once
// Only lib/{db,store,jobs,stats}/*.cpp include this header (it needs Connector/C++).
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <cppconn/prepared_statement.h>

namespace placard::db {

// The parameters of a statement whose text is built from optional parts (e.g. list filters),
// collected in the order their `?` appear, then bound at once.
class SqlArgs {
 public:
  void add(std::string v) { values_.emplace_back(std::move(v)); }
  void add(std::int64_t v) { values_.emplace_back(v); }
  void add(std::uint64_t v) { values_.emplace_back(v); }
  void add(bool v) { values_.emplace_back(v); }

  // Binds every value from parameter 1 on; answers the next free index.
  unsigned bind(sql::PreparedStatement& st) const;

 private:
  std::vector<std::variant<std::string, std::int64_t, std::uint64_t, bool>> values_;
};

}  // namespace placard::db
