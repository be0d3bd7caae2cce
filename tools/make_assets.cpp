// make_assets OUT_DIR [--only NAME]: generates the procedural mannequin (rest pose, walk and run sequences) and the
// garments that fit it (skirt, cape) plus a curtain and a flag into OUT_DIR (normally meshes/). Reproducible: the
// same files, byte for byte, on every run. See tools/assets/asset_files.h for the list of files.
#include <cstdio>
#include <exception>
#include <string>

#include "assets/asset_files.h"

int main(int argc, char** argv) {
  std::string out, only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--only" && i + 1 < argc) only = argv[++i];
    else if (arg == "-h" || arg == "--help") out.clear(), argc = 0;
    else if (out.empty() && arg[0] != '-') out = arg;
    else {
      std::fprintf(stderr, "make_assets: unexpected argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  if (out.empty()) {
    std::string names;
    for (const std::string& n : adacloth::assets::assetNames()) names += " " + n;
    std::fprintf(stderr, "usage: make_assets OUT_DIR [--only NAME]   (NAME:%s)\n", names.c_str());
    return 2;
  }
  try {
    for (const std::string& line : adacloth::assets::writeAssets(out, only)) std::printf("%s\n", line.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_assets: %s\n", e.what());
    return 1;
  }
  return 0;
}
