#include "app/args.h"

#include <cstdlib>

#include "config/schema.h"
#include "io/error.h"

namespace adacloth {

Args::Args(std::string command, const std::vector<OptionSpec>& specs, int argc, char** argv, int first)
    : command_(std::move(command)) {
  auto usage = [this](const std::string& what) {
    return InputError("adacloth " + command_ + ": " + what + " (see 'adacloth " + command_ + " --help')");
  };
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-' || arg == "--") {
      positionals_.push_back(arg);
      continue;
    }
    std::string name = arg, inlineValue;
    bool hasInline = false;
    if (auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = arg.substr(0, eq);
      inlineValue = arg.substr(eq + 1);
      hasInline = true;
    }
    const OptionSpec* spec = nullptr;
    std::vector<std::string> names;
    for (const OptionSpec& s : specs) {
      if (s.name == name || (!s.alias.empty() && s.alias == name)) spec = &s;
      names.push_back(s.name);
    }
    if (!spec) {
      auto guess = config::didYouMean(name, names);
      throw usage("unknown option '" + name + "'" + (guess ? " (did you mean '" + *guess + "'?)" : ""));
    }
    if (!spec->takesValue) {
      if (hasInline) throw usage("option '" + spec->name + "' takes no value");
      values_[spec->name] = "";
      continue;
    }
    if (!hasInline) {
      if (i + 1 >= argc) throw usage("option '" + spec->name + "' needs a value");
      inlineValue = argv[++i];
    }
    values_[spec->name] = inlineValue;
  }
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> Args::integer(const std::string& name, int lo, int hi) const {
  auto text = value(name);
  if (!text) return std::nullopt;
  char* end = nullptr;
  long v = std::strtol(text->c_str(), &end, 10);
  if (text->empty() || *end != '\0' || v < lo || v > hi)
    throw InputError("adacloth " + command_ + ": option '" + name + "' expects a whole number from " +
                     std::to_string(lo) + " to " + std::to_string(hi) + ", got '" + *text + "'");
  return int(v);
}

void Args::expectPositionals(size_t n, const std::string& what) const {
  if (positionals_.size() != n)
    throw InputError("adacloth " + command_ + ": expected " + what + " (see 'adacloth " + command_ + " --help')");
}

}  // namespace adacloth
