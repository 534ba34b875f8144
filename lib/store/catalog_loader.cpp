#include "lib/store/catalog_loader.h"

#include "lib/catalog/snapshot_builder.h"
#include "lib/db/transaction.h"

namespace placard::db {

namespace {

std::optional<std::string> opt_string(sql::ResultSet& rs, int col) {
  if (rs.isNull(col)) return std::nullopt;
  return rs.getString(col).asStdString();
}

std::optional<std::int64_t> opt_int(sql::ResultSet& rs, int col) {
  if (rs.isNull(col)) return std::nullopt;
  return rs.getInt64(col);
}

std::unique_ptr<sql::ResultSet> run_query(sql::Statement& st, const char* sql) {
  return std::unique_ptr<sql::ResultSet>(st.executeQuery(sql));
}

catalog::CatalogBase read_base(sql::Statement& st) {
  catalog::CatalogBase base;
  auto rs = run_query(st, "SELECT version FROM catalog_version WHERE id = 1");
  if (rs->next()) base.version = rs->getUInt64(1);
  rs = run_query(st, "SELECT name, value FROM settings");
  while (rs->next()) base.settings[rs->getString(1).asStdString()] = rs->getString(2).asStdString();
  rs = run_query(st, "SELECT code, selected FROM countries");
  while (rs->next()) base.countries.push_back({rs->getString(1).asStdString(), rs->getBoolean(2)});
  rs = run_query(st,
                 "SELECT id, path, parent_id, name, icon, display_order, enabled FROM categories");
  while (rs->next()) {
    catalog::CategoryRow c;
    c.id = rs->getUInt(1);
    c.path = rs->getString(2).asStdString();
    if (!rs->isNull(3)) c.parent_id = rs->getUInt(3);
    c.name = rs->getString(4).asStdString();
    c.icon = rs->getString(5).asStdString();
    c.display_order = rs->getInt(6);
    c.enabled = rs->getBoolean(7);
    base.categories.push_back(std::move(c));
  }
  rs = run_query(st,
                 "SELECT id, enabled, network, tracking_url, "
                 "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', valid_from), "
                 "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', valid_until) "
                 "FROM offers WHERE is_demo = 0 ORDER BY id");
  while (rs->next()) {
    catalog::ClickTargetRow t;
    t.id = rs->getUInt64(1);
    t.enabled = rs->getBoolean(2);
    t.network = rs->getString(3).asStdString();
    t.tracking_url = opt_string(*rs, 4);
    t.valid_from = opt_int(*rs, 5);
    t.valid_until = opt_int(*rs, 6);
    base.click_targets.push_back(std::move(t));
  }
  rs = run_query(st, "SELECT name, max_offers, enabled FROM placements");
  while (rs->next()) {
    base.placements.push_back({rs->getString(1).asStdString(), rs->getInt(2), rs->getBoolean(3)});
  }
  return base;
}

}  // namespace

std::shared_ptr<const catalog::Snapshot> load_snapshot(MysqlSession& session, std::int64_t now,
                                                       std::vector<std::string>& problems) {
  return session.run(true, [&](MysqlSession& s) {
    auto& conn = s.connection();
    const std::unique_ptr<sql::Statement> st(conn.createStatement());
    st->execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    Transaction tx(s, Transaction::Mode::read_only_snapshot);
    {
      catalog::SnapshotBuilder builder(read_base(*st), now);
      // Forward-only: rows stream from the server instead of being buffered all at once.
      const std::unique_ptr<sql::Statement> stream(conn.createStatement());
      stream->setResultSetType(sql::ResultSet::TYPE_FORWARD_ONLY);
      auto rs =
          run_query(*stream,
                    "SELECT o.id, o.title, o.description, o.merchant, o.image_url, o.coupon_code, "
                    "o.category_id, o.priority, o.is_demo, "
                    "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', o.valid_from), "
                    "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', o.valid_until), "
                    "(SELECT GROUP_CONCAT(oc.country_code) FROM offer_countries oc WHERE "
                    "oc.offer_id = o.id), "
                    "o.all_countries "
                    // An imported offer without a Placard category (not mapped) is not served.
                    "FROM offers o WHERE o.enabled = 1 AND o.category_id IS NOT NULL "
                    "AND (o.valid_until IS NULL OR o.valid_until > UTC_TIMESTAMP())");
      catalog::OfferRow row;
      while (rs->next()) {
        row.id = rs->getUInt64(1);
        row.title = rs->getString(2).asStdString();
        row.description = opt_string(*rs, 3);
        row.merchant = opt_string(*rs, 4);
        row.image_url = opt_string(*rs, 5);
        row.coupon_code = opt_string(*rs, 6);
        row.category_id = rs->getUInt(7);
        row.priority = rs->getInt(8);
        row.enabled = true;
        row.is_demo = rs->getBoolean(9);
        row.valid_from = opt_int(*rs, 10);
        row.valid_until = opt_int(*rs, 11);
        row.countries = rs->isNull(12) ? std::string{} : rs->getString(12).asStdString();
        row.all_countries = rs->getBoolean(13);
        builder.add_offer(row);
      }
      rs.reset();
      tx.commit();
      auto snapshot = builder.finish();
      problems.insert(problems.end(), builder.problems().begin(), builder.problems().end());
      return snapshot;
    }
  });
}

}  // namespace placard::db
