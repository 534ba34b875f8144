#include "lib/jobs/raw_events.h"

#include <utility>

namespace placard::db {

ClientHash unhex_client(const std::string& text) {
  ClientHash out{};
  const auto nibble = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 0;
  };
  for (std::size_t i = 0; i < out.size() && 2 * i + 1 < text.size(); ++i) {
    out[i] = static_cast<unsigned char>(nibble(text[2 * i]) * 16 + nibble(text[2 * i + 1]));
  }
  return out;
}

std::vector<NewRow> read_new_rows(MysqlSession& s, const RawTable& t, std::uint64_t from,
                                  std::uint64_t to) {
  auto& st = s.prepared(std::string("SELECT id, TIMESTAMPDIFF(MICROSECOND, ") + kEpoch + ", " +
                        t.time_column + ") DIV 1000, offer_id, placement, country, " + t.client +
                        ", " + t.reason + ", " + t.kind + " FROM " + t.name +
                        " WHERE id > ? AND id <= ? ORDER BY id");
  st.setUInt64(1, from);
  st.setUInt64(2, to);
  const auto rs = query(st);
  std::vector<NewRow> rows;
  while (rs->next()) {
    NewRow r;
    r.id = rs->getUInt64(1);
    r.event.at_ms = rs->getInt64(2);
    r.event.offer_id = rs->getUInt64(3);
    r.event.placement = rs->getString(4).asStdString();
    r.event.country = rs->getString(5).asStdString();
    if (!rs->isNull(6)) r.client = unhex_client(rs->getString(6).asStdString());
    if (!rs->isNull(7)) r.event.reason = rs->getString(7).asStdString();
    r.event.click = rs->getString(8).asStdString() == "click";
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace placard::db
