// libFuzzer target: a checkpoint file (app/checkpoint.h) restored into the scene of tools/fuzz/checkpoint_shot.json
// (two cloths, one remeshed and bound to a moving ball, one held by a moving handle; multigrid preconditioner).
// Every input goes through the whole file check (magic, version, checksum, fingerprint), and an input with the
// magic also through the payload reader with the checksum skipped, since a mutated payload would almost never match
// its checksum. Any input must either restore or be refused with an InputError or BinaryFormatError; anything else
// is a bug. tools/fuzz.sh seeds it with the checkpoints of a 3-frame run of that shot.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/checkpoint.h"
#include "io/binary_stream.h"
#include "io/error.h"

namespace {

const adacloth::Shot& fuzzShot() {
  static const adacloth::Shot shot =
      adacloth::loadShot(std::filesystem::path(ADACLOTH_SOURCE_DIR) / "tools" / "fuzz" / "checkpoint_shot.json");
  return shot;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace adacloth;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  // One scene for every input (building it reads and places the obstacles); its cloths are put back before each
  // restore, which is what restoring into a freshly built scene amounts to.
  static Scene scene = buildScene(fuzzShot());
  static const std::vector<Cloth> initialCloths = scene.cloths;
  static const uint64_t fingerprint = simulationFingerprint(fuzzShot(), scene, true);
  const size_t header = 8 + 4 + 8 + 4 + 8 + 8;
  for (bool checked : {true, false}) {
    if (!checked && (size < header || bytes.compare(0, 8, "ADACKPT\n") != 0)) break;
    scene.cloths = initialCloths;
    try {
      if (checked) restoreCheckpoint(bytes, "fuzz.ckpt", fingerprint, scene);
      else restorePayload(bytes, header, "fuzz.ckpt", scene);
    } catch (const InputError&) {
    } catch (const BinaryFormatError&) {
    }
  }
  return 0;
}
