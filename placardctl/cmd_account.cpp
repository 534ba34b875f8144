// placardctl account create|approve|revoke: the operator's side of accounts
// (lib/store/account_commands.h: each one transaction with its audit row).
#include <termios.h>
#include <unistd.h>

#include <iostream>

#include "lib/admin/account_handlers.h"
#include "lib/crypto/password_hash.h"
#include "lib/db/connection_params.h"
#include "lib/store/account_commands.h"
#include "placardctl/args.h"
#include "placardctl/commands.h"

namespace placard::ctl {

namespace {

// While a password is typed at a terminal: a prompt on standard error, and the terminal's echo
// off (restored on every way out). Nothing changes when standard input is a pipe or a file.
class NoEcho {
 public:
  NoEcho() {
    if (isatty(STDIN_FILENO) != 1 || tcgetattr(STDIN_FILENO, &saved_) != 0) return;
    termios quiet = saved_;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    quiet.c_lflag |= ECHONL;  // the Enter key still moves to the next line
    active_ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0;
    std::cerr << "Password (not shown): " << std::flush;
  }
  ~NoEcho() {
    if (active_) (void)tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
  }
  NoEcho(const NoEcho&) = delete;
  NoEcho& operator=(const NoEcho&) = delete;

 private:
  termios saved_{};
  bool active_ = false;
};

std::string read_password_from_stdin() {
  std::string pw;
  {
    const NoEcho quiet;
    std::getline(std::cin, pw);
  }
  while (!pw.empty() && (pw.back() == '\r' || pw.back() == '\n')) pw.pop_back();
  if (pw.size() < admin::kMinPasswordChars)
    throw UsageError("the password (standard input) must have at least 12 characters");
  if (pw.size() > admin::kMaxPasswordBytes) throw UsageError("the password is too long");
  return pw;
}

}  // namespace

int cmd_account(const Context& ctx, const Argv& argv) {
  const std::string usage =
      "placardctl account create --email E [--approve]   (password from standard input)\n"
      "placardctl account approve --email E\n"
      "placardctl account revoke --email E    (also ends its admin sessions at once)\n";
  if (argv.empty() || argv[0] == "--help" || argv[0] == "-h") {
    std::cout << usage;
    return argv.empty() ? 2 : 0;
  }
  const std::string& sub = argv[0];
  const Argv rest(argv.begin() + 1, argv.end());
  if (sub != "create" && sub != "approve" && sub != "revoke")
    throw UsageError("unknown account command " + sub + "\n" + usage);
  const auto a =
      parse(rest, {"email"}, sub == "create" ? std::vector<std::string>{"approve"} : Argv{});
  if (a.help) {
    std::cout << usage;
    return 0;
  }
  const std::string email = a.need("email");
  if (!admin::plausible_email(email)) throw UsageError("--email is not an email address");
  const auto cfg = ctx.load();
  db::init_driver();
  db::MysqlSession session(db::admin_params(cfg));
  if (sub == "create") {
    const std::string hash = crypto::hash_password(read_password_from_stdin());
    const auto id = db::create_account(session, email, hash, a.flag("approve"));
    std::cout << "account " << id << " created for " << email
              << (a.flag("approve") ? " (approved)\n" : " (pending approval)\n");
    return 0;
  }
  const bool approve = sub == "approve";
  const auto change =
      approve ? db::approve_account(session, email) : db::revoke_account(session, email);
  if (!change) throw std::runtime_error("no account with that email");
  const std::string status = approve ? "approved" : "revoked";
  std::cout << "account " << change->id << " (" << email << ") "
            << (change->changed ? status : "was already " + status) << "\n";
  return 0;
}

}  // namespace placard::ctl
