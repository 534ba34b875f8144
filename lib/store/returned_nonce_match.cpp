#include "lib/store/returned_nonce_match.h"

#include <unordered_map>

namespace placard::db {

std::vector<bool> match_returned_nonces(const std::vector<std::string>& batch,
                                        const std::vector<std::string>& returned) {
  // Once per returned row: a nonce twice in one batch is inserted (returned) once.
  std::unordered_map<std::string, int> unclaimed;
  for (const auto& nonce : returned) ++unclaimed[nonce];
  std::vector<bool> recorded(batch.size(), false);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const auto it = unclaimed.find(batch[i]);
    if (it == unclaimed.end() || it->second == 0) continue;
    recorded[i] = true;
    --it->second;
  }
  return recorded;
}

}  // namespace placard::db
