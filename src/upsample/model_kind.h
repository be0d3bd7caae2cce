#pragma once
// The three kinds of learned upsampler (docs/upsampling.md) and how to tell their files apart: by the first eight
// bytes, the magic each file format starts with.
#include <optional>
#include <string>

namespace adacloth {

enum class UpsampleMethod { Linear, Wrinkles, Mlp };

// "linear", "wrinkles", "mlp".
const char* methodName(UpsampleMethod method);
// The method a name means; nullopt for any other text.
std::optional<UpsampleMethod> methodFromName(const std::string& name);
// The method whose magic `file` starts with; nullopt when it is unreadable or starts with none of them.
std::optional<UpsampleMethod> modelFileMethod(const std::string& file);

}  // namespace adacloth
