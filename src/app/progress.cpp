#include "app/progress.h"

#include <unistd.h>

#include <cstdio>

namespace adacloth {

Progress::Progress(std::string task, Mode mode)
    : task_(std::move(task)),
      quiet_(mode == Mode::Quiet),
      terminal_(mode == Mode::Auto && ::isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()) {}

std::string formatDuration(double seconds) {
  char buf[32];
  if (seconds < 60) std::snprintf(buf, sizeof buf, "%.1fs", seconds);
  else if (seconds < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", int(seconds / 60), int(seconds) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", int(seconds / 3600), int(seconds / 60) % 60);
  return buf;
}

void Progress::update(int done, int total, const std::string& detail) {
  if (quiet_) return;
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string eta = done > 0 && total > done ? ", ETA " + formatDuration(elapsed / done * (total - done)) : "";
  std::string line = task_ + " " + std::to_string(done) + "/" + std::to_string(total) +
                     (detail.empty() ? "" : ", " + detail) + ", elapsed " + formatDuration(elapsed) + eta;
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    open_ = true;
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

void Progress::finish() {
  if (open_) std::fputc('\n', stderr);
  open_ = false;
}

void Progress::note(const std::string& message) {
  finish();
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
}

}  // namespace adacloth
