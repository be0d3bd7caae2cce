#include "upsample/model_kind.h"

#include <cstring>
#include <fstream>

namespace adacloth {

const char* methodName(UpsampleMethod method) {
  switch (method) {
    case UpsampleMethod::Linear: return "linear";
    case UpsampleMethod::Wrinkles: return "wrinkles";
    case UpsampleMethod::Mlp: return "mlp";
  }
  return "?";
}

std::optional<UpsampleMethod> methodFromName(const std::string& name) {
  for (UpsampleMethod m : {UpsampleMethod::Linear, UpsampleMethod::Wrinkles, UpsampleMethod::Mlp})
    if (name == methodName(m)) return m;
  return std::nullopt;
}

std::optional<UpsampleMethod> modelFileMethod(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  char magic[8] = {};
  if (!in.read(magic, 8)) return std::nullopt;
  // The magics of operator_file.cpp, wrinkle_file.cpp and patch_mlp.cpp.
  if (std::memcmp(magic, "ADCUPSMP", 8) == 0) return UpsampleMethod::Linear;
  if (std::memcmp(magic, "ADCWRNKL", 8) == 0) return UpsampleMethod::Wrinkles;
  if (std::memcmp(magic, "ADCPMLP1", 8) == 0) return UpsampleMethod::Mlp;
  return std::nullopt;
}

}  // namespace adacloth
