#pragma once
#include <string>
#include <vector>

namespace placard::db {

// Which events of one multi-row `INSERT IGNORE ... RETURNING` were the ones inserted.
// `batch` holds each waiting event's nonce (upper-case hex, in the order of the batch; a nonce may
// appear more than once when the same token is sent again before the writer ran), `returned` the
// nonces the statement returned (the rows it inserted, in any order). Each returned nonce marks
// exactly one event of the batch recorded, the first still unmarked one with that nonce: the
// contract answers one request `recorded` and the others `duplicate`. A nonce absent from
// `returned` was in the table already: every event with it is a duplicate.
std::vector<bool> match_returned_nonces(const std::vector<std::string>& batch,
                                        const std::vector<std::string>& returned);

}  // namespace placard::db
