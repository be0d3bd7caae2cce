#pragma once
// Command-line options of one subcommand: `--name value`, `--name=value`, `-x value`, flags, positionals.
// Unknown options are usage errors (InputError) with a "did you mean" suggestion.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace adacloth {

struct OptionSpec {
  std::string name;   // "--frames"
  std::string alias;  // "-o", or empty
  bool takesValue = true;
};

class Args {
 public:
  // Parses argv[first..argc). `command` names the subcommand in messages.
  Args(std::string command, const std::vector<OptionSpec>& specs, int argc, char** argv, int first);

  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  // A whole number option within [lo, hi]; InputError otherwise.
  std::optional<int> integer(const std::string& name, int lo, int hi) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  // Exactly `n` positionals are required; InputError naming `what` otherwise.
  void expectPositionals(size_t n, const std::string& what) const;

 private:
  std::string command_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positionals_;
};

}  // namespace adacloth
