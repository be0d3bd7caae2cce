#pragma once
// Cloth placed through itself or through another cloth. Contact keeps cloth from passing through cloth as it moves
// (docs/collisions.md); it has no way to take apart cloth that starts crossed, so such cloth stays caught all run and
// every frame ends with intersecting triangles. Left to the per-frame count, the run would only say "the contact
// passes could not keep it apart", which points at the contact and not at the shot.
#include <string>
#include <vector>

#include "mesh/mesh.h"

namespace adacloth {

struct StartCrossed {
  std::vector<size_t> cloths;  // indices of the cloths involved, in shot order
  std::string note;            // one line without "warning: " ("" when none is crossed)
};

// Which of the cloths (`names[i]` with mesh `meshes[i]`, as the run starts) lie through themselves or each other.
StartCrossed startCrossed(const std::vector<std::string>& names, const std::vector<const Mesh*>& meshes);

}  // namespace adacloth
