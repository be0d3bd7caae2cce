#pragma once
// Progress of a long run on stderr: one updating line on a terminal, one line per frame otherwise (logs, CI),
// nothing when quiet.
#include <chrono>
#include <string>

namespace adacloth {

class Progress {
 public:
  enum class Mode { Auto, Lines, Quiet };
  Progress(std::string task, Mode mode);

  // Reports that `done` of `total` units are finished; `detail` is appended (e.g. "t=1.25 s, 2048 faces").
  void update(int done, int total, const std::string& detail);
  // Ends the updating line.
  void finish();
  // Prints `message` on a line of its own (quiet or not: warnings are not progress), the updating line ended first.
  void note(const std::string& message);

 private:
  std::string task_;
  bool quiet_, terminal_;
  bool open_ = false;
  std::chrono::steady_clock::time_point start_;
};

// "1m05s", "12.3s".
std::string formatDuration(double seconds);

}  // namespace adacloth
