// placardctl config get|set|list: one key of the worker's config file, validated, written in one
// step (a temporary file renamed) with the file's owner, group and mode kept.
#include <iostream>
#include <utility>
#include <vector>

#include "lib/config/config_edit.h"
#include "lib/config/config_file.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"
#include "placardctl/config_layout.h"

namespace placard::ctl {

namespace {

const char* const kUsage =
    "placardctl config get KEY          the key's value (the default when the file has none)\n"
    "placardctl config set KEY VALUE [KEY VALUE...]\n"
    "                                   change them (validated together, written in one step;\n"
    "                                   restart the worker afterwards)\n"
    "placardctl config list             every key with its value (secrets shown as <secret>)\n"
    "Keys are those of the worker's config file (--config); `list` names them all.\n";

}  // namespace

int cmd_config(const Context& ctx, const Argv& argv) {
  if (argv.empty() || argv[0] == "--help" || argv[0] == "-h") {
    std::cout << kUsage;
    return argv.empty() ? 2 : 0;
  }
  const std::string& sub = argv[0];
  const std::size_t want = sub == "get" ? 2 : sub == "set" ? 3 : sub == "list" ? 1 : 0;
  if (want == 0) throw UsageError("unknown config command " + sub + "\n" + kUsage);
  const bool pairs = sub == "set" && argv.size() > want && argv.size() % 2 == 1;
  if (argv.size() != want && !pairs) {
    throw UsageError(std::string("wrong number of arguments\n") + kUsage);
  }
  const std::string text = config::read_config_file(ctx.config_path);
  try {
    if (sub == "list") {
      for (const auto& key : config::config_keys()) {
        const auto value = config::get_config_value(text, key);
        std::cout << key << " = "
                  << (config::is_secret_key(key) && !value.empty() ? "<secret>" : value) << "\n";
      }
      return 0;
    }
    if (sub == "get") {
      std::cout << config::get_config_value(text, argv[1]) << "\n";
      return 0;
    }
    std::vector<std::pair<std::string, std::string>> entries;
    for (std::size_t i = 1; i + 1 < argv.size(); i += 2) entries.emplace_back(argv[i], argv[i + 1]);
    replace_keeping_owner(ctx.config_path, config::set_config_values(text, entries));
  } catch (const config::ConfigError& e) {
    throw UsageError(e.what());
  }
  for (std::size_t i = 1; i + 1 < argv.size(); i += 2) {
    std::cout << (i > 1 ? ", " : "") << argv[i];
  }
  std::cout << " set in " << ctx.config_path << "; restart the worker for it to take effect\n";
  return 0;
}

}  // namespace placard::ctl
